// Phone numbers: valid international numbers in E.164, read with the event's default region.
// Kept apart from the engine so the browser loads the phone metadata only for forms that ask for a
// phone number; the server installs it once at start. The metadata is libphonenumber's "min" without
// the number formats (./phone-metadata.ts, inlined while bundling): reading needs no formats.
import { type CountryCode, type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core'
import { phoneMetadata } from './phone-metadata' with { type: 'macro' }

// filled by assignment: Bun's minifier copies a macro's object into every use of a const it initialises
const metadata = {} as MetadataJson
Object.assign(metadata, phoneMetadata())

export function phoneToE164(value: string, defaultLocale: string): string | null {
  const region = (defaultLocale || 'de').slice(0, 2).toUpperCase() as CountryCode
  try {
    const p = parsePhoneNumberFromString(value, region, metadata)
    return p && p.isValid() ? p.number : null
  } catch {
    return null
  }
}
