// Revenue of the event statistics (open, confirmed and paid orders; the paid part): per ticket
// category as bars, per day of ordering as a small SVG plot of our own (no chart library).
import { money as agencyMoney, useMoneyFormat } from './money'
import { useResource } from '../../../components/hooks'
import { Card, EmptyState } from '../../../components/ui'
import { t } from '../../../i18n'

interface Revenue {
  currency: string
  total: number
  paid: number
  items: Array<{ categoryId: number | null; displayName: string; tickets: number; gross: number; paid: number }>
  days: Array<{ day: string; gross: number; paid: number }>
}

const W = 640
const H = 220
const PAD = { l: 84, r: 12, t: 14, b: 46 }

/** Bars per day: what was ordered, and inside it the paid part; the axes in German with the currency format. */
function RevenuePlot({ days, money }: { days: Revenue['days']; money: (c: number) => string }) {
  const max = Math.max(1, ...days.map((d) => d.gross))
  const n = days.length
  const slot = (W - PAD.l - PAD.r) / n
  const bw = Math.max(2, Math.min(28, slot - 4))
  const x = (i: number) => PAD.l + slot * i + slot / 2
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - v / max)
  const step = Math.max(1, Math.ceil(n / 8))
  const label = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.`
  return (
    <figure class="chart revenue-plot">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('ticketing.stats.perDay')}>
        {[0, max / 2, max].map((v) => (
          <g key={v}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} class="chart-grid" />
            <text x={PAD.l - 6} y={y(v) + 4} class="chart-axis" text-anchor="end">
              {money(Math.round(v))}
            </text>
          </g>
        ))}
        {days.map((d, i) => (
          <g key={d.day}>
            <rect x={x(i) - bw / 2} y={y(d.gross)} width={bw} height={H - PAD.b - y(d.gross)} class="chart-bar">
              <title>{`${label(d.day)}: ${money(d.gross)} ${t('ticketing.stats.ordered')}, ${money(d.paid)} ${t('ticketing.stats.paidPart')}`}</title>
            </rect>
            <rect x={x(i) - bw / 2} y={y(d.paid)} width={bw} height={H - PAD.b - y(d.paid)} class="revenue-paid" />
          </g>
        ))}
        {days.map((d, i) =>
          i % step === 0 || i === n - 1 ? (
            <text key={d.day} x={x(i)} y={H - PAD.b + 16} class="chart-axis" text-anchor="middle">
              {label(d.day)}
            </text>
          ) : null,
        )}
        <text x={PAD.l + (W - PAD.l - PAD.r) / 2} y={H - 6} class="chart-axis revenue-axis-title" text-anchor="middle">
          {t('ticketing.stats.axisDay')}
        </text>
        <text x={14} y={PAD.t + (H - PAD.t - PAD.b) / 2} class="chart-axis revenue-axis-title" text-anchor="middle" transform={`rotate(-90 14 ${PAD.t + (H - PAD.t - PAD.b) / 2})`}>
          {t('ticketing.stats.axisRevenue')}
        </text>
      </svg>
      <figcaption class="chart-legend">
        <span class="legend-bar" /> {t('ticketing.stats.ordered')} <span class="revenue-legend-paid" /> {t('ticketing.stats.paidPart')}
      </figcaption>
    </figure>
  )
}

export function RevenueCard({ eventId }: { eventId: number }) {
  const { data } = useResource<Revenue>(`/proxy/api/events/${eventId}/orders/revenue`)
  useMoneyFormat()
  if (!data) return null
  const money = (c: number) => agencyMoney(c, data.currency)
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
      {data.days.length > 0 && (
        <>
          <h3 class="revenue-title">{t('ticketing.stats.perDay')}</h3>
          <RevenuePlot days={data.days} money={money} />
        </>
      )}
    </Card>
  )
}
