// Invoice errors (the PDF's own texts are German by law and live in pdf.ts).
export const de = {
  'errors.INVOICE_NOT_CANCELLABLE': 'Eine Stornorechnung kann nicht storniert werden.',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {}
export const en: Record<Keys, string> = {
  'errors.INVOICE_NOT_CANCELLABLE': 'A cancellation invoice cannot be cancelled.',
}
