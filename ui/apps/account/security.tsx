// Security page (agency-side 2.3): change or set the password (with "log out all devices" and the
// strength checklist) and, for real accounts, the two-factor methods with the three-step add dialog.
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { PasswordChangeBody, TfaAddBody, TfaLinkBody } from '../../../server/modules/identity/model'
import { ApiError, del, errorText, get, patch, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { CheckboxField, SelectField, TextField, applyServerErrors } from '../../components/form'
import { useResource } from '../../components/hooks'
import { logout, useAuth, useUnsavedChanges } from '../../components/navigation-auth'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, Card, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { PasswordChecklist, PasswordPromptDialog } from './widgets'

interface PasswordForm {
  password: string
  passwordRepeat: string
  currentPassword: string
  removeTokens: boolean
}

export function SecurityPage() {
  const { details } = useAuth()
  return (
    <>
      <PasswordCard />
      {details.user.isAccount && details.via !== 'token' && <TwoFactorCard />}
    </>
  )
}

function PasswordCard() {
  const auth = useAuth()
  const user = auth.details.user
  // spec 2.3: "change password" for accounts, "set password" for others; the current password
  // whenever there is one (a stolen session must not change it: docs/security.md)
  const needsCurrent = Boolean(user.hasPassword)
  const schema = PasswordChangeBody.superRefine((v, c) => {
    if (needsCurrent && !v.currentPassword) c.addIssue({ code: 'custom', path: ['currentPassword'], message: 'CURRENT_PASSWORD_MISSING' })
  })
  const { register, handleSubmit, formState, watch, reset, setError } = useForm<PasswordForm>({
    resolver: zodResolver(schema as unknown as z.ZodType<PasswordForm, any>),
    defaultValues: { password: '', passwordRepeat: '', currentPassword: '', removeTokens: false },
    mode: 'onTouched',
  })
  const [error, setErrorText] = useState<string | null>(null)
  useUnsavedChanges(formState.isDirty)
  const submit = handleSubmit(async (v) => {
    setErrorText(null)
    try {
      const r = await patch<{ loggedOut: boolean }>(`/proxy/api/user/${user.id}`, {
        password: v.password,
        passwordRepeat: v.passwordRepeat,
        ...(needsCurrent ? { currentPassword: v.currentPassword } : {}),
        removeTokens: v.removeTokens,
      })
      reset({ password: '', passwordRepeat: '', currentPassword: '', removeTokens: false })
      if (r.loggedOut) {
        toast(t('security.password.changedLogout'), 'ok', 3000)
        setTimeout(() => logout(auth.view, auth.details.via), 2500)
      } else {
        toast(t('security.password.changed'))
        await auth.reload()
      }
    } catch (e) {
      // the organiser's license has no room for the guest account the password comes with: say so
      // in the guest's terms (docs/identity.md, guest accounts)
      if (e instanceof ApiError && e.errorType === 'LIMIT_GUEST_ACCOUNTS_EXCEEDED') setErrorText(t('security.password.guestLimit'))
      else if (!applyServerErrors(e, setError)) setErrorText(errorText(e))
    }
  })
  const e = formState.errors
  return (
    <Card>
      <h2>{t(user.isAccount ? 'security.password.change' : 'security.password.set')}</h2>
      {error && <Alert tone="error">{error}</Alert>}
      <form onSubmit={submit} noValidate class="form-grid">
        {needsCurrent && <TextField label={t('security.password.current')} reg={register('currentPassword')} errors={e} type="password" autocomplete="current-password" required />}
        <TextField label={t('security.password.new')} reg={register('password')} errors={e} type="password" autocomplete="new-password" required size="half" />
        <TextField label={t('security.password.repeat')} reg={register('passwordRepeat')} errors={e} type="password" autocomplete="new-password" required size="half" />
        <PasswordChecklist value={watch('password')} />
        <CheckboxField label={t('security.password.removeTokens')} reg={register('removeTokens')} errors={e} />
        <small class="hint form-title">{t('security.password.removeTokens.hint')}</small>
        <div class="form-actions">
          <Button type="submit" busy={formState.isSubmitting}>
            {t('security.password.submit')}
          </Button>
        </div>
      </form>
    </Card>
  )
}

export interface TfaMethod {
  id: number
  displayName: string
  twoFactorType: 'OTP' | 'EMAIL'
  enabled: boolean
  linked: boolean
}

function TwoFactorCard() {
  const { data, error, reload } = useResource<TfaMethod[]>('/proxy/api/user-tfa/list')
  const auth = useAuth()
  const [adding, setAdding] = useState<{ method?: TfaMethod & { qrCode?: string | null; secret?: string | null } } | null>(null)
  const [prompt, setPrompt] = useState<{ method: TfaMethod; action: 'enable' | 'disable' | 'delete' } | null>(null)
  const recovery = useResource<{ total: number; remaining: number }>('/proxy/api/user-tfa/recovery-codes')
  const [regenerating, setRegenerating] = useState(false)
  const [codes, setCodes] = useState<string[] | null>(null)
  const after = async () => {
    await reload()
    await recovery.reload()
    await auth.reload()
  }
  const run = async (password: string) => {
    if (!prompt) return
    const { method, action } = prompt
    if (action === 'delete') await del(`/proxy/api/user-tfa/${method.id}`, { accountPassword: password })
    else await post(`/proxy/api/user-tfa/${method.id}/${action}`, { accountPassword: password })
    setPrompt(null)
    toast(t(action === 'delete' ? 'tfa.deleted' : action === 'enable' ? 'tfa.activated' : 'tfa.deactivated'))
    await after()
  }
  const link = async (m: TfaMethod) => {
    try {
      const d = await get<TfaMethod & { qrCode: string | null; secret: string | null }>(`/proxy/api/user-tfa/${m.id}/forLink`)
      setAdding({ method: d })
    } catch (e) {
      toast(e instanceof ApiError ? (e.errorTranslation ?? t('tfa.failed')) : t('tfa.failed'), 'error')
    }
  }
  const hasEmail = Boolean(data?.some((m) => m.twoFactorType === 'EMAIL'))
  return (
    <Card>
      <div class="card-head">
        <h2>{t('tfa.title')}</h2>
        <Button variant="secondary" onClick={() => setAdding({})}>
          {t('tfa.add')}
        </Button>
      </div>
      <p class="muted">{t('tfa.intro')}</p>
      {error && <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.length === 0 && <p class="muted">{t('tfa.none')}</p>}
      {data && data.length > 0 && (
        <ul class="tfa-list">
          {data.map((m) => (
            <li key={m.id} class="tfa-item">
              <div>
                <strong>{m.displayName}</strong>
                <span class="muted"> · {t(`tfa.type.${m.twoFactorType}`)}</span>{' '}
                {!m.linked ? <Badge tone="warn">{t('tfa.notLinked')}</Badge> : m.enabled ? <Badge tone="ok">{t('tfa.enabled')}</Badge> : <Badge>{t('tfa.disabled')}</Badge>}
              </div>
              <div class="tfa-actions">
                {!m.linked && (
                  <Button variant="secondary" onClick={() => link(m)}>
                    {t('tfa.link')}
                  </Button>
                )}
                {m.linked && (
                  <Button variant="secondary" onClick={() => setPrompt({ method: m, action: m.enabled ? 'disable' : 'enable' })}>
                    {t(m.enabled ? 'tfa.disable' : 'tfa.enable')}
                  </Button>
                )}
                <Button variant="ghost" onClick={() => setPrompt({ method: m, action: 'delete' })}>
                  {t('tfa.delete')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {data?.some((m) => m.linked) && (
        <section class="tfa-recovery">
          <h3>{t('tfa.recovery.title')}</h3>
          <p class="muted">{t('tfa.recovery.intro')}</p>
          <p>{recovery.data && recovery.data.total > 0 ? t('tfa.recovery.remaining', recovery.data) : t('tfa.recovery.none')}</p>
          <Button variant="secondary" onClick={() => setRegenerating(true)}>
            {t('tfa.recovery.regenerate')}
          </Button>
        </section>
      )}
      {regenerating && (
        <PasswordPromptDialog
          title={t('tfa.recovery.regenerate')}
          text={t('tfa.recovery.regenerateConfirm')}
          confirmLabel={t('tfa.recovery.regenerate')}
          onConfirm={async (password) => {
            const r = await post<{ recoveryCodes: string[] }>('/proxy/api/user-tfa/recovery-codes', { accountPassword: password })
            setRegenerating(false)
            setCodes(r.recoveryCodes)
            await recovery.reload()
          }}
          onClose={() => setRegenerating(false)}
        />
      )}
      {codes && (
        <Dialog title={t('tfa.recovery.title')} onClose={() => setCodes(null)}>
          <RecoveryCodes codes={codes} />
          <div class="form-actions">
            <Button onClick={() => setCodes(null)}>{t('tfa.recovery.saved')}</Button>
          </div>
        </Dialog>
      )}
      {prompt && (
        <PasswordPromptDialog
          title={t('tfa.password.title')}
          text={prompt.action === 'delete' ? t('tfa.delete.confirm', { name: prompt.method.displayName }) : undefined}
          confirmLabel={t(prompt.action === 'delete' ? 'tfa.delete' : prompt.action === 'enable' ? 'tfa.enable' : 'tfa.disable')}
          danger={prompt.action === 'delete'}
          onConfirm={run}
          onClose={() => setPrompt(null)}
        />
      )}
      {adding && (
        <AddMethodDialog
          hasEmail={hasEmail}
          resume={adding.method}
          email={auth.details.user.email}
          onChanged={after}
          onClose={async () => {
            setAdding(null)
            await after()
          }}
        />
      )}
    </Card>
  )
}

type Step1 = { twoFactorType: 'OTP' | 'EMAIL' | ''; displayName: string; accountPassword: string }

/** Step 1: type, device name (OTP), account password · step 2: QR code/secret or mailed code + token · step 3: done. */
/** The recovery codes, shown once (after linking the first method or making new ones). */
function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div class="tfa-recovery-codes">
      <Alert tone="warn">{t('tfa.recovery.show')}</Alert>
      <ol class="tfa-code-list">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <Button
        variant="secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(codes.join('\n'))
            toast(t('tfa.recovery.copied'))
          } catch {
            // no clipboard (insecure context): the codes stay on screen to write down
          }
        }}
      >
        {t('tfa.recovery.copy')}
      </Button>
    </div>
  )
}

/** onChanged runs after each step that changed the methods, so the page behind the dialog is current. */
function AddMethodDialog({
  hasEmail,
  resume,
  email,
  onChanged,
  onClose,
}: {
  hasEmail: boolean
  resume?: TfaMethod & { qrCode?: string | null; secret?: string | null }
  email: string
  onChanged(): Promise<void>
  onClose(): void
}) {
  const [step, setStep] = useState<1 | 2 | 3>(resume ? 2 : 1)
  const [codes, setCodes] = useState<string[] | null>(null)
  const [method, setMethod] = useState<(TfaMethod & { qrCode?: string | null; secret?: string | null }) | null>(resume ?? null)
  const [error, setError] = useState<string | null>(null)
  const types = (['OTP', 'EMAIL'] as const).filter((x) => x !== 'EMAIL' || !hasEmail)
  const one = useForm<Step1>({ resolver: zodResolver(TfaAddBody as unknown as z.ZodType<Step1, any>), defaultValues: { twoFactorType: 'OTP', displayName: '', accountPassword: '' }, mode: 'onTouched' })
  const two = useForm<{ token: string }>({ resolver: zodResolver(TfaLinkBody), defaultValues: { token: '' } })
  const type = one.watch('twoFactorType')
  const submitOne = one.handleSubmit(async (v) => {
    setError(null)
    try {
      const m = await post<TfaMethod & { qrCode?: string; secret?: string }>('/proxy/api/user-tfa', { ...v, displayName: v.twoFactorType === 'OTP' ? v.displayName : undefined })
      setMethod(m)
      setStep(2)
      void onChanged()
    } catch (e) {
      if (!applyServerErrors(e, one.setError)) setError(errorText(e, t('tfa.failed')))
    }
  })
  const submitTwo = two.handleSubmit(async (v) => {
    setError(null)
    try {
      const r = await post<{ recoveryCodes?: string[] | null }>(`/proxy/api/user-tfa/${method!.id}/link`, v)
      setCodes(r.recoveryCodes ?? null)
      setStep(3)
      void onChanged()
    } catch (e) {
      if (!applyServerErrors(e, two.setError)) setError(errorText(e, t('tfa.failed')))
    }
  })
  return (
    <Dialog title={t('tfa.add.title')} onClose={onClose}>
      <p class="muted">{t('tfa.add.step', { step })}</p>
      {error && <Alert tone="error">{error}</Alert>}
      {step === 1 && (
        <form onSubmit={submitOne} noValidate class="form-grid">
          <SelectField label={t('tfa.add.type')} reg={one.register('twoFactorType')} errors={one.formState.errors} required options={types.map((x) => ({ value: x, label: t(`tfa.type.${x}`) }))} />
          {type === 'OTP' && <TextField label={t('tfa.add.displayName')} reg={one.register('displayName')} errors={one.formState.errors} required hint={t('tfa.add.displayName.hint')} />}
          <TextField label={t('tfa.add.password')} reg={one.register('accountPassword')} errors={one.formState.errors} type="password" autocomplete="current-password" required />
          <div class="form-actions">
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" busy={one.formState.isSubmitting}>
              {t('tfa.add.next')}
            </Button>
          </div>
        </form>
      )}
      {step === 2 && method && (
        <form onSubmit={submitTwo} noValidate class="form-grid">
          {method.twoFactorType === 'OTP' ? (
            <div class="tfa-qr form-title">
              <p>{t('tfa.add.scan')}</p>
              {method.qrCode && <img src={method.qrCode} alt={t('tfa.add.qr')} width="200" height="200" />}
              <p>
                {t('tfa.add.secret')}: <code class="tfa-secret">{method.secret}</code>
              </p>
            </div>
          ) : (
            <p class="form-title">{t('tfa.add.mailSent', { email })}</p>
          )}
          <TextField label={t('tfa.add.token')} reg={two.register('token')} errors={two.formState.errors} required autocomplete="one-time-code" inputMode="numeric" />
          <div class="form-actions">
            <Button type="submit" busy={two.formState.isSubmitting}>
              {t('tfa.add.complete')}
            </Button>
          </div>
        </form>
      )}
      {step === 3 && (
        <>
          <Alert tone="ok">{t('tfa.add.done')}</Alert>
          {codes && codes.length > 0 && (
            <>
              <h3>{t('tfa.recovery.title')}</h3>
              <RecoveryCodes codes={codes} />
            </>
          )}
          <div class="form-actions">
            <Button onClick={onClose}>{codes ? t('tfa.recovery.saved') : t('common.close')}</Button>
          </div>
        </>
      )}
    </Dialog>
  )
}
