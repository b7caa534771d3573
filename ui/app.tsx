// Top-level routes; each audience's area is its own lazily loaded chunk.
import { Suspense, lazy } from 'preact/compat'
import { useEffect } from 'preact/hooks'
import { Route, Switch, useLocation } from 'wouter'
import { get } from './api/client'
import { NotFound } from './components/not-found'
import { Toasts } from './components/overlay'
import { Spinner } from './components/ui'

const AuthApp = lazy(() => import('./apps/auth'))
const OrganiserApp = lazy(() => import('./apps/organiser'))
const PublicApp = lazy(() => import('./apps/public'))
const GuestApp = lazy(() => import('./apps/guest'))
const PayApp = lazy(() => import('./apps/pay'))

/** Address prefixes of the signed-in organiser area (ui/apps/organiser and the account pages). */
const ORGANISER_PREFIXES = ['/events', '/agreements', '/tags', '/agency', '/account']

function Home() {
  const [, navigate] = useLocation()
  useEffect(() => {
    get<{ required: boolean }>('/proxy/api/setup')
      .then((r) => navigate(r.required ? '/setup' : '/events', { replace: true }))
      .catch(() => navigate('/login', { replace: true }))
  }, [])
  return <Spinner />
}

export function App() {
  return (
    <>
      <Suspense fallback={<Spinner />}>
        <Switch>
          <Route path="/" component={Home} />
          <Route path="/setup" component={AuthApp} />
          <Route path="/login" component={AuthApp} />
          <Route path="/invitation" component={AuthApp} />
          <Route path="/account/deletion" component={AuthApp} />
          <Route path="/password/*" component={AuthApp} />
          <Route path="/public/*" component={PublicApp} />
          <Route path="/pay/:id" component={PayApp} />
          <Route path="/guest" component={GuestApp} />
          <Route path="/support" component={GuestApp} />
          <Route path="/guest/*" component={GuestApp} />
          {/* the organiser's areas; a new one adds its prefix here */}
          {ORGANISER_PREFIXES.flatMap((p) => [<Route key={p} path={p} component={OrganiserApp} />, <Route key={`${p}/*`} path={`${p}/*`} component={OrganiserApp} />])}
          <Route component={NotFound} />
        </Switch>
      </Suspense>
      <Toasts />
    </>
  )
}
