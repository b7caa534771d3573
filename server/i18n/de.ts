// The German catalogue: every module's `de` messages. The UI bundles this one (German first);
// other languages are fetched from /proxy/api/public/translations. Add a module with one line.
import { de as agreements } from '../modules/agreements/messages'
import { de as checkin } from '../modules/checkin/messages'
import { de as documents } from '../modules/documents/messages'
import { de as agencyUsers } from '../modules/agency-users/messages'
import { de as audit } from '../modules/audit/messages'
import { de as events } from '../modules/events/messages'
import { de as forms } from '../modules/forms/messages'
import { de as organiser } from '../modules/events/organiser-messages'
import { de as guest } from '../modules/guest/messages'
import { de as guestPortal } from '../modules/guest/portal-messages'
import { de as guestNotifications } from '../modules/guest-notifications/messages'
import { de as help } from '../modules/help/messages'
import { de as identity } from '../modules/identity/messages'
import { de as sso } from '../modules/identity/sso/messages'
import { de as invoices } from '../modules/invoices/messages'
import { de as bank } from '../modules/bank/messages'
import { de as license } from '../modules/license/messages'
import { de as mail } from '../modules/mail/messages'
import { de as notificationSettings } from '../modules/notification-settings/messages'
import { de as registration } from '../modules/registration/messages'
import { de as seating } from '../modules/seating/messages'
import { de as visitors } from '../modules/visitors/messages'
import { de as ticketing } from '../modules/ticketing/messages'
import { de as orderDeadline } from '../modules/ticketing/deadline-messages'
import { de as payments } from '../modules/payments/messages'
import { de as media } from '../modules/media/messages'
import { de as common } from './messages/common'

export const de: Record<string, string> = {
  ...common,
  ...identity,
  ...sso,
  ...events,
  ...registration,
  ...forms,
  ...guest,
  ...guestPortal,
  ...mail,
  ...license,
  ...visitors,
  ...checkin,
  ...agencyUsers,
  ...audit,
  ...notificationSettings,
  ...agreements,
  ...organiser,
  ...invoices,
  ...bank,
  ...seating,
  ...guestNotifications,
  ...help,
  ...documents,
  ...ticketing,
  ...orderDeadline,
  ...payments,
  ...media,
}
