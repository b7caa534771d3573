// The registration's confirmation mail: queued in the registration's transaction with the status it
// confirms and the guest's access token, rendered by the mail worker from the registration as stored
// (its answers in the guest's language, the seats it holds).
import type { AppContext } from '../../context'
import { fromJson } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { formatTime } from '../../i18n/format'
import { formatDateIn } from '../../i18n/locale-format'
import type { EventRow } from '../events/events.table'
import { localisedEvent } from '../events/translations'
import { type FieldDef, kindOf, labelOf } from '../forms/definitions'
import { valueText } from '../forms/value-text'
import { formDefinitions } from '../forms/service'
import { mailGreeting } from '../mail/greeting'
import { renderMail } from '../mail/render'
import { mailTextFor } from '../mail/texts'
import { MailSubjectGone, registerMailTemplate } from '../mail/templates'
import { chairsOfVisitors } from '../seating/holds'
import type { VisitorStatus } from '../visitors/visitors.table'

export const CONFIRMATION_TEMPLATE = 'REGISTRATION_CONFIRMATION'
/** What the confirmation needs besides the database: the status it confirms and the guest's access token. */
export interface ConfirmationParams {
  status: VisitorStatus
  token: string
}

interface MailPerson {
  salutation?: string | null
  title?: string | null
  firstName?: string | null
  lastName?: string | null
  status: VisitorStatus
  visitorCount: number
}

/**
 * The confirmation, rendered by the mail worker from the registration as stored (its answers in the
 * guest's language) and the status it was made with.
 */
registerMailTemplate<ConfirmationParams>(CONFIRMATION_TEMPLATE, async (ctx, m, p) => {
  const v = m.visitor_id ? await ctx.db.selectFrom('event_visitor').select(['event_id', 'salutation', 'title', 'first_name', 'last_name', 'visitor_count']).where('id', '=', m.visitor_id).executeTakeFirst() : undefined
  const event = v && (await ctx.db.selectFrom('event').selectAll().where('id', '=', v.event_id).executeTakeFirst())
  if (!v || !event) throw new MailSubjectGone('the registration is gone')
  const agency = await ctx.db.selectFrom('agency').select('display_name').where('id', '=', event.agency_id).executeTakeFirst()
  const values = await ctx.db.selectFrom('visitor_field_value').select(['field_id', 'value']).where('visitor_id', '=', m.visitor_id!).execute()
  const fields = Object.fromEntries(values.map((x) => [String(x.field_id), fromJson<unknown>(x.value, null)]))
  const person = { salutation: v.salutation, title: v.title, firstName: v.first_name, lastName: v.last_name, visitorCount: v.visitor_count, status: p.status }
  // the seats the registration holds on the event's seating plan
  const seats = ((await chairsOfVisitors(ctx.db, [m.visitor_id!])).get(m.visitor_id!) ?? []).map((c) => (c.amount > 1 ? `${c.label} (${c.amount})` : c.label))
  // the event's name and place in the guest's language where the organiser translated them
  return confirmationMail(ctx, await localisedEvent(ctx.db, event, m.language), agency?.display_name ?? '', person, m.language, await formDefinitions(ctx.db, event), fields, p.token, seats)
})

async function confirmationMail(ctx: AppContext, event: EventRow, agencyName: string, person: MailPerson, lang: string, defs: FieldDef[], fields: Record<string, unknown>, token: string, seats: string[] = []) {
  const name = [person.salutation, person.title, person.firstName, person.lastName].filter(Boolean).join(' ')
  const kind = person.status === 'REQUIRE_APPROVAL' ? 'approval' : person.status === 'WAITING_LIST' ? 'waitingList' : 'confirmed'
  const url = `${ctx.config.baseUrl}/guest/dashboard?token=${encodeURIComponent(token)}`
  const params = { event: event.display_name, date: formatDateIn(lang, event.start_date, event.timezone), time: formatTime(event.start_date, event.timezone), name, agency: agencyName }
  const place = event.event_type === 'ONLINE' ? t(lang, 'events.online') : [event.location_name, event.city].filter(Boolean).join(', ')
  // What the guest chose (timeslots, options, answers), so the mail is a complete receipt.
  const details = defs
    .filter((f) => fields[String(f.id)] !== undefined && f.id > 0 && !['IMAGE', 'FILE'].includes(kindOf(f)))
    .map((f) => `${labelOf(f, lang)}: ${valueText(f, fields[String(f.id)], lang)}`)
  const subjectKey = { confirmed: 'registration.mail.subject', approval: 'registration.mail.subjectApproval', waitingList: 'registration.mail.subjectWaitingList' }[kind]
  // the agency's own wording (mail/texts.ts) replaces the confirmation proper; approval and waiting list keep theirs
  const own = kind === 'confirmed' ? await mailTextFor(ctx.db, event.agency_id, 'REGISTRATION_CONFIRMATION', lang, params) : { subject: t(lang, subjectKey, params), paragraphs: [t(lang, `registration.mail.${kind}`, params)] }
  return renderMail({
    subject: own.subject,
    greeting: mailGreeting(lang, person),
    paragraphs: [
      ...own.paragraphs,
      t(lang, 'registration.mail.persons', { n: person.visitorCount }),
      ...(place ? [t(lang, 'registration.mail.place', { place })] : []),
      ...(seats.length ? [t(lang, 'registration.mail.seats', { labels: seats.join(', ') })] : []),
      ...details,
    ],
    button: { label: t(lang, 'registration.mail.button'), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    footer: t(lang, 'mail.footer', { agency: agencyName }),
    accentColor: event.primary_color,
  })
}
