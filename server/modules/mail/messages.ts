export const de = {
  'mail.footer': 'Diese E-Mail wurde von einlass im Auftrag von {agency} versendet.',
  'mail.linkFallback': 'Falls der Knopf nicht funktioniert, öffnen Sie diesen Link: {url}',
  'mail.greeting.female': 'Sehr geehrte Frau {name},',
  'mail.greeting.male': 'Sehr geehrter Herr {name},',
  'mail.greeting.neutral': 'Guten Tag {name},',
  'mail.greeting.none': 'Guten Tag,',
  /** which name the greeting uses: FORMAL (salutation and last name, else the full name) or FIRST (first name) */
  'mail.greeting.nameForm': 'FORMAL',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {
  'mail.linkFallback': 'Falls der Knopf nicht funktioniert, öffne diesen Link: {url}',
  'mail.greeting.female': 'Hallo {name},',
  'mail.greeting.male': 'Hallo {name},',
  'mail.greeting.neutral': 'Hallo {name},',
  'mail.greeting.none': 'Hallo,',
  'mail.greeting.nameForm': 'FIRST',
}
export const en: Record<Keys, string> = {
  'mail.footer': 'This e-mail was sent by einlass on behalf of {agency}.',
  'mail.linkFallback': 'If the button does not work, open this link: {url}',
  'mail.greeting.female': 'Dear Ms {name},',
  'mail.greeting.male': 'Dear Mr {name},',
  'mail.greeting.neutral': 'Dear {name},',
  'mail.greeting.none': 'Hello,',
  'mail.greeting.nameForm': 'FORMAL',
}
