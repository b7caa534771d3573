// The QR code of a registered guest's ticket ("QR code of the visitor id", guest-side.md 2): shown on
// demand on the dashboard card; the desk scans it or staff type the code below it.
import { useState } from 'preact/hooks'
import { errorText, get } from '../../api/client'
import { t } from '../../i18n'

export function TicketQr({ visitorId, status }: { visitorId: number; status: string }) {
  const [ticket, setTicket] = useState<{ ticketCode: string; qrSvg: string } | null>(null)
  const [open, setOpen] = useState(false)
  const [err, setErr] = useState<string | null>(null)
  if (status !== 'CONFIRMED' && status !== 'APPEARED') return null
  return (
    <div class="ticket-qr">
      <button
        type="button"
        class="btn btn-secondary"
        aria-expanded={open}
        onClick={async () => {
          setOpen(!open)
          if (!ticket && !open) {
            try {
              setTicket(await get(`/proxy/api/guest/events/visitors/${visitorId}/ticket`))
            } catch (e) {
              setErr(errorText(e))
            }
          }
        }}
      >
        {t('guest.ticket.show')}
      </button>
      {open && err && <p class="field-error">{err}</p>}
      {open && ticket && (
        <figure class="ticket-qr-code">
          <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(ticket.qrSvg)}`} alt={t('guest.ticket.qrAlt')} width={200} height={200} />
          <figcaption>
            {t('guest.ticket.code')}: <strong>{ticket.ticketCode}</strong>
          </figcaption>
        </figure>
      )}
    </div>
  )
}
