// The guest list of an event: guest filter (agency-side.md 3), search, sort, paging, add/edit, import,
// export of the filtered list and invitations to it.
import { useState } from 'preact/hooks'
import { guestSearchToQuery, VIP_FILTERS } from '../../../server/modules/visitors/model'
import { VISITOR_STATUSES } from '../../../server/modules/visitors/visitors.table'
import { errorText, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { Alert, Badge, Button, Card, EmptyState, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { LabelPicker, Pager, StatusBadge, TaskProgress, usePermission, usePostResource } from './common'
import type { EventFull } from './event-model'
import { CheckSet, FilterCheck, FilterDialog, FilterSelect } from './filter-dialog'
import { type GuestDetail, GuestDialog, promoteGuest } from './guest-dialog'
import { ImportDialog } from './import-dialog'

export interface GuestFilterValue {
  showPending: boolean
  vipFilter: (typeof VIP_FILTERS)[number]
  showMailError: boolean
  tags: number[]
  campaigns: number[]
  agreements: number[]
  statuses: string[]
}
const EMPTY: GuestFilterValue = { showPending: false, vipFilter: 'WHATEVER', showMailError: false, tags: [], campaigns: [], agreements: [], statuses: [] }
const count = (f: GuestFilterValue) =>
  Number(f.showPending) + Number(f.vipFilter !== 'WHATEVER') + Number(f.showMailError) + Number(f.tags.length > 0) + Number(f.campaigns.length > 0) + Number(f.agreements.length > 0) + Number(f.statuses.length > 0)

function GuestFilterDialog({ event, value, onApply, onClose }: { event: EventFull; value: GuestFilterValue; onApply(f: GuestFilterValue): void; onClose(): void }) {
  const { data: agreementList } = usePostResource<Array<{ id: number; displayName: string }>>('/proxy/api/agreements/search', { eventId: event.id })
  return (
    <FilterDialog title={t('guests.filter.title')} value={value} empty={EMPTY} onApply={onApply} onClose={onClose}>
      {(f, set) => {
        const check = (key: 'showPending' | 'showMailError', label: string) => <FilterCheck id={`gf-${key}`} label={label} checked={f[key]} onChange={(v) => set({ [key]: v })} />
        return (
          <>
            {check('showPending', t('guests.filter.showPending'))}
            {check('showMailError', t('guests.filter.showMailError'))}
            <FilterSelect id="gf-vip" label={t('guests.filter.vipFilter')} options={VIP_FILTERS.map((v) => [v, t(`guests.filter.vip.${v}`)])} value={f.vipFilter} onChange={(vipFilter) => set({ vipFilter })} />
            <CheckSet grid legend={t('guests.field.status')} options={VISITOR_STATUSES.map((s) => [s, t(`status.visitor.${s}`)])} value={f.statuses} onChange={(statuses) => set({ statuses })} />
            <LabelPicker id="gf-tags" kind="tags" label={t('events.field.tags')} value={f.tags} onChange={(tags) => set({ tags })} allowCreate={false} />
            <LabelPicker id="gf-campaigns" kind="campaigns" label={t('events.field.campaigns')} value={f.campaigns} onChange={(campaigns) => set({ campaigns })} allowCreate={false} />
            {agreementList && agreementList.length > 0 && (
              <CheckSet legend={t('guests.filter.agreements')} options={agreementList.map((a) => [a.id, a.displayName])} value={f.agreements} onChange={(agreements) => set({ agreements })} />
            )}
          </>
        )
      }}
    </FilterDialog>
  )
}

function InviteDialog({ event, filter, search, total, onClose, onDone }: { event: EventFull; filter: GuestFilterValue; search: string; total: number; onClose(): void; onDone(): void }) {
  const [reserve, setReserve] = useState(false)
  const [task, setTask] = useState<number | null>(null)
  const [err, setErr] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // guests of the selection who have an invitation already get it again: say so first
  const again = filter.statuses.length ? filter.statuses.filter((s) => s === 'INVITED' || s === 'PENDING') : ['INVITED', 'PENDING']
  const { data: invited } = usePostResource<{ total: number }>(again.length ? `/proxy/api/events/${event.id}/visitors/search` : null, { filter: { ...filter, statuses: again }, search: search || undefined, page: 0, perPage: 1 })
  const reinvite = invited?.total ?? 0
  const [confirmed, setConfirmed] = useState(false)
  return (
    <Dialog
      title={t('guests.invite.title')}
      onClose={onClose}
      actions={
        task ? (
          <Button onClick={onClose}>{t('common.close')}</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              busy={busy}
              disabled={reinvite > 0 && !confirmed}
              onClick={async () => {
                setBusy(true)
                setErr(null)
                try {
                  const tk = await post<{ id: number }>(`/proxy/api/events/${event.id}/invitations`, { filter, search: search || undefined, reservePlace: reserve })
                  setTask(tk.id)
                } catch (e) {
                  setErr(errorText(e))
                } finally {
                  setBusy(false)
                }
              }}
            >
              {t('guests.invite.send')}
            </Button>
          </>
        )
      }
    >
      {err && <Alert tone="error">{err}</Alert>}
      <p>{t('guests.invite.text', { n: total })}</p>
      <p class="muted">{t('guests.invite.hint')}</p>
      {!task && reinvite > 0 && (
        <Alert tone="warn">
          {t('guests.invite.again', { n: reinvite })}
          <label class="inline-check">
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed((e.target as HTMLInputElement).checked)} />
            {t('guests.invite.againConfirm')}
          </label>
        </Alert>
      )}
      {!task && (
        <label class="inline-check">
          <input type="checkbox" checked={reserve} onChange={(e) => setReserve((e.target as HTMLInputElement).checked)} />
          {t('guests.reservePlace')}
        </label>
      )}
      {task && <TaskProgress taskId={task} onReload={onDone} stayOnError />}
    </Dialog>
  )
}

const SORTABLE = [
  ['lastName', 'registration.lastName'],
  ['firstName', 'registration.firstName'],
  ['email', 'registration.email'],
  ['company', 'guests.field.company'],
  ['status', 'guests.field.status'],
  ['visitorCount', 'guests.persons'],
] as const

interface WaitingListState {
  count: number
  /** null: the event has no capacity limit */
  freePlaces: number | null
}

/** Places are free while guests wait: nobody moves up on their own, the organiser picks who does. */
function WaitingListHint({ state, onShow }: { state: WaitingListState; onShow(): void }) {
  if (state.count === 0 || state.freePlaces === 0) return null
  const free = state.freePlaces == null ? t('guests.waitingList.freeUnlimited') : state.freePlaces === 1 ? t('guests.waitingList.free.one') : t('guests.waitingList.free.other', { n: state.freePlaces })
  const waiting = state.count === 1 ? t('guests.waitingList.waiting.one') : t('guests.waitingList.waiting.other', { n: state.count })
  return (
    <div class="alert alert-info waitlist-hint" role="status">
      <div>
        <strong>
          {free}, {waiting}
        </strong>
        <div>{t('guests.waitingList.decide')}</div>
      </div>
      <Button variant="secondary" onClick={onShow}>
        {t('guests.waitingList.show')}
      </Button>
    </div>
  )
}

export function GuestList({ event, reloadEvent }: { event: EventFull; reloadEvent(): Promise<void> }) {
  const [filter, setFilter] = useState<GuestFilterValue>(EMPTY)
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<{ field: string; direction: 'asc' | 'desc' }>({ field: 'lastName', direction: 'asc' })
  const [page, setPage] = useState(0)
  const [dialog, setDialog] = useState<'filter' | 'import' | 'invite' | null>(null)
  const [open, setOpen] = useState<number | 'new' | null>(null)
  const canManage = usePermission('EVENT.GUEST.MANAGE')
  const canImport = usePermission('EVENT.GUEST.IMPORT')
  const canExport = usePermission('EVENT.GUEST.EXPORT')
  const canInvite = usePermission('EVENT.INVITE')
  const perPage = 50
  const body = { filter, search: search || undefined, sort, page, perPage }
  const [promoting, setPromoting] = useState<number | null>(null)
  const { data, error, reload } = usePostResource<{ items: GuestDetail[]; total: number; waitingList?: WaitingListState }>(`/proxy/api/events/${event.id}/visitors/search`, body, search ? 250 : 0)
  const refresh = () => {
    void reload()
    void reloadEvent()
  }
  const n = count(filter)
  const exportHref = `/proxy/api/events/${event.id}/visitors/export?${guestSearchToQuery({ filter: filter as any, search, sort: sort as any })}`
  const sortBy = (field: string) => setSort(sort.field === field ? { field, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { field, direction: 'asc' })
  return (
    <Card>
      <div class="toolbar">
        <label class="search">
          <span class="sr-only">{t('common.search')}</span>
          <input type="search" placeholder={t('guests.searchPlaceholder')} value={search} onInput={(e) => (setSearch((e.target as HTMLInputElement).value), setPage(0))} />
        </label>
        <Button variant="secondary" onClick={() => setDialog('filter')}>
          {t('guests.filter.title')}
          {n > 0 && <span class="count-pill">{n}</span>}
        </Button>
        {n > 0 && (
          <Button variant="ghost" onClick={() => (setFilter(EMPTY), setPage(0))}>
            {t('events.filter.reset')}
          </Button>
        )}
        <span class="toolbar-spacer" />
        {canManage && <Button onClick={() => setOpen('new')}>{t('guests.add')}</Button>}
        {canImport && (
          <Button variant="secondary" onClick={() => setDialog('import')}>
            {t('guests.import')}
          </Button>
        )}
        {canExport && (
          <a class="btn btn-secondary" href={exportHref} download>
            {t('guests.export')}
          </a>
        )}
        {canInvite && data && data.total > 0 && (
          <Button variant="secondary" onClick={() => setDialog('invite')}>
            {t('guests.invite.button')}
          </Button>
        )}
      </div>
      {data?.waitingList && !(filter.statuses.length === 1 && filter.statuses[0] === 'WAITING_LIST') && (
        <WaitingListHint
          state={data.waitingList}
          onShow={() => {
            setFilter({ ...EMPTY, statuses: ['WAITING_LIST'] })
            setSort({ field: 'registeredAt', direction: 'asc' })
            setSearch('')
            setPage(0)
          }}
        />
      )}
      {error && <Alert tone="error">{errorText(error)}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.items.length === 0 && <EmptyState>{n || search ? t('guests.noMatch') : t('guests.empty')}</EmptyState>}
      {data && data.items.length > 0 && (
        <div class="table-wrap">
          <table class="table guest-table">
            <thead>
              <tr>
                {SORTABLE.map(([field, key]) => (
                  <th key={field} aria-sort={sort.field === field ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined} class={`col-${field}`}>
                    <button type="button" class="th-sort" onClick={() => sortBy(field)}>
                      {t(key)} {sort.field === field ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                    </button>
                  </th>
                ))}
                <th class="col-checkin">{t('guests.checkin')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((g) => (
                <tr key={g.id} class="clickable" onClick={() => setOpen(g.id)}>
                  <td class="col-lastName">
                    <button type="button" class="link-btn" onClick={(e) => (e.stopPropagation(), setOpen(g.id))}>
                      {g.lastName}
                    </button>
                    {g.vip && <Badge tone="warn">VIP</Badge>}
                    {g.mailError && <Badge tone="error" title={t('mail.guest.mailErrorShort')}>{t('mail.guest.mailErrorShort')}</Badge>}
                    {!!g.chairs?.length && <Badge tone="info">{t('seating.seatBadge', { labels: g.chairs.map((c) => c.label).join(', ') })}</Badge>}
                  </td>
                  <td class="col-firstName">{g.firstName}</td>
                  <td class="col-email">{g.email}</td>
                  <td class="col-company">{g.company}</td>
                  <td class="col-status">
                    <StatusBadge status={g.status} />
                    {g.waitingListPosition && <span class="waitlist-pos">{t('guests.waitingList.position', { n: g.waitingListPosition })}</span>}
                    {g.status === 'WAITING_LIST' && canManage && (
                      <Button
                        variant="secondary"
                        class="waitlist-up"
                        busy={promoting === g.id}
                        onClick={async (e: Event) => {
                          e.stopPropagation()
                          setPromoting(g.id)
                          if (await promoteGuest(event.id, g.id)) refresh()
                          setPromoting(null)
                        }}
                      >
                        {t('guests.action.promoteShort')}
                      </Button>
                    )}
                  </td>
                  <td class="col-visitorCount">{g.visitorCount}</td>
                  <td class="col-checkin">{(g.personsIn ?? 0) > 0 && g.personsIn! < g.visitorCount ? t('status.checkin.PERSONS', { in: g.personsIn!, total: g.visitorCount }) : t(`status.checkin.${g.checkState}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={page} perPage={perPage} total={data.total} onPage={setPage} />}
      {dialog === 'filter' && <GuestFilterDialog event={event} value={filter} onApply={(f) => (setFilter(f), setPage(0))} onClose={() => setDialog(null)} />}
      {dialog === 'import' && <ImportDialog event={event} onClose={() => setDialog(null)} onImported={refresh} />}
      {dialog === 'invite' && data && <InviteDialog event={event} filter={filter} search={search} total={data.total} onClose={() => setDialog(null)} onDone={refresh} />}
      {open !== null && <GuestDialog event={event} guestId={open === 'new' ? null : open} onClose={() => setOpen(null)} onChanged={refresh} />}
    </Card>
  )
}
