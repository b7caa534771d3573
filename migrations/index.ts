// The static list of migrations the binary embeds (a file provider cannot list files inside a
// compiled executable). Names sort in the order they run; add new ones at the end.
import type { Migration } from 'kysely'
import * as m001 from './2026-11-22-001_core'
import * as m200 from './2026-11-22-200_identity'
import * as m300 from './2026-11-22-300_forms'
import * as m401 from './2026-11-22-401_organiser'
import * as m402 from './2026-11-22-402_guest_list_indexes'
import * as m601 from './2026-11-22-601_checkin_counts'
import * as m701 from './2026-11-22-701_recipient_generation'
import * as m702 from './2026-11-22-702_mail_templates'
import * as m703 from './2026-11-22-703_partial_indexes'
import * as m2311_100 from './2026-11-23-100_guest_link_sessions'
import * as m2311_120 from './2026-11-23-120_security_b'
import * as m2323_210 from './2026-11-23-210_recovery_codes_consents'
import * as m310d from './2026-11-23-310_documents'
import * as m320g from './2026-11-23-320_guest_transfer'
import * as m330x from './2026-11-23-330_guest_extras'
import * as m410t from './2026-11-23-410_ticketing'
import * as m2311_420 from './2026-11-23-420_invoices'
import * as m2311_430p from './2026-11-23-430_payments'
import * as m2311_510 from './2026-11-23-510_seating'
import * as m2511_620 from './2026-11-25-620_payment_refund_unique'
import * as m2511_630 from './2026-11-25-630_order_chairs'
import * as m2511_640 from './2026-11-25-640_agency_logo'
import * as m2511_650 from './2026-11-25-650_chair_hold_index'
import * as m2611_700 from './2026-11-26-700_setup_generation'
import * as m2711_710 from './2026-11-27-710_refund_status'
import * as m2811_100 from './2026-11-28-100_invoice_tickets'
import * as m2811_200 from './2026-11-28-200_escort_rules'
import * as m2811_300 from './2026-11-28-300_payment_event_per_method'
import * as m2811_400 from './2026-11-28-400_address_holds'
import * as m2811_410 from './2026-11-28-410_upload_pool'
import * as m2811_420 from './2026-11-28-420_feedback_agency'
import * as m2811_500 from './2026-11-28-500_currency_prefix'
import * as m2811_720 from './2026-11-28-720_imprint_one_place'
import * as m2811_900 from './2026-11-28-900_audit_log'
import * as m2811_910 from './2026-11-28-910_accounting_settings'
import * as m2811_911 from './2026-11-28-911_bank_entries'
import * as m2811_980 from './2026-11-28-980_request_id_mail_task'
import * as m2911_200 from './2026-11-29-200_payment_deadline'
import * as m2911_210 from './2026-11-29-210_cancellation_requests'
import * as m2911_300 from './2026-11-29-300_selling_rules'
import * as m2911_400 from './2026-11-29-400_install_state'
import * as m2911_600 from './2026-11-29-600_mail_settings'
import * as m2911_650 from './2026-11-29-650_mail_texts'
import * as m2911_700 from './2026-11-29-700_staff_sso'
import * as m2911_900 from './2026-11-29-900_checkin_lists'
import * as m2911_910 from './2026-11-29-910_checkin_list_entries'
import * as m2911_920 from './2026-11-29-920_checkin_offline'
import * as m2911_920m from './2026-11-29-920_media_gallery'
import * as m3011_100 from './2026-11-30-100_event_translations'
import * as m3011_100r from './2026-11-30-100_line_refunds'

export const migrations: Record<string, Migration> = {
  '2026-11-22-001_core': m001,
  '2026-11-22-200_identity': m200,
  '2026-11-22-300_forms': m300,
  '2026-11-22-401_organiser': m401,
  '2026-11-22-402_guest_list_indexes': m402,
  '2026-11-22-601_checkin_counts': m601,
  '2026-11-22-701_recipient_generation': m701,
  '2026-11-22-702_mail_templates': m702,
  '2026-11-22-703_partial_indexes': m703,
  '2026-11-23-100_guest_link_sessions': m2311_100,
  '2026-11-23-120_security_b': m2311_120,
  '2026-11-23-210_recovery_codes_consents': m2323_210,
  '2026-11-23-310_documents': m310d,
  '2026-11-23-320_guest_transfer': m320g,
  '2026-11-23-330_guest_extras': m330x,
  '2026-11-23-410_ticketing': m410t,
  '2026-11-23-420_invoices': m2311_420,
  '2026-11-23-430_payments': m2311_430p,
  '2026-11-23-510_seating': m2311_510,
  '2026-11-25-620_payment_refund_unique': m2511_620,
  '2026-11-25-630_order_chairs': m2511_630,
  '2026-11-25-640_agency_logo': m2511_640,
  '2026-11-25-650_chair_hold_index': m2511_650,
  '2026-11-26-700_setup_generation': m2611_700,
  '2026-11-27-710_refund_status': m2711_710,
  '2026-11-28-100_invoice_tickets': m2811_100,
  '2026-11-28-200_escort_rules': m2811_200,
  '2026-11-28-300_payment_event_per_method': m2811_300,
  '2026-11-28-400_address_holds': m2811_400,
  '2026-11-28-410_upload_pool': m2811_410,
  '2026-11-28-420_feedback_agency': m2811_420,
  '2026-11-28-500_currency_prefix': m2811_500,
  '2026-11-28-720_imprint_one_place': m2811_720,
  '2026-11-28-900_audit_log': m2811_900,
  '2026-11-28-910_accounting_settings': m2811_910,
  '2026-11-28-911_bank_entries': m2811_911,
  '2026-11-28-980_request_id_mail_task': m2811_980,
  '2026-11-29-200_payment_deadline': m2911_200,
  '2026-11-29-210_cancellation_requests': m2911_210,
  '2026-11-29-300_selling_rules': m2911_300,
  '2026-11-29-400_install_state': m2911_400,
  '2026-11-29-600_mail_settings': m2911_600,
  '2026-11-29-650_mail_texts': m2911_650,
  '2026-11-29-700_staff_sso': m2911_700,
  '2026-11-29-900_checkin_lists': m2911_900,
  '2026-11-29-910_checkin_list_entries': m2911_910,
  '2026-11-29-920_checkin_offline': m2911_920,
  '2026-11-29-920_media_gallery': m2911_920m,
  '2026-11-30-100_event_translations': m3011_100,
  '2026-11-30-100_line_refunds': m3011_100r,
}
