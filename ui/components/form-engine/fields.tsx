// One renderer per field kind. Every input has a label (or its group a legend), its message is tied
// to it with aria-describedby, and everything works with the keyboard (native controls only).
import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { CountryOption } from '../../../server/modules/forms/countries'
import { DEFAULT_COUNTRY } from '../../../server/modules/forms/country-codes'
import { type AddressValue, COVID_STATES, type FieldDef, GENDERS, type ListValue, SALUTATIONS } from '../../../server/modules/forms/definitions'
import { ADDRESS_LIMITS, TEXT_LIMITS, asList, formatGermanDate } from '../../../server/modules/forms/values'
import { fieldMessage, t } from '../../i18n'
import { useSettled } from '../settle'

export interface FieldChrome {
  id: string
  label: string
  required: boolean
  error: string | null
  errorParams?: Record<string, string | number>
  hint?: string | null
  locked?: boolean
  width: 'full' | 'half'
  /** the longest value the server accepts (issue 10: too long was only said after sending) */
  maxLength?: number
}

export const messageOf = (code: string | null, params?: Record<string, string | number>) => {
  if (!code) return ''
  // a length the engine names: "Höchstens 500 Zeichen."
  if (code === 'TOO_LONG' && params?.max) return t('field.MAX_CHARACTERS', params)
  const key = `field.${code}`
  const txt = t(key, params)
  return txt !== key ? txt : fieldMessage(code)
}

const describedBy = (c: FieldChrome) => [c.hint ? `${c.id}-hint` : '', c.error ? `${c.id}-error` : '', c.locked ? `${c.id}-locked` : ''].filter(Boolean).join(' ') || undefined

function Messages({ c }: { c: FieldChrome }) {
  return (
    <>
      {c.hint && (
        <small id={`${c.id}-hint`} class="hint">
          {c.hint}
        </small>
      )}
      {c.locked && (
        <small id={`${c.id}-locked`} class="hint">
          {t('form.locked')}
        </small>
      )}
      {c.error && (
        <small id={`${c.id}-error`} class="field-error" role="alert">
          {messageOf(c.error, c.errorParams)}
        </small>
      )}
    </>
  )
}

const Req = ({ on }: { on: boolean }) =>
  on ? (
    <span class="req" aria-hidden="true">
      {' '}
      *
    </span>
  ) : null

/** The field's chrome with its message settled: it does not move the form under a pressed pointer (settle.ts). */
function useSettledChrome(c: FieldChrome): FieldChrome {
  const error = useSettled(c.error)
  return error === c.error ? c : { ...c, error }
}

/** A labelled single control. */
export function Labelled({ c: live, children }: { c: FieldChrome; children: (a: Record<string, unknown>) => ComponentChildren }) {
  const c = useSettledChrome(live)
  return (
    <div class={`field field-${c.width} ${c.error ? 'has-error' : ''}`}>
      <label for={c.id}>
        {c.label}
        <Req on={c.required} />
      </label>
      {children({ id: c.id, 'aria-invalid': c.error ? 'true' : undefined, 'aria-describedby': describedBy(c), 'aria-required': c.required ? 'true' : undefined, disabled: c.locked })}
      <Messages c={c} />
    </div>
  )
}

/** A group of controls under one legend (radios, checkboxes, address). */
export function Group({ c: live, children, class: cls }: { c: FieldChrome; children: ComponentChildren; class?: string }) {
  const c = useSettledChrome(live)
  return (
    <fieldset class={`field field-${c.width} field-group ${cls ?? ''} ${c.error ? 'has-error' : ''}`} aria-describedby={describedBy(c)} aria-invalid={c.error ? 'true' : undefined}>
      <legend>
        {c.label}
        <Req on={c.required} />
      </legend>
      {children}
      <Messages c={c} />
    </fieldset>
  )
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')
const inputValue = (e: Event) => (e.currentTarget as HTMLInputElement).value

/** The engine's limit for an input of this type (every text input carries a maxlength). */
const defaultMax = (type: string, multiline?: boolean) => (multiline ? TEXT_LIMITS.textarea : type === 'email' ? TEXT_LIMITS.email : type === 'tel' ? TEXT_LIMITS.phone : TEXT_LIMITS.text)

export function TextInput({ c, value, onChange, onBlur, type = 'text', autocomplete, multiline, inputMode, placeholder, maxLength }: { c: FieldChrome; value: unknown; onChange(v: string): void; onBlur(): void; type?: string; autocomplete?: string | null; multiline?: boolean; inputMode?: string; placeholder?: string; maxLength?: number }) {
  // an e-mail or phone input keeps its own bound (254, 40); other texts take the field's limit
  const max = maxLength ?? (type === 'email' || type === 'tel' ? defaultMax(type, multiline) : (c.maxLength ?? defaultMax(type, multiline)))
  return (
    <Labelled c={c}>
      {(a) =>
        multiline ? (
          <textarea {...a} rows={4} maxLength={max} value={str(value)} onInput={(e) => onChange(inputValue(e))} onBlur={onBlur} />
        ) : (
          <input {...a} type={type as 'text'} maxLength={max} value={str(value)} autocomplete={autocomplete ?? undefined} inputMode={inputMode as any} placeholder={placeholder} onInput={(e) => onChange(inputValue(e))} onBlur={onBlur} />
        )
      }
    </Labelled>
  )
}

export function NumberInput({ c, value, onChange, onBlur, max }: { c: FieldChrome; value: unknown; onChange(v: number | string | null): void; onBlur(): void; max?: number | null }) {
  return (
    <Labelled c={c}>
      {(a) => (
        <input
          {...a}
          type="number"
          min={0}
          max={max ?? undefined}
          step="any"
          value={value === null || value === undefined ? '' : String(value)}
          onInput={(e) => {
            const raw = inputValue(e)
            onChange(raw === '' ? null : Number.isNaN(Number(raw)) ? raw : Number(raw))
          }}
          onBlur={onBlur}
        />
      )}
    </Labelled>
  )
}

/** Birthday: typed as DD.MM.YYYY (dots inserted while typing); checked after a 2 s pause or on leaving. */
export function BirthdayInput({ c, value, onChange, onBlur }: { c: FieldChrome; value: unknown; onChange(v: string): void; onBlur(): void }) {
  const [text, setText] = useState(() => formatGermanDate(str(value)))
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])
  useEffect(() => {
    if (!value) return
    const shown = formatGermanDate(str(value))
    if (shown !== text && /^\d{4}-\d{2}-\d{2}$/.test(str(value))) setText(shown)
  }, [value])
  const mask = (raw: string) => {
    const digits = raw.replace(/\D/g, '').slice(0, 8)
    return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 8)].filter(Boolean).join('.')
  }
  return (
    <Labelled c={c}>
      {(a) => (
        <input
          {...a}
          type="text"
          inputMode="numeric"
          autocomplete="bday"
          placeholder={t('form.birthdayPlaceholder')}
          maxLength={10}
          value={text}
          onInput={(e) => {
            const raw = inputValue(e)
            const next = raw.length < text.length ? raw : mask(raw)
            setText(next)
            onChange(next)
            if (timer.current) clearTimeout(timer.current)
            timer.current = setTimeout(onBlur, 2000)
          }}
          onBlur={onBlur}
        />
      )}
    </Labelled>
  )
}

export function SelectInput({ c, value, onChange, onBlur, options, placeholder = true, autocomplete }: { c: FieldChrome; value: unknown; onChange(v: string): void; onBlur(): void; options: Array<{ value: string; label: string }>; placeholder?: boolean; autocomplete?: string | null }) {
  return (
    <Labelled c={c}>
      {(a) => (
        <select {...a} value={str(value)} autocomplete={autocomplete ?? undefined} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)} onBlur={onBlur}>
          {placeholder && <option value="">{t('form.choose')}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  )
}

/** The stored value stays German ("Frau"); other languages show their word (German needs no text in the bundle). */
const salutationLabel = (s: string) => {
  const k = `salutationOption.${s}`
  const x = t(k)
  return x === k ? s : x
}
export const salutationOptions = () => SALUTATIONS.map((s) => ({ value: s, label: salutationLabel(s) }))
export const genderOptions = () => GENDERS.map((g) => ({ value: g, label: t(`gender.${g}`) }))
export const covidOptions = (disabled: readonly string[]) => COVID_STATES.filter((s) => !disabled.includes(s)).map((s) => ({ value: s, label: t(`covidState.${s}`) }))

/** The country table (forms/countries.ts, 4 KB gzipped): FormEngine loads it first when the form asks for a country or address (issue 25). */
let countryTable: readonly CountryOption[] | null = null
export const countriesLoaded = () => countryTable !== null
export const loadCountries = () =>
  import('../../../server/modules/forms/countries').then((m) => {
    countryTable = m.COUNTRIES
  })

/** The country table with its groups; spacer rows become non-selectable group headings. */
export function CountrySelect({ c, value, onChange, onBlur, language, autocomplete }: { c: FieldChrome; value: unknown; onChange(v: string): void; onBlur(): void; language: string; autocomplete?: string }) {
  const groups: Array<{ label: string; items: CountryOption[] }> = []
  for (const row of countryTable ?? []) {
    if (row.spacer) groups.push({ label: language.startsWith('de') ? row.name : row.intName, items: [] })
    else groups[groups.length - 1]?.items.push(row)
  }
  return (
    <Labelled c={c}>
      {(a) => (
        <select {...a} value={str(value)} autocomplete={autocomplete} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)} onBlur={onBlur}>
          <option value="">{t('form.choose')}</option>
          {groups.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.items.map((o) => (
                <option key={o.code} value={o.code}>
                  {language.startsWith('de') ? o.name : o.intName}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      )}
    </Labelled>
  )
}

export function YesNo({ c, value, onChange, onBlur }: { c: FieldChrome; value: unknown; onChange(v: boolean): void; onBlur(): void }) {
  return (
    <Group c={c} class="yes-no">
      <div class="form-choice-row">
        {[true, false].map((v) => (
          <label key={String(v)} class="form-choice">
            <input type="radio" name={c.id} checked={value === v} disabled={c.locked} onChange={() => onChange(v)} onBlur={onBlur} />
            <span>{t(v ? 'form.yes' : 'form.no')}</span>
          </label>
        ))}
      </div>
    </Group>
  )
}

/** LIST: a select for single choice, checkboxes for multiple; the own value opens a text input. */
export function ListInput({ c, f, value, onChange, onBlur }: { c: FieldChrome; f: FieldDef; value: unknown; onChange(v: ListValue): void; onBlur(): void }) {
  const l = asList(value)
  const CUSTOM = '\u0000custom'
  const ownInput = l.custom !== null && (
    <div class="field field-full own-value">
      <label for={`${c.id}-own`}>{t('form.ownValueLabel', { field: c.label })}</label>
      <input id={`${c.id}-own`} type="text" maxLength={TEXT_LIMITS.text} value={l.custom} aria-required="true" onInput={(e) => onChange({ ...l, custom: inputValue(e) })} onBlur={onBlur} />
    </div>
  )
  if (!f.multiple) {
    return (
      <>
        <Labelled c={c}>
          {(a) => (
            <select
              {...a}
              value={l.custom !== null ? CUSTOM : (l.selected[0] ?? '')}
              onChange={(e) => {
                const v = (e.currentTarget as HTMLSelectElement).value
                onChange(v === CUSTOM ? { selected: [], custom: '' } : { selected: v ? [v] : [], custom: null })
              }}
              onBlur={onBlur}
            >
              <option value="">{t('form.choose')}</option>
              {f.values.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
              {f.customValue && <option value={CUSTOM}>{t('form.ownValue')}</option>}
            </select>
          )}
        </Labelled>
        {ownInput}
      </>
    )
  }
  const toggle = (v: string, on: boolean) => onChange({ ...l, selected: on ? [...l.selected, v] : l.selected.filter((x) => x !== v) })
  return (
    <Group c={c}>
      <div class="choice-list">
        {f.values.map((v) => (
          <label key={v} class="form-choice">
            <input type="checkbox" checked={l.selected.includes(v)} onChange={(e) => toggle(v, (e.currentTarget as HTMLInputElement).checked)} onBlur={onBlur} />
            <span>{v}</span>
          </label>
        ))}
        {f.customValue && (
          <label class="form-choice">
            <input type="checkbox" checked={l.custom !== null} onChange={(e) => onChange({ ...l, custom: (e.currentTarget as HTMLInputElement).checked ? '' : null })} onBlur={onBlur} />
            <span>{t('form.ownValue')}</span>
          </label>
        )}
      </div>
      {ownInput}
    </Group>
  )
}

export function AddressInput({ c, value, onChange, onBlur, language }: { c: FieldChrome; value: unknown; onChange(v: AddressValue): void; onBlur(): void; language: string }) {
  const a = (value && typeof value === 'object' ? value : {}) as AddressValue
  const set = (k: keyof AddressValue, v: string) => onChange({ country: DEFAULT_COUNTRY, ...a, [k]: v })
  const part = (k: keyof AddressValue, label: string, width: 'full' | 'half', autocomplete: string): FieldChrome => ({ id: `${c.id}-${k}`, label, required: c.required && k !== 'streetNumber' && k !== 'country', error: null, width, locked: c.locked })
  return (
    <Group c={c} class="address">
      <div class="form-grid">
        <TextInput c={part('street', t('form.street'), 'half', 'address-line1')} value={a.street} onChange={(v) => set('street', v)} onBlur={onBlur} autocomplete="address-line1" maxLength={ADDRESS_LIMITS.street} />
        <TextInput c={part('streetNumber', t('form.streetNumber'), 'half', '')} value={a.streetNumber} onChange={(v) => set('streetNumber', v)} onBlur={onBlur} maxLength={ADDRESS_LIMITS.streetNumber} />
        <TextInput c={part('postCode', t('form.postCode'), 'half', 'postal-code')} value={a.postCode} onChange={(v) => set('postCode', v)} onBlur={onBlur} autocomplete="postal-code" maxLength={ADDRESS_LIMITS.postCode} />
        <TextInput c={part('city', t('form.city'), 'half', 'address-level2')} value={a.city} onChange={(v) => set('city', v)} onBlur={onBlur} autocomplete="address-level2" maxLength={ADDRESS_LIMITS.city} />
        <CountrySelect c={part('country', t('form.country'), 'full', 'country')} value={a.country ?? DEFAULT_COUNTRY} onChange={(v) => set('country', v)} onBlur={onBlur} language={language} autocomplete="country" />
      </div>
    </Group>
  )
}
