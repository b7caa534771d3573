// All documents of a period as one ZIP, streamed: per document its PDF and its XRechnung (CII), each
// rendered from the stored snapshot when the stream asks for the next one (fflate's streaming Zip;
// PDFs are stored as they are, XML deflated). Memory holds one document at a time.
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import type { AccountingDocument } from './accounting'
import { snapshotOf } from './service'

// loaded on first use (issue 25): pdf-lib, fontkit and the e-invoice library are not evaluated at start
import type * as InvoicePdf from './pdf'
const renderInvoicePdf: typeof InvoicePdf.renderInvoicePdf = async (...a) => (await import('./pdf')).renderInvoicePdf(...(a as Parameters<typeof InvoicePdf.renderInvoicePdf>))
// the e-invoice library, likewise on first use
import type * as InvoiceXml from './xml'
const renderXml: typeof InvoiceXml.renderXml = async (...a) => (await import('./xml')).renderXml(...(a as Parameters<typeof InvoiceXml.renderXml>))

/** File names inside the ZIP (and of the single downloads): Rechnung-RE-00001.pdf, XRechnung-RE-00001.xml */
export const zipNames = (number: string) => {
  const safe = number.replace(/[^A-Za-z0-9._-]/g, '_')
  return { pdf: `Rechnung-${safe}.pdf`, xml: `XRechnung-${safe}.xml` }
}

export function invoicesZip(docs: AccountingDocument[]): ReadableStream<Uint8Array> {
  let at = 0
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const zip = new Zip((err, chunk, final) => {
    if (err) return controller.error(err)
    if (chunk.length) controller.enqueue(chunk)
    if (final) controller.close()
  })
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
    async pull() {
      if (at >= docs.length) {
        if (at === docs.length) {
          at++
          zip.end()
        }
        return
      }
      const d = docs[at++]!
      const s = snapshotOf(d.row)
      const names = zipNames(d.number)
      const pdf = new ZipPassThrough(names.pdf)
      zip.add(pdf)
      pdf.push(await renderInvoicePdf(s), true)
      const xml = new ZipDeflate(names.xml, { level: 6 })
      zip.add(xml)
      xml.push(new TextEncoder().encode(await renderXml(s, 'CII')), true)
    },
    cancel() {
      zip.terminate()
    },
  })
}
