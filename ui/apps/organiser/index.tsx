// The organiser (admin) view. NavigationAuth loads the user and applies the navigation rules;
// RouteGuard asks for an account (choose-account dialog) and the route's permission.
// first: this area's German strings are registered before any of its modules render
import '../../i18n/part-rest'
import { Route, Switch } from 'wouter'
import { AdminShell } from '../../components/layout'
import { NotFoundContent } from '../../components/not-found'
import { NavigationAuth, RouteGuard, useUser } from '../../components/navigation-auth'
import { t, useLanguage } from '../../i18n'
import { can } from '../../../server/modules/identity/roles'
import { AccountArea } from '../account'
import { GuestInfoPage, ReportsPage } from './guest-info'
import { AgreementsPage } from './agreements'
import { AuditPage } from './audit'
import { InvoicesPage } from './invoices'
import { BankPage } from './bank'
import { MailSettingsPage } from './mail/settings-page'
import { EventCreate } from './event-form'
import { EventPage } from './event-page'
import { EventsList } from './events-list'
import { FormBuilder } from './forms/builder'
import { AdminRegistration } from './forms/register'
import { LimitBanner } from './limit-banner'
import { TagsPage } from './tags'
import { LicensePage } from './license'
import { SalesSettingsPage } from './tickets/sales-settings'
import { OrderPage } from './tickets/order-page'
import { SsoSettingsPage } from './sso-settings'
import { MailTextsPage } from './mail-texts'
import { MediaGalleryPage } from './media/gallery-page'
import { UsersPage } from './users'

export default function OrganiserApp() {
  return (
    <NavigationAuth view="admin">
      <OrganiserShell />
    </NavigationAuth>
  )
}

function OrganiserShell() {
  useLanguage()
  const data = useUser()
  const account = data.user.currentAccount
  const nav = [{ href: '/events', label: t('events.title') }]
  if (account && can(account.userRole, 'AGREEMENT.MANAGE')) nav.push({ href: '/agreements', label: t('agreements.nav') })
  if (account && can(account.userRole, 'TAG.MANAGE')) nav.push({ href: '/tags', label: t('tags.title') })
  if (account && data.features.includes('MEDIA_GALLERY')) nav.push({ href: '/agency/media', label: t('media.nav') })
  if (account && can(account.userRole, 'AGENCY.USERS')) nav.push({ href: '/agency/users', label: t('users.title') })
  if (account && can(account.userRole, 'AGENCY.MANAGE')) nav.push({ href: '/agency/sales', label: t('ticketing.sales.nav') }, { href: '/agency/invoices', label: t('accounting.nav') }, { href: '/agency/bank', label: t('bank.nav') }, { href: '/agency/mail', label: t('mail.nav') })
  if (account && can(account.userRole, 'AGENCY.ABO')) nav.push({ href: '/agency/abo', label: t('license.nav') })
  if (account && can(account.userRole, 'AGENCY.MANAGE')) nav.push({ href: '/agency/reports', label: t('report.list.nav') }, { href: '/agency/imprint', label: t('help.imprint.nav') }, { href: '/agency/sso', label: t('sso.nav') }, { href: '/agency/mail-texts', label: t('mail.texts.nav') }, { href: '/agency/audit', label: t('audit.nav') })
  return (
    <AdminShell nav={nav} title={account?.agency.displayName ?? ''} userLabel={[account?.firstName, account?.lastName].filter(Boolean).join(' ') || data.user.email}>
      <Switch>
        <Route path="/account" component={AccountArea} />
        <Route path="/account/*" component={AccountArea} />
        <Route>
          <RouteGuard security={{ account: true }}>
            <LimitBanner canBook={Boolean(account && can(account.userRole, 'AGENCY.ABO'))} />
            <Switch>
              <Route path="/events/new" component={EventCreate} />
              <Route path="/events/:id/form">{(p) => <FormBuilder id={Number(p.id)} />}</Route>
              <Route path="/events/:id/register">{(p) => <AdminRegistration id={Number(p.id)} />}</Route>
              <Route path="/events/:id/orders/:oid">{(p) => <OrderPage eventId={Number(p.id)} orderId={Number(p.oid)} />}</Route>
              <Route path="/events/:id/:tab?">{(p) => <EventPage id={Number(p.id)} tab={p.tab} />}</Route>
              <Route path="/agreements" component={AgreementsPage} />
              <Route path="/tags" component={TagsPage} />
              <Route path="/events" component={EventsList} />
              <Route path="/agency/users">
                <RouteGuard security={{ account: true, permission: 'AGENCY.USERS' }}>
                  <UsersPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/mail">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <MailSettingsPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/reports">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <ReportsPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/imprint">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <GuestInfoPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/sales">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <SalesSettingsPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/invoices">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <InvoicesPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/bank">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <BankPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/sso">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <SsoSettingsPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/mail-texts">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <MailTextsPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/media">
                <RouteGuard security={{ account: true, feature: 'MEDIA_GALLERY' }}>
                  <MediaGalleryPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/audit">
                <RouteGuard security={{ account: true, permission: 'AGENCY.MANAGE' }}>
                  <AuditPage />
                </RouteGuard>
              </Route>
              <Route path="/agency/abo">
                <RouteGuard security={{ account: true, permission: 'AGENCY.ABO' }}>
                  <LicensePage />
                </RouteGuard>
              </Route>
              <Route component={NotFoundContent} />
            </Switch>
          </RouteGuard>
        </Route>
      </Switch>
    </AdminShell>
  )
}
