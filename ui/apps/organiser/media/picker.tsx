// The media gallery picker (agency-side.md 2.8): categories with their entry counts, the entries
// valid now in pages of 2, 10, 20 or 50, "Verwenden" picks one (the server checks its validity).
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, post } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { usePostResource } from '../common'
import { Alert, Button, EmptyState, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import { EntryGrid } from './entries'
import { type EntryPage, GALLERY, type MediaCategory, type MediaEntry } from './model'

export function MediaPicker({ onPick, onClose }: { onPick(entry: MediaEntry): void; onClose(): void }) {
  const [categories, setCategories] = useState<MediaCategory[] | null>(null)
  const [categoryId, setCategoryId] = useState<number | null>(null)
  const [page, setPage] = useState(0)
  const [perPage, setPerPage] = useState(10)
  const [err, setErr] = useState<string | null>(null)
  useEffect(() => {
    get<{ items: MediaCategory[] }>(`${GALLERY}/categories`)
      .then((r) => {
        setCategories(r.items)
        setCategoryId(r.items[0]?.id ?? null)
      })
      .catch((e) => setErr(errorText(e)))
  }, [])
  const { data } = usePostResource<EntryPage>(categoryId ? `${GALLERY}/entries/search` : null, { categoryId, validOnly: true, paging: { page, perPage } })
  const pick = async (e: MediaEntry) => {
    try {
      onPick(await post<MediaEntry>(`${GALLERY}/entries/${e.id}/pick`))
    } catch (x) {
      setErr(errorText(x))
    }
  }
  return (
    <Dialog title={t('media.pickTitle')} onClose={onClose} wide>
      {err && <Alert tone="error">{err}</Alert>}
      {!categories ? (
        !err && <Spinner />
      ) : categories.length === 0 ? (
        <EmptyState>{t('media.noCategories')}</EmptyState>
      ) : (
        <>
          <label class="inline-select">
            <span>{t('media.categories')}</span>
            <select
              value={String(categoryId ?? '')}
              onChange={(ev) => {
                setCategoryId(Number((ev.target as HTMLSelectElement).value))
                setPage(0)
              }}
            >
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.displayName} ({t('media.entryCount', { count: c.entryCount })})
                </option>
              ))}
            </select>
          </label>
          {!data ? (
            <Spinner />
          ) : (
            <EntryGrid
              page={data}
              onPage={setPage}
              onPerPage={(n) => {
                setPerPage(n)
                setPage(0)
              }}
              actions={(e) => <Button onClick={() => void pick(e)}>{t('media.use')}</Button>}
            />
          )}
        </>
      )}
    </Dialog>
  )
}
