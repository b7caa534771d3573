// Seat messages (guest-side.md §8) and the organiser's plan errors.
export const de = {
  'errors.SEAT_NOT_AVAILABLE': 'Dieser Platz steht leider nicht mehr zur Verfügung.',
  'errors.SEAT_NOT_RESERVED': 'Der Platz konnte nicht reserviert werden.',
  'errors.SEAT_MAX_REACHED': 'Sie haben die maximale Anzahl an Tickets pro Bestellung bereits erreicht.',
  'errors.SEATING_CHAIR_IN_USE': 'Der Platz {label} ist vergeben oder reserviert und kann nicht entfernt oder verkleinert werden.',
  'field.TOO_MANY': 'Das sind zu viele Einträge.',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {
  'errors.SEAT_MAX_REACHED': 'Du hast die maximale Anzahl an Tickets pro Bestellung bereits erreicht.',
}
export const en: Record<Keys, string> = {
  'errors.SEAT_NOT_AVAILABLE': 'Unfortunately this seat is no longer available.',
  'errors.SEAT_NOT_RESERVED': 'The seat could not be reserved.',
  'errors.SEAT_MAX_REACHED': 'You have already reached the maximum number of tickets per order.',
  'errors.SEATING_CHAIR_IN_USE': 'Seat {label} is taken or reserved and cannot be removed or made smaller.',
  'field.TOO_MANY': 'These are too many entries.',
}
