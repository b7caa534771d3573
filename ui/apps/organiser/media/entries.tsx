// One page of a gallery category's entries, shared by the gallery screen and the picker: thumbnail,
// display name, copyright, note, validity; page sizes 2, 10, 20, 50; the empty-category text.
import type { ComponentChildren } from 'preact'
import { formatDate } from '../../../../server/i18n/format'
import { Badge, Button, EmptyState } from '../../../components/ui'
import { t } from '../../../i18n'
import { type EntryPage, type MediaEntry, PAGE_SIZES, thumbnail } from './model'

// validity is kept in whole UTC days (the gallery screen's date inputs), so shown in UTC too
const day = (iso: string) => formatDate(iso, 'UTC')

export function EntryGrid({ page, actions, onPage, onPerPage }: { page: EntryPage; actions(e: MediaEntry): ComponentChildren; onPage(p: number): void; onPerPage(n: number): void }) {
  const pages = Math.max(1, Math.ceil(page.total / page.perPage))
  return (
    <div class="media-entries">
      {page.items.length === 0 ? (
        <EmptyState>{t('media.empty')}</EmptyState>
      ) : (
        <ul class="media-grid">
          {page.items.map((e) => (
            <li key={e.id} class="media-entry" data-entry={e.displayName}>
              <img src={thumbnail(e)} alt={e.displayName} loading="lazy" />
              <strong>{e.displayName}</strong>
              {e.copyright && <small>{e.copyright}</small>}
              {e.note && <small>{e.note}</small>}
              {e.validFrom && (
                <small>
                  {t('media.validFrom')} {day(e.validFrom)}
                </small>
              )}
              {e.validUntil && (
                <small>
                  {t('media.validUntil')} {day(e.validUntil)}
                </small>
              )}
              {!e.valid && <Badge tone="warn">{t('media.notValid')}</Badge>}
              <div class="media-entry-actions">{actions(e)}</div>
            </li>
          ))}
        </ul>
      )}
      <div class="media-paging">
        <label class="media-page-size">
          <span>{t('media.perPage')}</span>
          <select value={String(page.perPage)} onChange={(ev) => onPerPage(Number((ev.target as HTMLSelectElement).value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        {pages > 1 && (
          <span class="button-row">
            <Button variant="ghost" disabled={page.page === 0} onClick={() => onPage(page.page - 1)} aria-label={t('common.back')}>
              ‹
            </Button>
            <span>
              {page.page + 1} / {pages}
            </span>
            <Button variant="ghost" disabled={page.page + 1 >= pages} onClick={() => onPage(page.page + 1)} aria-label={t('common.next')}>
              ›
            </Button>
          </span>
        )}
      </div>
    </div>
  )
}
