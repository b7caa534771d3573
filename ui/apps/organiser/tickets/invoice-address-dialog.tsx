// "Rechnungsadresse ändern" on the order page (issue 21, docs/invoices.md "Corrected invoices"): the
// buyer's invoice address with the guest's rules (the server checks with the same schema). With an
// invoice, saving issues a credit note and a new invoice, both mailed; the page then lists both.
import { useEffect, useRef, useState } from 'preact/hooks'
import { errorText, put } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { toast } from '../../../components/overlay'
import { Alert, Button } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'

type Address = { receiver: string; addition?: string | null; street: string; streetNumber: string; postCode: string; city: string; country: string }
const FIELDS = ['receiver', 'addition', 'street', 'streetNumber', 'postCode', 'city', 'country'] as const
const REQUIRED = new Set(['receiver', 'street', 'streetNumber', 'postCode', 'city', 'country'])
const LABEL: Record<(typeof FIELDS)[number], string> = {
  receiver: 'ticketing.pay.receiver',
  addition: 'ticketing.pay.addition',
  street: 'ticketing.pay.street',
  streetNumber: 'ticketing.pay.streetNumber',
  postCode: 'ticketing.pay.postCode',
  city: 'ticketing.pay.city',
  country: 'ticketing.pay.country',
}

export function InvoiceAddressDialog({ eventId, order, onClose, onDone }: { eventId: number; order: { id: number; number: string; invoiceAddress: Address | null }; onClose(): void; onDone(): void }) {
  const a = order.invoiceAddress
  const [values, setValues] = useState<Record<string, string>>(Object.fromEntries(FIELDS.map((k) => [k, (a?.[k] as string | null | undefined) ?? (k === 'country' ? 'DEU' : '')])))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const first = useRef<HTMLInputElement>(null)
  useEffect(() => first.current?.focus(), [])
  const submit = async (e?: Event) => {
    e?.preventDefault()
    const problems = Object.fromEntries(FIELDS.filter((k) => REQUIRED.has(k) && !values[k]!.trim()).map((k) => [k, 'REQUIRED']))
    setErrors(problems)
    if (Object.keys(problems).length) return
    setBusy(true)
    setError(null)
    try {
      const body = { ...values, addition: values.addition!.trim() || null, country: values.country!.trim().toUpperCase() }
      await put(`/proxy/api/events/${eventId}/orders/${order.id}/invoiceAddress`, body)
      toast(t('orderDetail.changeAddressDone'))
      onDone()
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field.replace(/^invoiceAddress\./, ''), f.errorType])))
      else setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      title={t('orderDetail.changeAddressTitle', { number: order.number })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} onClick={() => void submit()}>
            {t('orderDetail.changeAddressSave')}
          </Button>
        </>
      }
    >
      <form class="form-grid" noValidate onSubmit={submit}>
        <p class="field-full">{t('orderDetail.changeAddressIntro')}</p>
        {FIELDS.map((k, i) => (
          <div key={k} class={`field ${k === 'streetNumber' || k === 'postCode' ? 'field-half' : 'field-full'} ${errors[k] ? 'has-error' : ''}`}>
            <label for={`invoice-address-${k}`}>{t(LABEL[k])}</label>
            <input
              id={`invoice-address-${k}`}
              ref={i === 0 ? first : undefined}
              name={k}
              value={values[k]}
              required={REQUIRED.has(k)}
              maxLength={k === 'country' ? 3 : undefined}
              aria-invalid={!!errors[k]}
              onInput={(e) => (setValues((v) => ({ ...v, [k]: (e.target as HTMLInputElement).value })), setErrors(({ [k]: _, ...rest }) => rest))}
            />
            {errors[k] && <small class="field-error" role="alert">{fieldMessage(errors[k]!)}</small>}
          </div>
        ))}
      </form>
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
    </Dialog>
  )
}
