// /guest/checkin/{token}: the self check-in dialog (guest-side.md 2, 4, 5, 8). Open (no login): the
// token is the registration's own. Fullscreen, and Escape does not close it. Persons are grouped as
// open / checked in / checked out with checkboxes; the server applies the desk's rules.
import { useEffect, useState } from 'preact/hooks'
import { ApiError, post } from '../../api/client'
import { Alert, Badge, Button, Spinner } from '../../components/ui'
import { formatTime } from '../../../server/i18n/format'
import { formatDateIn } from '../../../server/i18n/locale-format'
import { t, useLanguage, currentLanguage } from '../../i18n'
import { AgreementCounter, AgreementsDialog, type Decision, type GuestAgreement, toDecide } from './agreements-dialog'

type State = 'OPEN' | 'CHECKED_IN' | 'CHECKED_OUT'
interface CheckinView {
  id: number
  status: string
  /** why the ticket does not admit (yet): UNPAID, PAYMENT_PENDING, CANCELED, REFUNDED */
  ticketBlocked?: string | null
  firstName: string | null
  lastName: string | null
  visitorCount: number
  checkinCount: number
  checkoutCount: number
  mainGuestCheckedIn: boolean
  mainGuestCheckedOut: boolean
  escortPersons: Array<{ number: number; firstName: string | null; lastName: string | null; checkState: State }>
  canCheckin: boolean
  allowSelfCheckin: boolean
  allowSelfCheckout: boolean
  checkinOpened: boolean
  checkinOpenDate: string | null
  checkinUrl: string | null
  agreements: GuestAgreement[]
  missingAgreements: Array<{ id: number; displayName: string }>
  tokens: Record<string, string | null>
  event: { id: number; displayName: string; startDate: string; timezone: string }
  checkedIn?: number[]
  checkedOut?: number[]
  redirectUrl?: string | null
}
interface Person {
  person: number
  name: string
  label: string
  state: State
}

const personsOf = (v: CheckinView): Person[] => [
  { person: 0, name: [v.firstName, v.lastName].filter(Boolean).join(' '), label: t('selfCheckin.mainGuest'), state: v.mainGuestCheckedOut ? 'CHECKED_OUT' : v.mainGuestCheckedIn ? 'CHECKED_IN' : 'OPEN' },
  ...v.escortPersons.map((e) => ({ person: e.number, name: [e.firstName, e.lastName].filter(Boolean).join(' '), label: t('selfCheckin.escort', { n: e.number }), state: e.checkState })),
]
/** errorTranslation, else errorMessage, else the generic text (guest-side.md 8) */
const errorOf = (e: unknown) => (e instanceof ApiError ? e.errorTranslation || e.errorMessage : '') || t('selfCheckin.error')

export function SelfCheckin({ params }: { params: { token: string } }) {
  useLanguage()
  const token = decodeURIComponent(params.token)
  const [view, setView] = useState<CheckinView | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ tone: 'ok' | 'error' | 'warn'; text: string } | null>(null)
  const [done, setDone] = useState<{ inN: number; outN: number } | null>(null)
  const [signing, setSigning] = useState<{ then: null | { checkin: number[] } } | null>(null)
  const [pending, setPending] = useState<Decision[]>([])
  const [closed, setClosed] = useState(false)

  const load = async () => {
    try {
      setView(await post<CheckinView>('/proxy/api/guest/prepareCheckin', { token }))
    } catch (e) {
      setLoadError(e instanceof ApiError && e.status === 404 ? t('selfCheckin.notFound') : errorOf(e))
    }
  }
  useEffect(() => {
    void load()
  }, [token])

  if (loadError)
    return (
      <div class="selfcheckin" role="dialog" aria-modal="true" aria-label={t('selfCheckin.title')}>
        <Alert tone="error">{loadError}</Alert>
      </div>
    )
  if (!view)
    return (
      <div class="selfcheckin">
        <Spinner label={t('selfCheckin.loading')} />
      </div>
    )

  const persons = personsOf(view)
  const tz = view.event.timezone
  const noRight = !view.allowSelfCheckin && !view.allowSelfCheckout
  const canIn = view.allowSelfCheckin && view.checkinOpened && view.canCheckin
  const allIn = persons.every((p) => p.state === 'CHECKED_IN')
  const allOut = persons.every((p) => p.state === 'CHECKED_OUT')
  const missing = view.missingAgreements.filter((m) => !pending.some((p) => p.id === m.id && p.status === 'CONFIRMED'))

  const submit = async (checkin: number[], checkout: number[], decisions = pending) => {
    setMessage(null)
    if (!checkin.length && !checkout.length) return setMessage({ tone: 'error', text: t('selfCheckin.noGuests') })
    // required agreements first: the dialog opens and the check-in follows
    if (checkin.length && missing.length && !signing) return setSigning({ then: { checkin } })
    setBusy(true)
    try {
      const r = await post<CheckinView>('/proxy/api/guest/checkInOut', { token, checkinGuests: checkin, checkoutGuests: checkout, origin: 'selfcheckin', agreements: decisions })
      setPending([])
      setView(r)
      setSelected(new Set())
      setDone({ inN: r.checkedIn?.length ?? 0, outN: r.checkedOut?.length ?? 0 })
      if (r.redirectUrl) setTimeout(() => location.assign(r.redirectUrl!), 1500)
    } catch (e) {
      if (e instanceof ApiError && e.errorType === 'AGREEMENTS_MISSING') {
        await load()
        setSigning({ then: { checkin } })
      } else setMessage({ tone: 'error', text: errorOf(e) })
      if (e instanceof ApiError && e.errorType !== 'AGREEMENTS_MISSING') await load()
    } finally {
      setBusy(false)
    }
  }
  const toggle = (n: number) => {
    const s = new Set(selected)
    if (s.has(n)) s.delete(n)
    else s.add(n)
    setSelected(s)
  }
  const sel = persons.filter((p) => selected.has(p.person))
  // documents' link to the name-tags PDF (the token alone would serve the ticket)
  const nameTags = view.tokens.downloadLinkNameTags

  if (closed)
    return (
      <div class="selfcheckin" role="dialog" aria-modal="true" aria-label={t('selfCheckin.title')}>
        <p>{t('selfCheckin.closedPage')}</p>
        <Button variant="secondary" onClick={() => setClosed(false)}>
          {t('selfCheckin.checkinMore')}
        </Button>
      </div>
    )

  return (
    <div class="selfcheckin" role="dialog" aria-modal="true" aria-labelledby="selfcheckin-title">
      <header class="selfcheckin-head">
        <h1 id="selfcheckin-title">{t('selfCheckin.title')}</h1>
        <p class="selfcheckin-event">
          <strong>{view.event.displayName}</strong> · {formatDateIn(currentLanguage(), view.event.startDate, tz)}, {formatTime(view.event.startDate, tz)}
        </p>
        <p class="selfcheckin-counts" aria-live="polite">
          {t('selfCheckin.counts', { in: view.checkinCount, total: view.visitorCount, out: view.checkoutCount })}
        </p>
      </header>

      {noRight && <Alert tone="warn">{t('selfCheckin.noPermission')}</Alert>}
      {!view.canCheckin && !noRight && (
        <Alert tone="warn">{view.ticketBlocked ? t(`guest.ticket.blocked.${view.ticketBlocked}`) : t('errors.CHECKIN_STATUS', { status: t(`visitorStatus.${view.status}`) })}</Alert>
      )}
      {!view.checkinOpened && view.checkinOpenDate && <Alert tone="info">{t('selfCheckin.closed', { date: formatDateIn(currentLanguage(), view.checkinOpenDate, tz), time: formatTime(view.checkinOpenDate, tz) })}</Alert>}
      {allIn && !view.allowSelfCheckout && <Alert tone="ok">{t('selfCheckin.allIn')}</Alert>}
      {allOut && <Alert tone="info">{t('selfCheckin.allOut')}</Alert>}
      {message && (
        <Alert tone={message.tone} role="alert">
          {message.text}
        </Alert>
      )}

      <AgreementCounter agreements={view.agreements} pending={pending} onOpen={() => setSigning({ then: null })} />

      {done ? (
        <div class="selfcheckin-done">
          <Alert tone="ok" role="status">
            {[done.inN ? t('selfCheckin.done.in', { n: done.inN }) : '', done.outN ? t('selfCheckin.done.out', { n: done.outN }) : ''].filter(Boolean).join(' ')}
            {view.redirectUrl && ` ${t('selfCheckin.redirecting')}`}
          </Alert>
          <div class="selfcheckin-actions">
            {/* with everyone in there is nobody left to check in: closing is the main action then */}
            <Button variant={allIn ? 'secondary' : 'primary'} onClick={() => setDone(null)}>
              {t('selfCheckin.checkinMore')}
            </Button>
            {nameTags && (
              <a class="btn btn-secondary" href={nameTags}>
                {t('selfCheckin.nameTags')}
              </a>
            )}
            <Button variant={allIn ? 'primary' : 'secondary'} onClick={() => setClosed(true)}>
              {t('selfCheckin.close')}
            </Button>
          </div>
        </div>
      ) : (
        <>
          {(['OPEN', 'CHECKED_IN', 'CHECKED_OUT'] as const).map((state) => {
            const group = persons.filter((p) => p.state === state)
            if (!group.length) return null
            return (
              <section key={state} class="selfcheckin-group" aria-labelledby={`g-${state}`}>
                <h2 id={`g-${state}`}>
                  {t(`selfCheckin.group.${state}`)} <span class="count">{group.length}</span>
                </h2>
                <ul>
                  {group.map((p) => (
                    <li key={p.person}>
                      <label class="selfcheckin-person">
                        <input type="checkbox" checked={selected.has(p.person)} onChange={() => toggle(p.person)} disabled={noRight} />
                        <span class="selfcheckin-name">
                          {p.name}
                          <small class="muted">{p.label}</small>
                        </span>
                        <Badge tone={p.state === 'CHECKED_IN' ? 'ok' : p.state === 'CHECKED_OUT' ? 'neutral' : 'info'}>{t(`selfCheckin.state.${p.state}`)}</Badge>
                      </label>
                    </li>
                  ))}
                </ul>
              </section>
            )
          })}
          <div class="selfcheckin-actions">
            {view.allowSelfCheckin && (
              <Button disabled={busy || !canIn || allIn} onClick={() => submit(persons.filter((p) => p.state !== 'CHECKED_IN').map((p) => p.person), [])}>
                {t('selfCheckin.checkinAll')}
              </Button>
            )}
            {view.allowSelfCheckout && (
              <Button variant="secondary" disabled={busy || !persons.some((p) => p.state === 'CHECKED_IN')} onClick={() => submit([], persons.filter((p) => p.state === 'CHECKED_IN').map((p) => p.person))}>
                {t('selfCheckin.checkoutAll')}
              </Button>
            )}
            {view.allowSelfCheckin && (
              <Button variant="secondary" disabled={busy || !canIn} onClick={() => submit(sel.filter((p) => p.state !== 'CHECKED_IN').map((p) => p.person), [])}>
                {t('selfCheckin.checkinSelection')}
              </Button>
            )}
            {view.allowSelfCheckout && (
              <Button variant="secondary" disabled={busy} onClick={() => submit([], sel.filter((p) => p.state === 'CHECKED_IN').map((p) => p.person))}>
                {t('selfCheckin.checkoutSelection')}
              </Button>
            )}
            {nameTags && (
              <a class="btn btn-secondary" href={nameTags}>
                {t('selfCheckin.nameTags')}
              </a>
            )}
            <Button variant="secondary" onClick={() => setClosed(true)}>
              {t('selfCheckin.close')}
            </Button>
          </div>
        </>
      )}

      {signing && (
        <AgreementsDialog
          agreements={toDecide(view.agreements)}
          busy={busy}
          onCancel={() => setSigning(null)}
          onDone={(decisions) => {
            const then = signing.then
            setSigning(null)
            const merged = [...pending.filter((p) => !decisions.some((d) => d.id === p.id)), ...decisions]
            if (then) void submit(then.checkin, [], merged)
            else setPending(merged)
          }}
        />
      )}
    </div>
  )
}
