// Phone numbers: valid international numbers in E.164, read with the event's default region.
// Kept apart from the engine so the browser loads the phone metadata (about 30 KB) only for forms
// that ask for a phone number; the server installs it once at start.
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/min'

export function phoneToE164(value: string, defaultLocale: string): string | null {
  const region = (defaultLocale || 'de').slice(0, 2).toUpperCase() as CountryCode
  try {
    const p = parsePhoneNumberFromString(value, region)
    return p && p.isValid() ? p.number : null
  } catch {
    return null
  }
}
