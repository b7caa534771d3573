// The event as guests see it (guest-side.md section 3, Event) and as organisers edit it.
import type { AppContext } from '../../context'
import { bool, fromJson } from '../../db/types'
import type { EventRow } from './events.table'
import { incompleteReasons } from './repository'
import { freePlaces, registrationState } from './rules'
import { logoPath } from '../agency/branding'

type Label = { id: number; displayName: string; group: string | null; name: string; type: string }

export function publicEventDto(ctx: AppContext, e: EventRow, agency: { id: number; display_name: string; logo_asset_id?: number | null } | null) {
  return {
    id: e.id,
    displayName: e.display_name,
    subTitle: e.sub_title,
    description: e.description,
    startDate: e.start_date,
    endDate: e.end_date,
    timezone: e.timezone,
    useDate: bool(e.use_date),
    registrationFrom: e.registration_from,
    registrationUntil: e.registration_until,
    eventType: e.event_type,
    primaryColor: e.primary_color,
    accentColor: e.accent_color,
    image: e.image_asset_id ? { id: e.image_asset_id, path: `/proxy/api/asset/${e.image_asset_id}?dimension=Regular_1000` } : null,
    address: { locationName: e.location_name, street: e.street, streetNumber: e.street_number, postCode: e.post_code, city: e.city, country: e.country },
    hideDeclineButton: bool(e.hide_decline_button),
    useReporting: bool(e.use_reporting),
    disabledCovidStates: fromJson<string[]>(e.disabled_covid_states, []),
    maxVisitorPerSubscription: e.max_visitor_per_subscription,
    currency: e.currency,
    agency: agency ? { id: agency.id, displayName: agency.display_name, logoPath: logoPath(agency.id, agency.logo_asset_id) } : null,
    month: e.start_date.slice(0, 7),
    registrationButtonType: e.registration_button_type,
    externalConfirmationLink: e.external_confirmation_link,
    externalConfirmationLabel: e.external_confirmation_label,
    isPayedEvent: bool(e.is_paid),
    url: `${ctx.config.baseUrl}/public/event/${e.id}`,
    defaultPhoneLocale: e.default_phone_locale,
    lockBasicData: bool(e.lock_basic_data),
    allowTransfer: bool(e.allow_transfer),
    transferUntil: e.transfer_until,
    registrationState: registrationState(e, ctx.clock.now()),
    freePlaces: freePlaces(e),
  }
}

export function eventDto(ctx: AppContext, e: EventRow, labels: { tags: Label[]; campaigns: Label[] } = { tags: [], campaigns: [] }) {
  return {
    ...publicEventDto(ctx, e, null),
    agencyId: e.agency_id,
    status: e.status,
    visibility: e.visibility,
    archived: bool(e.archived),
    meetingUrl: e.meeting_url,
    maxVisitors: e.max_visitors,
    seatsTaken: e.seats_taken,
    requireApproval: bool(e.require_approval),
    allowSelfCheckin: bool(e.allow_self_checkin),
    allowSelfCheckout: bool(e.allow_self_checkout),
    checkinOpenDate: e.checkin_open_date,
    checkinTarget: e.checkin_target,
    checkinUrl: e.checkin_url,
    options: fromJson<string[]>(e.options, []),
    tags: labels.tags,
    campaigns: labels.campaigns,
    incomplete: incompleteReasons(e),
    createdAt: e.created_at,
    updatedAt: e.updated_at,
  }
}
