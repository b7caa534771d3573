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
  const a = info.ticketOrder.invoiceAddress
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

export function AdditionalStep({ info, proceed }: { info: Info; proceed: Proceed }) {
  const want = Math.max(0, (info.visitor?.visitorCount ?? 1) - 1)
  const [list, setList] = useState(() => Array.from({ length: want }, (_, i) => ({ firstName: info.escortPersons[i]?.firstName ?? '', lastName: info.escortPersons[i]?.lastName ?? '' })))
  const [fieldData, setFieldData] = useState<Record<string, string>>(() => Object.fromEntries(info.missingFields.map((m) => [m.field, ''])))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const missing = [
    ...info.missingFields.filter((m) => !fieldData[m.field]?.trim()).map((m) => m.displayName),
    ...list.flatMap((e, i) => [...(!e.firstName.trim() ? [t('ticketing.pay.escortFirst', { n: i + 1 })] : []), ...(!e.lastName.trim() ? [t('ticketing.pay.escortLast', { n: i + 1 })] : [])]),
  ]
  const set = (i: number, k: 'firstName' | 'lastName', x: string) => setList(list.map((e, j) => (j === i ? { ...e, [k]: x } : e)))
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
              error={errors[m.field]}
            />
          ))}
        </div>
      )}
      {want > 0 && <p>{t('ticketing.pay.escortIntro', { n: want })}</p>}
      {list.map((e, i) => (
        <fieldset class="pay-escort" key={i}>
          <legend>{t('ticketing.pay.escort', { n: i + 1 })}</legend>
          <Field name={`e${i}f`} label={t('ticketing.pay.firstName')} value={e.firstName} onInput={(x) => set(i, 'firstName', x)} required half error={errors[`escortPersons.${i}.firstName`]} />
          <Field name={`e${i}l`} label={t('ticketing.pay.lastName')} value={e.lastName} onInput={(x) => set(i, 'lastName', x)} required half error={errors[`escortPersons.${i}.lastName`]} />
        </fieldset>
      ))}
      {missing.length > 0 ? (
        <div class="pay-missing" role="status">
          <p>{t('ticketing.pay.missingIntro')}</p>
          <ul>
            {missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : (
        <div class="pay-actions">
          <Button onClick={async () => setErrors(Object.fromEntries(((await proceed('proceed/additionalInformations', { escortPersons: list, fieldData }))?.errorFields ?? []).map((f) => [f.field, f.errorType])))}>
            {t('ticketing.pay.next')}
          </Button>
        </div>
      )}
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
