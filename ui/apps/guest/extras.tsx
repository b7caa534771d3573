// What a registered event's dashboard card offers beyond the registration itself: the agreements to
// sign ahead of the event (counter and dialog), the self check-in link, the report dialog (events
// with useReporting) and the agency's imprint.
import { Suspense, lazy } from 'preact/compat'
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, post } from '../../api/client'
import { toast } from '../../components/overlay'
import { t } from '../../i18n'
import { AgreementCounter, type GuestAgreement, toDecide } from './agreement-counter'
import { ImprintDialog } from './help'

// dialogs load when opened: the report form brings react-hook-form, the signature dialog its pad
const ReportDialog = lazy(() => import('./report-dialog').then((m) => ({ default: m.ReportDialog })))
const AgreementsDialog = lazy(() => import('./agreements-dialog').then((m) => ({ default: m.AgreementsDialog })))

export interface ExtrasEntry {
  id: number
  eventToken: string
  registrationStatus: { status: string }
  allowSelfCheckin?: boolean
  allowSelfCheckout?: boolean
  event: { id: number; displayName: string; useReporting?: boolean; agency?: { id: number } | null }
}

/** `onSaved`: the card's own lines ("Noch zu unterschreiben: …") come with the dashboard, which reloads */
function Agreements({ visitorId, onSaved }: { visitorId: number; onSaved?: () => void }) {
  const [list, setList] = useState<GuestAgreement[] | null>(null)
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const path = `/proxy/api/guest/events/visitors/${visitorId}/agreements`
  useEffect(() => {
    get<GuestAgreement[]>(path).then(setList, () => setList([]))
  }, [visitorId])
  if (!list?.length) return null
  return (
    <>
      <AgreementCounter agreements={list} onOpen={() => (setError(null), setOpen(true))} />
      {open && (
        <Suspense fallback={null}>
        <AgreementsDialog
          agreements={toDecide(list)}
          busy={busy}
          error={error}
          onCancel={() => setOpen(false)}
          onDone={async (agreements) => {
            setBusy(true)
            try {
              setList(await post<GuestAgreement[]>(path, { agreements }))
              setOpen(false)
              toast(t('guestAgreements.saved'))
              onSaved?.()
            } catch (e) {
              setError(errorText(e))
            } finally {
              setBusy(false)
            }
          }}
        />
        </Suspense>
      )}
    </>
  )
}

export function GuestExtras({ entry, reload }: { entry: ExtrasEntry; reload?: () => Promise<void> }) {
  const [report, setReport] = useState(false)
  const [imprint, setImprint] = useState(false)
  const registered = entry.registrationStatus.status === 'CONFIRMED' || entry.registrationStatus.status === 'APPEARED'
  return (
    <div class="guest-extras">
      {registered && <Agreements visitorId={entry.id} onSaved={() => void reload?.()} />}
      <p class="guest-extras-links">
        {registered && (entry.allowSelfCheckin || entry.allowSelfCheckout) && <a href={`/guest/checkin/${encodeURIComponent(entry.eventToken)}`}>{t('selfCheckin.title')}</a>}
        {entry.event.useReporting && (
          <button type="button" class="guest-extras-link" onClick={() => setReport(true)}>
            {t('report.open')}
          </button>
        )}
        {entry.event.agency && (
          <button type="button" class="guest-extras-link" onClick={() => setImprint(true)}>
            {t('help.imprint.open')}
          </button>
        )}
      </p>
      {report && (
        <Suspense fallback={null}>
          <ReportDialog event={entry.event} onClose={() => setReport(false)} />
        </Suspense>
      )}
      {imprint && entry.event.agency && <ImprintDialog agencyId={entry.event.agency.id} onClose={() => setImprint(false)} />}
    </div>
  )
}
