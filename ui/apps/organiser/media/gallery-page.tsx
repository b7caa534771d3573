// The agency's media gallery (agency-side.md 2.8; docs/media.md): categories with their entry counts,
// images uploaded into a category through the upload dialog and its queue (each registered as an entry once its
// upload succeeded), entries edited (name, copyright, note, validity) and removed.
import { useState } from 'preact/hooks'
import { del, errorText, post, put } from '../../../api/client'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { Dialog } from '../../../components/dialog'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Alert, Button, CancelSave, Card, EmptyState, PageHeader, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import { UploadDialog } from '../../../shared/upload/upload-panel'
import { usePermission, usePostResource } from '../common'
import { EntryGrid } from './entries'
import { type EntryPage, GALLERY, type MediaCategory, type MediaEntry } from './model'

const toDay = (iso: string | null) => (iso ? iso.slice(0, 10) : '')
/** a day typed into a date input: valid from its start, until its end (UTC) */
const fromDay = (day: string, end: boolean) => (day ? `${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : null)

function EntryDialog({ entry, onClose, onSaved }: { entry: MediaEntry; onClose(): void; onSaved(): void }) {
  const [v, setV] = useState({ displayName: entry.displayName, copyright: entry.copyright ?? '', note: entry.note ?? '', validFrom: toDay(entry.validFrom), validUntil: toDay(entry.validUntil) })
  const [err, setErr] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const save = async () => {
    setBusy(true)
    try {
      await put(`${GALLERY}/entries/${entry.id}`, { displayName: v.displayName, copyright: v.copyright, note: v.note, validFrom: fromDay(v.validFrom, false), validUntil: fromDay(v.validUntil, true) })
      onSaved()
    } catch (e) {
      setErr(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const field = (key: keyof typeof v, label: string, type: 'text' | 'date' = 'text') => (
    <div class="field">
      <label for={`media-${key}`}>{label}</label>
      {type === 'date' ? (
        <input id={`media-${key}`} type="date" value={v[key]} onInput={(e) => setV({ ...v, [key]: (e.target as HTMLInputElement).value })} />
      ) : (
        <input id={`media-${key}`} type="text" value={v[key]} maxLength={key === 'note' ? 1000 : 200} onInput={(e) => setV({ ...v, [key]: (e.target as HTMLInputElement).value })} />
      )}
    </div>
  )
  return (
    <Dialog title={entry.displayName} onClose={onClose} actions={<CancelSave onCancel={onClose} onSave={() => void save()} busy={busy} />}>
      {err && <Alert tone="error">{err}</Alert>}
      {field('displayName', t('media.displayName'))}
      {field('copyright', t('media.copyright'))}
      {field('note', t('media.note'))}
      {field('validFrom', t('media.validFrom'), 'date')}
      {field('validUntil', t('media.validUntil'), 'date')}
    </Dialog>
  )
}

export function MediaGalleryPage() {
  const canEdit = usePermission('ASSET.UPLOAD')
  const cats = useResource<{ items: MediaCategory[] }>(`${GALLERY}/categories`)
  const [selected, setSelected] = useState<number | null>(null)
  const [name, setName] = useState('')
  const [page, setPage] = useState(0)
  const [perPage, setPerPage] = useState(10)
  const [editing, setEditing] = useState<MediaEntry | null>(null)
  const [uploading, setUploading] = useState(false)
  const [deleting, setDeleting] = useState<MediaCategory | null>(null)
  const categoryId = selected ?? cats.data?.items[0]?.id ?? null
  const category = cats.data?.items.find((c) => c.id === categoryId) ?? null
  const entries = usePostResource<EntryPage>(categoryId ? `${GALLERY}/entries/search` : null, { categoryId, paging: { page, perPage } })
  const reload = () => {
    void cats.reload()
    void entries.reload()
  }
  const addCategory = async () => {
    if (!name.trim()) return
    try {
      const c = await post<MediaCategory>(`${GALLERY}/categories`, { displayName: name })
      setName('')
      setSelected(c.id)
      setPage(0)
      void cats.reload()
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    }
  }
  return (
    <>
      <PageHeader title={t('media.title')} />
      {cats.error && <Alert tone="error">{errorText(cats.error)}</Alert>}
      <div class="media-layout">
        <Card class="media-categories">
          <h2>{t('media.categories')}</h2>
          {!cats.data ? (
            <Spinner />
          ) : cats.data.items.length === 0 ? (
            <EmptyState>{t('media.noCategories')}</EmptyState>
          ) : (
            <ul>
              {cats.data.items.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    class={c.id === categoryId ? 'media-category active' : 'media-category'}
                    aria-pressed={c.id === categoryId}
                    onClick={() => {
                      setSelected(c.id)
                      setPage(0)
                    }}
                  >
                    {c.displayName} <small>{t('media.entryCount', { count: c.entryCount })}</small>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {canEdit && (
            <form
              class="button-row"
              onSubmit={(e) => {
                e.preventDefault()
                void addCategory()
              }}
            >
              <input aria-label={t('media.categoryName')} placeholder={t('media.categoryName')} value={name} maxLength={120} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
              <Button type="submit">{t('media.categoryAdd')}</Button>
            </form>
          )}
        </Card>
        {category && (
          <Card class="media-category-content">
            <div class="card-head">
              <h2>{category.displayName}</h2>
              {canEdit && (
                <span class="button-row">
                  <Button onClick={() => setUploading(true)}>{t('upload.title')}</Button>
                  <Button variant="ghost" onClick={() => setDeleting(category)}>
                    {t('media.categoryDelete')}
                  </Button>
                </span>
              )}
            </div>
            {entries.error && <Alert tone="error">{errorText(entries.error)}</Alert>}
            {!entries.data ? (
              <Spinner />
            ) : (
              <EntryGrid
                page={entries.data}
                onPage={setPage}
                onPerPage={(n) => {
                  setPerPage(n)
                  setPage(0)
                }}
                actions={(e) =>
                  canEdit && (
                    <>
                      <Button variant="secondary" onClick={() => setEditing(e)}>
                        {t('common.edit')}
                      </Button>
                      <Button
                        variant="ghost"
                        onClick={async () => {
                          try {
                            await del(`${GALLERY}/entries/${e.id}`)
                            reload()
                          } catch (x) {
                            toast(errorText(x), 'error', 5000)
                          }
                        }}
                      >
                        {t('media.remove')}
                      </Button>
                    </>
                  )
                }
              />
            )}
          </Card>
        )}
      </div>
      {uploading && category && (
        <UploadDialog
          uploadType="EVENT"
          crypted={false}
          onClose={() => setUploading(false)}
          onUploaded={async (asset, file) => {
            await post(`${GALLERY}/entries`, { categoryId: category.id, assetId: asset.id, displayName: file.name.replace(/\.[a-z0-9]+$/i, '').slice(0, 200) || file.name })
            reload()
          }}
        />
      )}
      {editing && (
        <EntryDialog
          entry={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            reload()
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('media.categoryDelete')}
          confirmLabel={t('common.delete')}
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await del(`${GALLERY}/categories/${deleting.id}`)
            setDeleting(null)
            setSelected(null)
            void cats.reload()
          }}
        >
          <p>{deleting.displayName}</p>
        </ConfirmDialog>
      )}
    </>
  )
}
