// The guest application: the dashboard (registrations grouped into pending, registered, invited,
// open and declined; dashboard.tsx), the notifications tab, the guest account area and the open
// pages (no-permission with the access link, self check-in).
// first: this area's German strings are registered before any of its modules render
import '../../i18n/part-guest'
import { Suspense, lazy } from 'preact/compat'
import { Redirect, Route, Switch } from 'wouter'
import { NotFoundContent } from '../../components/not-found'
import { GuestShell } from '../../components/layout'
import { NavigationAuth } from '../../components/navigation-auth'
import { Dashboard } from './dashboard'
import { Spinner } from '../../components/ui'
import { HelpCentre, SupportPage } from './help'

// Pages the dashboard never shows load when opened, so the dashboard stays within the guest pages'
// script budget (guest-budget.test.ts): the account area, the no-permission page (its access-link
// form brings react-hook-form and zod) and the open self check-in page (signature pad, agreements).
const AccountArea = lazy(() => import('../account').then((m) => ({ default: m.AccountArea })))
const NoPermission = lazy(() => import('./nopermission').then((m) => ({ default: m.GuestNoPermission })))
const SelfCheckinPage = lazy(() => import('./selfcheckin').then((m) => ({ default: m.SelfCheckin })))
const Account = () => (
  <Suspense fallback={<Spinner />}>
    <AccountArea />
  </Suspense>
)
const GuestNoPermission = () => (
  <Suspense fallback={<Spinner />}>
    <NoPermission />
  </Suspense>
)
const SelfCheckin = (props: { params: { token: string } }) => (
  <Suspense fallback={<Spinner />}>
    <SelfCheckinPage {...props} />
  </Suspense>
)

/** Pages with security: a loaded guest (link token or session), otherwise the no-permission page. */
function SecuredGuestPages() {
  return (
    <NavigationAuth view="guest">
      <GuestShell>
        <Switch>
          <Route path="/guest/dashboard">{() => <Dashboard />}</Route>
          <Route path="/guest/notifications">{() => <Dashboard initialTab="notifications" />}</Route>
          <Route path="/guest/account" component={Account} />
          <Route path="/guest/account/*" component={Account} />
          <Route path="/guest">
            <Redirect to={`/guest/dashboard${location.search}`} replace />
          </Route>
          <Route path="/guest/">
            <Redirect to={`/guest/dashboard${location.search}`} replace />
          </Route>
          <Route component={NotFoundContent} />
        </Switch>
        <HelpCentre />
      </GuestShell>
    </NavigationAuth>
  )
}

export default function GuestApp() {
  return (
    <Switch>
      <Route path="/guest/nopermission" component={GuestNoPermission} />
      {/* open (no security): the self check-in dialog and the support page; never swallowed by the dashboard redirect */}
      <Route path="/guest/checkin/:token" component={SelfCheckin} />
      <Route path="/support" component={SupportPage} />
      <Route component={SecuredGuestPages} />
    </Switch>
  )
}
