// Agreements as part of registering (issue 10, item 3) and the record of every decision. A REQUIRED
// agreement must be CONFIRMED with a drawn signature (guest-side.md: "A drawn signature is required
// to save"), an optional one may be confirmed (signed) or left; each decision is written to
// visitor_agreement (the current state) and to agreement_signature (the evidence: text as shown,
// version, signature, time, origin), which is only ever inserted into.
import type { Db } from '../../db/database'
import type { AgreementRow } from './agreements.table'
import type { RegistrationAgreements } from './model'
import { validSignature } from './signature'

export interface AgreementProblem {
  /** `agreements.<id>` */
  field: string
  errorType: 'AGREEMENT_REQUIRED' | 'SIGNATURE_REQUIRED' | 'AGREEMENT_CHANGED' | 'INVALID'
  agreementId: number
  displayName: string
}

export interface Decision {
  agreement: AgreementRow
  status: 'CONFIRMED' | 'DECLINED'
  signature: string | null
}

/** What a registration's agreement decisions lack; the decisions to record when nothing does. */
export function checkRegistrationAgreements(available: AgreementRow[], input: RegistrationAgreements): { problems: AgreementProblem[]; decisions: Decision[] } {
  const byId = new Map(available.map((a) => [a.id, a]))
  const given = new Map(input.map((d) => [d.id, d]))
  const problems: AgreementProblem[] = []
  const decisions: Decision[] = []
  const problem = (a: { id: number; display_name?: string }, errorType: AgreementProblem['errorType']) =>
    problems.push({ field: `agreements.${a.id}`, errorType, agreementId: a.id, displayName: a.display_name ?? '' })
  for (const d of input) if (!byId.has(d.id)) problem({ id: d.id }, 'INVALID')
  for (const a of available) {
    const d = given.get(a.id)
    if (!d) {
      if (a.appearance === 'REQUIRED') problem(a, 'AGREEMENT_REQUIRED')
      continue
    }
    if (d.version !== undefined && d.version !== a.version) {
      problem(a, 'AGREEMENT_CHANGED')
      continue
    }
    if (d.status === 'DECLINED') {
      if (a.appearance === 'REQUIRED') problem(a, 'AGREEMENT_REQUIRED')
      else decisions.push({ agreement: a, status: 'DECLINED', signature: null })
      continue
    }
    const signature = validSignature(d.signature)
    if (!signature) problem(a, 'SIGNATURE_REQUIRED')
    else decisions.push({ agreement: a, status: 'CONFIRMED', signature })
  }
  return { problems, decisions }
}

/** Writes decisions: the current state per agreement and, always, a new consent record. */
export async function recordDecisions(trx: Db, p: { visitorId: number; eventId: number; decisions: Decision[]; origin: string; accountId: number | null; at: string }) {
  for (const d of p.decisions) {
    const row = {
      status: d.status,
      signature: d.status === 'CONFIRMED' ? d.signature : null,
      decided_at: p.at,
      confirm_date: d.status === 'CONFIRMED' ? p.at : null,
      decline_date: d.status === 'DECLINED' ? p.at : null,
      origin: p.origin,
      account_id: p.accountId,
    }
    await trx
      .insertInto('visitor_agreement')
      .values({ ...row, visitor_id: p.visitorId, agreement_id: d.agreement.id, event_id: p.eventId })
      .onConflict((oc) => oc.columns(['visitor_id', 'agreement_id']).doUpdateSet(row))
      .execute()
    await trx
      .insertInto('agreement_signature')
      .values({
        visitor_id: p.visitorId,
        agreement_id: d.agreement.id,
        event_id: p.eventId,
        status: d.status,
        agreement_name: d.agreement.display_name,
        agreement_text: d.agreement.description,
        agreement_version: d.agreement.version,
        appearance: d.agreement.appearance,
        signature: row.signature,
        origin: p.origin,
        account_id: p.accountId,
        decided_at: p.at,
      })
      .execute()
  }
}
