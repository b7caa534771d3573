// One card for the Tickets tab's lists that the organiser adds to, edits and deletes from (ticket
// categories, coupons): the table, and below it one form that creates a new entry or, after
// "Bearbeiten", changes the chosen one (pre-filled; PUT). Field errors of the server show under
// their fields; other errors as a toast.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { del, errorText, post, put } from '../../../api/client'
import { toast } from '../../../components/overlay'
import { Button, Card, EmptyState } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'

export type Draft = Record<string, string>
export type Errors = Record<string, string>

export function Err({ code }: { code?: string }) {
  return code ? <small class="field-error">{fieldMessage(code)}</small> : null
}

export interface EditableListProps<T extends { id: number }> {
  title: string
  /** the collection's URL: POST to it, PUT and DELETE to `${url}/${id}` */
  url: string
  items: T[]
  emptyText?: string
  head: ComponentChildren
  row(item: T): ComponentChildren
  name(item: T): string
  canEdit: boolean
  canDelete(item: T): boolean
  blank: Draft
  draftOf(item: T): Draft
  /** the body to send, or the errors found before sending */
  bodyOf(d: Draft, editing: T | null): Record<string, unknown> | { errors: Errors }
  fields(d: Draft, set: (key: string, value: string) => void, errors: Errors): ComponentChildren
  addLabel: string
  savedText: string
  onChanged(): Promise<unknown>
}

export function EditableList<T extends { id: number }>(p: EditableListProps<T>) {
  const [editing, setEditing] = useState<T | null>(null)
  const [draft, setDraft] = useState<Draft>(p.blank)
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  const set = (key: string, value: string) => setDraft((d) => ({ ...d, [key]: value }))
  const startEdit = (item: T) => {
    setEditing(item)
    setDraft(p.draftOf(item))
    setErrors({})
  }
  const stopEdit = () => {
    setEditing(null)
    setDraft(p.blank)
    setErrors({})
  }
  const submit = async (e: Event) => {
    e.preventDefault()
    const body = p.bodyOf(draft, editing)
    if ('errors' in body && typeof body.errors === 'object' && body.errors) return setErrors(body.errors as Errors)
    setBusy(true)
    try {
      if (editing) await put(`${p.url}/${editing.id}`, body)
      else await post(p.url, body)
      toast(p.savedText)
      stopEdit()
      await p.onChanged()
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.errorType])))
      else toast(errorText(err), 'error')
    } finally {
      setBusy(false)
    }
  }
  const remove = async (item: T) => {
    try {
      await del(`${p.url}/${item.id}`)
      if (editing?.id === item.id) stopEdit()
      await p.onChanged()
    } catch (err) {
      toast(errorText(err), 'error')
    }
  }
  return (
    <Card>
      <h2>{p.title}</h2>
      {p.items.length === 0 ? (
        p.emptyText && <EmptyState>{p.emptyText}</EmptyState>
      ) : (
        <div class="table-wrap">
          <table class="tickets-table">
            <thead>
              <tr>
                {p.head}
                {p.canEdit && <th />}
              </tr>
            </thead>
            <tbody>
              {p.items.map((item) => (
                <tr key={item.id} class={editing?.id === item.id ? 'is-editing' : undefined}>
                  {p.row(item)}
                  {p.canEdit && (
                    <td class="tickets-row-actions">
                      <Button variant="ghost" onClick={() => startEdit(item)} aria-label={t('ticketing.admin.editing', { name: p.name(item) })}>
                        {t('ticketing.admin.edit')}
                      </Button>
                      {p.canDelete(item) && (
                        <Button variant="ghost" onClick={() => void remove(item)}>
                          {t('ticketing.admin.delete')}
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {p.canEdit && (
        <form class="tickets-form" onSubmit={submit} noValidate>
          {editing && <h3 class="tickets-form-title">{t('ticketing.admin.editing', { name: p.name(editing) })}</h3>}
          {p.fields(draft, set, errors)}
          <div class="tickets-form-actions">
            {editing && (
              <Button variant="secondary" onClick={stopEdit}>
                {t('ticketing.admin.cancelEdit')}
              </Button>
            )}
            <Button type="submit" busy={busy}>
              {editing ? t('ticketing.admin.save') : p.addLabel}
            </Button>
          </div>
        </form>
      )}
    </Card>
  )
}
