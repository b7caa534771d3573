// The agency's audit log (AGENCY.MANAGE): who changed what and when, with filters (who, what, event,
// time), the fields a change touched, and the same selection as CSV.
import { useState } from 'preact/hooks'
import { useResource } from '../../components/hooks'
import { Alert, Button, Card, EmptyState, PageHeader, Spinner } from '../../components/ui'
import { formatDate, formatTime } from '../../../server/i18n/format'
import { t } from '../../i18n'
import { Pager } from './common'

interface AuditItem {
  id: number
  createdAt: string
  actorEmail: string | null
  actorIp: string | null
  action: string
  actionLabel: string
  eventId: number | null
  eventName: string | null
  changes: Record<string, [unknown, unknown]> | null
  detail: Record<string, unknown> | null
}
interface AuditPage {
  items: AuditItem[]
  total: number
  retentionDays: number
  actions: Array<{ code: string; label: string }>
}
interface Filter {
  actor: string
  action: string
  eventId: string
  from: string
  to: string
}

const EMPTY: Filter = { actor: '', action: '', eventId: '', from: '', to: '' }
const query = (f: Filter) =>
  Object.entries(f)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/
const shown = (v: unknown) =>
  v === null || v === undefined || v === '' ? '–' : typeof v === 'string' ? (ISO.test(v) ? `${formatDate(v)}, ${formatTime(v)}` : v) : JSON.stringify(v)
/** a field's German name where the catalogue has one (audit.field.<column>), else the column */
const fieldName = (f: string) => {
  const label = t(`audit.field.${f}`)
  return label === `audit.field.${f}` ? f : label
}

export function AuditPage() {
  const [draft, setDraft] = useState<Filter>(EMPTY)
  const [filter, setFilter] = useState<Filter>(EMPTY)
  const [page, setPage] = useState(0)
  const perPage = 50
  const q = query(filter)
  const { data, error } = useResource<AuditPage>(`/proxy/api/agency/audit?page=${page}&size=${perPage}${q ? `&${q}` : ''}`)
  const events = useResource<Array<{ id: number; displayName: string }>>('/proxy/api/events')
  const set = (k: keyof Filter) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value })
  const apply = (e: Event) => {
    e.preventDefault()
    setPage(0)
    setFilter(draft)
  }
  return (
    <>
      <PageHeader
        title={t('audit.title')}
        subtitle={data ? t('audit.intro', { days: data.retentionDays }) : undefined}
        actions={
          <a class="btn btn-secondary" href={`/proxy/api/agency/audit/export${q ? `?${q}` : ''}`} download>
            {t('audit.export')}
          </a>
        }
      />
      <Card>
        <form class="audit-filter" onSubmit={apply} aria-label={t('audit.filter.apply')}>
          <label>
            <span>{t('audit.filter.actor')}</span>
            <input type="search" value={draft.actor} onInput={set('actor')} maxLength={254} />
          </label>
          <label>
            <span>{t('audit.filter.action')}</span>
            <select value={draft.action} onChange={set('action')}>
              <option value="">{t('audit.filter.allActions')}</option>
              {data?.actions.map((a) => (
                <option key={a.code} value={a.code}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{t('audit.filter.event')}</span>
            <select value={draft.eventId} onChange={set('eventId')}>
              <option value="">{t('audit.filter.allEvents')}</option>
              {events.data?.map((ev) => (
                <option key={ev.id} value={String(ev.id)}>
                  {ev.displayName}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{t('audit.filter.from')}</span>
            <input type="date" value={draft.from} onInput={set('from')} />
          </label>
          <label>
            <span>{t('audit.filter.to')}</span>
            <input type="date" value={draft.to} onInput={set('to')} />
          </label>
          <Button type="submit" variant="secondary">
            {t('audit.filter.apply')}
          </Button>
        </form>
      </Card>
      {error && <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.total === 0 && <EmptyState>{t('audit.empty')}</EmptyState>}
      {data && data.total > 0 && (
        <Card>
          <p class="muted">{t('audit.count', { total: data.total })}</p>
          <div class="table-wrap">
            <table class="table audit-table">
              <thead>
                <tr>
                  <th scope="col">{t('audit.col.time')}</th>
                  <th scope="col">{t('audit.col.actor')}</th>
                  <th scope="col">{t('audit.col.action')}</th>
                  <th scope="col">{t('audit.col.event')}</th>
                  <th scope="col">{t('audit.col.changes')}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((i) => (
                  <tr key={i.id}>
                    <td class="nowrap" data-label={t('audit.col.time')}>
                      {formatDate(i.createdAt)}, {formatTime(i.createdAt)}
                    </td>
                    <td data-label={t('audit.col.actor')}>
                      {i.actorEmail ?? t('audit.nobody')}
                      {i.actorIp && <div class="muted">{i.actorIp}</div>}
                    </td>
                    <td data-label={t('audit.col.action')}>{i.actionLabel}</td>
                    <td data-label={t('audit.col.event')}>{i.eventName ?? '–'}</td>
                    <td data-label={t('audit.col.changes')}>
                      {i.changes && (
                        <ul class="audit-changes">
                          {Object.entries(i.changes).map(([field, [before, after]]) => (
                            <li key={field}>
                              <span class="audit-field">{fieldName(field)}</span>: <del>{shown(before)}</del> → <ins>{shown(after)}</ins>
                            </li>
                          ))}
                        </ul>
                      )}
                      {i.detail && <div class="muted audit-detail">{shown(i.detail)}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} perPage={perPage} total={data.total} onPage={setPage} />
        </Card>
      )}
    </>
  )
}
