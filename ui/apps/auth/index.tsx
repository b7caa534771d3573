// First-start setup, login (with the two-factor step), forgotten password, accepting an invitation
// and confirming a deletion: the pages a person sees before (or without) being logged in.
// first: this area's German strings are registered before any of its modules render
import '../../i18n/part-rest'
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { useLocation, useRoute } from 'wouter'
import { formatDate } from '../../../server/i18n/format'
import { SetPasswordForm } from '../../../server/modules/agency-users/model'
import { LoginBody, LoginTfaBody, SetupBody } from '../../../server/modules/identity/model'
import { ApiError, errorText, get, post, session } from '../../api/client'
import { TextField, applyServerErrors } from '../../components/form'
import { PublicFrame } from '../../components/public-frame'
import { clearAuthFailures } from '../../components/navigation-auth'
import { Alert, Button, Card, LinkButton, Spinner } from '../../components/ui'
import { t, useLanguage } from '../../i18n'
import { PasswordChecklist } from '../account/widgets'
import { ForgotPasswordPage, ResetPasswordPage } from './password-reset'
import { SsoLogin, SsoLoginError } from './sso-login'
import { safeRedirect } from '../../../server/shared/redirect'

interface TfaMethodEntry {
  id: number
  displayName: string
  twoFactorType: 'OTP' | 'EMAIL'
}
interface LoginAnswer {
  user: { currentAccount: { id: number; userRole: string } | null } | null
  accounts: Array<{ id: number; guest: boolean; agency: { displayName: string }; userRole: string }>
  requireAccountSelection: boolean
  tfaRequired: boolean
  tfaMethods: TfaMethodEntry[]
}

/** Only same-site paths (never the login page itself) are followed after login. */
const safeTarget = (to: string | null) => {
  const path = safeRedirect(to, '')
  return path && !path.startsWith('/login') ? path : null
}

export function afterLogin(r: LoginAnswer, navigate: (to: string) => void, redirect: string | null = null) {
  clearAuthFailures()
  const current = r.user?.currentAccount
  if (current) {
    session.accountId = String(current.id)
    const guest = r.accounts.find((a) => a.id === current.id)?.guest
    navigate(guest ? '/guest/dashboard' : (safeTarget(redirect) ?? '/events'))
  } else if (r.requireAccountSelection) {
    session.accountId = null
    navigate(safeTarget(redirect) ?? '/events')
  } else navigate('/guest/dashboard')
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
  const redirect = new URLSearchParams(location.search).get('redirect')
  const [error, setErrorText] = useState<string | null>(null)
  const [tfa, setTfa] = useState<TfaMethodEntry[] | null>(null)
  const { register, handleSubmit, formState, getValues } = useForm<LoginBody>({ resolver: zodResolver(LoginBody), mode: 'onTouched' })
  useEffect(() => {
    get<{ required: boolean }>('/proxy/api/setup').then((r) => r.required && navigate('/setup', { replace: true }))
  }, [])
  const submit = handleSubmit(async (values) => {
    setErrorText(null)
    try {
      const r = await post<LoginAnswer>('/auth/login', values)
      if (r.tfaRequired) setTfa(r.tfaMethods)
      else afterLogin(r, navigate, redirect)
    } catch (e) {
      setErrorText(e instanceof ApiError && e.errorType === 'INVALID_CREDENTIALS' ? t('auth.login.failed') : errorText(e))
    }
  })
  if (tfa) return <TwoFactorStep methods={tfa} redirect={redirect} onBack={() => setTfa(null)} />
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('auth.login.title')}</h1>
        {redirect && !error && <Alert tone="info">{t('errors.NOT_AUTHENTICATED')}</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
        {!error && <SsoLoginError />}
        <form onSubmit={submit} noValidate class="form-grid">
          <TextField label={t('auth.login.email')} reg={register('email')} errors={formState.errors} required type="email" autocomplete="username" />
          <TextField label={t('auth.login.password')} reg={register('password')} errors={formState.errors} required type="password" autocomplete="current-password" />
          <p class="auth-forgot">
            <a
              href="/password/forgot"
              onClick={(e) => {
                e.preventDefault()
                const email = getValues('email')?.trim()
                navigate('/password/forgot', { state: email ? { email } : null })
              }}
            >
              {t('auth.login.forgot')}
            </a>
          </p>
          <div class="form-actions">
            <Button type="submit" busy={formState.isSubmitting}>
              {t('auth.login.submit')}
            </Button>
          </div>
        </form>
        <SsoLogin redirect={redirect} />
        <p class="auth-alt">
          <a href="/guest/nopermission">{t('auth.login.guestLink')}</a>
        </p>
      </Card>
    </PublicFrame>
  )
}

/** The second login step: the code of an authenticator app, or one sent by mail. */
function TwoFactorStep({ methods, redirect, onBack }: { methods: TfaMethodEntry[]; redirect: string | null; onBack(): void }) {
  const [, navigate] = useLocation()
  const [methodId, setMethodId] = useState(methods[0].id)
  const [error, setErrorText] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const [sending, setSending] = useState(false)
  // a one-time recovery code instead of the method's code (letters and digits)
  const [recovery, setRecovery] = useState(false)
  const method = methods.find((m) => m.id === methodId)!
  const { register, handleSubmit, formState, setError, setValue } = useForm<{ token: string; methodId?: number }>({ resolver: zodResolver(LoginTfaBody), defaultValues: { token: '', methodId } })
  const sendMail = async () => {
    setSending(true)
    setErrorText(null)
    try {
      await post('/auth/login/tfa/send', { methodId })
      setSent(true)
    } catch (e) {
      setErrorText(e instanceof ApiError && e.status === 401 ? t('auth.tfa.expired') : errorText(e))
    } finally {
      setSending(false)
    }
  }
  useEffect(() => {
    setValue('methodId', methodId)
    setSent(false)
    if (method.twoFactorType === 'EMAIL' && methods.length === 1) void sendMail()
  }, [methodId])
  const submit = handleSubmit(async (v) => {
    setErrorText(null)
    try {
      afterLogin(await post<LoginAnswer>('/auth/login/tfa', { token: v.token, methodId }), navigate, redirect)
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) setErrorText(t('auth.tfa.expired'))
      else if (!applyServerErrors(e, setError)) setErrorText(errorText(e))
    }
  })
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('auth.tfa.title')}</h1>
        <p class="muted">{t(recovery ? 'auth.tfa.recoveryIntro' : method.twoFactorType === 'EMAIL' ? 'auth.tfa.introEmail' : 'auth.tfa.intro')}</p>
        {error && <Alert tone="error">{error}</Alert>}
        {sent && <Alert tone="ok">{t('auth.tfa.mailSent')}</Alert>}
        <form onSubmit={submit} noValidate class="form-grid">
          {methods.length > 1 && (
            <div class="field field-full">
              <label for="tfa-method">{t('auth.tfa.method')}</label>
              <select id="tfa-method" value={methodId} onChange={(e) => setMethodId(Number((e.target as HTMLSelectElement).value))}>
                {methods.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.displayName} ({t(`tfa.type.${m.twoFactorType}`)})
                  </option>
                ))}
              </select>
            </div>
          )}
          {recovery ? (
            <TextField key="recovery" label={t('auth.tfa.recoveryCode')} reg={register('token')} errors={formState.errors} required autocomplete="off" autoFocus />
          ) : (
            <TextField key="code" label={t('auth.tfa.token')} reg={register('token')} errors={formState.errors} required autocomplete="one-time-code" inputMode="numeric" autoFocus />
          )}
          <p class="form-title auth-recovery-toggle">
            <button
              type="button"
              class="btn btn-ghost"
              onClick={() => {
                setRecovery(!recovery)
                setValue('token', '')
              }}
            >
              {t(recovery ? 'auth.tfa.useCode' : 'auth.tfa.useRecovery')}
            </button>
          </p>
          <div class="form-actions">
            {method.twoFactorType === 'EMAIL' && !recovery && (
              <Button variant="secondary" busy={sending} onClick={sendMail}>
                {t('auth.tfa.sendMail')}
              </Button>
            )}
            <Button type="submit" busy={formState.isSubmitting}>
              {t('auth.tfa.submit')}
            </Button>
          </div>
        </form>
        <p class="auth-alt">
          <a
            href="/login"
            onClick={(e) => {
              e.preventDefault()
              onBack()
            }}
          >
            {t('auth.tfa.back')}
          </a>
        </p>
      </Card>
    </PublicFrame>
  )
}

interface InvitationInfo {
  email: string
  agency: string
  userRole: string
  needsPassword: boolean
  alreadyActive: boolean
}

/** /invitation?token=: a new colleague sets the password; an existing user accepts. */
function InvitationPage() {
  const [, navigate] = useLocation()
  const token = new URLSearchParams(location.search).get('token') ?? ''
  const [info, setInfo] = useState<InvitationInfo | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const [accepted, setAccepted] = useState(false)
  const form = useForm<SetPasswordForm>({ resolver: zodResolver(SetPasswordForm), mode: 'onTouched' })
  useEffect(() => {
    get<InvitationInfo>(`/proxy/api/public/invitation?token=${encodeURIComponent(token)}`)
      .then(setInfo)
      .catch((e) => setFailed(e instanceof ApiError && (e.status === 410 || e.status === 400) ? t('invitation.expired') : errorText(e)))
  }, [])
  const accept = async (values?: SetPasswordForm) => {
    try {
      const r = await post<{ accountId: number; loggedIn: boolean }>('/proxy/api/public/invitation', { token, ...(values ?? {}) })
      if (r.loggedIn) {
        clearAuthFailures()
        session.accountId = String(r.accountId)
        navigate('/events')
      } else setAccepted(true)
    } catch (e) {
      if (!applyServerErrors(e, form.setError)) setFailed(e instanceof ApiError && e.status === 410 ? t('invitation.expired') : errorText(e))
    }
  }
  const submit = form.handleSubmit((v) => accept(v))
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('invitation.title')}</h1>
        {failed && <Alert tone="error">{failed}</Alert>}
        {!info && !failed && <Spinner />}
        {info && accepted && (
          <>
            <Alert tone="ok">{t('invitation.accepted')}</Alert>
            <LinkButton href="/login">{t('invitation.toLogin')}</LinkButton>
          </>
        )}
        {info && !accepted && (
          <>
            <p>{t('invitation.intro', { agency: info.agency, role: t(`role.${info.userRole}`) })}</p>
            {info.needsPassword ? (
              <form onSubmit={submit} noValidate class="form-grid">
                <p class="form-title muted">{t('invitation.setPassword', { email: info.email })}</p>
                <TextField label={t('security.password.new')} reg={form.register('password')} errors={form.formState.errors} type="password" autocomplete="new-password" required />
                <TextField label={t('security.password.repeat')} reg={form.register('passwordRepeat')} errors={form.formState.errors} type="password" autocomplete="new-password" required />
                <PasswordChecklist value={form.watch('password')} />
                <div class="form-actions">
                  <Button type="submit" busy={form.formState.isSubmitting}>
                    {t('invitation.submitNew')}
                  </Button>
                </div>
              </form>
            ) : (
              <>
                <p class="muted">{t('invitation.existing', { email: info.email })}</p>
                <div class="form-actions">
                  <Button onClick={() => accept()}>{t('invitation.submit')}</Button>
                </div>
              </>
            )}
          </>
        )}
      </Card>
    </PublicFrame>
  )
}

/** /account/deletion?token=: confirms a deletion asked for in the account area. */
function DeletionConfirmPage() {
  const token = new URLSearchParams(location.search).get('token') ?? ''
  const [state, setState] = useState<{ done?: string; error?: string; busy?: boolean }>({})
  const confirm = async () => {
    setState({ busy: true })
    try {
      const r = await post<{ accounts: number[]; wholeUser: boolean; finalDeletionDate: string }>('/proxy/api/public/user/confirmDeletion', { token })
      setState({ done: r.accounts.length || r.wholeUser ? t('account.deletionConfirm.done', { date: formatDate(r.finalDeletionDate) }) : t('account.deletionConfirm.nothing') })
    } catch (e) {
      setState({ error: errorText(e) })
    }
  }
  return (
    <PublicFrame>
      <Card class="auth-card">
        <h1>{t('account.deletionConfirm.title')}</h1>
        {state.error && <Alert tone="error">{state.error}</Alert>}
        {state.done ? (
          <>
            <Alert tone="ok">{state.done}</Alert>
            <LinkButton href="/account/profile" variant="secondary">
              {t('account.title')}
            </LinkButton>
          </>
        ) : (
          <>
            <p>{t('account.deletionConfirm.intro')}</p>
            <div class="form-actions">
              <Button variant="danger" busy={state.busy} onClick={confirm}>
                {t('account.deletionConfirm.submit')}
              </Button>
            </div>
          </>
        )}
      </Card>
    </PublicFrame>
  )
}

export default function AuthApp() {
  useLanguage()
  const [isSetup] = useRoute('/setup')
  const [isInvitation] = useRoute('/invitation')
  const [isDeletion] = useRoute('/account/deletion')
  const [isForgot] = useRoute('/password/forgot')
  const [isReset] = useRoute('/password/reset')
  if (isSetup) return <SetupPage />
  if (isForgot) return <ForgotPasswordPage />
  if (isReset) return <ResetPasswordPage />
  if (isInvitation) return <InvitationPage />
  if (isDeletion) return <DeletionConfirmPage />
  return <LoginPage />
}

