// Real-shaped CAMT.053 statements for tests and journeys (camt.053.001.02 as German savings banks
// and cooperative banks export it: group header, one statement with balances, booked entries with
// bank transaction codes, the payer and the remittance text).
export interface SampleEntry {
  amount: string
  credit?: boolean
  date: string
  /** omitted: an entry without the bank's reference (its hash is the reference) */
  ref?: string | null
  name?: string
  iban?: string
  ustrd: string[]
  status?: 'BOOK' | 'PDNG'
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function camt053(entries: SampleEntry[], opts: { iban?: string; id?: string; version?: '02' | '08' } = {}): string {
  const iban = opts.iban ?? 'DE89370400440532013000'
  const v = opts.version ?? '02'
  const ntry = entries
    .map(
      (e, i) => `
      <Ntry>
        ${e.ref === null ? '' : `<NtryRef>${i + 1}</NtryRef>`}
        <Amt Ccy="EUR">${e.amount}</Amt>
        <CdtDbtInd>${e.credit === false ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        ${v === '08' ? `<Sts><Cd>${e.status ?? 'BOOK'}</Cd></Sts>` : `<Sts>${e.status ?? 'BOOK'}</Sts>`}
        <BookgDt><Dt>${e.date}</Dt></BookgDt>
        <ValDt><Dt>${e.date}</Dt></ValDt>
        ${e.ref === null ? '' : `<AcctSvcrRef>${e.ref ?? `2026${e.date.replace(/-/g, '')}${String(i + 1).padStart(6, '0')}`}</AcctSvcrRef>`}
        <BkTxCd><Prtry><Cd>NTRF+166+9310+997</Cd><Issr>ZKA</Issr></Prtry></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <AmtDtls><TxAmt><Amt Ccy="EUR">${e.amount}</Amt></TxAmt></AmtDtls>
            <BkTxCd><Prtry><Cd>NTRF+166+9310+997</Cd><Issr>ZKA</Issr></Prtry></BkTxCd>
            <RltdPties>
              <${e.credit === false ? 'Cdtr' : 'Dbtr'}>${v === '08' ? `<Pty><Nm>${esc(e.name ?? 'Max Mustermann')}</Nm></Pty>` : `<Nm>${esc(e.name ?? 'Max Mustermann')}</Nm>`}</${e.credit === false ? 'Cdtr' : 'Dbtr'}>
              <${e.credit === false ? 'CdtrAcct' : 'DbtrAcct'}><Id><IBAN>${e.iban ?? 'DE02120300000000202051'}</IBAN></Id></${e.credit === false ? 'CdtrAcct' : 'DbtrAcct'}>
            </RltdPties>
            <RmtInf>${e.ustrd.map((u) => `<Ustrd>${esc(u)}</Ustrd>`).join('')}</RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`,
    )
    .join('')
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${v}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${v} camt.053.001.${v}.xsd">
  <BkToCstmrStmt>
    <GrpHdr>
      <MsgId>053D2026112800000000001</MsgId>
      <CreDtTm>2026-11-28T06:12:00.0+01:00</CreDtTm>
      <MsgPgntn><PgNb>1</PgNb><LastPgInd>true</LastPgInd></MsgPgntn>
    </GrpHdr>
    <Stmt>
      <Id>${opts.id ?? '0352C5320261128000000001'}</Id>
      <ElctrncSeqNb>231</ElctrncSeqNb>
      <CreDtTm>2026-11-28T06:12:00.0+01:00</CreDtTm>
      <Acct>
        <Id><IBAN>${iban}</IBAN></Id>
        <Ccy>EUR</Ccy>
        <Ownr><Nm>Agentur Sonnenschein GmbH</Nm></Ownr>
        <Svcr><FinInstnId><BIC>COBADEFFXXX</BIC></FinInstnId></Svcr>
      </Acct>
      <Bal><Tp><CdOrPrtry><Cd>PRCD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-26</Dt></Dt></Bal>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-27</Dt></Dt></Bal>${ntry}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`
}
