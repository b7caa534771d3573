// The guest's own view of the signature record (issue 11, agreements: "store what was signed
// immutably"): which agreements of a registration the guest signed or declined, when, which version,
// where (dashboard, self check-in, desk), the text as it was shown and the drawn signature, read-only.
// It reads agreement_signature (append only), so a re-signed agreement shows both decisions; the staff
// account behind a desk decision is not shown to the guest.
import type { Db } from '../../db/database'
import { bool } from '../../db/types'
import { notFound } from '../../shared/errors'
import { sanitizeRichText } from '../events/rich-text'

/** Every recorded decision of the registration, newest first. */
export async function guestSignatureRecord(db: Db, visitorId: number) {
  const rows = await db
    .selectFrom('agreement_signature')
    .select(['id', 'agreement_id', 'status', 'agreement_version', 'agreement_name', 'agreement_text', 'appearance', 'origin', 'decided_at'])
    .select((eb) => eb('signature', 'is not', null).as('has_signature'))
    .where('visitor_id', '=', visitorId)
    .orderBy('id', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    agreementId: r.agreement_id,
    displayName: r.agreement_name,
    /** the text as it was shown (sanitised when the agreement was saved, and again on the way out) */
    description: sanitizeRichText(r.agreement_text) ?? '',
    version: r.agreement_version,
    status: r.status,
    appearance: r.appearance,
    origin: r.origin,
    decidedAt: r.decided_at,
    hasSignature: bool(r.has_signature as number),
  }))
}

/** The drawn signature of one of the registration's own decisions (PNG bytes); 404 for any other. */
export async function guestSignatureImage(db: Db, visitorId: number, signatureId: number): Promise<Uint8Array> {
  const row = await db.selectFrom('agreement_signature').select('signature').where('id', '=', signatureId).where('visitor_id', '=', visitorId).executeTakeFirst()
  if (!row?.signature) throw notFound()
  return Buffer.from(row.signature.slice(row.signature.indexOf(',') + 1), 'base64')
}
