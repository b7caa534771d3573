// An accessible modal dialog: focus moves in, Escape closes (unless closable is false), focus returns.
import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import { t } from '../i18n'

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
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    const first = ref.current?.querySelector<HTMLElement>('input, select, textarea, button, [href]')
    first?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && closable && onClose) onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      before?.focus?.()
    }
  }, [])
  return (
    <div class="overlay" onClick={(e) => closable && onClose && e.target === e.currentTarget && onClose()}>
      <div class={`dialog ${wide ? 'dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby="dialog-title" ref={ref}>
        <header class="dialog-header">
          <h2 id="dialog-title">{title}</h2>
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
