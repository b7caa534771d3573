// The event's check-in lists (docs/organiser.md "Check-in-Listen", docs/ticketing.md "Check-in
// lists"): shown with the event's check-in settings. Each list has a name and the ticket categories it
// admits (none chosen = all, and guests without ticket); create, rename, change the categories, delete
// after a question. A list with check-ins cannot be deleted: the refusal is shown in the dialog.
import { useState } from 'preact/hooks'
import { del, errorText, post, put } from '../../api/client'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Alert, Button, Card } from '../../components/ui'
import { t } from '../../i18n'
import type { EventFull } from './event-model'

export interface CheckinList {
  id: number
  name: string
  categoryIds: number[]
  categories: Array<{ id: number; displayName: string }>
  counts?: { registered: number; checkedIn: number; checkedOut: number }
}
interface Category {
  id: number
  displayName: string
}

/** The list being written: a new one (id null) or an existing one. */
interface Draft {
  id: number | null
  name: string
  categoryIds: number[]
}

function ListForm({ eventId, draft, categories, onSaved, onCancel }: { eventId: number; draft: Draft; categories: Category[]; onSaved(): void; onCancel(): void }) {
  const [value, setValue] = useState(draft)
  const [busy, setBusy] = useState(false)
  const [err, setErr] = useState<string | null>(null)
  const prefix = `checkin-list-${draft.id ?? 'new'}`
  const toggle = (id: number, on: boolean) => setValue((v) => ({ ...v, categoryIds: on ? [...v.categoryIds, id] : v.categoryIds.filter((x) => x !== id) }))
  const save = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setErr(null)
    try {
      const body = { name: value.name, categoryIds: value.categoryIds }
      const base = `/proxy/api/events/${eventId}/checkin/lists`
      if (value.id === null) await post(base, body)
      else await put(`${base}/${value.id}`, body)
      toast(t('checkin.lists.saved'))
      onSaved()
    } catch (x) {
      setErr(errorText(x))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class="checkin-list-form" onSubmit={(e) => void save(e)} noValidate>
      {err && <Alert tone="error">{err}</Alert>}
      <div class="field field-full">
        <label for={`${prefix}-name`}>{t('checkin.lists.name')}</label>
        <input id={`${prefix}-name`} value={value.name} maxLength={100} required onInput={(e) => setValue((v) => ({ ...v, name: (e.target as HTMLInputElement).value }))} />
      </div>
      {categories.length > 0 && (
        <fieldset>
          <legend>{t('checkin.lists.categories')}</legend>
          {categories.map((c) => (
            <div class="field field-check" key={c.id}>
              <input type="checkbox" id={`${prefix}-cat-${c.id}`} checked={value.categoryIds.includes(c.id)} onChange={(e) => toggle(c.id, (e.target as HTMLInputElement).checked)} />
              <label for={`${prefix}-cat-${c.id}`}>{c.displayName}</label>
            </div>
          ))}
        </fieldset>
      )}
      <div class="button-row">
        <Button type="submit" busy={busy}>
          {t('checkin.lists.save')}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  )
}

export function CheckinListsEditor({ event }: { event: EventFull }) {
  const lists = useResource<{ items: CheckinList[] }>(`/proxy/api/events/${event.id}/checkin/lists`)
  const cats = useResource<{ items: Category[] }>(`/proxy/api/events/${event.id}/ticketCategories`)
  const [draft, setDraft] = useState<Draft | null>(null)
  const [deleting, setDeleting] = useState<CheckinList | null>(null)
  const categories = cats.data?.items ?? []
  const items = lists.data?.items ?? []
  const saved = () => {
    setDraft(null)
    void lists.reload()
  }
  return (
    <Card class="checkin-lists" aria-labelledby="checkin-lists-title">
      <div class="card-head">
        <h2 id="checkin-lists-title">{t('checkin.lists.title')}</h2>
        {!draft && (
          <Button variant="secondary" onClick={() => setDraft({ id: null, name: '', categoryIds: [] })}>
            {t('checkin.lists.add')}
          </Button>
        )}
      </div>
      <p class="muted">{t('checkin.lists.intro')}</p>
      {lists.error && <Alert tone="error">{errorText(lists.error)}</Alert>}
      {lists.data && !items.length && !draft && <p class="muted">{t('checkin.lists.empty')}</p>}
      {draft?.id === null && <ListForm eventId={event.id} draft={draft} categories={categories} onSaved={saved} onCancel={() => setDraft(null)} />}
      {items.length > 0 && (
        <ul class="checkin-list-items">
          {items.map((l) =>
            draft?.id === l.id ? (
              <li key={l.id}>
                <ListForm eventId={event.id} draft={draft} categories={categories} onSaved={saved} onCancel={() => setDraft(null)} />
              </li>
            ) : (
              <li key={l.id} class="checkin-list-item">
                <span>
                  <strong>{l.name}</strong>
                  <br />
                  <span class="muted">
                    {l.categories.length ? l.categories.map((c) => c.displayName).join(', ') : t('checkin.lists.allCategories')}
                    {l.counts && ` · ${t('checkin.lists.counts', { in: l.counts.checkedIn, registered: l.counts.registered })}`}
                  </span>
                </span>
                <span class="button-row">
                  <Button variant="secondary" aria-label={t('checkin.lists.editLabel', { name: l.name })} onClick={() => setDraft({ id: l.id, name: l.name, categoryIds: l.categoryIds })}>
                    {t('common.edit')}
                  </Button>
                  <Button variant="danger" aria-label={t('checkin.lists.deleteLabel', { name: l.name })} onClick={() => setDeleting(l)}>
                    {t('common.delete')}
                  </Button>
                </span>
              </li>
            ),
          )}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title={t('checkin.lists.deleteTitle')}
          confirmLabel={t('common.delete')}
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await del(`/proxy/api/events/${event.id}/checkin/lists/${deleting.id}`)
            toast(t('checkin.lists.deleted'))
            void lists.reload()
          }}
        >
          <p>{t('checkin.lists.deleteConfirm', { name: deleting.name })}</p>
        </ConfirmDialog>
      )}
    </Card>
  )
}
