// Beside the editor: copy the plan of another event of the agency, and the occupancy per price
// category (taken, reserved, blocked, free).
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, post } from '../../../api/client'
import { toast } from '../../../components/overlay'
import { Button, Card } from '../../../components/ui'
import { t } from '../../../i18n'
import type { EventFull } from '../event-model'

export function CopyFrom({ event, onCopied }: { event: EventFull; onCopied(): void }) {
  const [events, setEvents] = useState<Array<{ id: number; displayName: string }>>([])
  const [from, setFrom] = useState('')
  useEffect(() => {
    get<Array<{ id: number; displayName: string }>>('/proxy/api/events')
      .then((r) => setEvents(r.filter((e) => e.id !== event.id)))
      .catch(() => setEvents([]))
  }, [event.id])
  if (!events.length) return null
  return (
    <div class="inline-select">
      <label class="inline-select">
        {t('seating.copyFrom')}
        <select value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
          <option value="">{t('form.choose')}</option>
          {events.map((e) => (
            <option key={e.id} value={e.id}>
              {e.displayName}
            </option>
          ))}
        </select>
      </label>
      <Button
        variant="secondary"
        disabled={!from}
        onClick={async () => {
          try {
            await post(`/proxy/api/events/${event.id}/seatingplan/copy`, { fromEventId: Number(from) })
            toast(t('seating.copied'))
            onCopied()
          } catch (e) {
            toast(errorText(e), 'error', 6000)
          }
        }}
      >
        {t('seating.copyAction')}
      </Button>
    </div>
  )
}

interface OccupancyRow {
  priceCategory: { id: number; displayName: string; color: string } | null
  places: number
  taken: number
  reserved: number
  blocked: number
  free: number
}

export function Occupancy({ eventId, reloadKey }: { eventId: number; reloadKey: number }) {
  const [rows, setRows] = useState<OccupancyRow[]>([])
  useEffect(() => {
    get<{ categories: OccupancyRow[] }>(`/proxy/api/events/${eventId}/seatingplan/occupancy`)
      .then((r) => setRows(r.categories.filter((c) => c.places > 0)))
      .catch(() => setRows([]))
  }, [eventId, reloadKey])
  if (!rows.length) return null
  return (
    <Card aria-labelledby="occupancy-title">
      <h3 id="occupancy-title">{t('seating.occupancy')}</h3>
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>
              <th>{t('seating.category')}</th>
              <th>{t('seating.occ.places')}</th>
              <th>{t('seating.occ.taken')}</th>
              <th>{t('seating.occ.reserved')}</th>
              <th>{t('seating.occ.blocked')}</th>
              <th>{t('seating.occ.free')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td>
                  {r.priceCategory && <span class="swatch" style={{ background: r.priceCategory.color }} />} {r.priceCategory?.displayName ?? t('seating.noCategory')}
                </td>
                <td>{r.places}</td>
                <td>{r.taken}</td>
                <td>{r.reserved}</td>
                <td>{r.blocked}</td>
                <td>{r.free}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}
