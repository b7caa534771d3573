// An accessible modal dialog: focus moves in, Escape closes (unless closable is false), focus returns.
import type { ComponentChildren } from 'preact'
import { useEffect, useMemo, useRef } from 'preact/hooks'
import { t } from '../i18n'

// each dialog names itself by its own title: a dialog opened over another (a confirmation, the
// field-error dialog) must not take the name of the one below
let seq = 0
/** open dialogs, the topmost last: Escape closes only the topmost one */
const open: string[] = []

export function Dialog({
  title,
  children,
  onClose,
  closable = true,
  actions,
  wide,
}: {
  title: ComponentChildren
  children: ComponentChildren
  onClose?: () => void
  closable?: boolean
  actions?: ComponentChildren
  wide?: boolean
}) {
  const ref = useRef<HTMLDivElement>(null)
  const titleId = useMemo(() => `dialog-title-${++seq}`, [])
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    const first = ref.current?.querySelector<HTMLElement>('input, select, textarea, button, [href]')
    first?.focus()
    open.push(titleId)
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && closable && onClose && open[open.length - 1] === titleId) onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      open.splice(open.indexOf(titleId), 1)
      document.removeEventListener('keydown', onKey)
      before?.focus?.()
    }
  }, [])
  return (
    <div class="overlay" onClick={(e) => closable && onClose && e.target === e.currentTarget && onClose()}>
      <div class={`dialog ${wide ? 'dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref}>
        <header class="dialog-header">
          <h2 id={titleId}>{title}</h2>
          {closable && onClose && (
            <button type="button" class="icon-btn" aria-label={t('common.close')} onClick={onClose}>
              ×
            </button>
          )}
        </header>
        <div class="dialog-body">{children}</div>
        {actions && <div class="dialog-actions">{actions}</div>}
      </div>
    </div>
  )
}
