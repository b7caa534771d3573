// A country from the spec's list (agency-side.md 9.2), named in the UI language by Intl.DisplayNames
// (no table of names shipped), stored as the three-letter code. For forms without react-hook-form
// (the pay page, the seller settings); react-hook-form forms use CountryField (components/form.tsx).
import { useMemo } from 'preact/hooks'
import { countryChoices } from '../../server/modules/forms/country-codes'
import { currentLanguage } from '../i18n'

export function CountrySelect(p: { id: string; name: string; value: string; onChange(code: string): void; invalid?: boolean; describedBy?: string; labelledBy?: string }) {
  const lang = currentLanguage()
  const list = useMemo(() => countryChoices(lang), [lang])
  return (
    <select id={p.id} name={p.name} value={p.value} autoComplete="country" aria-invalid={p.invalid} aria-describedby={p.describedBy} aria-labelledby={p.labelledBy} onChange={(e) => p.onChange((e.target as HTMLSelectElement).value)}>
      {list.map((c, i) => (
        <option key={c.code} value={c.code} class={i === 2 ? 'country-last-top' : undefined}>
          {c.name}
        </option>
      ))}
    </select>
  )
}
