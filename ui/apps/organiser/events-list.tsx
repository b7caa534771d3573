// Events list with search, the event filter dialog (agency-side.md 3) and, with EVENT_PRESET, presets.
import { useState } from 'preact/hooks'
import { Link } from 'wouter'
import { formatDateTime } from '../../../server/i18n/format'
import { ARCHIVED_FILTERS, VISIBILITIES } from '../../../server/modules/events/model'
import { errorText } from '../../api/client'
import { Alert, Badge, Button, EmptyState, LinkButton, PageHeader, Spinner } from '../../components/ui'
import { fieldMessage, t } from '../../i18n'
import { hasFeature, LabelPicker, Pager, usePermission, usePostResource } from './common'
import { type EventFull, placeOf, placesText } from './event-model'
import { CheckSet, FilterCheck, FilterDialog, FilterSelect } from './filter-dialog'
import { useUser } from './user'

export interface EventFilterValue {
  onlyTodayEvents: boolean
  startDate: string
  endDate: string
  tags: number[]
  campaigns: number[]
  visibilities: string[]
  onlyShowUncomplete: boolean
  showDeleted: boolean
  archivedFilter: (typeof ARCHIVED_FILTERS)[number]
}
const EMPTY: EventFilterValue = { onlyTodayEvents: false, startDate: '', endDate: '', tags: [], campaigns: [], visibilities: [], onlyShowUncomplete: false, showDeleted: false, archivedFilter: 'HIDE_ARCHIVED' }

function activeCount(f: EventFilterValue) {
  return (
    Number(f.onlyTodayEvents) +
    Number(Boolean(f.startDate)) +
    Number(Boolean(f.endDate)) +
    Number(f.tags.length > 0) +
    Number(f.campaigns.length > 0) +
    Number(f.visibilities.length > 0) +
    Number(f.onlyShowUncomplete) +
    Number(f.showDeleted) +
    Number(f.archivedFilter !== 'HIDE_ARCHIVED')
  )
}

const endBeforeStart = (f: EventFilterValue) => Boolean(f.startDate && f.endDate && f.endDate < f.startDate)

function EventFilterDialog({ value, onApply, onClose }: { value: EventFilterValue; onApply(v: EventFilterValue): void; onClose(): void }) {
  return (
    <FilterDialog title={t('events.filter.title')} value={value} empty={EMPTY} invalid={endBeforeStart} onApply={onApply} onClose={onClose}>
      {(f, set) => {
        const check = (key: 'onlyTodayEvents' | 'onlyShowUncomplete' | 'showDeleted', label: string) => <FilterCheck id={`ef-${key}`} label={label} checked={f[key]} onChange={(v) => set({ [key]: v })} />
        return (
          <>
            {check('onlyTodayEvents', t('events.filter.onlyTodayEvents'))}
            <div class="field field-half">
              <label for="ef-start">{t('events.filter.startDate')}</label>
              <input id="ef-start" type="date" value={f.startDate} onInput={(e) => set({ startDate: (e.target as HTMLInputElement).value })} />
            </div>
            <div class={`field field-half ${endBeforeStart(f) ? 'has-error' : ''}`}>
              <label for="ef-end">{t('events.filter.endDate')}</label>
              <input id="ef-end" type="date" value={f.endDate} aria-invalid={endBeforeStart(f)} onInput={(e) => set({ endDate: (e.target as HTMLInputElement).value })} />
              {endBeforeStart(f) && (
                <small class="field-error" role="alert">
                  {fieldMessage('END_BEFORE_START')}
                </small>
              )}
            </div>
            <CheckSet legend={t('events.field.visibility')} options={VISIBILITIES.map((v) => [v, t(`events.visibility.${v}`)])} value={f.visibilities} onChange={(visibilities) => set({ visibilities })} />
            <LabelPicker id="ef-tags" kind="tags" label={t('events.field.tags')} value={f.tags} onChange={(tags) => set({ tags })} allowCreate={false} />
            <LabelPicker id="ef-campaigns" kind="campaigns" label={t('events.field.campaigns')} value={f.campaigns} onChange={(campaigns) => set({ campaigns })} allowCreate={false} />
            <FilterSelect id="ef-archived" label={t('events.filter.archivedFilter')} options={ARCHIVED_FILTERS.map((a) => [a, t(`events.filter.archived.${a}`)])} value={f.archivedFilter} onChange={(archivedFilter) => set({ archivedFilter })} />
            {check('onlyShowUncomplete', t('events.filter.onlyShowUncomplete'))}
            {check('showDeleted', t('events.filter.showDeleted'))}
          </>
        )
      }}
    </FilterDialog>
  )
}

export function EventsList() {
  const user = useUser()
  const presetsAllowed = hasFeature(user.features, 'EVENT_PRESET')
  const canCreate = usePermission('EVENT.CREATE')
  const [mode, setMode] = useState<'events' | 'presets'>('events')
  const [filter, setFilter] = useState<EventFilterValue>(EMPTY)
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(0)
  const [dialog, setDialog] = useState(false)
  const body = {
    filter: {
      ...filter,
      startDate: filter.startDate || null,
      endDate: filter.endDate || null,
      status: mode === 'presets' ? ['PRESET', 'GLOBAL_PRESET'] : filter.showDeleted ? ['OK', 'DELETED'] : 'OK',
    },
    search: search || undefined,
    page,
    perPage: 20,
    // the next event on top, past ones below (the latest date first put next year's event on top)
    sort: { field: 'upcoming', direction: 'asc' },
  }
  const { data, error } = usePostResource<{ items: EventFull[]; total: number }>('/proxy/api/events/search', body, search ? 250 : 0)
  const n = activeCount(filter)
  return (
    <>
      <PageHeader title={t('events.title')} actions={canCreate ? <LinkButton href="/events/new">{t('events.new')}</LinkButton> : undefined} />
      {presetsAllowed && (
        <nav class="ev-tabs" aria-label={t('events.title')}>
          <button type="button" class={`ev-tab ${mode === 'events' ? 'active' : ''}`} aria-pressed={mode === 'events'} onClick={() => (setMode('events'), setPage(0))}>
            {t('events.title')}
          </button>
          <button type="button" class={`ev-tab ${mode === 'presets' ? 'active' : ''}`} aria-pressed={mode === 'presets'} onClick={() => (setMode('presets'), setPage(0))}>
            {t('events.presets')}
          </button>
        </nav>
      )}
      <div class="toolbar">
        <label class="search">
          <span class="sr-only">{t('common.search')}</span>
          <input type="search" placeholder={t('events.searchPlaceholder')} value={search} onInput={(e) => (setSearch((e.target as HTMLInputElement).value), setPage(0))} />
        </label>
        <Button variant="secondary" onClick={() => setDialog(true)}>
          {t('events.filter.title')}
          {n > 0 && <span class="count-pill">{n}</span>}
        </Button>
        {n > 0 && (
          <Button variant="ghost" onClick={() => (setFilter(EMPTY), setPage(0))}>
            {t('events.filter.reset')}
          </Button>
        )}
      </div>
      {error && <Alert tone="error">{errorText(error)}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.items.length === 0 && <EmptyState>{n || search ? t('events.noMatch') : mode === 'presets' ? t('events.noPresets') : t('events.empty')}</EmptyState>}
      {data && data.items.length > 0 && (
        <ul class="event-list">
          {data.items.map((e) => (
            <li key={e.id} class="card event-row">
              <div class="event-main">
                <Link href={mode === 'presets' ? `/events/new?preset=${e.id}` : `/events/${e.id}`} class="event-title">
                  {e.displayName}
                </Link>
                <div class="muted">
                  {formatDateTime(e.startDate, e.timezone)} · {placeOf(e) || t('events.noPlace')}
                </div>
                <div class="badges">
                  {e.status !== 'OK' && <Badge tone={e.status === 'DELETED' ? 'error' : 'info'}>{t(`status.event.${e.status}`)}</Badge>}
                  {e.visibility !== 'PUBLIC' && <Badge>{t(`events.visibility.${e.visibility}`)}</Badge>}
                  {e.archived && <Badge tone="info">{t('events.archived')}</Badge>}
                  {e.incomplete.length > 0 && <Badge tone="warn">{t('events.incompleteBadge')}</Badge>}
                  {e.tags.map((x) => (
                    <span key={x.id} class="chip chip-small">
                      {x.displayName}
                    </span>
                  ))}
                </div>
              </div>
              <div class="event-row-side">
                {mode === 'events' ? (
                  <>
                    <Badge tone={e.registrationState === 'OPEN' ? 'ok' : 'warn'}>{t(`events.stateBadge.${e.registrationState}`)}</Badge>
                    <span class="muted">{placesText(e)}</span>
                  </>
                ) : (
                  <LinkButton variant="secondary" href={`/events/new?preset=${e.id}`}>
                    {t('events.createFromPreset')}
                  </LinkButton>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={page} perPage={20} total={data.total} onPage={setPage} />}
      {dialog && <EventFilterDialog value={filter} onApply={(f) => (setFilter(f), setPage(0))} onClose={() => setDialog(false)} />}
    </>
  )
}
