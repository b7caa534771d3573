// Check-in desk texts and errors.
export const de = {
  'errors.TICKET_NOT_FOUND': 'Zu diesem Code gibt es kein Ticket.',
  'errors.TICKET_OTHER_EVENT': 'Dieses Ticket gehört zu „{event}“.',
  'errors.CHECKIN_STATUS': 'Einchecken ist im Status „{status}“ nicht möglich.',
  'errors.ALREADY_CHECKED_IN': '{name} ist bereits eingecheckt.',
  'errors.NOT_CHECKED_IN': '{name} ist nicht eingecheckt.',
  'errors.ALL_CHECKED_IN': 'Alle Personen sind bereits eingecheckt.',
  'errors.NONE_CHECKED_IN': 'Es ist niemand eingecheckt, der ausgecheckt werden kann.',
  'errors.AGREEMENTS_MISSING': 'Es fehlen erforderliche Einverständniserklärungen.',
  'errors.NONCE_REUSED': 'Diese Anfrage-Kennung wurde bereits für eine andere Veranstaltung verwendet.',
  'errors.NO_TICKET': 'Für diese Anmeldung gibt es kein Ticket.',
  'errors.NO_GUESTS_SELECTED': 'Es wurden keine Gästen ausgewählt.',
  'field.NO_GUESTS_SELECTED': 'Es wurden keine Gästen ausgewählt.',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {}
export const en: Record<Keys, string> = {
  'errors.TICKET_NOT_FOUND': 'There is no ticket with this code.',
  'errors.TICKET_OTHER_EVENT': 'This ticket belongs to “{event}”.',
  'errors.CHECKIN_STATUS': 'Checking in is not possible in status “{status}”.',
  'errors.ALREADY_CHECKED_IN': '{name} is already checked in.',
  'errors.NOT_CHECKED_IN': '{name} is not checked in.',
  'errors.ALL_CHECKED_IN': 'Everyone is already checked in.',
  'errors.NONE_CHECKED_IN': 'Nobody is checked in who could be checked out.',
  'errors.AGREEMENTS_MISSING': 'Required agreements are missing.',
  'errors.NONCE_REUSED': 'This request id was already used for another event.',
  'errors.NO_TICKET': 'There is no ticket for this registration.',
  'errors.NO_GUESTS_SELECTED': 'No guests were selected.',
  'field.NO_GUESTS_SELECTED': 'No guests were selected.',
}
