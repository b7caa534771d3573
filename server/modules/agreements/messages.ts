// Agreements: errors and field messages.
export const de = {
  'errors.AGREEMENT_REQUIRED': 'Diese Einverständniserklärung ist erforderlich und kann nicht abgelehnt werden.',
  'field.AGREEMENT_REQUIRED': 'Diese Einverständniserklärung ist erforderlich.',
  'field.SIGNATURE_REQUIRED': 'Bitte unterschreiben Sie.',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {
  'field.SIGNATURE_REQUIRED': 'Bitte unterschreibe.',
}
export const en: Record<Keys, string> = {
  'errors.AGREEMENT_REQUIRED': 'This agreement is required and cannot be declined.',
  'field.AGREEMENT_REQUIRED': 'This agreement is required.',
  'field.SIGNATURE_REQUIRED': 'Please sign.',
}
