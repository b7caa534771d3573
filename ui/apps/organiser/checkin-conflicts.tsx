// Conflicts of the offline desks on the event's check-in page (docs/checkin-offline.md "Conflicts"):
// two desks admitted one person; the guest, both desks and times, and "Gesehen". Shown only when there
// are any.
import { useState } from 'preact/hooks'
import { formatDateTime } from '../../../server/i18n/format'
import { errorText, post } from '../../api/client'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Badge, Button, Card } from '../../components/ui'
import { t } from '../../i18n'
import type { EventFull } from './event-model'

interface Side {
  deskId: number | null
  deskName: string | null
  at: string
}
interface Conflict {
  id: number
  visitorId: number
  person: number
  firstName: string | null
  lastName: string | null
  listName: string | null
  first: Side
  second: Side
  seenAt: string | null
}

export function CheckinConflicts({ event }: { event: EventFull }) {
  const { data, reload } = useResource<{ items: Conflict[] }>(`/proxy/api/events/${event.id}/checkin/conflicts`)
  const [busy, setBusy] = useState<number | null>(null)
  if (!data?.items.length) return null
  const side = (s: Side) => t('checkinConflicts.at', { desk: s.deskName ?? t('checkinConflicts.onlineDesk'), time: formatDateTime(s.at, event.timezone) })
  const seen = async (c: Conflict) => {
    setBusy(c.id)
    try {
      await post(`/proxy/api/events/${event.id}/checkin/conflicts/${c.id}/seen`)
      await reload()
    } catch (e) {
      toast(errorText(e), 'error')
    } finally {
      setBusy(null)
    }
  }
  return (
    <Card class="checkin-conflicts" aria-labelledby="checkin-conflicts-title">
      <h2 id="checkin-conflicts-title">{t('checkinConflicts.title')}</h2>
      <p class="muted">{t('checkinConflicts.intro')}</p>
      <ul class="plain-list conflict-list">
        {data.items.map((c) => (
          <li key={c.id} data-conflict={c.id} aria-label={[c.firstName, c.lastName].filter(Boolean).join(' ')}>
            <div class="conflict-guest">
              <strong>{[c.firstName, c.lastName].filter(Boolean).join(' ')}</strong>
              {c.listName ? <span class="muted"> · {c.listName}</span> : null}
            </div>
            <dl class="conflict-times">
              <dt>{t('checkinConflicts.first')}</dt>
              <dd class="conflict-first">{side(c.first)}</dd>
              <dt>{t('checkinConflicts.second')}</dt>
              <dd class="conflict-second">{side(c.second)}</dd>
            </dl>
            <div class="conflict-action">
              {c.seenAt ? (
                <Badge tone="ok">{t('checkinConflicts.seenAt', { time: formatDateTime(c.seenAt, event.timezone) })}</Badge>
              ) : (
                <Button variant="secondary" busy={busy === c.id} onClick={() => void seen(c)}>
                  {t('checkinConflicts.seen')}
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </Card>
  )
}
