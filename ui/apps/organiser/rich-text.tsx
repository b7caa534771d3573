// A small rich-text field (bold, italic, underline, lists, heading, link). The HTML is sanitised by
// the server before it is stored; links are limited to http, https, mailto and tel there too.
import { useEffect, useRef } from 'preact/hooks'
import { t } from '../../i18n'

const COMMANDS: Array<{ cmd: string; arg?: string; label: string; key: string }> = [
  { cmd: 'bold', label: 'B', key: 'organiser.rt.bold' },
  { cmd: 'italic', label: 'I', key: 'organiser.rt.italic' },
  { cmd: 'underline', label: 'U', key: 'organiser.rt.underline' },
  { cmd: 'formatBlock', arg: 'h3', label: 'H', key: 'organiser.rt.heading' },
  { cmd: 'insertUnorderedList', label: '•', key: 'organiser.rt.list' },
  { cmd: 'insertOrderedList', label: '1.', key: 'organiser.rt.orderedList' },
]

/**
 * The editable area is uncontrolled while the person works in it: the DOM is the truth, every change
 * is reported up, and the content is written from `value` only when the value comes from outside
 * (first render, a reset after saving, another event loaded) and the area does not have the focus.
 * Writing innerHTML from state while typing put the caret at the start: the parent's value lags a
 * keystroke behind (effects run after the next frame), so "Grüße aus Köln" came out scrambled.
 */
export function RichText({ id, label, value, onChange }: { id: string; label: string; value: string; onChange(html: string): void }) {
  const ref = useRef<HTMLDivElement>(null)
  // the last HTML this editor reported or wrote; a `value` equal to it is our own echo
  const known = useRef<string | null>(null)
  useEffect(() => {
    const el = ref.current
    if (!el || value === known.current) return
    if (document.activeElement === el) return
    if (el.innerHTML !== value) el.innerHTML = value
    known.current = value
  }, [value])
  const report = () => {
    const html = ref.current?.innerHTML ?? ''
    known.current = html
    onChange(html)
  }
  const exec = (cmd: string, arg?: string) => {
    ref.current?.focus()
    document.execCommand(cmd, false, arg)
    report()
  }
  return (
    <div class="field field-full">
      <span class="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div class="rt">
        <div class="rt-toolbar" role="toolbar" aria-label={t('organiser.rt.toolbar')}>
          {COMMANDS.map((c) => (
            <button key={c.cmd} type="button" class="rt-btn" title={t(c.key)} aria-label={t(c.key)} onMouseDown={(e) => e.preventDefault()} onClick={() => exec(c.cmd, c.arg)}>
              {c.label}
            </button>
          ))}
          <button
            type="button"
            class="rt-btn"
            title={t('organiser.rt.link')}
            aria-label={t('organiser.rt.link')}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              const url = prompt(t('organiser.rt.linkPrompt'), 'https://')
              if (url && /^(https?:|mailto:|tel:)/i.test(url)) exec('createLink', url)
            }}
          >
            🔗
          </button>
        </div>
        <div
          id={id}
          ref={ref}
          class="rt-area"
          contentEditable
          role="textbox"
          aria-multiline="true"
          aria-labelledby={`${id}-label`}
          onInput={report}
          onBlur={() => {
            // a value set from outside while the area had the focus is applied when it leaves
            const el = ref.current
            if (el && el.innerHTML !== known.current) report()
          }}
        />
      </div>
    </div>
  )
}
