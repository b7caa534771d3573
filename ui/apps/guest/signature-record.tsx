// The guest's own signature record in the registration details dialog: every agreement decision of
// the registration (newest first) with status, time, version and where it was made; the text as it
// was shown and the drawn signature open read-only (server: agreements/guest-record.ts).
import { useEffect, useState } from 'preact/hooks'
import { formatTime } from '../../../server/i18n/format'
import { formatDateIn } from '../../../server/i18n/locale-format'
import { get } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { Badge, Button } from '../../components/ui'
import { t, currentLanguage } from '../../i18n'

interface Decision {
  id: number
  displayName: string
  description: string
  version: number
  status: 'CONFIRMED' | 'DECLINED'
  origin: string
  decidedAt: string
  hasSignature: boolean
}

export function SignatureRecord({ visitorId, timezone }: { visitorId: number; timezone: string }) {
  const [list, setList] = useState<Decision[] | null>(null)
  const [open, setOpen] = useState<Decision | null>(null)
  useEffect(() => {
    // the record is extra information: the details stay usable when it cannot be loaded
    get<Decision[]>(`/proxy/api/guest/events/visitors/${visitorId}/agreements/log`).then(setList, () => setList([]))
  }, [visitorId])
  if (!list?.length) return null
  const when = (d: Decision) =>
    t('guestPortal.record.when', { date: formatDateIn(currentLanguage(), d.decidedAt, timezone), time: formatTime(d.decidedAt, timezone), version: d.version, origin: t(`guestPortal.record.origin.${d.origin}`) })
  return (
    <section class="signature-record" aria-labelledby="signature-record-title">
      <h3 id="signature-record-title">{t('guestPortal.record.title')}</h3>
      <ul class="signature-record-list">
        {list.map((d) => (
          <li key={d.id} data-testid={`decision-${d.id}`}>
            <div class="signature-record-head">
              <strong>{d.displayName}</strong>
              <Badge tone={d.status === 'CONFIRMED' ? 'ok' : 'neutral'}>{t(`guestPortal.record.${d.status}`)}</Badge>
            </div>
            <p class="muted">{when(d)}</p>
            <Button variant="ghost" class="guest-btn" aria-label={`${t('guestPortal.record.show')}: ${d.displayName}`} onClick={() => setOpen(d)}>
              {t('guestPortal.record.show')}
            </Button>
          </li>
        ))}
      </ul>
      {open && (
        <Dialog
          title={open.displayName}
          onClose={() => setOpen(null)}
          actions={
            <Button variant="secondary" onClick={() => setOpen(null)}>
              {t('common.close')}
            </Button>
          }
        >
          <p>
            <Badge tone={open.status === 'CONFIRMED' ? 'ok' : 'neutral'}>{t(`guestPortal.record.${open.status}`)}</Badge> <span class="muted">{when(open)}</span>
          </p>
          <p class="muted">{t('guestPortal.record.shown')}</p>
          {open.description && <div class="agreement-dialog-text" data-testid="record-text" dangerouslySetInnerHTML={{ __html: open.description }} />}
          {open.hasSignature && (
            <figure class="signature-record-image">
              <img src={`/proxy/api/guest/events/visitors/${visitorId}/agreements/log/${open.id}/signature`} alt={t('guestPortal.record.signature')} />
              <figcaption class="muted">{t('guestPortal.record.signature')}</figcaption>
            </figure>
          )}
        </Dialog>
      )}
    </section>
  )
}
