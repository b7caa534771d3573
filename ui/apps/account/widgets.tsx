// Pieces of the account area shared by its pages and the login screens.
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { PASSWORD_RULES, accountPassword, uncountedSpecials } from '../../../server/modules/identity/model'
import { ApiError } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { TextField, applyServerErrors } from '../../components/form'
import { Alert, Button } from '../../components/ui'
import { t } from '../../i18n'

/** The strength checklist: one line per rule of the spec's pattern, ticked as the user types. */
export function PasswordChecklist({ value }: { value: string | undefined }) {
  return (
    <ul class="checklist" aria-label={t('security.password.rules')}>
      {PASSWORD_RULES.map((r) => {
        const ok = r.test(value ?? '')
        return (
          <li key={r.key} class={ok ? 'ok' : ''}>
            <span aria-hidden="true">{ok ? '✓' : '○'}</span> {t(`password.rule.${r.key}`)}
          </li>
        )
      })}
      {uncountedSpecials(value ?? '').length > 0 && !PASSWORD_RULES.find((r) => r.key === 'special')!.test(value ?? '') && (
        <li class="not-counted" role="status">
          <span aria-hidden="true">!</span> {t('password.rule.notCounted', { chars: uncountedSpecials(value ?? '').join(' ') })}
        </li>
      )}
    </ul>
  )
}

const PromptSchema = z.object({ accountPassword: accountPassword() })

/**
 * Asks for the account password (at least 8 characters) and hands it to `onConfirm`; a failing
 * callback shows its error inside the dialog (a wrong password marks the field).
 */
export function PasswordPromptDialog({ title, text, confirmLabel, danger, onConfirm, onClose }: { title: string; text?: string; confirmLabel: string; danger?: boolean; onConfirm(password: string): Promise<void>; onClose(): void }) {
  const [error, setError] = useState<string | null>(null)
  const { register, handleSubmit, formState, setError: setFieldError } = useForm<{ accountPassword: string }>({ resolver: zodResolver(PromptSchema) })
  const submit = handleSubmit(async (v) => {
    setError(null)
    try {
      await onConfirm(v.accountPassword)
    } catch (e) {
      if (!applyServerErrors(e, setFieldError)) setError(e instanceof ApiError ? (e.errorTranslation ?? e.errorMessage) : t('tfa.failed'))
    }
  })
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate class="form-grid">
        {text && <p class="form-title">{text}</p>}
        {error && (
          <Alert tone="error" class="form-title">
            {error}
          </Alert>
        )}
        <TextField label={t('tfa.password.prompt')} reg={register('accountPassword')} errors={formState.errors} type="password" autocomplete="current-password" required />
        <div class="form-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={formState.isSubmitting}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
