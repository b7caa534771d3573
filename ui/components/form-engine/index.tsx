// The registration form, rendered from the event's field definitions by the same engine the server
// validates with. Used by the public page and frame, the builder's live preview and the admin mode.
import type { ComponentChildren } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { DEFAULT_COUNTRY } from '../../../server/modules/forms/country-codes'
import { type EscortData, type FieldDef, type FormContext, type SlotSelection, type VisitorData, kindOf, labelOf, widthOf } from '../../../server/modules/forms/definitions'
import { type Problem, escortAppearance, evaluate } from '../../../server/modules/forms/engine'
import { MAX_BASIC_TEXT, MAX_ESCORT_NAME, MAX_TEXT, MAX_TEXTAREA, TEXT_LIMITS, formNeedsCountries, formNeedsPhone, installPhoneParser, phoneParserInstalled } from '../../../server/modules/forms/values'
import { currentLanguage, t } from '../../i18n'
import { OverlayMessage } from '../overlay'
import { Button, Spinner } from '../ui'
import { SmartList, TimeslotPicker } from './choices'
import { AddressInput, BirthdayInput, CountrySelect, type FieldChrome, countriesLoaded, loadCountries, ListInput, NumberInput, SelectInput, TextInput, YesNo, covidOptions, genderOptions, salutationOptions } from './fields'
import { shownLabel } from './labels'
import { type Reservations, formatCountdown, useReservations } from './reservations'
import { UploadField } from './upload'

export interface EngineEvent {
  id: number
  startDate: string
  defaultPhoneLocale: string
  disabledCovidStates: string[]
  maxVisitorPerSubscription: number
}

export interface ServerFieldError {
  field: string
  errorType: string
}

export interface FormEngineProps {
  event: EngineEvent
  defs: FieldDef[]
  /** public: reservations and uploads as a guest; admin: organiser, no reservations; preview: nothing is sent */
  mode: 'public' | 'admin' | 'preview'
  identification: string
  initial?: Partial<VisitorData>
  /** keys taken from the guest's account (lockBasicData) */
  locked?: string[]
  vip?: boolean
  /** a guest changes an existing registration: reservations are asked for with registrationChange */
  registrationChange?: boolean
  submitLabel: string
  /** resolves with server field errors to mark, or nothing; `chairReservations`: the seat picker's hold tokens */
  onSubmit?(data: VisitorData & { chairReservations?: string[] }): Promise<ServerFieldError[] | void>
  /** the seat picker (public page of an event with a seating plan): its holds share the form's countdown */
  seats?(r: SeatHolds): ComponentChildren
  children?: ComponentChildren
}

/** What the seat picker gets from the form: the visit and its chair holds (one countdown with the timeslots). */
export interface SeatHolds {
  identification: string
  chairs: Reservations['chairs']
  setChair: Reservations['setChair']
  /** places the guest registers (main guest and escorts) */
  persons: number
}

const MAX_ESCORTS_UNLIMITED = 10
/** the registration call's limits for the basic fields (salutation … email; the full zod is not in this page) */
const BASIC_LIMITS: Record<string, number> = { salutation: MAX_BASIC_TEXT, title: MAX_BASIC_TEXT, firstName: MAX_BASIC_TEXT, lastName: MAX_BASIC_TEXT, email: TEXT_LIMITS.email }

/**
 * Loads the phone number reader first when the form asks for a phone number, and the country table
 * when it asks for a country or an address (keeps both out of other pages; issue 25).
 */
export function FormEngine(p: FormEngineProps) {
  const [, loaded] = useState(0)
  const phoneReady = !formNeedsPhone(p.defs) || phoneParserInstalled()
  const countriesReady = !formNeedsCountries(p.defs) || countriesLoaded()
  const ready = phoneReady && countriesReady
  useEffect(() => {
    if (ready) return
    void Promise.all([
      phoneReady || import('../../../server/modules/forms/phone').then((m) => installPhoneParser(m.phoneToE164)),
      countriesReady || loadCountries(),
    ]).then(() => loaded((n) => n + 1))
  }, [ready])
  return ready ? <FormEngineInner {...p} /> : <Spinner />
}

function FormEngineInner(p: FormEngineProps) {
  const language = currentLanguage()
  const [data, setData] = useState<VisitorData>(() => ({ fields: {}, escortPersons: [], ...p.initial, ...(p.initial?.fields ? {} : { fields: {} }) }) as VisitorData)
  const [touched, setTouched] = useState<Set<string>>(() => new Set())
  const [submitted, setSubmitted] = useState(false)
  const [busy, setBusy] = useState(false)
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const hasTimeslots = p.defs.some((f) => f.type === 'TIMESLOT' && f.appearance !== 'HIDDEN')
  const res = useReservations({
    eventId: p.event.id,
    identification: p.identification,
    reserve: p.mode === 'public',
    registrationChange: p.registrationChange,
    hasTimeslots,
    // at expiry every timed pick leaves the form
    onExpire: () =>
      setData((d) => {
        const fields = { ...d.fields }
        for (const f of p.defs) if (f.type === 'TIMESLOT') delete fields[String(f.id)]
        return { ...d, fields }
      }),
  })

  const ctx: FormContext = {
    now: new Date(),
    eventStart: p.event.startDate,
    defaultPhoneLocale: p.event.defaultPhoneLocale,
    disabledCovidStates: p.event.disabledCovidStates,
    maxVisitorPerSubscription: p.event.maxVisitorPerSubscription,
    vip: p.mode === 'admin' && (p.vip ?? false),
    admin: p.mode !== 'public',
    language,
  }
  const ev = useMemo(() => evaluate(p.defs, data, ctx), [p.defs, data, p.vip, language])
  const problems = new Map<string, Problem>()
  for (const x of [...ev.missing, ...ev.invalid]) if (!problems.has(x.field)) problems.set(x.field, x)
  const show = (key: string) => submitted || touched.has(key)
  const errorFor = (key: string): { code: string | null; params?: Record<string, string | number> } => {
    if (serverErrors[key]) return { code: serverErrors[key] }
    const pr = problems.get(key)
    return pr && show(key) ? { code: pr.errorType, params: pr.params } : { code: null }
  }
  const touch = (key: string) => setTouched((s) => (s.has(key) ? s : new Set(s).add(key)))
  const clearServer = (key: string) => serverErrors[key] && setServerErrors(({ [key]: _, ...rest }) => rest)

  const setKey = (key: string, v: unknown) => {
    clearServer(key)
    setData((d) => {
      if (key.startsWith('fields.')) return { ...d, fields: { ...d.fields, [key.slice(7)]: v as any } }
      return { ...d, [key]: v }
    })
  }
  const valueOf = (key: string): unknown => (key.startsWith('fields.') ? data.fields[key.slice(7)] : (data as any)[key])

  const basicKey = (f: FieldDef) =>
    ({ SALUTATION: 'salutation', TITLE: 'title', FIRST_NAME: 'firstName', LAST_NAME: 'lastName', EMAIL: 'email' })[f.defaultField as string] as string | undefined

  const chrome = (f: FieldDef, key: string): FieldChrome => {
    const e = errorFor(key)
    return {
      id: `ff-${key.replace(/\./g, '-')}`,
      label: shownLabel(f, language),
      required: f.appearance === 'REQUIRED',
      error: e.code,
      errorParams: e.params,
      hint: f.settings.hint ?? null,
      locked: p.locked?.includes(key),
      width: widthOf(f),
      maxLength: BASIC_LIMITS[key] ?? (kindOf(f) === 'TEXTAREA' ? MAX_TEXTAREA : MAX_TEXT),
    }
  }

  const renderField = (f: FieldDef) => {
    const key = basicKey(f) ?? `fields.${f.id}`
    const c = chrome(f, key)
    const v = valueOf(key)
    const on = (x: unknown) => setKey(key, x)
    const blur = () => touch(key)
    const kind = kindOf(f)
    switch (kind) {
      case 'SEPARATOR':
        return (
          <div class="form-separator field-full" role="separator">
            {f.displayName && <h3>{labelOf(f, language)}</h3>}
          </div>
        )
      case 'EXPLANATION':
        return (
          <div class="form-explanation field-full">
            {f.displayName && <h3>{labelOf(f, language)}</h3>}
            {f.settings.text && <p>{f.settings.text}</p>}
          </div>
        )
      case 'SALUTATION':
        return <SelectInput c={c} value={v} onChange={on} onBlur={blur} options={salutationOptions()} autocomplete="honorific-prefix" />
      case 'TEXT':
      case 'URL':
        return <TextInput c={c} value={v} onChange={on} onBlur={blur} type={kind === 'URL' ? 'url' : 'text'} autocomplete={f.autocomplete} />
      case 'TEXTAREA':
        return <TextInput c={c} value={v} onChange={on} onBlur={blur} multiline />
      case 'EMAIL':
      case 'DELEGATE_EMAIL':
        return <TextInput c={c} value={v} onChange={on} onBlur={blur} type="email" autocomplete={kind === 'EMAIL' ? 'email' : 'off'} />
      case 'PHONE':
        return <TextInput c={c} value={v} onChange={on} onBlur={blur} type="tel" autocomplete="tel" />
      case 'NUMBER':
        return <NumberInput c={c} value={v} onChange={on} onBlur={blur} max={f.settings.max} />
      case 'TIME':
        return <TextInput c={c} value={v} onChange={on} onBlur={blur} type="time" />
      case 'DATE':
        return f.settings.birthday || f.defaultField === 'BIRTHDAY' ? <BirthdayInput c={c} value={v} onChange={on} onBlur={blur} /> : <TextInput c={c} value={v} onChange={on} onBlur={blur} type="date" />
      case 'DATE_TIME':
        return <TextInput c={c} value={v} onChange={on} onBlur={blur} type="datetime-local" />
      case 'YES_NO':
        return <YesNo c={c} value={v} onChange={on} onBlur={blur} />
      case 'VIP':
        return <YesNo c={c} value={v ?? p.vip ?? false} onChange={on} onBlur={blur} />
      case 'LIST':
        return <ListInput c={c} f={f} value={v} onChange={on} onBlur={blur} />
      case 'SMARTLIST':
        return <SmartList c={c} f={f} value={v} onChange={on} onBlur={blur} language={language} />
      case 'TIMESLOT':
        return (
          <TimeslotPicker
            c={c}
            f={f}
            value={v}
            slots={res.slots}
            free={res.free}
            language={language}
            onPick={async (slot) => {
              touch(key)
              const next = await res.toggle(f, slot.id, (Array.isArray(valueOf(key)) ? valueOf(key) : []) as SlotSelection[])
              setKey(key, next)
            }}
          />
        )
      case 'IMAGE':
      case 'FILE':
        return <UploadField c={c} image={kind === 'IMAGE'} value={v} onChange={(x) => (on(x), blur())} ctx={p.mode === 'preview' ? null : { eventId: p.event.id, identification: p.identification, admin: p.mode === 'admin' }} />
      case 'ADDRESS':
      case 'COMPANY_ADDRESS':
        return <AddressInput c={c} value={v} onChange={on} onBlur={blur} language={language} />
      case 'COUNTRY':
        return <CountrySelect c={c} value={v ?? ''} onChange={on} onBlur={blur} language={language} autocomplete="country" />
      case 'GENDER':
        return <SelectInput c={c} value={v} onChange={on} onBlur={blur} options={genderOptions()} autocomplete="sex" />
      case 'COVID_STATE':
        return <SelectInput c={c} value={v} onChange={on} onBlur={blur} options={covidOptions(p.event.disabledCovidStates)} />
      default:
        return null
    }
  }

  const visibleDefs = p.defs.filter((f) => ev.visible.has(f.id)).sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)
  const mvs = p.event.maxVisitorPerSubscription
  const maxEscorts = mvs > 0 ? mvs - 1 : mvs < 0 ? MAX_ESCORTS_UNLIMITED : 0
  const app = escortAppearance(p.defs)

  const submit = async (e: Event) => {
    e.preventDefault()
    setSubmitted(true)
    const blocking = p.mode === 'public' ? [...ev.missing, ...ev.invalid] : ev.invalid
    if (blocking.length) {
      // the first field with a problem gets the focus (after the messages render)
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"] input, [aria-invalid="true"], .has-error input, .has-error select, .has-error textarea')?.focus(), 0)
      return
    }
    if (!p.onSubmit) return
    setBusy(true)
    try {
      const chairReservations = Object.values(res.chairs).map((c) => c.token)
      const errs = await p.onSubmit(chairReservations.length ? { ...data, chairReservations } : data)
      if (errs?.length) setServerErrors(Object.fromEntries(errs.map((x) => [x.field, x.errorType])))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate class="form-grid registration-form">
      {res.remaining !== null && (
        <div class="countdown field-full" role="timer" aria-label={t('form.countdownLabel')}>
          <span>{t('form.countdown', { time: formatCountdown(res.remaining) })}</span>
          <Button variant="ghost" onClick={() => void res.renew()}>
            {t('form.renew')}
          </Button>
        </div>
      )}
      {p.seats && p.mode === 'public' && <div class="field-full">{p.seats({ identification: p.identification, chairs: res.chairs, setChair: res.setChair, persons: 1 + data.escortPersons.length })}</div>}
      {visibleDefs.map((f) => (
        <Frag key={f.id}>{renderField(f)}</Frag>
      ))}
      {maxEscorts > 0 && (
        <Escorts
          escorts={data.escortPersons}
          max={maxEscorts}
          app={app}
          errorFor={errorFor}
          touch={touch}
          language={language}
          disabledCovidStates={p.event.disabledCovidStates}
          onChange={(list) => setData((d) => ({ ...d, escortPersons: list }))}
        />
      )}
      {p.children}
      <div class="form-actions">
        <Button type="submit" busy={busy} disabled={p.mode === 'preview'}>
          {p.submitLabel}
        </Button>
      </div>
      {res.expired && (
        <OverlayMessage tone="error" title={t('form.expiredTitle')} messages={[t('errors.REGISTRATION_VALID_UNTIL_EXPIRED')]} onClose={res.dismissExpired} />
      )}
    </form>
  )
}

const Frag = ({ children }: { children: ComponentChildren }) => <>{children}</>

function Escorts({
  escorts,
  max,
  app,
  errorFor,
  touch,
  language,
  disabledCovidStates,
  onChange,
}: {
  escorts: EscortData[]
  max: number
  app: ReturnType<typeof escortAppearance>
  errorFor(key: string): { code: string | null; params?: Record<string, string | number> }
  touch(key: string): void
  language: string
  disabledCovidStates: string[]
  onChange(list: EscortData[]): void
}) {
  const set = (i: number, k: keyof EscortData, v: unknown) => onChange(escorts.map((e, j) => (j === i ? { ...e, [k]: v } : e)))
  const chrome = (i: number, k: string, label: string, appearance: string, width: 'full' | 'half' = 'half'): FieldChrome => {
    const key = `escortPersons.${i}.${k}`
    const e = errorFor(key)
    const maxLength = k === 'firstName' || k === 'lastName' ? MAX_ESCORT_NAME : k === 'info' ? MAX_TEXTAREA : MAX_TEXT
    return { id: `ff-escort-${i}-${k}`, label, required: appearance === 'REQUIRED', error: e.code, errorParams: e.params, width, maxLength }
  }
  const text = (i: number, k: keyof EscortData, label: string, appearance: string, type = 'text', autocomplete?: string) =>
    appearance !== 'HIDDEN' && (
      <TextInput c={chrome(i, k, label, appearance, k === 'info' ? 'full' : 'half')} value={escorts[i][k]} onChange={(v) => set(i, k, v)} onBlur={() => touch(`escortPersons.${i}.${k}`)} type={type} autocomplete={autocomplete} multiline={k === 'info'} maxLength={k === 'firstName' || k === 'lastName' ? TEXT_LIMITS.name : undefined} />
    )
  return (
    <fieldset class="field-full escorts">
      <legend>{t('registration.escorts')}</legend>
      {escorts.map((e, i) => (
        <div key={i} class="escort form-grid">
          <div class="escort-head field-full">
            <strong>{t('registration.escortNumber', { n: i + 1 })}</strong>
            <Button variant="ghost" onClick={() => onChange(escorts.filter((_, j) => j !== i))}>
              {t('registration.removeEscort')}
            </Button>
          </div>
          {app.salutation !== 'HIDDEN' && (
            <SelectInput c={chrome(i, 'salutation', t('registration.salutation'), app.salutation)} value={e.salutation} onChange={(v) => set(i, 'salutation', v)} onBlur={() => touch(`escortPersons.${i}.salutation`)} options={salutationOptions()} />
          )}
          {text(i, 'title', t('registration.title.field'), app.title)}
          {app.name !== 'HIDDEN' && (
            <>
              {text(i, 'firstName', t('registration.firstName'), 'REQUIRED')}
              {text(i, 'lastName', t('registration.lastName'), 'REQUIRED')}
            </>
          )}
          {text(i, 'email', t('registration.email'), app.email, 'email')}
          {text(i, 'company', t('form.company'), app.company)}
          {text(i, 'position', t('form.position'), app.position)}
          {text(i, 'phoneNumber', t('form.phone'), app.phoneNumber, 'tel')}
          {text(i, 'web', t('form.web'), app.web, 'url')}
          {app.birthday !== 'HIDDEN' && (
            <BirthdayInput c={chrome(i, 'birthday', t('form.birthday'), app.birthday)} value={e.birthday} onChange={(v) => set(i, 'birthday', v)} onBlur={() => touch(`escortPersons.${i}.birthday`)} />
          )}
          {app.covidState !== 'HIDDEN' && (
            <SelectInput c={chrome(i, 'covidState', t('fieldType.COVID_STATE'), app.covidState)} value={e.covidState} onChange={(v) => set(i, 'covidState', v)} onBlur={() => touch(`escortPersons.${i}.covidState`)} options={covidOptions(disabledCovidStates)} />
          )}
          {text(i, 'info', t('form.info'), app.info)}
          {app.address !== 'HIDDEN' && (
            <AddressInput c={chrome(i, 'address', t('fieldType.ADDRESS'), app.address, 'full')} value={e.address ?? { country: DEFAULT_COUNTRY }} onChange={(v) => set(i, 'address', v)} onBlur={() => touch(`escortPersons.${i}.address`)} language={language} />
          )}
        </div>
      ))}
      {escorts.length < max && (
        <Button variant="secondary" onClick={() => onChange([...escorts, {}])}>
          {t('registration.addEscort')}
        </Button>
      )}
    </fieldset>
  )
}
