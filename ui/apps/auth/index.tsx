// First-start setup and login.
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { useLocation, useRoute } from 'wouter'
import { LoginBody, PASSWORD_RULES, SetupBody } from '../../../server/modules/identity/model'
import { ApiError, errorText, get, post, session } from '../../api/client'
import { applyServerErrors, TextField } from '../../components/form'
import { PublicFrame } from '../../components/layout'
import { Alert, Button, Card } from '../../components/ui'
import { t, useLanguage } from '../../i18n'

interface LoginAnswer {
  user: { currentAccount: { id: number; userRole: string } | null }
  accounts: Array<{ id: number; guest: boolean; agency: { displayName: string }; userRole: string }>
  requireAccountSelection: boolean
}

export function afterLogin(r: LoginAnswer, navigate: (to: string) => void) {
  const current = r.user.currentAccount
  if (current) {
    session.accountId = String(current.id)
    navigate(r.accounts.find((a) => a.id === current.id)?.guest ? '/guest/dashboard' : '/events')
  } else if (r.requireAccountSelection) navigate('/events?chooseAccount=1')
  else navigate('/guest/dashboard')
}

function PasswordChecklist({ value }: { value: string }) {
  return (
    <ul class="checklist" aria-label="Passwort-Regeln">
      {PASSWORD_RULES.map((r) => {
        const ok = r.test(value ?? '')
        return (
          <li key={r.key} class={ok ? 'ok' : ''}>
            <span aria-hidden="true">{ok ? '✓' : '○'}</span> {t(`password.rule.${r.key}`)}
          </li>
        )
      })}
    </ul>
  )
}

function SetupPage() {
  const [, navigate] = useLocation()
  const [error, setErrorText] = useState<string | null>(null)
  const form = useForm<SetupBody>({ resolver: zodResolver(SetupBody), mode: 'onTouched' })
  const { register, handleSubmit, formState, setError, watch } = form
  useEffect(() => {
    get<{ required: boolean }>('/proxy/api/setup').then((r) => !r.required && navigate('/login', { replace: true }))
  }, [])
  const submit = handleSubmit(async (values) => {
    setErrorText(null)
    try {
      const r = await post<{ accountId: number }>('/proxy/api/setup', values)
      session.accountId = String(r.accountId)
      navigate('/events')
    } catch (e) {
      if (!applyServerErrors(e, setError)) setErrorText(errorText(e))
    }
  })
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('auth.setup.title')}</h1>
        <p class="muted">{t('auth.setup.intro')}</p>
        {error && <Alert tone="error">{error}</Alert>}
        <form onSubmit={submit} noValidate class="form-grid">
          <TextField label={t('auth.setup.agencyName')} reg={register('agencyName')} errors={formState.errors} required autocomplete="organization" />
          <TextField label={t('auth.setup.firstName')} reg={register('firstName')} errors={formState.errors} required size="half" autocomplete="given-name" />
          <TextField label={t('auth.setup.lastName')} reg={register('lastName')} errors={formState.errors} required size="half" autocomplete="family-name" />
          <TextField label={t('auth.login.email')} reg={register('email')} errors={formState.errors} required type="email" autocomplete="email" />
          <TextField label={t('auth.login.password')} reg={register('password')} errors={formState.errors} required type="password" autocomplete="new-password" />
          <PasswordChecklist value={watch('password')} />
          <div class="form-actions">
            <Button type="submit" busy={formState.isSubmitting}>
              {t('auth.setup.submit')}
            </Button>
          </div>
        </form>
      </Card>
    </PublicFrame>
  )
}

function LoginPage() {
  const [, navigate] = useLocation()
  const [error, setErrorText] = useState<string | null>(null)
  const { register, handleSubmit, formState } = useForm<LoginBody>({ resolver: zodResolver(LoginBody), mode: 'onTouched' })
  useEffect(() => {
    get<{ required: boolean }>('/proxy/api/setup').then((r) => r.required && navigate('/setup', { replace: true }))
  }, [])
  const submit = handleSubmit(async (values) => {
    setErrorText(null)
    try {
      afterLogin(await post<LoginAnswer>('/auth/login', values), navigate)
    } catch (e) {
      setErrorText(e instanceof ApiError && e.errorType === 'INVALID_CREDENTIALS' ? t('auth.login.failed') : errorText(e))
    }
  })
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('auth.login.title')}</h1>
        {error && <Alert tone="error">{error}</Alert>}
        <form onSubmit={submit} noValidate class="form-grid">
          <TextField label={t('auth.login.email')} reg={register('email')} errors={formState.errors} required type="email" autocomplete="username" />
          <TextField label={t('auth.login.password')} reg={register('password')} errors={formState.errors} required type="password" autocomplete="current-password" />
          <div class="form-actions">
            <Button type="submit" busy={formState.isSubmitting}>
              {t('auth.login.submit')}
            </Button>
          </div>
        </form>
      </Card>
    </PublicFrame>
  )
}

export default function AuthApp() {
  useLanguage()
  const [isSetup] = useRoute('/setup')
  return isSetup ? <SetupPage /> : <LoginPage />
}
