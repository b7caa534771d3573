// Organiser routes of invoices: the list and the files (PDF, XRechnung CII and UBL, ZUGFeRD).
// Issuing happens where a sale settles (ticketing), never through a route of its own.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { accountingRoutes } from './accounting-routes'
import { invoiceOfAgency, listInvoices, snapshotOf } from './service'

// loaded on first use (issue 25): pdf-lib, fontkit and the e-invoice library are not evaluated at start
import type * as InvoicePdf from './pdf'
const renderInvoicePdf: typeof InvoicePdf.renderInvoicePdf = async (...a) => (await import('./pdf')).renderInvoicePdf(...(a as Parameters<typeof InvoicePdf.renderInvoicePdf>))
// the e-invoice library, likewise on first use
import type * as InvoiceXml from './xml'
const renderFacturX: typeof InvoiceXml.renderFacturX = async (...a) => (await import('./xml')).renderFacturX(...(a as Parameters<typeof InvoiceXml.renderFacturX>))
const renderXml: typeof InvoiceXml.renderXml = async (...a) => (await import('./xml')).renderXml(...(a as Parameters<typeof InvoiceXml.renderXml>))

const IdParams = z.object({ id: idParam() })
const file = (bytes: Uint8Array | string, type: string, name: string) =>
  new Response(bytes as BodyInit, { headers: { 'content-type': type, 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store' } })

export function invoiceRoutes(ctx: AppContext) {
  const own = async (c: any) => {
    const a = await requireOrganiser(ctx, c, 'EVENT.GUEST.EXPORT')
    return invoiceOfAgency(ctx.db, a.account.agency_id, c.params.id)
  }
  return new Elysia({ name: 'invoices' })
    .use(accountingRoutes(ctx))
    .get(
      '/proxy/api/invoices',
      async (c) => {
        const a = await requireOrganiser(ctx, c, 'EVENT.GUEST.EXPORT')
        return listInvoices(ctx.db, a.account.agency_id, { eventId: c.query.eventId, page: c.query.page ?? 0, size: c.query.size ?? 50 })
      },
      {
        query: z.object({ eventId: idParam().optional(), page: z.coerce.number().int().min(0).max(100_000).optional(), size: z.coerce.number().int().min(1).max(200).optional() }),
        detail: { tags: ['invoices'], summary: 'Invoices and cancellation invoices of the agency (newest first; ?eventId=, page, size)' },
      },
    )
    .get(
      '/proxy/api/invoices/:id/pdf',
      async (c) => {
        const row = await own(c)
        return file(await renderInvoicePdf(snapshotOf(row)), 'application/pdf', `Rechnung-${row.number}.pdf`)
      },
      { params: IdParams, detail: { tags: ['invoices'], summary: 'The invoice as PDF' } },
    )
    .get(
      '/proxy/api/invoices/:id/xrechnung',
      async (c) => {
        const row = await own(c)
        const syntax = c.query.syntax ?? 'CII'
        return file(await renderXml(snapshotOf(row), syntax), 'application/xml; charset=utf-8', `XRechnung-${row.number}-${syntax}.xml`)
      },
      { params: IdParams, query: z.object({ syntax: z.enum(['CII', 'UBL']).optional() }), detail: { tags: ['invoices'], summary: 'The invoice as XRechnung (?syntax=CII default, or UBL)' } },
    )
    .get(
      '/proxy/api/invoices/:id/zugferd',
      async (c) => {
        const row = await own(c)
        const s = snapshotOf(row)
        return file(await renderFacturX(s, await renderInvoicePdf(s)), 'application/pdf', `Rechnung-${row.number}-ZUGFeRD.pdf`)
      },
      { params: IdParams, detail: { tags: ['invoices'], summary: 'The invoice as ZUGFeRD / Factur-X PDF (XRechnung profile, XML embedded)' } },
    )
}
