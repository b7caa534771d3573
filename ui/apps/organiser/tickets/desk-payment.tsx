// The check-in desk's open LOCATION payment of a registration: shown beside the persons, taken
// with one button (the full amount, now). docs/ticketing.md, "Orders".
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, post } from '../../../api/client'
import { toast } from '../../../components/overlay'
import { Alert, Button } from '../../../components/ui'
import { t } from '../../../i18n'

interface Open {
  id: number
  number: string
  grossPrice: number
  /** the amount as the agency writes it (its currency prefix) */
  grossPriceText: string
  currency: string
}

export function DeskLocationPayment({ eventId, visitorId }: { eventId: number; visitorId: number }) {
  const [open, setOpen] = useState<Open[]>([])
  const [busy, setBusy] = useState(false)
  const load = () => get<Open[]>(`/proxy/api/events/${eventId}/orders/openLocation?visitorId=${visitorId}`).then(setOpen, () => setOpen([]))
  useEffect(() => {
    void load()
  }, [eventId, visitorId])
  if (!open.length) return null
  return (
    <div class="tickets-desk-payment">
      {open.map((o) => (
        <Alert tone="warn" key={o.id}>
          <span>{t('ticketing.desk.open', { total: o.grossPriceText, number: o.number })}</span>{' '}
          <Button
            busy={busy}
            onClick={async () => {
              setBusy(true)
              try {
                await post(`/proxy/api/events/${eventId}/orders/${o.id}/takeLocationPayment`)
                toast(t('ticketing.desk.taken'))
                await load()
              } catch (e) {
                toast(errorText(e), 'error')
              } finally {
                setBusy(false)
              }
            }}
          >
            {t('ticketing.desk.take')}
          </Button>
        </Alert>
      ))}
    </div>
  )
}
