// The organiser's event texts in other languages (issue 24, docs/languages.md "Organiser texts"):
// name, subtitle, description and location name per language; an empty field reads the German text.
// Guests see the translation of their language on the public page, the dashboard, in mails and PDFs.
import { z } from 'zod'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { overlay, translatableLanguages, translationLanguage } from '../../i18n/organiser-texts'
import { fieldError } from '../../shared/errors'
import { optionalText } from '../../shared/validation'
import type { EventRow, EventTranslationRow } from './events.table'
import { sanitizeRichText } from './rich-text'
import { onEventCopied } from './hooks'

/** The same limits as the German fields (model.ts EventInput). */
export const EventTranslationInput = z.object({
  displayName: optionalText(200),
  subTitle: optionalText(300),
  description: optionalText(50000),
  locationName: optionalText(200),
})
export type EventTranslationInput = z.infer<typeof EventTranslationInput>

export const TRANSLATED_EVENT_FIELDS = ['display_name', 'sub_title', 'description', 'location_name'] as const

export interface EventTexts {
  displayName: string | null
  subTitle: string | null
  description: string | null
  locationName: string | null
}

const textsOf = (r: Pick<EventTranslationRow, (typeof TRANSLATED_EVENT_FIELDS)[number]>): EventTexts => ({
  displayName: r.display_name,
  subTitle: r.sub_title,
  description: r.description,
  locationName: r.location_name,
})

/** A language the licence offers for translations, else a field error on `language`. */
export function assertTranslatable(ctx: AppContext, language: string) {
  if (!translatableLanguages(ctx.license.features).includes(language)) throw fieldError([{ field: 'language', errorType: 'INVALID' }])
}

/** What the organiser's translation screen shows: the German texts and each language's translation. */
export async function eventTranslations(ctx: AppContext, event: EventRow) {
  const languages = translatableLanguages(ctx.license.features)
  const rows = await ctx.db.selectFrom('event_translation').selectAll().where('event_id', '=', event.id).execute()
  const translations: Record<string, EventTexts> = {}
  for (const r of rows) if (languages.includes(r.language)) translations[r.language] = textsOf(r)
  return { languages, german: textsOf(event), translations }
}

/** Saves one language's texts (all empty: the translation is removed). */
export async function saveEventTranslation(ctx: AppContext, event: EventRow, language: string, input: EventTranslationInput): Promise<EventTexts> {
  assertTranslatable(ctx, language)
  const values = { display_name: input.displayName ?? null, sub_title: input.subTitle ?? null, description: sanitizeRichText(input.description ?? null) || null, location_name: input.locationName ?? null }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('event_translation').where('event_id', '=', event.id).where('language', '=', language).execute()
    if (Object.values(values).some((v) => v)) await trx.insertInto('event_translation').values({ event_id: event.id, language, ...values, updated_at: isoNow(ctx.clock.now()) }).execute()
  })
  return textsOf(values)
}

/** The public page's translations: every language the organiser translated into, non-empty fields only (the page picks the guest's). */
export async function publicEventTranslations(ctx: AppContext, eventId: number): Promise<Record<string, Partial<EventTexts>>> {
  const languages = translatableLanguages(ctx.license.features)
  const rows = await ctx.db.selectFrom('event_translation').selectAll().where('event_id', '=', eventId).execute()
  const out: Record<string, Partial<EventTexts>> = {}
  for (const r of rows) {
    if (!languages.includes(r.language)) continue
    const texts = textsOf({ ...r, description: r.description ? sanitizeRichText(r.description) : null })
    out[r.language] = Object.fromEntries(Object.entries(texts).filter(([, v]) => v)) as Partial<EventTexts>
  }
  return out
}

/** The event as a guest reading `lang` sees it: the organiser's translation over the German texts. */
export async function localisedEvent<E extends Pick<EventRow, 'id'> & Partial<Pick<EventRow, (typeof TRANSLATED_EVENT_FIELDS)[number]>>>(db: Db, event: E, lang: string): Promise<E> {
  const language = translationLanguage(lang)
  if (!language) return event
  const row = await db.selectFrom('event_translation').selectAll().where('event_id', '=', event.id).where('language', '=', language).executeTakeFirst()
  return overlay(event, row as Partial<E> | undefined, TRANSLATED_EVENT_FIELDS.filter((f) => f in event) as (keyof E)[])
}

/** Many events at once (the guest dashboard): each event's translation row in the guest's language. */
export async function translationsOfEvents(db: Db, eventIds: number[], lang: string): Promise<Map<number, EventTranslationRow>> {
  const language = translationLanguage(lang)
  if (!language || !eventIds.length) return new Map()
  const rows = await db.selectFrom('event_translation').selectAll().where('event_id', 'in', eventIds).where('language', '=', language).execute()
  return new Map(rows.map((r) => [r.event_id, r]))
}

/** The event row with a translation row's non-empty texts in place of the German ones. */
export const withTranslation = <E extends Pick<EventRow, (typeof TRANSLATED_EVENT_FIELDS)[number]>>(event: E, row: EventTranslationRow | undefined): E => overlay(event, row as Partial<E> | undefined, TRANSLATED_EVENT_FIELDS as readonly (keyof E)[])

// A copy takes the translations along; a translated name only while the copy keeps the German name
// (a renamed copy would otherwise show the old name in other languages).
onEventCopied.push(async (_ctx, trx, from, to) => {
  const rows = await trx.selectFrom('event_translation').selectAll().where('event_id', '=', from.id).execute()
  if (!rows.length) return
  const names = await trx.selectFrom('event').select(['id', 'display_name']).where('id', 'in', [from.id, to.id]).execute()
  const renamed = names.find((n) => n.id === from.id)?.display_name !== names.find((n) => n.id === to.id)?.display_name
  for (const { id: _id, event_id: _e, ...r } of rows) {
    const row = { ...r, display_name: renamed ? null : r.display_name }
    if (row.display_name || row.sub_title || row.description || row.location_name) await trx.insertInto('event_translation').values({ ...row, event_id: to.id }).execute()
  }
})
