// EPC GiroCode (EPC069-12, "SEPA credit transfer QR"): the 12-line text banking apps read, drawn
// with qrcode at error correction M as the standard asks. Only for euro amounts.

export interface GiroCodeData {
  bic: string | null
  name: string
  iban: string
  /** cents, 1 … 99,999,999,999 */
  amount: number
  /** unstructured remittance information, at most 140 characters */
  reference: string
}

const clean = (s: string, max: number) => s.replace(/[\r\n]+/g, ' ').trim().slice(0, max)

export function giroCodeText(d: GiroCodeData): string {
  const euros = `EUR${Math.floor(d.amount / 100)}.${String(d.amount % 100).padStart(2, '0')}`
  return [
    'BCD',
    '002',
    '1', // UTF-8
    'SCT',
    (d.bic ?? '').replace(/\s+/g, ''),
    clean(d.name, 70),
    d.iban.replace(/\s+/g, ''),
    euros,
    '', // purpose
    '', // structured reference (unused: the reference below is unstructured)
    clean(d.reference, 140),
  ].join('\n')
}

/** The GiroCode as a PNG data URL (the `qrCode` of paymentPay and the mail's image). */
export async function giroCodePng(d: GiroCodeData): Promise<string> {
  // qrcode is loaded on first use (issue 25)
  return (await import('qrcode')).default.toDataURL(giroCodeText(d), { errorCorrectionLevel: 'M', margin: 4, scale: 6 })
}
