// Navigation authorisation for the admin and the guest view (rules in navigation-rules.ts):
// loads the user, refreshes it every 60 s, reacts to USER_NOT_FOUND / NOT_AUTHENTICATED /
// NO_ACCOUT_SELECTED / NO_PERMISSION / WRONG_ABO, offers the choose-account dialog, and warns
// before unsaved changes are left.
import { createContext, type ComponentChildren } from 'preact'
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter'
import { ApiError, get, onAuthError, patch, session } from '../api/client'
import { setLanguage, setLanguageSaver, t, useLanguage } from '../i18n'
import { Dialog } from './dialog'
import {
  ACCOUNTS_PAGE,
  FILTER_ABOVE,
  type Outcome,
  type RouteSecurity,
  type SwitchableAccount,
  USER_REFRESH_MS,
  accountLink,
  filterAccounts,
  outcomeOfError,
  outcomeOfUser,
  recordFailure,
  refreshOutcome,
} from './navigation-rules'
import { Alert, Badge, Button, Spinner } from './ui'

export interface CurrentAccount {
  id: number
  agency: { id: number; displayName: string | null; internalName?: string | null }
  userRole: string
  status?: string
  permissions?: string[]
  firstName: string | null
  lastName: string | null
}
export interface CurrentUser {
  id: number
  email: string
  userStatus: string
  language: { code: string }
  design?: string | null
  isAccount?: boolean
  hasPassword?: boolean
  tfaEnabled?: boolean
  deletionInProgress?: boolean
  validAccounts?: number
  currentAccount: CurrentAccount | null
}
export interface UserDetails {
  user: CurrentUser
  features: string[]
  /** guest view: how the guest proved who they are */
  via?: 'token' | 'session'
  /** guest view: the agency whose logo (or name) the header shows; null: einlass's mark */
  brand?: { id: number; displayName: string; logoPath: string | null } | null
}

export interface AuthState {
  details: UserDetails
  view: 'admin' | 'guest'
  reload(): Promise<void>
  openAccountSwitcher(): void
}

export const UserContext = createContext<UserDetails | null>(null)
export const AuthContext = createContext<AuthState | null>(null)
export const useAuth = () => useContext(AuthContext)!

const FAILURES_KEY = 'einlass.authFailures'
function failures(): number[] {
  try {
    return JSON.parse(sessionStorage.getItem(FAILURES_KEY) ?? '[]')
  } catch {
    return []
  }
}
function storeFailures(v: number[]) {
  try {
    sessionStorage.setItem(FAILURES_KEY, JSON.stringify(v))
  } catch {}
}
export const clearAuthFailures = () => storeFailures([])

/** Ends the session (also a guest link's); guests without a login go back to the access-link page. */
export function logout(view: 'admin' | 'guest', via?: 'token' | 'session') {
  session.accountId = null
  session.knownGuest = false
  if (view === 'guest' && via === 'token') {
    location.href = '/guest/nopermission'
    return
  }
  location.href = view === 'guest' ? '/logout?redirect=/guest/nopermission' : '/logout?redirect=/login'
}

/** Picks up ?account= (set by /auth/select/{id}) from the address. Guest links (?token=) the server
 * has already turned into a session cookie before the page loaded (guest/link-session.ts). */
function adoptQuery() {
  const url = new URL(location.href)
  let changed = false
  const account = url.searchParams.get('account')
  if (account && /^\d+$/.test(account)) {
    session.accountId = account
    url.searchParams.delete('account')
    changed = true
  }
  if (changed) history.replaceState(history.state, '', url.pathname + url.search + url.hash)
}

export function NavigationAuth({ view, children }: { view: 'admin' | 'guest'; children: ComponentChildren }) {
  useLanguage()
  const [, navigate] = useLocation()
  const [details, setDetails] = useState<UserDetails | null>(null)
  const [fatal, setFatal] = useState<Outcome | null>(null)
  const [switcher, setSwitcher] = useState(false)
  const refreshFailures = useRef(0)
  const detailsRef = useRef<UserDetails | null>(null)
  detailsRef.current = details
  const endpoint = view === 'admin' ? '/proxy/userDetails' : '/userDetails/guest'

  const handleError = useCallback(
    (e: ApiError) => {
      let times = failures()
      if (e.status === 401) {
        times = recordFailure(times, Date.now())
        storeFailures(times)
      }
      const outcome = outcomeOfError(e, times)
      // guest pages need a loaded guest, otherwise the no-permission page (with the access-link form)
      if (view === 'guest' && outcome.kind !== 'forgetAccount') {
        if (outcome.kind === 'logout') logout('guest', 'token')
        else navigate('/guest/nopermission', { replace: true })
        return
      }
      switch (outcome.kind) {
        case 'logout':
          storeFailures([])
          logout(view, detailsRef.current?.via)
          return
        case 'login':
          // several calls may fail at once; only the first one leads to the login page
          if (!location.pathname.startsWith('/login')) navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`, { replace: true })
          return
        case 'forgetAccount':
          session.accountId = null
          void load()
          return
        default:
          setFatal(outcome)
      }
    },
    [view],
  )

  const load = useCallback(
    async (background = false) => {
      try {
        const d = await get<UserDetails>(`${endpoint}${endpoint.includes('?') ? '&' : '?'}t=${Date.now()}`)
        refreshFailures.current = 0
        if (d.user.currentAccount && view === 'admin') session.accountId = String(d.user.currentAccount.id)
        if (view === 'guest') session.knownGuest = true
        if (d.user.language?.code) void setLanguage(d.user.language.code)
        document.documentElement.dataset.design = d.user.design ?? 'standard'
        setFatal(null)
        setDetails(d)
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(0, 'NETWORK', String(e))
        if (background && (err.status === 0 || err.status >= 500)) {
          refreshFailures.current++
          if (refreshOutcome(refreshFailures.current) === 'reload') location.reload()
          return
        }
        handleError(err)
      }
    },
    [endpoint, handleError],
  )

  useEffect(() => {
    adoptQuery()
    void load()
    const timer = setInterval(() => void load(true), USER_REFRESH_MS)
    const off = onAuthError(() => void load())
    return () => {
      clearInterval(timer)
      off()
    }
  }, [])
  useUnsavedChangesGuard()

  // the footer's language choice is the user's setting (it went back at the next refresh before)
  const userId = details?.user.id
  useEffect(() => {
    if (userId == null) return
    setLanguageSaver(async (code) => {
      await patch(`/proxy/api/user/${userId}`, { language: code })
      await load(true)
    })
    return () => setLanguageSaver(null)
  }, [userId])

  const state = useMemo<AuthState | null>(
    () => (details ? { details, view, reload: () => load(), openAccountSwitcher: () => setSwitcher(true) } : null),
    [details, view, load],
  )

  const toGuest = view === 'admin' && details != null && outcomeOfUser(details.user, details.features, {}, 'admin').kind === 'toGuest'
  useEffect(() => {
    if (toGuest) navigate('/guest', { replace: true })
  }, [toGuest])

  if (fatal?.kind === 'noPermission') return <NoPermissionPage reason={fatal.reason} view={view} />
  if (!state || toGuest) return <Spinner />
  return (
    <AuthContext.Provider value={state}>
      <UserContext.Provider value={state.details}>
        {children}
        {switcher && <ChooseAccountDialog closable onClose={() => setSwitcher(false)} />}
      </UserContext.Provider>
    </AuthContext.Provider>
  )
}

/** Wraps a route's content: choose account, no permission or the content (path given for keys). */
export function RouteGuard({ security, children }: { security: RouteSecurity; children: ComponentChildren }) {
  const auth = useAuth()
  const outcome = outcomeOfUser(auth.details.user, auth.details.features, security, auth.view)
  if (outcome.kind === 'chooseAccount') return <ChooseAccountDialog />
  if (outcome.kind === 'noPermission') return <NoPermission reason={outcome.reason} />
  return <>{children}</>
}

export function NoPermission({ reason }: { reason: 'NO_PERMISSION' | 'WRONG_ABO' | 'LOAD_FAILED' }) {
  const view = useContext(AuthContext)?.view ?? 'admin'
  return (
    <section class="no-permission" aria-labelledby="np-title">
      <h1 id="np-title">{t('nav.noPermission.title')}</h1>
      <Alert tone="warn">{t(reason === 'WRONG_ABO' ? 'errors.WRONG_ABO' : reason === 'LOAD_FAILED' ? 'nav.noPermission.loadFailed' : 'errors.NO_PERMISSION')}</Alert>
      <p>
        <Link href={view === 'guest' ? '/guest/dashboard' : '/events'}>{t('nav.toStart')}</Link>
      </p>
    </section>
  )
}

function NoPermissionPage({ reason, view }: { reason: 'NO_PERMISSION' | 'WRONG_ABO' | 'LOAD_FAILED'; view: 'admin' | 'guest' }) {
  return (
    <main class="content narrow" id="main">
      <NoPermission reason={reason} />
      <p>
        <a href={view === 'guest' ? '/guest/nopermission' : '/logout?redirect=/login'}>{t('common.logout')}</a>
      </p>
    </main>
  )
}

/** The choose-account dialog (not closable) and, from the menu, the account switcher (closable). */
export function ChooseAccountDialog({ closable = false, onClose }: { closable?: boolean; onClose?: () => void }) {
  const [accounts, setAccounts] = useState<Array<SwitchableAccount & { guest?: boolean }> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [filter, setFilter] = useState('')
  const [shown, setShown] = useState(ACCOUNTS_PAGE)
  useEffect(() => {
    get<Array<SwitchableAccount & { guest?: boolean }>>(`/auth/accounts?t=${Date.now()}`)
      .then(setAccounts)
      .catch((e) => setError(e instanceof ApiError ? (e.errorTranslation ?? e.errorMessage) : t('errors.generic')))
  }, [])
  const list = accounts ? filterAccounts(accounts, filter) : []
  const current = session.accountId
  return (
    <Dialog title={t('auth.chooseAccount.title')} closable={closable} onClose={onClose}>
      {error && <Alert tone="error">{error}</Alert>}
      {!accounts && !error && <Spinner />}
      {accounts && accounts.length > FILTER_ABOVE && (
        <label class="account-filter">
          <span class="sr-only">{t('auth.chooseAccount.filter')}</span>
          <input
            type="search"
            placeholder={t('auth.chooseAccount.filter')}
            value={filter}
            onInput={(e) => {
              setFilter((e.target as HTMLInputElement).value)
              setShown(ACCOUNTS_PAGE)
            }}
          />
        </label>
      )}
      {accounts && accounts.length === 0 && <p class="muted">{t('auth.chooseAccount.none')}</p>}
      {accounts && (
        <ul class="account-list">
          {list.slice(0, shown).map((a) => {
            const pending = a.status && a.status !== 'OK'
            const label = a.agency.displayName || a.agency.internalName || `#${a.agency.id}`
            const body = (
              <>
                <span class="account-name">{label}</span>
                {a.agency.internalName && a.agency.internalName !== label && <span class="muted account-internal">{a.agency.internalName}</span>}
                <span class="account-role">
                  <Badge tone={a.guest ? 'info' : 'neutral'}>{t(`role.${a.userRole}`)}</Badge>
                  {pending && <Badge tone="warn">{t('account.notActivated')}</Badge>}
                  {String(a.id) === current && <Badge tone="ok">{t('auth.chooseAccount.current')}</Badge>}
                </span>
                {(a.requireSsoLogin || a.requireLogout) && <span class="muted account-sso">{t(a.requireLogout ? 'auth.chooseAccount.logoutHint' : 'auth.chooseAccount.ssoHint')}</span>}
              </>
            )
            return (
              <li key={a.id}>
                {pending ? (
                  <span class="account-entry disabled" aria-disabled="true">
                    {body}
                  </span>
                ) : (
                  <a class="account-entry" href={accountLink(a)} onClick={() => !a.requireLogout && (session.accountId = a.guest ? null : String(a.id))}>
                    {body}
                  </a>
                )}
              </li>
            )
          })}
          <li>
            <a class="account-entry guest-entry" href="/guest/dashboard">
              <span class="account-name">{t('auth.chooseAccount.guestArea')}</span>
            </a>
          </li>
        </ul>
      )}
      {list.length > shown && (
        <div class="dialog-more">
          <Button variant="secondary" onClick={() => setShown(shown + ACCOUNTS_PAGE)}>
            {t('auth.chooseAccount.more')}
          </Button>
        </div>
      )}
      {!closable && (
        <p class="account-logout">
          <a href="/logout?redirect=/login">{t('common.logout')}</a>
        </p>
      )}
    </Dialog>
  )
}

// Unsaved changes: any mounted form can raise the flag; leaving the page (reload, close, typed
// address) gets the browser's warning, and in-app links ask before they navigate.
let dirtyForms = 0
const onBeforeUnload = (e: BeforeUnloadEvent) => {
  if (dirtyForms > 0) {
    e.preventDefault()
    e.returnValue = t('common.unsavedChanges')
  }
}
const onLinkClick = (e: MouseEvent) => {
  if (dirtyForms === 0 || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return
  const a = (e.target as HTMLElement | null)?.closest?.('a[href]') as HTMLAnchorElement | null
  if (!a || a.target === '_blank' || a.hasAttribute('download')) return
  if (!window.confirm(t('common.unsavedChanges'))) {
    e.preventDefault()
    e.stopImmediatePropagation()
  } else dirtyForms = 0
}
let guardInstalled = false
function useUnsavedChangesGuard() {
  useEffect(() => {
    if (guardInstalled) return
    guardInstalled = true
    window.addEventListener('beforeunload', onBeforeUnload)
    document.addEventListener('click', onLinkClick, true)
  }, [])
}

/** Marks the page as holding unsaved changes while `dirty` is true. */
export function useUnsavedChanges(dirty: boolean) {
  useUnsavedChangesGuard()
  useEffect(() => {
    if (!dirty) return
    dirtyForms++
    return () => {
      dirtyForms = Math.max(0, dirtyForms - 1)
    }
  }, [dirty])
}

/** The loaded user of the current view (inside NavigationAuth). */
export const useUser = () => useContext(UserContext)!
