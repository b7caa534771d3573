// The agreements counter of a registration (guest-side.md 2, 4) and what the signature dialog walks
// through; apart from the dialog (agreements-dialog.tsx, with the signature pad) so the dashboard
// loads the dialog only when the guest opens it.
import { t } from '../../i18n'

export interface GuestAgreement {
  id: number
  displayName: string
  description: string
  appearance: 'VISIBLE' | 'REQUIRED'
  completed: boolean
  status: 'CONFIRMED' | 'DECLINED' | null
}
export interface Decision {
  id: number
  status: 'CONFIRMED' | 'DECLINED'
  signature: string | null
}

/** Which agreements the dialog walks through: the open ones, or all of them to decide again. */
export const toDecide = (list: GuestAgreement[]) => (list.some((a) => !a.completed) ? list.filter((a) => !a.completed) : list)

/** The counter "x von y erledigt" with the link that opens the dialog. */
export function AgreementCounter({ agreements, pending = [], onOpen }: { agreements: GuestAgreement[]; pending?: Decision[]; onOpen(): void }) {
  if (!agreements.length) return null
  const done = agreements.filter((a) => a.completed || pending.some((p) => p.id === a.id)).length
  const missing = agreements.some((a) => a.appearance === 'REQUIRED' && a.status !== 'CONFIRMED' && !pending.some((p) => p.id === a.id && p.status === 'CONFIRMED'))
  return (
    <p class={`agreement-counter ${missing ? 'is-missing' : ''}`}>
      <span>{t('guestAgreements.counter', { done, total: agreements.length })}</span>{' '}
      <button type="button" class="agreement-link" onClick={onOpen}>
        {done < agreements.length ? t('guestAgreements.sign') : t('guestAgreements.resign')}
      </button>
      {pending.length > 0 && <span class="muted"> · {t('guestAgreements.pending')}</span>}
    </p>
  )
}
