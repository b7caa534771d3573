// Revenue per ticket category for the event statistics (open, confirmed and paid orders; paid part).
import { formatMoney } from '../../../../server/i18n/format'
import { useResource } from '../../../components/hooks'
import { Card, EmptyState } from '../../../components/ui'
import { t } from '../../../i18n'

interface Revenue {
  currency: string
  total: number
  paid: number
  items: Array<{ categoryId: number | null; displayName: string; tickets: number; gross: number; paid: number }>
}

export function RevenueCard({ eventId }: { eventId: number }) {
  const { data } = useResource<Revenue>(`/proxy/api/events/${eventId}/orders/revenue`)
  if (!data) return null
  const money = (c: number) => `${formatMoney(c)} ${data.currency === 'CHF' ? 'CHF' : '€'}`
  const max = Math.max(1, ...data.items.map((i) => i.gross))
  return (
    <Card>
      <h2>{t('ticketing.stats.revenue')}</h2>
      <p class="muted">{t('ticketing.stats.totals', { total: money(data.total), paid: money(data.paid) })}</p>
      {data.items.length === 0 ? (
        <EmptyState>{t('ticketing.admin.noOrders')}</EmptyState>
      ) : (
        <ul class="hbars">
          {data.items.map((i) => (
            <li key={String(i.categoryId)}>
              <span class="hbar-label">{i.displayName}</span>
              <span class="hbar-track">
                <span class="hbar hbar-ok" style={{ width: `${(100 * i.gross) / max}%` }} />
              </span>
              <span class="hbar-value">{t('ticketing.stats.value', { tickets: i.tickets, gross: money(i.gross) })}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
