// The whole database as Kysely sees it: one line per domain's table file.
import type { AgencyTables } from '../modules/agency/agency.table'
import type { AgreementTables } from '../modules/agreements/agreements.table'
import type { DocumentTables } from '../modules/documents/documents.table'
import type { CheckinTables } from '../modules/checkin/checkin.table'
import type { AssetTables } from '../modules/assets/assets.table'
import type { MediaTables } from '../modules/media/media.table'
import type { AuditTables } from '../modules/audit/audit.table'
import type { EventTables } from '../modules/events/events.table'
import type { FormTables } from '../modules/forms/forms.table'
import type { GuestTables } from '../modules/guest/guest.table'
import type { IdentityTables } from '../modules/identity/identity.table'
import type { ImportTables } from '../modules/imports/imports.table'
import type { InvoiceTables } from '../modules/invoices/invoices.table'
import type { BankTables } from '../modules/bank/bank.table'
import type { MailTables } from '../modules/mail/mail.table'
import type { NotificationSettingsTables } from '../modules/notification-settings/notification-settings.table'
import type { PaymentsTables } from '../modules/payments/payments.table'
import type { SeatingTables } from '../modules/seating/seating.table'
import type { ShortLinkTables } from '../modules/shortlinks/shortlinks.table'
import type { SystemTables } from '../modules/system/system.table'
import type { TagTables } from '../modules/tags/tags.table'
import type { TaskTables } from '../modules/tasks/tasks.table'
import type { HelpTables } from '../modules/help/help.table'
import type { TicketingTables } from '../modules/ticketing/ticketing.table'
import type { VisitorTables } from '../modules/visitors/visitors.table'

export interface DB
  extends AgencyTables,
    IdentityTables,
    EventTables,
    VisitorTables,
    MailTables,
    TaskTables,
    TagTables,
    ShortLinkTables,
    AgreementTables,
    CheckinTables,
    ImportTables,
    FormTables,
    AssetTables,
    MediaTables,
    NotificationSettingsTables,
    InvoiceTables,
    SeatingTables,
    GuestTables,
    HelpTables,
    DocumentTables,
    TicketingTables,
    PaymentsTables,
    AuditTables,
    BankTables,
    SystemTables {}
