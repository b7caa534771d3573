// The organiser's agreement texts in other languages (issue 24, docs/languages.md "Organiser texts"):
// name and text per language; an empty field reads the German text. The public form carries every
// language's translation (the page picks the guest's), the guest dashboard the request's language.
import { z } from 'zod'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { overlay, translatableLanguages, translationLanguage } from '../../i18n/organiser-texts'
import { fieldError } from '../../shared/errors'
import { optionalText } from '../../shared/validation'
import { sanitizeRichText } from '../events/rich-text'
import type { AgreementRow, AgreementTranslationRow } from './agreements.table'

/** The same limits as the German fields (model.ts AgreementInput). */
export const AgreementTranslationInput = z.object({
  displayName: optionalText(200),
  description: optionalText(100_000),
})
export type AgreementTranslationInput = z.infer<typeof AgreementTranslationInput>

export interface AgreementTexts {
  displayName: string | null
  description: string | null
}
const textsOf = (r: { display_name: string | null; description: string | null }): AgreementTexts => ({ displayName: r.display_name, description: r.description })

/** What the organiser's translation section shows: the German texts and each language's translation. */
export async function agreementTranslations(ctx: AppContext, agreement: AgreementRow) {
  const languages = translatableLanguages(ctx.license.features)
  const rows = await ctx.db.selectFrom('agreement_translation').selectAll().where('agreement_id', '=', agreement.id).execute()
  const translations: Record<string, AgreementTexts> = {}
  for (const r of rows) if (languages.includes(r.language)) translations[r.language] = textsOf(r)
  return { languages, german: textsOf(agreement), translations }
}

/** Saves one language's texts (both empty: the translation is removed). */
export async function saveAgreementTranslation(ctx: AppContext, agreement: AgreementRow, language: string, input: AgreementTranslationInput): Promise<AgreementTexts> {
  if (!translatableLanguages(ctx.license.features).includes(language)) throw fieldError([{ field: 'language', errorType: 'INVALID' }])
  const values = { display_name: input.displayName ?? null, description: sanitizeRichText(input.description ?? null) || null }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('agreement_translation').where('agreement_id', '=', agreement.id).where('language', '=', language).execute()
    if (values.display_name || values.description) await trx.insertInto('agreement_translation').values({ agreement_id: agreement.id, language, ...values, updated_at: isoNow(ctx.clock.now()) }).execute()
  })
  return textsOf(values)
}

/** Agreements' translations: by agreement id, by language (non-empty fields only), for the licence's languages. */
export async function publicAgreementTranslations(ctx: AppContext, agreementIds: number[]): Promise<Map<number, Record<string, Partial<AgreementTexts>>>> {
  const out = new Map<number, Record<string, Partial<AgreementTexts>>>()
  if (!agreementIds.length) return out
  const languages = translatableLanguages(ctx.license.features)
  const rows = await ctx.db.selectFrom('agreement_translation').selectAll().where('agreement_id', 'in', agreementIds).execute()
  for (const r of rows) {
    if (!languages.includes(r.language)) continue
    const texts: Partial<AgreementTexts> = {}
    if (r.display_name) texts.displayName = r.display_name
    if (r.description) texts.description = sanitizeRichText(r.description) ?? undefined
    out.set(r.agreement_id, { ...out.get(r.agreement_id), [r.language]: texts })
  }
  return out
}

/** Agreement rows as a guest reading `lang` sees them (the rows are copied: cached rows stay as they are). */
export async function localisedAgreements(db: Db, rows: AgreementRow[], lang: string): Promise<AgreementRow[]> {
  const language = translationLanguage(lang)
  if (!language || !rows.length) return rows
  const tr = await db.selectFrom('agreement_translation').selectAll().where('agreement_id', 'in', rows.map((r) => r.id)).where('language', '=', language).execute()
  const by = new Map<number, AgreementTranslationRow>(tr.map((r) => [r.agreement_id, r]))
  return rows.map((r) => overlay(r, by.get(r.id) as Partial<AgreementRow> | undefined, ['display_name', 'description'] as const))
}
