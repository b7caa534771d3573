export const de = {
  'mail.footer': 'Diese E-Mail wurde von einlass im Auftrag von {agency} versendet.',
  'mail.linkFallback': 'Falls der Knopf nicht funktioniert, öffnen Sie diesen Link: {url}',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {
  'mail.linkFallback': 'Falls der Knopf nicht funktioniert, öffne diesen Link: {url}',
}
export const en: Record<Keys, string> = {
  'mail.footer': 'This e-mail was sent by einlass on behalf of {agency}.',
  'mail.linkFallback': 'If the button does not work, open this link: {url}',
}
