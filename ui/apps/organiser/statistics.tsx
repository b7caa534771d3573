// Statistics of an event as small hand-drawn SVG charts (no chart library: a few hundred bytes).
import { formatDate, formatTime } from '../../../server/i18n/format'
import { errorText } from '../../api/client'
import { useResource } from '../../components/hooks'
import { Alert, Card, EmptyState, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { RevenueCard } from './tickets/revenue'
import { VISITOR_TONE } from './common'
import type { EventFull } from './event-model'

interface Stats {
  registrations: Array<{ date: string; registrations: number; persons: number; cumulativePersons: number }>
  statusCounts: Record<string, { registrations: number; persons: number }>
  checkins: Array<{ time: string; checkins: number; checkouts: number; present: number }>
  answers?: AnswerCount[]
  totals: { registrations: number; persons: number; checkins: number; presentNow: number; maxVisitors: number | null; seatsTaken: number }
}

const W = 640
const H = 180
const PAD = { l: 40, r: 12, t: 12, b: 28 }

/** A line (cumulative) with bars (per bucket) over labelled x positions. */
function Chart({ title, labels, bars, line, barLabel, lineLabel }: { title: string; labels: string[]; bars: number[]; line: number[]; barLabel: string; lineLabel: string }) {
  const max = Math.max(1, ...bars, ...line)
  const n = labels.length
  const x = (i: number) => PAD.l + (n <= 1 ? (W - PAD.l - PAD.r) / 2 : (i * (W - PAD.l - PAD.r)) / (n - 1))
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - v / max)
  const bw = Math.max(2, Math.min(24, (W - PAD.l - PAD.r) / Math.max(1, n) - 4))
  const step = Math.max(1, Math.ceil(n / 6))
  const ticks = [0, Math.round(max / 2), max]
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} class="chart-grid" />
            <text x={PAD.l - 6} y={y(v) + 4} class="chart-axis" text-anchor="end">
              {v}
            </text>
          </g>
        ))}
        {bars.map((b, i) => (
          <rect key={i} x={x(i) - bw / 2} y={y(b)} width={bw} height={Math.max(0, H - PAD.b - y(b))} class="chart-bar" />
        ))}
        {n > 1 && <polyline points={line.map((v, i) => `${x(i)},${y(v)}`).join(' ')} class="chart-line" />}
        {line.map((v, i) => (
          <circle key={i} cx={x(i)} cy={y(v)} r={n > 40 ? 0 : 3} class="chart-dot" />
        ))}
        {labels.map((l, i) =>
          i % step === 0 || i === n - 1 ? (
            <text key={i} x={x(i)} y={H - 8} class="chart-axis" text-anchor="middle">
              {l}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption class="chart-legend">
        <span class="legend-bar" /> {barLabel} <span class="legend-line" /> {lineLabel}
      </figcaption>
    </figure>
  )
}

interface AnswerCount {
  fieldId: number
  label: string
  type: string
  options: Array<{ label: string; registrations: number; persons: number }>
}

const plural = (key: string, n: number) => (n === 1 ? t(`${key}.one`) : t(`${key}.other`, { n }))

/** Counts per answer of the form's choice fields (the caterer's number of vegan meals). */
function AnswerCounts({ answers }: { answers: AnswerCount[] }) {
  if (!answers.length) return null
  return (
    <Card>
      <h2>{t('visitors.answers.stats')}</h2>
      {answers.map((a) => {
        const max = Math.max(1, ...a.options.map((o) => o.persons))
        return (
          <section key={a.fieldId} class="stats-answer">
            <h3>{a.label}</h3>
            <ul class="hbars">
              {a.options.map((o) => (
                <li key={o.label}>
                  <span class="hbar-label">{o.label}</span>
                  <span class="hbar-track">
                    <span class="hbar hbar-info" style={{ width: `${(100 * o.persons) / max}%` }} />
                  </span>
                  <span class="hbar-value">
                    {plural('visitors.answers.count', o.registrations)}
                    {o.persons !== o.registrations && ` · ${plural('visitors.answers.persons', o.persons)}`}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )
      })}
    </Card>
  )
}

export function StatisticsTab({ event }: { event: EventFull }) {
  const { data, error } = useResource<Stats>(`/proxy/api/events/${event.id}/statistics`)
  if (error) return <Alert tone="error">{errorText(error)}</Alert>
  if (!data) return <Spinner />
  const statuses = Object.entries(data.statusCounts).sort((a, b) => b[1].persons - a[1].persons)
  const maxStatus = Math.max(1, ...statuses.map(([, c]) => c.persons))
  return (
    <div class="stats">
      <div class="stat-tiles">
        <Card>
          <span class="big-number">{data.totals.registrations}</span>
          <span class="muted">{t('stats.registrations')}</span>
        </Card>
        <Card>
          <span class="big-number">{data.totals.persons}</span>
          <span class="muted">{t('stats.persons')}</span>
        </Card>
        <Card>
          <span class="big-number">{data.totals.checkins}</span>
          <span class="muted">{t('stats.checkins')}</span>
        </Card>
        <Card>
          <span class="big-number">{data.totals.presentNow}</span>
          <span class="muted">{t('stats.presentNow')}</span>
        </Card>
      </div>
      <Card>
        <h2>{t('stats.overTime')}</h2>
        {data.registrations.length === 0 ? (
          <EmptyState>{t('stats.noRegistrations')}</EmptyState>
        ) : (
          <Chart
            title={t('stats.overTime')}
            labels={data.registrations.map((r) => formatDate(`${r.date}T12:00:00Z`).slice(0, 6))}
            bars={data.registrations.map((r) => r.persons)}
            line={data.registrations.map((r) => r.cumulativePersons)}
            barLabel={t('stats.perDay')}
            lineLabel={t('stats.cumulative')}
          />
        )}
      </Card>
      <Card>
        <h2>{t('stats.statusCounts')}</h2>
        <ul class="hbars">
          {statuses.map(([s, c]) => (
            <li key={s}>
              <span class="hbar-label">{t(`status.visitor.${s}`)}</span>
              <span class="hbar-track">
                <span class={`hbar hbar-${VISITOR_TONE[s] ?? 'neutral'}`} style={{ width: `${(100 * c.persons) / maxStatus}%` }} />
              </span>
              <span class="hbar-value">{t('stats.statusValue', { n: c.registrations, persons: c.persons })}</span>
            </li>
          ))}
        </ul>
      </Card>
      <AnswerCounts answers={data.answers ?? []} />
      {event.isPayedEvent && <RevenueCard eventId={event.id} />}
      <Card>
        <h2>{t('stats.checkinCurve')}</h2>
        {data.checkins.length === 0 ? (
          <EmptyState>{t('stats.noCheckins')}</EmptyState>
        ) : (
          <Chart
            title={t('stats.checkinCurve')}
            labels={data.checkins.map((c) => formatTime(c.time, event.timezone))}
            bars={data.checkins.map((c) => c.checkins)}
            line={data.checkins.map((c) => c.present)}
            barLabel={t('stats.checkinsPerQuarter')}
            lineLabel={t('stats.present')}
          />
        )}
      </Card>
    </div>
  )
}
