// Every domain's routes, in the order they are mounted. Add a domain with one line here.
import type { Elysia } from 'elysia'
import type { AppContext } from '../context'
import { agencyRoutes } from './agency'
import { agreementRoutes } from './agreements'
import { checkinRoutes } from './checkin'
import { offlineCheckinRoutes } from './checkin/offline-routes'
import { documentRoutes } from './documents'
import { assetRoutes } from './assets'
import { auditRoutes } from './audit'
import { bankRoutes } from './bank'
import { eventRoutes } from './events'
import { formRoutes } from './forms'
import { guestRoutes } from './guest'
import { guestNotificationRoutes } from './guest-notifications'
import { helpRoutes } from './help'
import { identityRoutes } from './identity'
import { importRoutes } from './imports'
import { invoiceRoutes } from './invoices'
import { licenseRoutes } from './license'
import { mailRoutes } from './mail'
import { mediaRoutes } from './media'
import { agencyUserRoutes } from './agency-users'
import { notificationSettingsRoutes } from './notification-settings'
import { registrationRoutes } from './registration'
import { seatingRoutes } from './seating'
import { shortLinkRoutes } from './shortlinks'
import { statisticsRoutes } from './statistics'
import { tagRoutes } from './tags'
import { reservationRoutes } from './reservations'
import { taskRoutes } from './tasks'
import { ticketingRoutes } from './ticketing'
import { paymentRoutes } from './payments'
import { visitorRoutes } from './visitors'

export const MODULES: Array<(ctx: AppContext) => Elysia<any, any, any, any, any, any, any>> = [
  identityRoutes,
  eventRoutes,
  visitorRoutes,
  registrationRoutes,
  formRoutes,
  reservationRoutes,
  assetRoutes,
  guestRoutes,
  taskRoutes,
  licenseRoutes,
  tagRoutes,
  checkinRoutes,
  offlineCheckinRoutes,
  agencyUserRoutes,
  notificationSettingsRoutes,
  importRoutes,
  agreementRoutes,
  shortLinkRoutes,
  statisticsRoutes,
  invoiceRoutes,
  seatingRoutes,
  guestNotificationRoutes,
  helpRoutes,
  documentRoutes,
  ticketingRoutes,
  paymentRoutes,
  agencyRoutes,
  auditRoutes,
  bankRoutes,
  mailRoutes,
  mediaRoutes,
]
