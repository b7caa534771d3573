// The login page's company login (OpenID Connect, docs/identity.md): a button that asks for the work
// e-mail and sends the browser to /proxy/auth/sso/start, and the refusal the provider's answer ended
// in (?ssoError=CODE, with ?ssoEmail= where the text names the address).
import { useState } from 'preact/hooks'
import { Alert } from '../../components/ui'
import { t } from '../../i18n'

/** The refusal of a company login to show on the login page, or null. */
export function ssoErrorText(search: string): string | null {
  const q = new URLSearchParams(search)
  const code = q.get('ssoError')
  if (!code || !/^[A-Z_]{3,60}$/.test(code)) return null
  const text = t(`errors.${code}`, { email: q.get('ssoEmail') ?? '' })
  return text === `errors.${code}` ? t('errors.SSO_PROVIDER_ERROR') : text
}

export function SsoLoginError() {
  const text = ssoErrorText(location.search)
  return text ? (
    <Alert tone="error" data-testid="sso-error">
      {text}
    </Alert>
  ) : null
}

export function SsoLogin({ redirect }: { redirect: string | null }) {
  const [open, setOpen] = useState(false)
  const [email, setEmail] = useState('')
  if (!open) {
    return (
      <div class="sso-login">
        <button type="button" class="btn btn-secondary sso-button" onClick={() => setOpen(true)}>
          {t('sso.login.button')}
        </button>
      </div>
    )
  }
  const start = (e: Event) => {
    e.preventDefault()
    const q = new URLSearchParams({ email: email.trim() })
    if (redirect) q.set('redirect', redirect)
    location.assign(`/proxy/auth/sso/start?${q}`)
  }
  return (
    <form class="sso-login sso-login-open form-grid" onSubmit={start}>
      <p class="muted">{t('sso.login.intro')}</p>
      <div class="field field-full">
        <label for="sso-email">{t('sso.login.email')}</label>
        <input id="sso-email" type="email" name="ssoEmail" required autocomplete="username" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
      </div>
      <div class="form-actions">
        <button type="button" class="btn btn-secondary" onClick={() => setOpen(false)}>
          {t('sso.login.back')}
        </button>
        <button type="submit" class="btn btn-primary">
          {t('sso.login.continue')}
        </button>
      </div>
    </form>
  )
}
