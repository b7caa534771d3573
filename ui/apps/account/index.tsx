// The account area of non-guest users (/account/...) and of guests (/guest/account/...): three tabs,
// profile, security and settings, under the shell of the view they belong to.
// first: the signed-in areas' German strings (the guest pages load only theirs; this area is lazy there)
import '../../i18n/part-rest'
import { Redirect, Route, Switch, useLocation } from 'wouter'
import { Link } from 'wouter'
import { useAuth } from '../../components/navigation-auth'
import { t, useLanguage } from '../../i18n'
import { ProfilePage } from './profile'
import { SecurityPage } from './security'
import { SettingsPage } from './settings'

export function accountBase(view: 'admin' | 'guest') {
  return view === 'guest' ? '/guest/account' : '/account'
}

export function AccountArea() {
  useLanguage()
  const { view, details } = useAuth()
  const [path] = useLocation()
  const base = accountBase(view)
  const entryPass = details.features.includes('SYSTEM_COVIDOO')
  const tabs = [
    ...(view === 'guest' && entryPass ? [] : [{ href: `${base}/profile`, label: t('account.tab.profile') }]),
    { href: `${base}/security`, label: t('account.tab.security') },
    { href: `${base}/settings`, label: t('account.tab.settings') },
  ]
  return (
    <div class="account-area">
      <header class="page-header">
        <div>
          <h1>{t('account.title')}</h1>
          <p class="muted">{details.user.email}</p>
        </div>
      </header>
      <nav class="account-tabs" aria-label={t('account.tabs')}>
        {tabs.map((tab) => (
          <Link key={tab.href} href={tab.href} class={`account-tab ${path === tab.href ? 'active' : ''}`} aria-current={path === tab.href ? 'page' : undefined}>
            {tab.label}
          </Link>
        ))}
      </nav>
      <Switch>
        <Route path={`${base}/profile`}>{view === 'guest' && entryPass ? <Redirect to={`${base}/security`} replace /> : <ProfilePage />}</Route>
        <Route path={`${base}/security`} component={SecurityPage} />
        <Route path={`${base}/settings`} component={SettingsPage} />
        <Route>
          <Redirect to={`${base}/${view === 'guest' && entryPass ? 'security' : 'profile'}${location.search}`} replace />
        </Route>
      </Switch>
    </div>
  )
}
