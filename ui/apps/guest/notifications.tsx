// /guest/notifications (guest-side.md 2 "Notifications list", 9): 20 a page, previous/next, at most
// 100 page numbers plus the last, page info; each entry with event, title, DD.MM.YYYY, HH:mm, type
// icon, failed flag, image and event link. An e-mail shows a fixed text or the failure text.
import { useContext, useEffect, useState } from 'preact/hooks'
import { Redirect } from 'wouter'
import { UserContext } from '../../components/navigation-auth'
import { ApiError, post } from '../../api/client'
import { formatTime } from '../../../server/i18n/format'
import { formatDateIn } from '../../../server/i18n/locale-format'
import { Alert, Badge, Card } from '../../components/ui'
import { t, useLanguage, currentLanguage } from '../../i18n'

interface Notification {
  id: number
  eventId: number | null
  eventName: string | null
  title: string
  date: string
  type: 'EMAIL' | 'PUSH_NOTIFICATION' | 'SMS'
  failed: boolean
  message: string | null
  image: string | null
  eventLink: string | null
}
interface Page {
  notifications: Notification[]
  totalPages: number
  totalElements: number
  page: number
}
const ICON: Record<Notification['type'], string> = { EMAIL: '✉', PUSH_NOTIFICATION: '🔔', SMS: '💬' }
const MAX_PAGE_LINKS = 100

/** The page numbers to list (0-based): at most 100 around the current one, plus the last. */
export function pageNumbers(current: number, total: number): number[] {
  if (total <= MAX_PAGE_LINKS + 1) return Array.from({ length: total }, (_, i) => i)
  const start = Math.max(0, Math.min(current - MAX_PAGE_LINKS / 2, total - 1 - MAX_PAGE_LINKS))
  const list = Array.from({ length: MAX_PAGE_LINKS }, (_, i) => start + i)
  return list.includes(total - 1) ? list : [...list, total - 1]
}

export function Notifications() {
  useLanguage()
  // the entry-pass variant has no notifications (guest-side.md 1)
  if (useContext(UserContext)?.features.includes('SYSTEM_COVIDOO')) return <Redirect to="/guest/dashboard" replace />
  return <NotificationList />
}

function NotificationList() {
  const [page, setPage] = useState(0)
  const [data, setData] = useState<Page | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    post<Page>('/proxy/api/guest/notifications', { page })
      .then((d) => live && (setData(d), setError(null)))
      .catch((e) => live && setError(e instanceof ApiError ? e.errorTranslation || e.errorMessage : t('selfCheckin.error')))
    return () => {
      live = false
    }
  }, [page])
  const go = (p: number) => {
    setPage(p)
    window.scrollTo?.(0, 0)
  }
  return (
    <>
      <h1>{t('notifications.title')}</h1>
      {error && <Alert tone="error">{error}</Alert>}
      {!data && !error && <p class="muted">{t('notifications.wait')}</p>}
      {data && data.totalElements === 0 && <Card>{t('notifications.empty')}</Card>}
      {data && data.totalElements > 0 && (
        <>
          <ul class="notifications-list">
            {data.notifications.map((n) => (
              <li key={n.id} class={`card notification ${n.failed ? 'is-failed' : ''}`}>
                <span class="notification-icon" role="img" aria-label={t(`notifications.type.${n.type}`)} title={t(`notifications.type.${n.type}`)}>
                  {ICON[n.type]}
                </span>
                <div class="notification-body">
                  {n.eventName && <p class="notification-event muted">{n.eventName}</p>}
                  <h2 class="notification-title">{n.title}</h2>
                  <p class="notification-date">
                    {formatDateIn(currentLanguage(), n.date, 'Europe/Berlin')}, {formatTime(n.date)}
                    {n.failed && (
                      <>
                        {' '}
                        <Badge tone="error">{t('notifications.failed')}</Badge>
                      </>
                    )}
                  </p>
                  <p class="notification-text">{n.type === 'EMAIL' ? (n.failed ? t('notifications.email.failed') : t('notifications.email.text')) : n.message}</p>
                  {n.eventLink && (
                    <a href={n.eventLink} class="notification-link">
                      {t('notifications.toEvent')}
                    </a>
                  )}
                </div>
                {n.image && <img class="notification-image" src={n.image} alt="" loading="lazy" width={72} height={72} />}
              </li>
            ))}
          </ul>
          <nav class="notification-pager" aria-label={t('notifications.title')}>
            <button type="button" class="btn btn-secondary" disabled={page === 0} onClick={() => go(page - 1)}>
              {t('notifications.previous')}
            </button>
            <span class="notification-pages">
              {pageNumbers(page, data.totalPages).map((p) => (
                <button key={p} type="button" class={`notification-page ${p === page ? 'is-current' : ''}`} aria-current={p === page ? 'page' : undefined} aria-label={t('notifications.page', { n: p + 1 })} onClick={() => go(p)}>
                  {p + 1}
                </button>
              ))}
            </span>
            <button type="button" class="btn btn-secondary" disabled={page >= data.totalPages - 1} onClick={() => go(page + 1)}>
              {t('notifications.next')}
            </button>
          </nav>
          <p class="notification-info muted">{t('notifications.pageInfo', { page: page + 1, pages: data.totalPages, total: data.totalElements })}</p>
        </>
      )}
    </>
  )
}
