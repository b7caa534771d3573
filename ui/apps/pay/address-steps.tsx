// The pay page's address steps (guest-side.md §4): the invoice address (step 1), the additional
// fields of the order (step 5), and the notice when a field became required after the order.
import { useState } from 'preact/hooks'
import type { ApiError } from '../../api/client'
import { CountrySelect } from '../../components/country-select'
import { Alert, Button, Card } from '../../components/ui'
import { fieldMessage, t } from '../../i18n'
import type { Info, Proceed } from './model'

function Field(p: { name: string; label: string; value: string; onInput(v: string): void; error?: string; required?: boolean; hint?: string; autoComplete?: string; half?: boolean; options?: readonly string[]; country?: boolean }) {
  const id = `pay-${p.name}`
  const described = { 'aria-invalid': !!p.error, 'aria-describedby': p.error ? `${id}-error` : undefined }
  return (
    <div class={`pay-field ${p.half ? 'is-half' : ''} ${p.error ? 'has-error' : ''}`}>
      <label for={id}>
        {p.label}
        {p.required && ' *'}
      </label>
      {p.country ? (
        <CountrySelect id={id} name={p.name} value={p.value} onChange={p.onInput} invalid={!!p.error} describedBy={p.error ? `${id}-error` : undefined} />
      ) : p.options ? (
        <select id={id} name={p.name} value={p.value} {...described} onChange={(e) => p.onInput((e.target as HTMLSelectElement).value)}>
          <option value="">–</option>
          {p.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} name={p.name} value={p.value} autoComplete={p.autoComplete} {...described} onInput={(e) => p.onInput((e.target as HTMLInputElement).value)} />
      )}
      {p.hint && <small class="muted">{p.hint}</small>}
      {p.error && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {fieldMessage(p.error)}
        </small>
      )}
    </div>
  )
}

const errorsOf = (e: ApiError | null) => Object.fromEntries((e?.errorFields ?? []).map((f) => [f.field.replace(/^invoiceAddress\./, ''), f.errorType]))

export function InvoiceAddressStep({ info, proceed }: { info: Info; proceed: Proceed }) {
  // not given yet: the address the registration offers (userAccount, §3)
  const a = info.ticketOrder.invoiceAddress ?? info.userAccount?.invoiceAddress ?? null
  const [v, setV] = useState<Record<string, string>>({
    receiver: a?.receiver ?? info.ticketOrder.fullName ?? '',
    addition: a?.addition ?? '',
    street: a?.street ?? '',
    streetNumber: a?.streetNumber ?? '',
    postCode: a?.postCode ?? '',
    city: a?.city ?? '',
    country: a?.country ?? 'DEU',
    taxIdentificationNumber: '',
    referenceNumber: info.ticketOrder.referenceNumber ?? '',
    additionalInvoiceText: '',
    invoiceReceiver: '',
  })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const f = (name: string, label: string, o: Partial<Parameters<typeof Field>[0]> = {}) => <Field name={name} label={label} value={v[name]} onInput={(x) => setV({ ...v, [name]: x })} error={errors[name]} {...o} />
  const submit = async (ev: Event) => {
    ev.preventDefault()
    setBusy(true)
    const e = await proceed('proceed/invoiceAddress', {
      invoiceAddress: { receiver: v.receiver, addition: v.addition || null, street: v.street, streetNumber: v.streetNumber, postCode: v.postCode, city: v.city, country: v.country || 'DEU' },
      ...(info.useInvoiceXML ? { taxIdentificationNumber: v.taxIdentificationNumber || null, referenceNumber: v.referenceNumber || null, additionalInvoiceText: v.additionalInvoiceText || null, invoiceReceiver: v.invoiceReceiver || null } : {}),
    })
    setErrors(errorsOf(e))
    setBusy(false)
  }
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.1')}</h2>
      {Object.keys(errors).length > 0 && <Alert tone="error">{t('ticketing.pay.addressError')}</Alert>}
      <form class="pay-form" onSubmit={submit} noValidate>
        {f('receiver', t('ticketing.pay.receiver'), { required: true, autoComplete: 'name' })}
        {f('addition', t('ticketing.pay.addition'), { autoComplete: 'organization' })}
        {f('street', t('ticketing.pay.street'), { required: true, autoComplete: 'address-line1' })}
        {f('streetNumber', t('ticketing.pay.streetNumber'), { required: true, half: true })}
        {f('postCode', t('ticketing.pay.postCode'), { required: true, half: true, autoComplete: 'postal-code' })}
        {f('city', t('ticketing.pay.city'), { required: true, autoComplete: 'address-level2' })}
        {f('country', t('ticketing.pay.country'), { required: true, country: true })}
        {info.useInvoiceXML && (
          <>
            {f('referenceNumber', t('ticketing.pay.referenceNumber'), { required: info.requireReferenceId, hint: 'XXX-XXXXXXXXXX-XX' })}
            {f('taxIdentificationNumber', t('ticketing.pay.taxId'))}
            {f('invoiceReceiver', t('ticketing.pay.invoiceReceiver'))}
            {f('additionalInvoiceText', t('ticketing.pay.additionalText'))}
          </>
        )}
        <div class="pay-actions">
          <Button type="submit" busy={busy}>
            {t('ticketing.pay.next')}
          </Button>
        </div>
      </form>
    </Card>
  )
}

const SALUTATIONS = ['Herr', 'Frau', 'Divers'] as const

type Appearance = 'HIDDEN' | 'VISIBLE' | 'REQUIRED'
type EscortKey = 'salutation' | 'title' | 'email' | 'company' | 'position' | 'phoneNumber' | 'web' | 'info' | 'birthday'
type AddressKey = 'street' | 'streetNumber' | 'postCode' | 'city' | 'country'
/** the escort properties the page asks for, in the registration form's order (ESCORT_* settings) */
const ESCORT_PROPS: EscortKey[] = ['salutation', 'title', 'company', 'position', 'email', 'phoneNumber', 'web', 'birthday', 'info']
const ADDRESS: AddressKey[] = ['street', 'streetNumber', 'postCode', 'city', 'country']
type EscortForm = { number: number | null; firstName: string; lastName: string } & Record<EscortKey | AddressKey, string>

/** A stored escort as the step's form: everything it has, so nothing is lost when it is sent again. */
function escortForm(e: Info['escortPersons'][number] | undefined): EscortForm {
  const s = (v: string | null | undefined) => v ?? ''
  // birthdays are stored as ISO dates and entered as the registration form does (DD.MM.YYYY)
  const birthday = e?.birthday ? e.birthday.slice(0, 10).split('-').reverse().join('.') : ''
  const out = { number: e?.number ?? null, firstName: s(e?.firstName), lastName: s(e?.lastName), birthday } as EscortForm
  for (const k of ESCORT_PROPS) if (k !== 'birthday') out[k] = s(e?.[k])
  for (const k of ADDRESS) out[k] = s(e?.address?.[k])
  return out
}

/**
 * Step 5: the required fields still empty and the escort persons, with what the event asks of them
 * (its ESCORT_* settings, `fields` of the ticket info); the server checks them like the registration
 * form and keeps what is stored. Weiter is always there: pressing it with something missing lists
 * what is missing and marks the fields (nothing is flagged before the guest tried).
 */
export function AdditionalStep({ info, proceed }: { info: Info; proceed: Proceed }) {
  const want = Math.max(0, (info.visitor?.visitorCount ?? 1) - 1)
  const app = (k: string): Appearance => (info.fields as Record<string, Appearance> | undefined)?.[k] ?? (k === 'name' ? 'REQUIRED' : 'HIDDEN')
  const [list, setList] = useState<EscortForm[]>(() => Array.from({ length: want }, (_, i) => escortForm(info.escortPersons[i])))
  const [fieldData, setFieldData] = useState<Record<string, string>>(() => Object.fromEntries(info.missingFields.map((m) => [m.field, ''])))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const label = (k: EscortKey | AddressKey | 'firstName' | 'lastName') => t((ADDRESS as string[]).includes(k) || k === 'firstName' || k === 'lastName' ? `ticketing.pay.${k}` : `ticketing.pay.escortField.${k}`)
  // what is required and still empty, as field keys of the server's answers
  const gaps: Array<{ key: string; text: string }> = [
    ...info.missingFields.filter((m) => !fieldData[m.field]?.trim()).map((m) => ({ key: m.field, text: m.displayName })),
    ...list.flatMap((e, i) => {
      const of = (k: string, text: string) => ({ key: `escortPersons.${i}.${k}`, text: `${t('ticketing.pay.escort', { n: i + 1 })}: ${text}` })
      const out: Array<{ key: string; text: string }> = []
      if (app('name') !== 'HIDDEN') for (const k of ['firstName', 'lastName'] as const) if (!e[k].trim()) out.push(of(k, label(k)))
      for (const k of ESCORT_PROPS) if (app(k) === 'REQUIRED' && !e[k].trim()) out.push(of(k, label(k)))
      if (app('address') === 'REQUIRED' && ['street', 'postCode', 'city'].some((k) => !e[k as AddressKey].trim())) out.push(of('address', t('ticketing.pay.street')))
      return out
    }),
  ]
  const shownErrors = tried ? { ...Object.fromEntries(gaps.map((g) => [g.key, 'REQUIRED'])), ...errors } : errors
  const set = (i: number, k: keyof EscortForm, x: string) => {
    setList(list.map((e, j) => (j === i ? { ...e, [k]: x } : e)))
    setErrors(({ [`escortPersons.${i}.${k}`]: _, ...rest }) => rest)
  }
  const body = () => ({
    fieldData,
    escortPersons: list.map((e) => {
      const address = Object.fromEntries(ADDRESS.map((k) => [k, e[k].trim() || null]))
      return {
        number: e.number,
        firstName: e.firstName,
        lastName: e.lastName,
        ...Object.fromEntries(ESCORT_PROPS.map((k) => [k, e[k].trim() || null])),
        address: ADDRESS.some((k) => e[k].trim()) ? { ...address, country: address.country ?? 'DEU' } : null,
      }
    }),
  })
  const next = async () => {
    setTried(true)
    if (gaps.length) return
    setBusy(true)
    const e = await proceed('proceed/additionalInformations', body())
    setBusy(false)
    setErrors(Object.fromEntries((e?.errorFields ?? []).map((f) => [f.field, f.errorType])))
  }
  const input = (i: number, k: keyof EscortForm & string, required: boolean, half = true) => (
    <Field key={k} name={`e${i}-${k}`} label={label(k as EscortKey)} value={String(list[i]![k] ?? '')} onInput={(x) => set(i, k, x)} required={required} half={half} error={shownErrors[`escortPersons.${i}.${k}`]} options={k === 'salutation' ? SALUTATIONS : undefined} />
  )
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.5')}</h2>
      {info.missingFields.length > 0 && (
        <div class="pay-form">
          {info.missingFields.map((m) => (
            <Field
              key={m.field}
              name={m.field}
              label={m.displayName}
              value={fieldData[m.field] ?? ''}
              onInput={(x) => setFieldData({ ...fieldData, [m.field]: x })}
              options={m.type === 'SALUTATION' ? SALUTATIONS : undefined}
              required
              error={shownErrors[m.field]}
            />
          ))}
        </div>
      )}
      {want > 0 && <p>{t(ESCORT_PROPS.some((k) => app(k) !== 'HIDDEN') ? 'ticketing.pay.escortDetails' : 'ticketing.pay.escortIntro', { n: want })}</p>}
      {list.map((e, i) => (
        <fieldset class="pay-escort" key={e.number ?? `new-${i}`} data-testid={`pay-escort-${i}`}>
          <legend>{t('ticketing.pay.escort', { n: i + 1 })}</legend>
          {app('name') !== 'HIDDEN' && (
            <>
              {input(i, 'firstName', true)}
              {input(i, 'lastName', true)}
            </>
          )}
          {ESCORT_PROPS.filter((k) => app(k) !== 'HIDDEN').map((k) => input(i, k, app(k) === 'REQUIRED', k !== 'info'))}
          {app('address') !== 'HIDDEN' && ADDRESS.map((k) => input(i, k, app('address') === 'REQUIRED' && k !== 'streetNumber' && k !== 'country', k !== 'street' && k !== 'city'))}
          {shownErrors[`escortPersons.${i}.address`] && (
            <small class="field-error" role="alert">
              {fieldMessage(shownErrors[`escortPersons.${i}.address`]!)}
            </small>
          )}
        </fieldset>
      ))}
      {tried && gaps.length > 0 && (
        <div class="pay-missing" role="status">
          <p>{t('ticketing.pay.missingIntro')}</p>
          <ul>
            {gaps.map((m) => (
              <li key={m.key}>{m.text}</li>
            ))}
          </ul>
        </div>
      )}
      <div class="pay-actions">
        <Button onClick={next} busy={busy}>
          {t('ticketing.pay.next')}
        </Button>
      </div>
    </Card>
  )
}

/** Later steps while required fields are missing: the list, and the way back to step 5 instead of continue. */
export function MissingNotice({ info, proceed }: { info: Info; proceed: Proceed }) {
  return (
    <Card class="pay-step">
      <div class="pay-missing" role="status">
        <p>{t('ticketing.pay.missingIntro')}</p>
        <ul>
          {info.missingFields.map((m) => (
            <li key={m.field}>{m.displayName}</li>
          ))}
        </ul>
      </div>
      <div class="pay-actions">
        <Button onClick={() => proceed('proceed/reset', { step: 5 })}>{t('ticketing.pay.completeFields')}</Button>
      </div>
    </Card>
  )
}
