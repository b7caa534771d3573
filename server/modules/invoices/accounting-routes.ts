// The accountant's calls (AGENCY.MANAGE, administrators): the invoices of a period with their tax
// groups, the ZIP of all PDFs and XMLs, the bookkeeping CSV, the DATEV Buchungsstapel, and the DATEV
// settings (docs/invoices.md, "For the accountant").
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { AppError } from '../../shared/errors'
import { requireOrganiser } from '../identity/auth'
import { type AccountingFilter, accountingDocuments, bookkeepingCsv, datevBuchungsstapel, documentsDto } from './accounting'
import { AccountingSettingsInput, accountingSettings, saveAccountingSettings } from './accounting-settings'
import { invoicesZip } from './zip'

const day = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'INVALID_DATE')
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'INVALID_DATE')
const Filter = z.object({ from: day().optional(), to: day().optional(), eventId: idParam().optional() })
const ListQuery = Filter.extend({ page: z.coerce.number().int().min(0).max(100_000).optional(), size: z.coerce.number().int().min(1).max(200).optional() })
const tags = ['invoices']

const download = (body: BodyInit, type: string, name: string) =>
  new Response(body, { headers: { 'content-type': type, 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store' } })
const span = (f: AccountingFilter) => `${f.from ?? 'Anfang'}_${f.to ?? 'heute'}`
function checkOrder(f: AccountingFilter) {
  if (f.from && f.to && f.from > f.to) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'to', errorType: 'INVALID_DATE' }] })
}

export function accountingRoutes(ctx: AppContext) {
  const admin = (c: any) => requireOrganiser(ctx, c, 'AGENCY.MANAGE')
  return new Elysia({ name: 'invoices-accounting' })
    .get(
      '/proxy/api/invoices/accounting',
      async (c) => {
        const a = await admin(c)
        checkOrder(c.query)
        return documentsDto(await accountingDocuments(ctx.db, a.account.agency_id, c.query), c.query.page ?? 0, c.query.size ?? 50)
      },
      { query: ListQuery, detail: { tags, summary: 'Invoices and credit notes of a period (invoice date from/to, eventId) with net/tax/gross per rate, state and the period\'s sums' } },
    )
    .get(
      '/proxy/api/invoices/accounting/csv',
      async (c) => {
        const a = await admin(c)
        checkOrder(c.query)
        const docs = await accountingDocuments(ctx.db, a.account.agency_id, c.query)
        return download(bookkeepingCsv(docs), 'text/csv; charset=utf-8', `Rechnungen_${span(c.query)}.csv`)
      },
      { query: Filter, detail: { tags, summary: 'Bookkeeping CSV: one line per document and tax rate' } },
    )
    .get(
      '/proxy/api/invoices/accounting/datev',
      async (c) => {
        const a = await admin(c)
        checkOrder(c.query)
        const { from, to } = c.query
        if (!from || !to) throw new AppError(400, 'DATEV_PERIOD_REQUIRED')
        const settings = await accountingSettings(ctx.db, a.account.agency_id)
        const docs = await accountingDocuments(ctx.db, a.account.agency_id, c.query)
        const bytes = datevBuchungsstapel(docs, settings, { from, to }, ctx.clock.now())
        return download(bytes as BodyInit, 'text/csv; charset=windows-1252', `EXTF_Buchungsstapel_${from}_${to}.csv`)
      },
      { query: Filter, detail: { tags, summary: 'DATEV Buchungsstapel (EXTF 700, Windows-1252) of a period (from and to required, one fiscal year)' } },
    )
    .get(
      '/proxy/api/invoices/accounting/zip',
      async (c) => {
        const a = await admin(c)
        checkOrder(c.query)
        const docs = await accountingDocuments(ctx.db, a.account.agency_id, c.query)
        return download(invoicesZip(docs), 'application/zip', `Rechnungen_${span(c.query)}.zip`)
      },
      { query: Filter, detail: { tags, summary: 'All documents of a period as ZIP (PDF and XRechnung CII per document)' } },
    )
    .get(
      '/proxy/api/agency/accountingSettings',
      async (c) => accountingSettings(ctx.db, (await admin(c)).account.agency_id),
      { detail: { tags, summary: 'The accountant\'s DATEV settings' } },
    )
    .put(
      '/proxy/api/agency/accountingSettings',
      async (c) => saveAccountingSettings(ctx, (await admin(c)).account.agency_id, c.body),
      { body: AccountingSettingsInput, detail: { tags, summary: 'Save the accountant\'s DATEV settings' } },
    )
}
