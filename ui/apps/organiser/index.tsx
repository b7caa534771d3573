// The organiser (admin) view.
import { useEffect } from 'preact/hooks'
import { Route, Switch, useLocation } from 'wouter'
import { session } from '../../api/client'
import { useResource } from '../../components/hooks'
import { AdminShell } from '../../components/layout'
import { Spinner } from '../../components/ui'
import { setLanguage, t, useLanguage } from '../../i18n'
import { can } from '../../../server/modules/identity/roles'
import { AgreementsPage } from './agreements'
import { EventCreate } from './event-form'
import { EventPage } from './event-page'
import { EventsList } from './events-list'
import { FormBuilder } from './forms/builder'
import { AdminRegistration } from './forms/register'
import { LimitBanner } from './limit-banner'
import { TagsPage } from './tags'
import { LicensePage } from './license'
import { UserContext, type UserDetails } from './user'

export default function OrganiserApp() {
  useLanguage()
  const [, navigate] = useLocation()
  const { data, error } = useResource<UserDetails>('/proxy/userDetails')
  useEffect(() => {
    if (error?.status === 401) navigate('/login', { replace: true })
  }, [error])
  useEffect(() => {
    if (data?.user.currentAccount) session.accountId = String(data.user.currentAccount.id)
    if (data?.user.language.code) void setLanguage(data.user.language.code)
  }, [data])
  if (!data) return <Spinner />
  const account = data.user.currentAccount
  const nav = [{ href: '/events', label: t('events.title') }]
  if (account && can(account.userRole, 'AGREEMENT.MANAGE')) nav.push({ href: '/agreements', label: t('agreements.nav') })
  if (account && can(account.userRole, 'TAG.MANAGE')) nav.push({ href: '/tags', label: t('tags.title') })
  if (account && can(account.userRole, 'AGENCY.ABO')) nav.push({ href: '/agency/abo', label: t('license.nav') })
  return (
    <UserContext.Provider value={data}>
      <AdminShell nav={nav} title={account?.agency.displayName ?? ''} userLabel={data.user.email}>
        <LimitBanner adjustHref={account && can(account.userRole, 'AGENCY.ABO') ? '/agency/abo' : null} />
        <Switch>
          <Route path="/events/new" component={EventCreate} />
          <Route path="/events/:id/form">{(p) => <FormBuilder id={Number(p.id)} />}</Route>
          <Route path="/events/:id/register">{(p) => <AdminRegistration id={Number(p.id)} />}</Route>
          <Route path="/events/:id/:tab?">{(p) => <EventPage id={Number(p.id)} tab={p.tab} />}</Route>
          <Route path="/agreements" component={AgreementsPage} />
          <Route path="/tags" component={TagsPage} />
          <Route path="/events" component={EventsList} />
          <Route path="/agency/abo" component={LicensePage} />
          <Route>
            <EventsList />
          </Route>
        </Switch>
      </AdminShell>
    </UserContext.Provider>
  )
}
