// Runs while bundling and at the server's start (imported `with { type: 'macro' }` by ./phone.ts):
// libphonenumber's "min" metadata without the number formats. Reading and validating a number
// (parse, isValid, E.164) never reads the formats — only formatting and as-you-type do, which
// einlass does not do with this module — and they are half of the metadata (gzipped 18.5 → 9.6 KB
// on the public page, issue 25). phone-metadata.test.ts proves every country's example numbers read
// the same with the full and the trimmed metadata.
import metadata from 'libphonenumber-js/metadata.min.json'

/** Index of the formats in a country's (and a non-geographic calling code's) packed entry. */
const FORMATS = 4

type Packed = { countries: Record<string, unknown[]>; nonGeographic?: Record<string, unknown[]> } & Record<string, unknown>

export function phoneMetadata(): Packed {
  const m = structuredClone(metadata) as unknown as Packed
  for (const table of [m.countries, m.nonGeographic ?? {}])
    for (const entry of Object.values(table)) if (Array.isArray(entry[FORMATS])) entry[FORMATS] = 0
  return m
}
