export const de = {
  'notifications.code.LOGIN_NEW_DEVICE': 'E-Mail bei Anmeldung mit einem neuen Gerät',
  'notifications.code.ACCOUNT_CHANGES': 'E-Mail, wenn sich meine Rolle ändert oder mein Konto entfernt wird',
  'notifications.code.COLLEAGUE_JOINED': 'E-Mail, wenn eingeladene Kolleginnen und Kollegen ihr Konto aktivieren',
  'notifications.code.NEW_REGISTRATION': 'E-Mail bei jeder neuen Anmeldung zu einer Veranstaltung',
  'notifications.mail.newRegistration.subject': 'Neue Anmeldung: {event}',
  'notifications.mail.newRegistration.body': '{name} ({email}) hat sich zu „{event}“ angemeldet: {persons, plural, one {# Person} other {# Personen}}, Status {status}.',
  'notifications.mail.newRegistration.button': 'Zur Veranstaltung',
  'notifications.mail.settingsHint': 'Diese Benachrichtigung können Sie in Ihren Einstellungen abbestellen.',
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {
  'notifications.mail.settingsHint': 'Diese Benachrichtigung kannst du in deinen Einstellungen abbestellen.',
}
export const en: Record<Keys, string> = {
  'notifications.code.LOGIN_NEW_DEVICE': 'E-mail when I log in on a new device',
  'notifications.code.ACCOUNT_CHANGES': 'E-mail when my role changes or my account is removed',
  'notifications.code.COLLEAGUE_JOINED': 'E-mail when invited colleagues activate their account',
  'notifications.code.NEW_REGISTRATION': 'E-mail for every new registration to an event',
  'notifications.mail.newRegistration.subject': 'New registration: {event}',
  'notifications.mail.newRegistration.body': '{name} ({email}) registered for "{event}": {persons, plural, one {# person} other {# persons}}, status {status}.',
  'notifications.mail.newRegistration.button': 'Go to event',
  'notifications.mail.settingsHint': 'You can unsubscribe from this notification in your settings.',
}
