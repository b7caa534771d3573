// Bank statements (issue 21): a real-shaped CAMT.053 with three matching credits, a partial one, an
// unknown one and a debit; exact matches paid with the booking date, the rest listed and decided by
// a person; importing again (also twice at once) pays nothing twice; hostile files are refused.
import { describe, expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { buy, buyer, paidEvent, pay } from '../ticketing/testing'
import { cents, parseCamt053 } from './camt'
import { camt053 } from './testing'
import { parseXml } from './xml'

const SELLER = { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'rechnung@agentur.example' }

describe('CAMT.053 reading', () => {
  test('amounts, entries with and without the bank\'s reference, version 08 status, batch entries', () => {
    expect(cents('25.00')).toBe(2500)
    expect(cents('0.5')).toBe(50)
    expect(() => cents('1,00')).toThrow()
    const st = parseCamt053(camt053([{ amount: '25.00', date: '2026-11-27', ustrd: ['SF-ABCDEFGH'] }, { amount: '3.10', date: '2026-11-27', ref: null, credit: false, ustrd: ['Kontogebühr'] }], { version: '08' }))
    expect(st).toHaveLength(1)
    expect(st[0]!.iban).toBe('DE89370400440532013000')
    expect(st[0]!.entries.map((e) => [e.credit, e.booked, e.amountCents, e.bookingDate, e.remittance])).toEqual([
      [true, true, 2500, '2026-11-27', 'SF-ABCDEFGH'],
      [false, true, 310, '2026-11-27', 'Kontogebühr'],
    ])
    expect(st[0]!.entries[0]!.ref).toBe('DE89370400440532013000:202620261127000001')
    expect(st[0]!.entries[1]!.ref).toMatch(/^DE89370400440532013000:sha256:[0-9a-f]{64}$/)
    expect(st[0]!.entries[0]!.debtorName).toBe('Max Mustermann')
    // a batch: one entry, two transactions with their own amounts and texts
    const batch = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>1</Id><Acct><Id><IBAN>DE1</IBAN></Id></Acct>
      <Ntry><Amt Ccy="EUR">30.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-02</Dt></BookgDt><AcctSvcrRef>X9</AcctSvcrRef><NtryDtls>
      <TxDtls><Refs><AcctSvcrRef>T1</AcctSvcrRef></Refs><AmtDtls><TxAmt><Amt Ccy="EUR">10.00</Amt></TxAmt></AmtDtls><RmtInf><Ustrd>eins &amp; zwei</Ustrd></RmtInf></TxDtls>
      <TxDtls><Refs><AcctSvcrRef>T2</AcctSvcrRef></Refs><AmtDtls><TxAmt><Amt Ccy="EUR">20.00</Amt></TxAmt></AmtDtls><RmtInf><Ustrd><![CDATA[drei <4>]]></Ustrd></RmtInf></TxDtls>
      </NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`
    expect(parseCamt053(batch)[0]!.entries.map((e) => [e.ref, e.amountCents, e.remittance])).toEqual([
      ['DE1:X9/T1', 1000, 'eins & zwei'],
      ['DE1:X9/T2', 2000, 'drei <4>'],
    ])
  })

  test('hostile or foreign input is refused before anything is expanded, in time linear in its size', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Document>&lol2;</Document>`
    expect(() => parseXml(laughs)).toThrow(expect.objectContaining({ errorType: 'CAMT_DTD' }))
    const external = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>`
    expect(() => parseXml(external)).toThrow(expect.objectContaining({ errorType: 'CAMT_DTD' }))
    expect(() => parseXml('<Document>&x;</Document>')).toThrow(expect.objectContaining({ errorType: 'CAMT_ENTITY' }))
    expect(() => parseXml(`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`)).toThrow(expect.objectContaining({ errorType: 'CAMT_TOO_DEEP' }))
    expect(() => parseXml(`<a>${'<b/>'.repeat(600_000)}</a>`)).toThrow(expect.objectContaining({ errorType: 'CAMT_TOO_LARGE' }))
    expect(() => parseXml('<a><b></a>')).toThrow(expect.objectContaining({ errorType: 'CAMT_NOT_XML' }))
    expect(() => parseCamt053('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>')).toThrow(
      expect.objectContaining({ errorType: 'CAMT_NOT_A_STATEMENT' }),
    )
  })
})

forEachDialect('bank statements: CAMT.053 import, matching, decisions', (h) => {
  async function upload(agent: Agent, xml: string | Uint8Array, name = 'auszug.xml') {
    const form = new FormData()
    form.append('file', new File([xml as BlobPart], name, { type: 'application/xml' }))
    return agent.request('POST', '/proxy/api/bank/statements', { form })
  }
  async function shop() {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', SELLER)
    const { event, categories } = await paidEvent(admin, { categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 50 }] })
    const orders: Array<{ id: number; number: string }> = []
    for (let i = 0; i < 5; i++) {
      const r = await buy(h(), event.id, buyer([{ categoryId: categories[0]!.id, amount: 1 }]))
      expect(r.status).toBe(201)
      expect((await pay(h(), r.body.ticketOrderId, 'TRANSFER')).step).toBe(100)
      orders.push(await h().ctx.db.selectFrom('ticket_order').select(['id', 'number']).where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow())
    }
    return { admin, event, orders }
  }
  const orderRow = (id: number) => h().ctx.db.selectFrom('ticket_order').select(['status', 'paid_at', 'paid_amount']).where('id', '=', id).executeTakeFirstOrThrow()
  const invoices = async (agencyId: number) => (await h().ctx.db.selectFrom('invoice').select('number').where('agency_id', '=', agencyId).execute()).length

  test('three matching credits are paid on their booking day, the partial and unknown ones are listed, the debit skipped; importing again pays nothing twice', async () => {
    const { admin, event, orders } = await shop()
    const [a, b, c, d] = orders as [{ id: number; number: string }, { id: number; number: string }, { id: number; number: string }, { id: number; number: string }]
    const xml = camt053([
      { amount: '25.00', date: '2026-11-26', name: 'Berta Käuferin', ustrd: [`SF-${a.number} Stehplatz`] },
      { amount: '25.00', date: '2026-11-26', name: 'Karl Klein', ustrd: ['Bestellung SF-', `${b.number.slice(0, 4)} ${b.number.slice(4)}`] },
      { amount: '25.00', date: '2026-11-27', name: 'Lena Lang', ustrd: [`sf-${c.number.toLowerCase()}`] },
      { amount: '10.00', date: '2026-11-27', name: 'Paul Teil', ustrd: [`Anzahlung SF-${d.number}`] },
      { amount: '42.00', date: '2026-11-27', ref: null, name: 'Verein e.V.', ustrd: ['Mitgliedsbeitrag 2026'] },
      { amount: '9.90', date: '2026-11-27', credit: false, name: 'Telekom', ustrd: ['Rechnung 11/2026'] },
    ])
    const before = await invoices(admin.agencyId)
    const r = await upload(admin, xml)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ credits: 5, matched: 3, listed: 2, alreadyImported: 0, debits: 1, notBooked: 0 })
    for (const [o, day] of [[a, '2026-11-25T23:00:00.000Z'], [b, '2026-11-25T23:00:00.000Z'], [c, '2026-11-26T23:00:00.000Z']] as const) {
      expect(await orderRow(o.id)).toMatchObject({ status: 'PAID', paid_amount: 2500 })
      // the booking day, 00:00 in the event's time zone (Europe/Berlin)
      expect(new Date((await orderRow(o.id)).paid_at!).toISOString()).toBe(day)
    }
    expect((await orderRow(d.id)).status).toBe('OPEN')
    expect(await invoices(admin.agencyId)).toBe(before + 3)

    const open = await admin.get('/proxy/api/bank/entries')
    expect(open.body.content.map((e: any) => [e.status, e.amountCents, e.debtorName])).toEqual([
      ['PARTIAL', 1000, 'Paul Teil'],
      ['UNKNOWN', 4200, 'Verein e.V.'],
    ])
    expect(open.body.content[0].candidates).toEqual([expect.objectContaining({ id: d.id, number: d.number, grossPrice: 2500 })])
    expect((await admin.get('/proxy/api/bank/entries?view=ALL')).body.totalElements).toBe(5)

    // the same file again, also twice at once: nothing is paid twice, nothing listed twice
    const again = await Promise.all([upload(admin, xml), upload(admin, xml)])
    for (const x of again) expect(x.body).toMatchObject({ credits: 5, matched: 0, listed: 0, alreadyImported: 5 })
    const history = await h().ctx.db.selectFrom('ticket_order_history').select('order_id').where('order_id', 'in', [a.id, b.id, c.id]).where('kind', '=', 'MARKED_PAID').execute()
    expect(history).toHaveLength(3)
    expect(await invoices(admin.agencyId)).toBe(before + 3)
    expect((await admin.get('/proxy/api/bank/entries?view=ALL')).body.totalElements).toBe(5)

    // a new statement whose credit two imports race for: one pays, the other finds it imported
    const e = orders[4]!
    const fresh = camt053([{ amount: '25.00', date: '2026-11-28', ref: 'RACE-1', ustrd: [`SF-${e.number}`] }], { id: 'S2' })
    const raced = await Promise.all([upload(admin, fresh), upload(admin, fresh)])
    expect(raced.map((x) => x.body.matched + x.body.alreadyImported).sort()).toEqual([1, 1])
    expect(raced.reduce((s, x) => s + x.body.matched, 0)).toBe(1)
    expect(await h().ctx.db.selectFrom('ticket_order_history').select('order_id').where('order_id', '=', e.id).where('kind', '=', 'MARKED_PAID').execute()).toHaveLength(1)

    // a person decides: the partial credit pays order d (with what came in), the unknown one is dismissed
    const [partial, unknown] = open.body.content as Array<{ id: number }>
    expect((await admin.post(`/proxy/api/bank/entries/${partial!.id}/assign`, { orderNumber: 'ZZZZZZZZ' })).body.errorType).toBe('BANK_ORDER_NOT_FOUND')
    const assigned = await admin.post(`/proxy/api/bank/entries/${partial!.id}/assign`, { orderNumber: d.number.toLowerCase() })
    expect(assigned.status).toBe(200)
    expect(assigned.body).toMatchObject({ status: 'ASSIGNED', order: { number: d.number } })
    expect(await orderRow(d.id)).toMatchObject({ status: 'PAID', paid_amount: 1000 })
    const twice = await admin.post(`/proxy/api/bank/entries/${partial!.id}/assign`, { orderNumber: d.number })
    expect(twice.status).toBe(409)
    expect(twice.body.errorMessage).toBe('Über diese Buchung wurde bereits entschieden.')
    // assigning to an order already paid fails and leaves the entry listed
    const refused = await admin.post(`/proxy/api/bank/entries/${unknown!.id}/assign`, { orderNumber: a.number })
    expect(refused.status).toBe(409)
    expect((await admin.get('/proxy/api/bank/entries')).body.content.map((x: any) => x.status)).toEqual(['UNKNOWN'])
    expect((await admin.post(`/proxy/api/bank/entries/${unknown!.id}/dismiss`)).status).toBe(200)
    expect((await admin.get('/proxy/api/bank/entries')).body.totalElements).toBe(0)

    // another agency sees none of it and cannot decide it; managers may not import
    const other = await h().admin()
    expect((await other.get('/proxy/api/bank/entries?view=ALL')).body.totalElements).toBe(0)
    expect((await other.post(`/proxy/api/bank/entries/${partial!.id}/dismiss`)).status).toBe(404)
    // the other agency's statement naming this agency's order pays nothing here
    const foreign = await upload(other, camt053([{ amount: '25.00', date: '2026-11-28', ref: 'F-1', ustrd: [`SF-${d.number}`] }]))
    expect(foreign.body).toMatchObject({ matched: 0, listed: 1 })
    expect(event.id).toBeGreaterThan(0)
  })

  test('hostile and foreign files are refused with a clear German error, nothing recorded', async () => {
    const admin = await h().admin()
    const cases: Array<[string | Uint8Array, string, string]> = [
      [`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol9 "${'&lol;'.repeat(10)}">]><Document>&lol9;</Document>`, 'CAMT_DTD', 'Entity-Definitionen'],
      [`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document><BkToCstmrStmt>&x;</BkToCstmrStmt></Document>`, 'CAMT_DTD', 'abgelehnt'],
      [`${'<Ntry>'.repeat(50_000)}${'</Ntry>'.repeat(50_000)}`, 'CAMT_TOO_DEEP', 'verschachtelt'],
      [new Uint8Array(10 * 1024 * 1024 + 1).fill(0x20), 'CAMT_TOO_LARGE', 'zu groß'],
      ['Buchungstag;Betrag\n27.11.2026;25,00', 'CAMT_NOT_XML', 'CAMT.053'],
      ['<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02"><BkToCstmrAcctRpt/></Document>', 'CAMT_NOT_A_STATEMENT', 'kein Kontoauszug'],
    ]
    for (const [body, code, text] of cases) {
      const r = await upload(admin, body)
      expect(r.status).toBe(422)
      expect(r.body.errorType).toBe(code)
      expect(r.body.errorMessage).toContain(text)
    }
    expect((await admin.get('/proxy/api/bank/entries?view=ALL')).body.totalElements).toBe(0)
  })
})
