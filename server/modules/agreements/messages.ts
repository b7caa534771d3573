// Agreements: errors and field messages; the signature pad (ui/components/signature-pad.tsx).
export const de = {
  'errors.AGREEMENT_REQUIRED': 'Diese Einverständniserklärung ist erforderlich und kann nicht abgelehnt werden.',
  'field.AGREEMENT_REQUIRED': 'Diese Einverständniserklärung ist erforderlich.',
  'field.SIGNATURE_REQUIRED': 'Bitte unterschreiben Sie.',
  'field.AGREEMENT_CHANGED': 'Der Text dieser Einverständniserklärung wurde gerade geändert. Bitte lesen Sie ihn erneut und unterschreiben Sie noch einmal.',
  'errors.PARSER_UNKNOWN_FORMAT': 'Das Format der Kontaktdaten wird nicht erkannt (vCard oder MECARD).',
  'errors.SHORT_LINK_TAKEN': 'Dieser Kurzlink ist bereits vergeben.',
  'field.SHORT_LINK_TAKEN': 'Dieser Kurzlink ist bereits vergeben.',
  'field.CODE_MISMATCH': 'Der eingegebene Code stimmt nicht überein.',
  'signature.here': 'Hier unterschreiben',
  'signature.clear': 'Löschen',
  'signature.hint': 'Mit dem Finger, einem Stift oder der Maus im Feld unterschreiben.',
  'signature.done': 'Unterschrift erfasst.',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {
  'field.SIGNATURE_REQUIRED': 'Bitte unterschreibe.',
  'field.AGREEMENT_CHANGED': 'Der Text dieser Einverständniserklärung wurde gerade geändert. Bitte lies ihn erneut und unterschreibe noch einmal.',
  'signature.hint': 'Unterschreibe mit dem Finger, einem Stift oder der Maus im Feld.',
}
export const en: Record<Keys, string> = {
  'errors.AGREEMENT_REQUIRED': 'This agreement is required and cannot be declined.',
  'field.AGREEMENT_REQUIRED': 'This agreement is required.',
  'field.SIGNATURE_REQUIRED': 'Please sign.',
  'field.AGREEMENT_CHANGED': 'The text of this agreement was just changed. Please read it again and sign once more.',
  'errors.PARSER_UNKNOWN_FORMAT': 'The contact data format is not recognised (vCard or MECARD).',
  'errors.SHORT_LINK_TAKEN': 'This short link is already taken.',
  'field.SHORT_LINK_TAKEN': 'This short link is already taken.',
  'field.CODE_MISMATCH': 'The code entered does not match.',
  'signature.here': 'Sign here',
  'signature.clear': 'Clear',
  'signature.hint': 'Sign in the box with a finger, a pen or the mouse.',
  'signature.done': 'Signature captured.',
}
