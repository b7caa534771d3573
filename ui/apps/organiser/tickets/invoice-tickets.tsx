// The tickets tab's setting for orders paid by invoice (issue 20 B, docs/ticketing.md "Valid
// tickets"): their tickets come with the order (the default: buying on account means tickets first)
// or once the invoice is paid. Transfers and online payments always wait for the money; payment at
// the location is collected at the desk.
import { useState } from 'preact/hooks'
import { errorText, put } from '../../../api/client'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Card, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'

const CHOICES = ['AT_ONCE', 'AFTER_PAYMENT'] as const

export function InvoiceTickets({ eventId, canEdit }: { eventId: number; canEdit: boolean }) {
  const res = useResource<{ invoiceTickets: string }>(`/proxy/api/events/${eventId}/ticketSettings`)
  const [saving, setSaving] = useState<string | null>(null)
  if (!res.data) return <Spinner />
  const value = saving ?? res.data.invoiceTickets
  const choose = async (invoiceTickets: string) => {
    setSaving(invoiceTickets)
    try {
      await put(`/proxy/api/events/${eventId}/ticketSettings`, { invoiceTickets })
      await res.reload()
      toast(t('events.ticketSettings.saved'))
    } catch (err) {
      toast(errorText(err), 'error')
    } finally {
      setSaving(null)
    }
  }
  return (
    <Card>
      <fieldset class="tickets-invoice-setting">
        <legend>
          <h2>{t('events.ticketSettings.title')}</h2>
        </legend>
        <p class="muted">{t('events.ticketSettings.hint')}</p>
        {CHOICES.map((c) => (
          <label key={c}>
            <input type="radio" name="invoiceTickets" value={c} checked={value === c} disabled={!canEdit || saving !== null} onChange={() => void choose(c)} /> {t(`events.ticketSettings.${c}`)}
          </label>
        ))}
      </fieldset>
    </Card>
  )
}
