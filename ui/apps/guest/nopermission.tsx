// /guest/nopermission: open page where a guest asks for the access link by e-mail. The button is
// disabled while sending; the answer is an overlay message (ok or error) dismissed with OK.
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { email } from '../../../server/shared/validation'
import { ApiError, post } from '../../api/client'
import { TextField } from '../../components/form'
import { PublicFrame } from '../../components/public-frame'
import { OverlayMessage } from '../../components/overlay'
import { Button, Card } from '../../components/ui'
import { t, useLanguage } from '../../i18n'

const ResendForm = z.object({ email: email() })

export function GuestNoPermission() {
  useLanguage()
  const [result, setResult] = useState<{ tone: 'ok' | 'error'; messages: string[]; login?: boolean } | null>(null)
  const { register, handleSubmit, formState, reset } = useForm<{ email: string }>({ resolver: zodResolver(ResendForm), mode: 'onTouched' })
  const submit = handleSubmit(async (v) => {
    try {
      await post('/proxy/api/public/visitor/resendMail', v)
      reset({ email: '' })
      setResult({ tone: 'ok', messages: [t('guest.nopermission.sent')] })
    } catch (e) {
      const type = e instanceof ApiError ? e.errorType : ''
      if (type === 'NOT_FOUND') setResult({ tone: 'error', messages: [t('guest.nopermission.NOT_FOUND')] })
      else if (type === 'USER_HAS_ACCOUNT') setResult({ tone: 'error', messages: [t('guest.nopermission.USER_HAS_ACCOUNT')], login: true })
      else setResult({ tone: 'error', messages: [e instanceof ApiError ? (e.errorTranslation ?? e.errorMessage) : t('errors.generic')] })
    }
  })
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('guest.nopermission.title')}</h1>
        <p class="muted">{t('guest.nopermission.intro')}</p>
        <form onSubmit={submit} noValidate class="form-grid">
          <TextField label={t('guest.nopermission.email')} reg={register('email')} errors={formState.errors} type="email" autocomplete="email" required />
          <div class="form-actions">
            <Button type="submit" busy={formState.isSubmitting} disabled={formState.isSubmitting}>
              {t('guest.nopermission.submit')}
            </Button>
          </div>
        </form>
        <p class="auth-alt">
          <a href="/login">{t('guest.nopermission.login')}</a>
        </p>
      </Card>
      {result && (
        <OverlayMessage tone={result.tone} messages={result.messages} onClose={() => setResult(null)}>
          {result.login && (
            <p>
              <a href="/login">{t('guest.nopermission.login')}</a> · <a href="/password/forgot">{t('auth.login.forgot')}</a>
            </p>
          )}
        </OverlayMessage>
      )}
    </PublicFrame>
  )
}
