// "Passwort vergessen": /password/forgot asks for the address and always answers the same way;
// /password/reset?token= sets the new password from the mailed link (docs/identity.md).
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { Link } from 'wouter'
import { ForgotPasswordBody, NewPasswordForm } from '../../../server/modules/identity/model'
import { ApiError, errorText, get, post } from '../../api/client'
import { TextField, applyServerErrors } from '../../components/form'
import { PublicFrame } from '../../components/public-frame'
import { Alert, Button, Card, LinkButton, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { PasswordChecklist } from '../account/widgets'

export function ForgotPasswordPage() {
  // the login page hands over what was typed into its e-mail field (history state, never the URL)
  const initial = (history.state as { email?: string } | null)?.email ?? ''
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [error, setErrorText] = useState<string | null>(null)
  const { register, handleSubmit, formState, setError } = useForm<ForgotPasswordBody>({ resolver: zodResolver(ForgotPasswordBody), mode: 'onTouched', defaultValues: { email: initial } })
  const submit = handleSubmit(async (values) => {
    setErrorText(null)
    try {
      await post('/proxy/api/public/password/forgot', values)
      setSentTo(values.email)
    } catch (e) {
      if (!applyServerErrors(e, setError)) setErrorText(errorText(e))
    }
  })
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('password.forgot.title')}</h1>
        {sentTo ? (
          <>
            <Alert tone="ok">{t('password.forgot.sent', { email: sentTo })}</Alert>
            <div class="form-actions">
              <LinkButton href="/login">{t('password.forgot.back')}</LinkButton>
            </div>
            <p class="auth-alt">
              <a
                href="/password/forgot"
                onClick={(e) => {
                  e.preventDefault()
                  setSentTo(null)
                }}
              >
                {t('password.forgot.again')}
              </a>
            </p>
          </>
        ) : (
          <>
            <p class="muted">{t('password.forgot.intro')}</p>
            {error && <Alert tone="error">{error}</Alert>}
            <form onSubmit={submit} noValidate class="form-grid">
              <TextField label={t('auth.login.email')} reg={register('email')} errors={formState.errors} required type="email" autocomplete="username" />
              <div class="form-actions">
                <Button type="submit" busy={formState.isSubmitting}>
                  {t('password.forgot.submit')}
                </Button>
              </div>
            </form>
            <p class="auth-alt">
              <Link href="/login">{t('password.forgot.back')}</Link>
            </p>
          </>
        )}
      </Card>
    </PublicFrame>
  )
}

type ResetState = { kind: 'loading' } | { kind: 'form'; email: string } | { kind: 'expired' } | { kind: 'failed'; message: string } | { kind: 'done' }

const isExpired = (e: unknown) => e instanceof ApiError && (e.errorType === 'LINK_EXPIRED' || (e.status === 400 && e.errorFields.some((f) => f.field === 'token')))

export function ResetPasswordPage() {
  const token = new URLSearchParams(location.search).get('token') ?? ''
  const [state, setState] = useState<ResetState>(token ? { kind: 'loading' } : { kind: 'expired' })
  const form = useForm<NewPasswordForm>({ resolver: zodResolver(NewPasswordForm), mode: 'onTouched' })
  useEffect(() => {
    if (!token) return
    get<{ email: string }>(`/proxy/api/public/password/reset?token=${encodeURIComponent(token)}`)
      .then((r) => setState({ kind: 'form', email: r.email }))
      .catch((e) => setState(isExpired(e) ? { kind: 'expired' } : { kind: 'failed', message: errorText(e) }))
  }, [])
  const submit = form.handleSubmit(async (values) => {
    try {
      await post('/proxy/api/public/password/reset', { token, ...values })
      setState({ kind: 'done' })
    } catch (e) {
      if (isExpired(e)) setState({ kind: 'expired' })
      else if (!applyServerErrors(e, form.setError)) setState({ kind: 'failed', message: errorText(e) })
    }
  })
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('password.reset.title')}</h1>
        {state.kind === 'loading' && <Spinner />}
        {state.kind === 'expired' && (
          <>
            <Alert tone="error">{t('password.reset.expired')}</Alert>
            <div class="form-actions">
              <LinkButton href="/login" variant="secondary">
                {t('password.reset.toLogin')}
              </LinkButton>
              <LinkButton href="/password/forgot">{t('password.reset.requestNew')}</LinkButton>
            </div>
          </>
        )}
        {state.kind === 'failed' && <Alert tone="error">{state.message}</Alert>}
        {state.kind === 'done' && (
          <>
            <Alert tone="ok">{t('password.reset.done')}</Alert>
            <div class="form-actions">
              <LinkButton href="/login">{t('password.reset.toLogin')}</LinkButton>
            </div>
          </>
        )}
        {state.kind === 'form' && (
          <>
            <p class="muted">{t('password.reset.intro', { email: state.email })}</p>
            <form onSubmit={submit} noValidate class="form-grid">
              {/* lets password managers store the new password under the right name */}
              <input type="email" name="username" autocomplete="username" value={state.email} readOnly hidden />
              <TextField label={t('security.password.new')} reg={form.register('password')} errors={form.formState.errors} type="password" autocomplete="new-password" required />
              <TextField label={t('security.password.repeat')} reg={form.register('passwordRepeat')} errors={form.formState.errors} type="password" autocomplete="new-password" required />
              <PasswordChecklist value={form.watch('password')} />
              <div class="form-actions">
                <Button type="submit" busy={form.formState.isSubmitting}>
                  {t('password.reset.submit')}
                </Button>
              </div>
            </form>
          </>
        )}
      </Card>
    </PublicFrame>
  )
}
