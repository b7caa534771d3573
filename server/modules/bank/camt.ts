// CAMT.053 (ISO 20022 BkToCstmrStmt, the end-of-day statement German banks export, versions 02 to
// 08): the booked entries of each statement with amount, credit/debit, booking date, the bank's
// reference and, per transaction, the remittance text (Ustrd) and the payer. A batch entry with several
// transactions gives one entry per transaction. No parser on npm fit (the maintained ones wrap a
// general XML parser with entity expansion); xml.ts is small and bounded.
import { createHash } from 'node:crypto'
import { AppError } from '../../shared/errors'
import { type XmlNode, child, children, parseXml, textOf } from './xml'

export interface StatementEntry {
  /** unique per statement line: the bank's reference (AcctSvcrRef/NtryRef/TxDtls) or a hash of the entry */
  ref: string
  credit: boolean
  booked: boolean
  amountCents: number
  currency: string
  /** YYYY-MM-DD */
  bookingDate: string
  remittance: string
  debtorName: string | null
  debtorIban: string | null
}

export interface Statement {
  id: string
  iban: string | null
  entries: StatementEntry[]
}

/** "123.45" → 12345; anything else is not an amount */
export function cents(s: string): number {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(s.trim())
  if (!m) throw new AppError(422, 'CAMT_NOT_A_STATEMENT')
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

const dateOf = (n: XmlNode | undefined) => {
  const v = textOf(n, 'Dt') || textOf(n, 'DtTm')
  return /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : ''
}

/** Reads a CAMT.053 document; refuses other files with CAMT_NOT_A_STATEMENT (German text). */
export function parseCamt053(xml: string): Statement[] {
  const doc = parseXml(xml.replace(/^\uFEFF/, ''))
  const ns = doc.attrs.xmlns ?? Object.entries(doc.attrs).find(([k]) => k.startsWith('xmlns:'))?.[1] ?? ''
  const body = child(doc, 'BkToCstmrStmt')
  if (doc.name !== 'Document' || !body || (ns && !ns.includes('camt.053'))) throw new AppError(422, 'CAMT_NOT_A_STATEMENT')
  const out: Statement[] = []
  for (const stmt of children(body, 'Stmt')) {
    const iban = textOf(stmt, 'Acct/Id/IBAN') || null
    const statementId = textOf(stmt, 'Id')
    const entries: StatementEntry[] = []
    const seen = new Map<string, number>()
    for (const ntry of children(stmt, 'Ntry')) {
      const credit = textOf(ntry, 'CdtDbtInd') === 'CRDT'
      const sts = child(ntry, 'Sts')
      const booked = (textOf(sts, 'Cd') || textOf(sts)) === 'BOOK'
      const amt = child(ntry, 'Amt')
      const currency = amt?.attrs.Ccy ?? 'EUR'
      const bookingDate = dateOf(child(ntry, 'BookgDt')) || dateOf(child(ntry, 'ValDt'))
      if (!amt || !bookingDate) throw new AppError(422, 'CAMT_NOT_A_STATEMENT')
      const entryRef = textOf(ntry, 'AcctSvcrRef') || textOf(ntry, 'NtryRef')
      const txs = children(child(ntry, 'NtryDtls'), 'TxDtls')
      const parts = txs.length ? txs : [undefined]
      parts.forEach((tx, k) => {
        const txAmt = txs.length > 1 ? (child(tx, 'AmtDtls/TxAmt/Amt') ?? child(tx, 'Amt')) : amt
        const remittance = children(child(tx, 'RmtInf'), 'Ustrd')
          .map((u) => u.text.trim())
          .join(' ')
          .slice(0, 1000)
        const party = child(tx, 'RltdPties/Dbtr')
        const debtorName = (textOf(party, 'Nm') || textOf(party, 'Pty/Nm')) || null
        const debtorIban = textOf(tx, 'RltdPties/DbtrAcct/Id/IBAN') || null
        const amountCents = cents(textOf(txAmt ?? amt))
        const txRef = textOf(tx, 'Refs/AcctSvcrRef')
        let ref: string
        if (entryRef) ref = `${entryRef}${txs.length > 1 ? `/${txRef || k}` : ''}`
        else if (txRef) ref = txRef
        else {
          // no reference from the bank: the entry itself, numbered among identical ones in this file
          const key = [iban, statementId, bookingDate, credit ? 'C' : 'D', amountCents, currency, remittance, debtorName, debtorIban].join('|')
          const nth = (seen.get(key) ?? 0) + 1
          seen.set(key, nth)
          ref = `sha256:${createHash('sha256').update(`${key}|${nth}`).digest('hex')}`
        }
        entries.push({ ref: `${iban ?? ''}:${ref}`.slice(0, 300), credit, booked, amountCents, currency, bookingDate, remittance, debtorName: debtorName?.slice(0, 200) ?? null, debtorIban })
      })
    }
    out.push({ id: statementId, iban, entries })
  }
  if (!out.length) throw new AppError(422, 'CAMT_NOT_A_STATEMENT')
  return out
}
