// A guest's mails in the guest detail: what went out under which sender, what failed with the
// server's answer, and whether the guest's address is refused (a bounce), so the organiser knows whom to call.
import { useResource } from '../../../components/hooks'
import { Alert, Badge } from '../../../components/ui'
import { formatDateTime } from '../../../../server/i18n/format'
import { t } from '../../../i18n'

interface GuestMails {
  mailError: boolean
  mailErrorText: string | null
  items: Array<{ id: number; kind: string; subject: string; to: string; status: 'PENDING' | 'SENT' | 'FAILED'; lastError: string | null; from: string | null; createdAt: string; sentAt: string | null }>
}

const TONE = { PENDING: 'info', SENT: 'ok', FAILED: 'error' } as const

export function GuestMailsSection({ eventId, guestId, timezone }: { eventId: number; guestId: number; timezone: string }) {
  const { data } = useResource<GuestMails>(`/proxy/api/events/${eventId}/visitors/${guestId}/mails`)
  if (!data) return null
  return (
    <section class="guest-section-block guest-mails" data-testid="guest-mails">
      <h3>{t('mail.guest.mails')}</h3>
      {data.mailError && <Alert tone="error">{t('mail.guest.mailError', { error: data.mailErrorText ?? '' })}</Alert>}
      {!data.items.length && <p class="muted">{t('mail.guest.noMails')}</p>}
      <ul class="plain-list">
        {data.items.map((m) => (
          <li key={m.id}>
            <Badge tone={TONE[m.status]}>{t(`mail.guest.status.${m.status}`)}</Badge> <strong>{m.subject || m.kind}</strong> · {formatDateTime(m.sentAt ?? m.createdAt, timezone)}
            {m.from && <div class="muted">{t('mail.guest.from', { from: m.from })}</div>}
            {m.status === 'FAILED' && m.lastError && <code class="server-answer">{m.lastError}</code>}
          </li>
        ))}
      </ul>
    </section>
  )
}
