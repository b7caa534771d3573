// Building blocks of the organiser screens: POST-loaded lists, status badges, tabs, paging,
// chip inputs for tags and campaigns and the background task progress (spec 2.12); the confirm dialog
// is ui/components/confirm-dialog.tsx.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, errorText, get, post } from '../../api/client'
import { Badge, Button } from '../../components/ui'
import { t } from '../../i18n'
import { useUser } from './user'
import { can, type Permission } from '../../../server/modules/identity/roles'

export function usePermission(p: Permission): boolean {
  const u = useUser()
  return Boolean(u.user.currentAccount && can(u.user.currentAccount.userRole, p))
}
export const hasFeature = (features: string[], f: string) => features.includes(f)

/** A list loaded by POST (search calls); reloads when the body changes (debounced). */
export function usePostResource<T>(path: string | null, body: unknown, debounceMs = 0) {
  const [data, setData] = useState<T | undefined>(undefined)
  const [error, setError] = useState<ApiError | null>(null)
  const key = JSON.stringify(body)
  const seq = useRef(0)
  const load = useCallback(async () => {
    if (!path) return
    const mine = ++seq.current
    try {
      const d = await post<T>(path, JSON.parse(key))
      if (mine === seq.current) {
        setData(d)
        setError(null)
      }
    } catch (e) {
      if (mine === seq.current) setError(e instanceof ApiError ? e : new ApiError(0, 'INTERNAL_ERROR', String(e)))
    }
  }, [path, key])
  useEffect(() => {
    const h = setTimeout(() => void load(), debounceMs)
    return () => clearTimeout(h)
  }, [load])
  return { data, error, reload: load }
}

export const VISITOR_TONE: Record<string, 'ok' | 'info' | 'warn' | 'error' | 'neutral'> = {
  CONFIRMED: 'ok',
  APPEARED: 'ok',
  INVITED: 'info',
  PENDING: 'warn',
  REQUIRE_APPROVAL: 'warn',
  ADDED: 'neutral',
  OPEN: 'neutral',
  DECLINED: 'error',
  VISITOR_DECLINED: 'error',
  DELETED: 'error',
  WAITING_LIST: 'info',
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={VISITOR_TONE[status] ?? 'neutral'}>{t(`status.visitor.${status}`)}</Badge>
}

export function Tabs({ items, active }: { items: Array<{ key: string; href: string; label: string }>; active: string }) {
  // the bar scrolls sideways on narrow screens: the active tab is moved into view (not the page)
  const nav = useRef<HTMLElement>(null)
  useEffect(() => {
    const bar = nav.current
    const tab = bar?.querySelector<HTMLElement>('.ev-tab.active')
    if (bar && tab && (tab.offsetLeft < bar.scrollLeft || tab.offsetLeft + tab.offsetWidth > bar.scrollLeft + bar.clientWidth)) bar.scrollLeft = tab.offsetLeft + tab.offsetWidth - bar.clientWidth
  }, [active])
  return (
    <nav class="ev-tabs" aria-label={t('organiser.tabs')} ref={nav}>
      {items.map((i) => (
        <a key={i.key} href={i.href} class={`ev-tab ${i.key === active ? 'active' : ''}`} aria-current={i.key === active ? 'page' : undefined}>
          {i.label}
        </a>
      ))}
    </nav>
  )
}

export function Pager({ page, perPage, total, onPage }: { page: number; perPage: number; total: number; onPage(p: number): void }) {
  const pages = Math.max(1, Math.ceil(total / perPage))
  if (total === 0) return null
  if (pages <= 1) return <p class="muted pager-info">{t('organiser.total', { n: total })}</p>
  return (
    <div class="pager">
      <Button variant="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {t('organiser.prev')}
      </Button>
      <span class="muted">{t('organiser.pageInfo', { page: page + 1, pages, n: total })}</span>
      <Button variant="secondary" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        {t('organiser.next')}
      </Button>
    </div>
  )
}

export interface Label {
  id: number
  displayName: string
  group: string | null
  name: string
  type: string
}

/**
 * Chips for tags or campaigns: pick from the list; Enter on a new name creates it (an existing name in
 * another case selects the existing one, the server decides).
 */
export function LabelPicker({ kind, value, onChange, label, allowCreate = true, id }: { kind: 'tags' | 'campaigns'; value: number[]; onChange(v: number[]): void; label: string; allowCreate?: boolean; id: string }) {
  const [all, setAll] = useState<Label[]>([])
  const [text, setText] = useState('')
  const [err, setErr] = useState<string | null>(null)
  const load = useCallback(async () => {
    const r = kind === 'tags' ? await post<{ items: Label[] }>('/proxy/api/tags/search', { paging: { page: 0, perPage: 9999 } }) : { items: await get<Label[]>('/proxy/api/campaigns') }
    setAll(r.items)
  }, [kind])
  useEffect(() => void load(), [load])
  const chosen = value.map((v) => all.find((a) => a.id === v)).filter(Boolean) as Label[]
  const matches = text.trim() ? all.filter((a) => !value.includes(a.id) && a.displayName.toLowerCase().includes(text.trim().toLowerCase())).slice(0, 8) : []
  const add = async () => {
    const name = text.trim()
    if (!name) return
    setErr(null)
    const exact = all.find((a) => a.displayName.toLowerCase() === name.toLowerCase())
    if (exact) {
      if (!value.includes(exact.id)) onChange([...value, exact.id])
      setText('')
      return
    }
    if (!allowCreate) return
    try {
      const created = await post<Label>(kind === 'tags' ? '/proxy/api/tags' : '/proxy/api/campaigns', { displayName: name })
      await load()
      if (!value.includes(created.id)) onChange([...value, created.id])
      setText('')
    } catch (e) {
      setErr(errorText(e))
    }
  }
  return (
    <div class="field field-full">
      <label for={id}>{label}</label>
      <div class="chips">
        {chosen.map((c) => (
          <span key={c.id} class="chip">
            {c.group ? <span class="chip-group">{c.group}</span> : null}
            {c.name}
            <button type="button" class="chip-x" aria-label={t('organiser.removeLabel', { name: c.displayName })} onClick={() => onChange(value.filter((v) => v !== c.id))}>
              ×
            </button>
          </span>
        ))}
        <input
          id={id}
          class="chip-input"
          value={text}
          list={`${id}-list`}
          placeholder={allowCreate ? t('organiser.labelPlaceholder') : t('organiser.labelPick')}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              void add()
            }
          }}
          onChange={(e) => {
            const v = (e.target as HTMLInputElement).value
            if (all.some((a) => a.displayName === v)) {
              setText(v)
              const hit = all.find((a) => a.displayName === v)!
              if (!value.includes(hit.id)) onChange([...value, hit.id])
              setText('')
            }
          }}
        />
        <datalist id={`${id}-list`}>
          {matches.map((m) => (
            <option key={m.id} value={m.displayName} />
          ))}
        </datalist>
      </div>
      {err && <small class="field-error">{err}</small>}
    </div>
  )
}

export interface TaskDto {
  id: number
  kind: string
  status: 'WAIT' | 'RUNNING' | 'FINISHED' | 'ERROR'
  taskInfo: { currentCount: number; totalCount: number; errorCount: number; state: string | null }
  result: any
}

/** Task state codes like IMPORTED:12:3 become a sentence; error codes their German text. */
export function taskStateText(state: string | null): string | null {
  if (!state) return null
  const [code, a, b] = state.split(':')
  if (a !== undefined && t(`organiser.task.${code}`) !== `organiser.task.${code}`) return t(`organiser.task.${code}`, { ok: a, errors: b ?? '0' })
  const err = t(`errors.${state}`)
  return err !== `errors.${state}` ? err : state
}

/**
 * The spec's background task progress (agency-side 2.12, 4): WAIT "starting", RUNNING "x of y",
 * FINISHED the state or a summary, then reload once and clear after 5 s; ERROR "an error occurred"
 * plus the state, cleared after 10 s unless stayOnError (then OK resets). Polls every 5 s.
 */
export function TaskProgress({ taskId, onReload, onDone, stayOnError, pollMs = 5000 }: { taskId: number; onReload?: (task: TaskDto) => void; onDone?: () => void; stayOnError?: boolean; pollMs?: number }) {
  const [task, setTask] = useState<TaskDto | null>(null)
  const reloaded = useRef(false)
  useEffect(() => {
    let stop = false
    let timer: ReturnType<typeof setTimeout>
    // short tasks end within a second: ask soon, then less often (at 5 s the dialog said "0 von 3"
    // long after the mails had gone out)
    let wait = Math.min(400, pollMs)
    const next = () => {
      const w = wait
      wait = Math.min(pollMs, wait * 2)
      return w
    }
    const tick = async () => {
      try {
        const tk = await get<TaskDto>(`/proxy/api/tasks/${taskId}`)
        if (stop) return
        setTask(tk)
        if (tk.status === 'WAIT' || tk.status === 'RUNNING') timer = setTimeout(tick, next())
        else if (tk.status === 'FINISHED') {
          if (!reloaded.current) {
            reloaded.current = true
            onReload?.(tk)
          }
          timer = setTimeout(() => onDone?.(), 5000)
        } else {
          onReload?.(tk)
          if (!stayOnError) timer = setTimeout(() => onDone?.(), 10_000)
        }
      } catch {
        if (!stop) timer = setTimeout(tick, next())
      }
    }
    void tick()
    return () => {
      stop = true
      clearTimeout(timer)
    }
  }, [taskId])
  if (!task) return <div class="task task-wait" role="status">{t('organiser.task.wait')}</div>
  const info = task.taskInfo
  if (task.status === 'WAIT') return <div class="task task-wait" role="status">{t('organiser.task.wait')}</div>
  if (task.status === 'RUNNING')
    return (
      <div class="task task-running" role="status">
        <span>{t('organiser.task.running', { current: info.currentCount, total: info.totalCount })}</span>
        <div class="meter" aria-hidden="true">
          <span style={{ width: `${info.totalCount ? Math.round((100 * info.currentCount) / info.totalCount) : 0}%` }} />
        </div>
      </div>
    )
  if (task.status === 'ERROR')
    return (
      <div class="task task-error" role="alert">
        <strong>{t('organiser.task.error')}</strong> {taskStateText(info.state)}
        {stayOnError && (
          <Button variant="secondary" onClick={() => onDone?.()}>
            {t('common.ok')}
          </Button>
        )}
      </div>
    )
  return (
    <div class="task task-finished" role="status">
      {taskStateText(info.state) ?? t('organiser.task.summary', { current: info.currentCount, errors: info.errorCount })}
    </div>
  )
}
