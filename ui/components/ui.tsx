// Small building blocks shared by every area.
import type { ComponentChildren, HTMLAttributes } from 'preact'
import { t } from '../i18n'

type ButtonProps = HTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost'
  busy?: boolean
  type?: 'button' | 'submit' | 'reset'
  disabled?: boolean
}

export function Button({ variant = 'primary', busy, children, class: cls, disabled, type = 'button', ...rest }: ButtonProps) {
  return (
    <button {...(rest as any)} type={type} class={`btn btn-${variant} ${cls ?? ''}`} disabled={disabled || busy} aria-busy={busy ? 'true' : undefined}>
      {busy && <span class="spinner spinner-sm" aria-hidden="true" />}
      {children}
    </button>
  )
}

/**
 * The "Abbrechen" / "Speichern" pair of every edit form and dialog. Without `onSave` the save button
 * submits the surrounding form.
 */
export function CancelSave({ onCancel, onSave, busy }: { onCancel(): void; onSave?: () => void; busy?: boolean }) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type={onSave ? 'button' : 'submit'} busy={busy} onClick={onSave}>
        {t('common.save')}
      </Button>
    </>
  )
}

export function LinkButton({ href, variant = 'primary', children, ...rest }: HTMLAttributes<HTMLAnchorElement> & { href: string; variant?: string }) {
  return (
    <a {...(rest as any)} href={href} class={`btn btn-${variant} ${(rest as any).class ?? ''}`}>
      {children}
    </a>
  )
}

export function Spinner({ label }: { label?: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <span>{label ?? t('common.loading')}</span>
    </div>
  )
}

export function Card({ children, class: cls, ...rest }: HTMLAttributes<HTMLElement> & { children: ComponentChildren }) {
  return (
    <section {...rest} class={`card ${cls ?? ''}`}>
      {children}
    </section>
  )
}

export function Badge({ children, tone = 'neutral', ...rest }: { children: ComponentChildren; tone?: 'neutral' | 'ok' | 'warn' | 'error' | 'info' } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span {...rest} class={`badge badge-${tone}`}>
      {children}
    </span>
  )
}

export function PageHeader({ title, subtitle, actions }: { title: ComponentChildren; subtitle?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle && <p class="muted">{subtitle}</p>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  )
}

export function EmptyState({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>
}

export function Alert({ tone = 'info', children, ...rest }: { tone?: 'info' | 'ok' | 'warn' | 'error'; children: ComponentChildren } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div {...rest} class={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}
