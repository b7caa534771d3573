// Toasts (3 s by default) and overlay messages of type ok or error, dismissed with OK.
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { t } from '../i18n'

type Tone = 'ok' | 'error' | 'info'
interface Toast {
  id: number
  tone: Tone
  text: string
}
let seq = 0
let toasts: Toast[] = []
const listeners = new Set<(t: Toast[]) => void>()
const emit = () => listeners.forEach((l) => l(toasts))

export function toast(text: string, tone: Tone = 'ok', ms = 3000) {
  const item = { id: ++seq, tone, text }
  toasts = [...toasts, item]
  emit()
  setTimeout(() => {
    toasts = toasts.filter((x) => x.id !== item.id)
    emit()
  }, ms)
}

export function Toasts() {
  const [list, setList] = useState<Toast[]>(toasts)
  useEffect(() => {
    listeners.add(setList)
    return () => void listeners.delete(setList)
  }, [])
  return (
    <div class="toasts" aria-live="polite">
      {list.map((x) => (
        <div key={x.id} class={`toast toast-${x.tone}`} role={x.tone === 'error' ? 'alert' : 'status'}>
          {x.text}
        </div>
      ))}
    </div>
  )
}

/** A message over the page that stays until OK is pressed. */
export function OverlayMessage({ tone, title, messages, onClose, children }: { tone: 'ok' | 'error'; title?: string; messages?: string[]; onClose(): void; children?: ComponentChildren }) {
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="overlay-title">
      <div class={`overlay-box overlay-${tone}`}>
        <h2 id="overlay-title">{title ?? (tone === 'ok' ? '✓' : t('errors.title'))}</h2>
        {messages?.map((m) => <p key={m}>{m}</p>)}
        {children}
        <div class="dialog-actions">
          <button class="btn btn-primary" type="button" onClick={onClose} autoFocus>
            {t('common.ok')}
          </button>
        </div>
      </div>
    </div>
  )
}
