// The QR code of a registered guest's ticket ("QR code of the visitor id", guest-side.md 2): shown on
// demand on the dashboard card; the desk scans it or staff type the code below it.
import { useState } from 'preact/hooks'
import { errorText, get, post } from '../../api/client'
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

/**
 * Confirm or decline from the dashboard card. Confirming an invitation (INVITED, PENDING) opens the
 * registration form, pre-filled with what the organiser knows, so required questions and agreements
 * are answered (issue 10, item 5); a registration can still be declined unless the event hides it.
 */
function DecisionButtons({ entry, accept }: { entry: RegistrationEntry; accept: boolean }) {
  const [busy, setBusy] = useState(false)
  const [err, setErr] = useState<string | null>(null)
  const [declining, setDeclining] = useState(false)
  const [reason, setReason] = useState('')
  const act = async (what: 'activate' | 'reject') => {
    setBusy(true)
    setErr(null)
    try {
      await post(`/proxy/api/guest/events/${entry.event.id}/${what}`, { visitor: entry.id, ...(what === 'reject' && reason ? { reason } : {}) })
      location.reload()
    } catch (e) {
      setErr(errorText(e))
      setBusy(false)
    }
  }
  return (
    <div class="ticket-qr">
      <div class="button-row">
        {accept && (
          <a class="btn btn-primary" href={`/public/event/${entry.event.id}`}>
            {t('guest.decision.accept')}
          </a>
        )}
        {!entry.event.hideDeclineButton && (
          <button type="button" class="btn btn-secondary" disabled={busy} onClick={() => setDeclining(!declining)}>
            {t('guest.decision.decline')}
          </button>
        )}
      </div>
      {declining && (
        <div class="field field-full">
          <label for={`reason-${entry.id}`}>{t('guest.decision.reason')}</label>
          <input id={`reason-${entry.id}`} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
          <button type="button" class="btn btn-danger" disabled={busy} onClick={() => void act('reject')}>
            {t('guest.decision.confirmDecline')}
          </button>
        </div>
      )}
      {err && <p class="field-error">{err}</p>}
    </div>
  )
}

interface RegistrationEntry {
  id: number
  registrationStatus: { status: string }
  event: { id: number; hideDeclineButton?: boolean }
}

/** What a dashboard card offers beyond the basics: the ticket QR, or accept/decline an invitation. */
export function RegistrationExtras({ entry }: { entry: RegistrationEntry }) {
  const s = entry.registrationStatus.status
  if (s === 'INVITED' || s === 'PENDING') return <DecisionButtons entry={entry} accept />
  // GUEST_REJECTABLE of visitors/transitions.ts: a registration can still be declined
  const declinable = ['CONFIRMED', 'REQUIRE_APPROVAL', 'OPEN'].includes(s) && !entry.event.hideDeclineButton
  return (
    <>
      <TicketQr visitorId={entry.id} status={s} />
      {declinable && <DecisionButtons entry={entry} accept={false} />}
    </>
  )
}
