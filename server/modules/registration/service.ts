// Public registration: one transaction takes the places, stores the guest and queues the
// confirmation mail, or nothing happens at all.
import type { AppContext } from '../../context'
import { type Db, isUniqueViolation } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { formatDate, formatTime } from '../../i18n/format'
import { resolveLanguage } from '../../i18n/languages'
import { AppError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { registrationState } from '../events/rules'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { randomString } from '../identity/tokens'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import { takeSeats } from '../visitors/capacity'
import type { EventVisitorRow, VisitorStatus } from '../visitors/visitors.table'
import type { RegistrationInput } from './model'

export interface RegistrationResult {
  visitor: EventVisitorRow
  status: VisitorStatus
}

const STATE_ERROR = { NOT_OPEN: 'REGISTRATION_NOT_OPEN', CLOSED: 'REGISTRATION_CLOSED', EXPIRED: 'EVENT_EXPIRED', FULL: 'EVENT_FULL' } as const

/** Finds the guest's user by e-mail or creates one without a password (they log in by link). */
async function guestUser(trx: Db, email: string, language: string) {
  const existing = await trx.selectFrom('app_user').select(['id']).where('email', '=', email).executeTakeFirst()
  if (existing) return existing.id
  // another registration may create the same guest at the same moment (for another event)
  const row = await trx.insertInto('app_user').values({ email, password_hash: null, status: 'OK', language }).onConflict((oc) => oc.column('email').doNothing()).returning('id').executeTakeFirst()
  return row?.id ?? (await trx.selectFrom('app_user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
}

export async function registerPublic(ctx: AppContext, eventId: number, input: RegistrationInput, requestLanguage: string): Promise<RegistrationResult> {
  const language = resolveLanguage(input.language ?? requestLanguage, ctx.license.features)
  const persons = 1 + input.escortPersons.length
  const result = await ctx.db.transaction().execute(async (trx) => {
    const event = await trx.selectFrom('event').selectAll().where('id', '=', eventId).executeTakeFirst()
    if (!event || event.status !== 'OK' || event.visibility === 'OFFLINE') throw notFound()
    const state = registrationState({ ...event, max_visitors: null }, ctx.clock.now())
    if (state !== 'OPEN') throw new AppError(409, STATE_ERROR[state])
    if (event.max_visitor_per_subscription > 0 && persons > event.max_visitor_per_subscription) {
      throw new AppError(400, 'TOO_MANY_PERSONS', { params: { max: event.max_visitor_per_subscription } })
    }
    const dup = await trx.selectFrom('event_visitor').select('id').where('event_id', '=', eventId).where('email', '=', input.email).executeTakeFirst()
    if (dup) throw new AppError(409, 'ALREADY_REGISTERED', { fields: [{ field: 'email', errorType: 'ALREADY_REGISTERED' }] })
    if (!(await takeSeats(trx, eventId, persons))) throw new AppError(409, 'EVENT_FULL')

    const status: VisitorStatus = bool(event.require_approval) ? 'REQUIRE_APPROVAL' : 'CONFIRMED'
    const userId = await guestUser(trx, input.email, language)
    const now = isoNow(ctx.clock.now())
    const visitor = await trx
      .insertInto('event_visitor')
      .values({
        event_id: eventId,
        user_id: userId,
        status,
        salutation: input.salutation,
        title: input.title,
        first_name: input.firstName,
        last_name: input.lastName,
        email: input.email,
        visitor_count: persons,
        seats_held: persons,
        event_token: randomString(20),
        download_token: randomString(20),
        source: 'PUBLIC',
        language,
        registered_at: now,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (input.escortPersons.length) {
      await trx
        .insertInto('escort_person')
        .values(
          input.escortPersons.map((e, i) => ({
            visitor_id: visitor.id,
            number: i + 1,
            salutation: e.salutation,
            title: e.title,
            first_name: e.firstName,
            last_name: e.lastName,
            email: e.email ?? null,
          })),
        )
        .execute()
    }
    const token = await issueAccessToken(ctx, trx, userId, GUEST_ACCESS)
    await queueConfirmation(ctx, trx, event, visitor, token, language)
    return { visitor, status }
  }).catch((e) => {
    // the same e-mail registering twice at the same moment: the unique index decides, not a 500
    if (isUniqueViolation(e, 'event_visitor')) throw new AppError(409, 'ALREADY_REGISTERED', { fields: [{ field: 'email', errorType: 'ALREADY_REGISTERED' }] })
    throw e
  })
  ctx.notifyMail()
  return result
}

async function queueConfirmation(ctx: AppContext, trx: Db, event: EventRow, visitor: EventVisitorRow, token: string, lang: string) {
  const agency = await trx.selectFrom('agency').select('display_name').where('id', '=', event.agency_id).executeTakeFirst()
  const name = [visitor.salutation, visitor.title, visitor.first_name, visitor.last_name].filter(Boolean).join(' ')
  const approval = visitor.status === 'REQUIRE_APPROVAL'
  const url = `${ctx.config.baseUrl}/guest/dashboard?token=${encodeURIComponent(token)}`
  const params = { event: event.display_name, date: formatDate(event.start_date, event.timezone), time: formatTime(event.start_date, event.timezone), name }
  const place = event.event_type === 'ONLINE' ? t(lang, 'events.online') : [event.location_name, event.city].filter(Boolean).join(', ')
  const mail = renderMail({
    subject: t(lang, approval ? 'registration.mail.subjectApproval' : 'registration.mail.subject', params),
    greeting: t(lang, 'registration.mail.greeting', params),
    paragraphs: [
      t(lang, approval ? 'registration.mail.approval' : 'registration.mail.confirmed', params),
      t(lang, 'registration.mail.persons', { n: visitor.visitor_count }),
      ...(place ? [t(lang, 'registration.mail.place', { place })] : []),
    ],
    button: { label: t(lang, 'registration.mail.button'), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    footer: t(lang, 'mail.footer', { agency: agency?.display_name ?? '' }),
    accentColor: event.primary_color,
  })
  await enqueueMail(trx, {
    kind: 'REGISTRATION_CONFIRMATION',
    to: visitor.email!,
    toName: [visitor.first_name, visitor.last_name].filter(Boolean).join(' '),
    ...mail,
    language: lang,
    agencyId: event.agency_id,
    eventId: event.id,
    visitorId: visitor.id,
    userId: visitor.user_id,
  })
}
