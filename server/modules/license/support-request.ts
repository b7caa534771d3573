// Ordering in the server edition (spec §2.6): nothing is booked online; the booking modal sends a
// support request naming what is wanted to the configured support address (config support.email),
// through the outbox like every mail, with who asks and for which agency and licence.
import { z } from 'zod'
import type { AppContext } from '../../context'
import { t } from '../../i18n/catalogue'
import { formatDate } from '../../i18n/format'
import { AppError } from '../../shared/errors'
import { audit } from '../audit/service'
import type { AccountActor } from '../identity/auth'
import { throttle } from '../identity/rate-limit'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import { KNOWN_FEATURES } from './license'

export const FEATURE_TYPES = ['FEATURE', 'MODULE', 'ADDITIONAL_EVENTS', 'ADDITIONAL_STORAGE', 'ADDITIONAL_ACCOUNTS', 'ADDITIONAL_AGENCY_USERS'] as const
const LIMIT_TYPES: readonly string[] = ['ADDITIONAL_EVENTS', 'ADDITIONAL_STORAGE', 'ADDITIONAL_ACCOUNTS', 'ADDITIONAL_AGENCY_USERS']

export const SupportRequestBody = z.object({
  featureType: z.enum(FEATURE_TYPES),
  featureCode: z.string().max(60).nullish(),
  /** how many more: events, guest accounts, agency users; storage in MB */
  amount: z.number().int().min(1, 'MIN_VALUE').max(1_000_000).nullish(),
  message: z.string().trim().min(1, 'REQUIRED').max(5000),
})
export type SupportRequestBody = z.infer<typeof SupportRequestBody>

/** "Mediengalerie" or "10 weitere Veranstaltungen": what the request is for, in German. */
export function wantedText(lang: string, b: Pick<SupportRequestBody, 'featureType' | 'featureCode' | 'amount'>): string {
  if (LIMIT_TYPES.includes(b.featureType)) return t(lang, `license.request.wanted.${b.featureType}`, { amount: b.amount ?? 0 })
  return t(lang, `license.feature.${b.featureCode}`)
}

export async function sendSupportRequest(ctx: AppContext, actor: AccountActor, body: SupportRequestBody) {
  const limit = LIMIT_TYPES.includes(body.featureType)
  if (limit && !body.amount) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'amount', errorType: 'REQUIRED' }] })
  if (!limit && !(KNOWN_FEATURES as readonly string[]).includes(body.featureCode ?? '')) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'featureCode', errorType: 'INVALID' }] })
  await throttle(ctx, [['LICENSE_REQUEST_USER', String(actor.user.id)]])
  const agency = await ctx.db.selectFrom('agency').select(['id', 'display_name']).where('id', '=', actor.account.agency_id).executeTakeFirstOrThrow()
  const l = ctx.license
  const lang = 'de'
  const wanted = wantedText(lang, body)
  const who = [actor.account.first_name, actor.account.last_name].filter(Boolean).join(' ')
  const mail = renderMail({
    subject: t(lang, 'license.request.mail.subject', { wanted, agency: agency.display_name }),
    greeting: t(lang, 'license.request.mail.greeting'),
    paragraphs: [
      ...body.message.split(/\n{2,}/),
      t(lang, 'license.request.mail.context', {
        agency: `${agency.display_name} (#${agency.id})`,
        licensee: l.licensee ?? t(lang, 'license.noHolder'),
        validUntil: l.validUntil ? formatDate(`${l.validUntil}T12:00:00Z`) : '–',
        who: who ? `${who} <${actor.user.email}>` : actor.user.email,
        server: ctx.config.baseUrl,
      }),
    ],
    footer: t(lang, 'license.request.mail.footer'),
  })
  await ctx.db.transaction().execute(async (trx) => {
    await enqueueMail(trx, { kind: 'SUPPORT_ORDER_REQUEST', to: ctx.config.support.email, ...mail, language: lang, agencyId: agency.id, userId: actor.user.id })
    await audit(ctx, trx, { agencyId: agency.id, actor, action: 'license.request', entityType: 'license', detail: { featureType: body.featureType, featureCode: body.featureCode ?? null, amount: body.amount ?? null } })
  })
  ctx.notifyMail()
  return { sent: true, supportEmail: ctx.config.support.email, wanted }
}
