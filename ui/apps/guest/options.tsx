// What a dashboard card offers (guest-side.md 2): registered events (resend confirmation, ticket PDF,
// calendar entry, Apple / Google Wallet, details or data change, QR code, withdraw, pass the place
// on), pending and invited ones (activate, decline with an optional reason, details, go to event).
// Every action ends in an overlay message (ok or error) dismissed with OK.
import type { ComponentChildren } from 'preact'
import { Suspense, lazy } from 'preact/compat'
import { useState } from 'preact/hooks'
import { formatTime } from '../../../server/i18n/format'
import { formatDateIn } from '../../../server/i18n/locale-format'
import { ApiError, errorText, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { OverlayMessage } from '../../components/overlay'
import { Button, LinkButton } from '../../components/ui'
import { fieldMessage, t, currentLanguage } from '../../i18n'
import { TicketQr } from './ticket-qr'

// the details dialog (escorts, agreements' signatures, field errors) loads when opened
const DetailsDialog = lazy(() => import('./details-dialog').then((m) => ({ default: m.DetailsDialog })))
// the form engine loads only when a guest changes their data (guest pages' script budget)
const DataDialog = lazy(() => import('./data-dialog').then((m) => ({ default: m.DataDialog })))
const CancelRequestDialog = lazy(() => import('./cancel-request-dialog').then((m) => ({ default: m.CancelRequestDialog })))
const DownloadDialog = lazy(() => import('../../components/download-dialog').then((m) => ({ default: m.DownloadDialog })))

export interface GuestEntry {
  id: number
  eventToken: string
  /** REQUIRED agreements not signed yet (the card names each) */
  missingAgreements?: Array<{ id: number; displayName: string }>
  registrationStatus: { status: string; options: string[] }
  tokens: { downloadToken?: string | null; downloadTokenIcs?: string | null; downloadTokenWallet?: string | null; downloadLinkGoogleWallet?: string | null; downloadLinkInvitation?: string | null }
  downloadLinkGoogleWallet?: string | null
  visitorCount: number
  waitingListPosition?: number | null
  canEditRegistrationData?: boolean
  canTransfer?: boolean
  transferUntil?: string | null
  /** the registration's open or bought ticket order (docs/ticketing.md): pay instead of confirm; withdraw only when `withdrawable` */
  ticketOrder?: {
    id: string
    status: string
    step: number
    withdrawable: boolean
    /** an unpaid transfer or invoice order: the pay page may offer "Zahlungsart ändern" */
    paymentMethodChangeable?: boolean
    /** the guest's latest cancellation request of a paid order */
    cancellationRequest?: { status: string; createdAt: string; declineReason: string | null } | null
  } | null
  /** why a registered guest has no ticket documents (yet): UNPAID, PAYMENT_PENDING, CANCELED, REFUNDED */
  ticketBlocked?: string | null
  event: {
    id: number
    displayName: string
    subTitle: string | null
    startDate: string
    timezone: string
    eventType: string
    hideDeclineButton: boolean
    address: { locationName: string | null; city: string | null }
    url: string
  }
}

type Overlay = { tone: 'ok' | 'error'; text: string } | null

/** Runs a guest action and tells the outcome in an overlay; reloads the dashboard after OK. */
function useAction(reload: () => Promise<void>) {
  const [overlay, setOverlay] = useState<Overlay>(null)
  const [busy, setBusy] = useState(false)
  const [changed, setChanged] = useState(false)
  const run = async (fn: () => Promise<unknown>, okText: string) => {
    setBusy(true)
    try {
      await fn()
      setChanged(true)
      setOverlay({ tone: 'ok', text: okText })
      return true
    } catch (e) {
      setOverlay({ tone: 'error', text: errorText(e) })
      return false
    } finally {
      setBusy(false)
    }
  }
  const view = overlay && (
    <OverlayMessage
      tone={overlay.tone}
      messages={[overlay.text]}
      onClose={() => {
        setOverlay(null)
        if (changed) {
          setChanged(false)
          void reload()
        }
      }}
    />
  )
  return { run, busy, view }
}

/** Inside the einlass app the downloads are offered by the app itself (its user agent says so). */
const insideApp = () => typeof navigator !== 'undefined' && /EinlassApp/i.test(navigator.userAgent)
const download = (token: string) => `/proxy/api/download/${encodeURIComponent(token)}`

function Downloads({ e, entryPass }: { e: GuestEntry; entryPass: boolean }) {
  if (insideApp()) return null
  const tk = e.tokens ?? {}
  const google = tk.downloadLinkGoogleWallet ?? e.downloadLinkGoogleWallet
  const links: Array<[string, string, boolean]> = entryPass
    ? tk.downloadToken
      ? [[download(tk.downloadToken), t('guestPortal.entryTicketPdf'), false]]
      : []
    : ([
        tk.downloadToken ? [download(tk.downloadToken), t('guestPortal.ticketPdf'), false] : null,
        tk.downloadTokenIcs ? [download(tk.downloadTokenIcs), t('guestPortal.calendar'), false] : null,
        tk.downloadTokenWallet ? [download(tk.downloadTokenWallet), t('guestPortal.appleWallet'), false] : null,
        google ? [google, t('guestPortal.googleWallet'), true] : null,
      ].filter(Boolean) as Array<[string, string, boolean]>)
  if (!links.length) return null
  return (
    <div class="guest-downloads">
      {links.map(([href, label, external]) => (
        <a key={href} class="btn btn-secondary guest-btn" href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : { download: '' })}>
          {label}
        </a>
      ))}
    </div>
  )
}

/** The invitation PDF of an invited, pending or open registration: the download dialog (pending, then a download button). */
function InvitationDownload({ e }: { e: GuestEntry }) {
  const [open, setOpen] = useState(false)
  if (!e.tokens?.downloadLinkInvitation) return null
  return (
    <>
      <Button variant="secondary" class="guest-btn" onClick={() => setOpen(true)}>
        {t('guestPortal.invitationPdf')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <DownloadDialog title={t('guestPortal.invitationPdf')} prepare={() => post<{ downloadLink: string }>(`/proxy/api/guest/${e.id}/prepareDownloadInvitation`, {})} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}

/** A yes/no question before something that cannot be undone. */
export function Confirm({ title, text, confirmLabel, onConfirm, onCancel, busy, children }: { title: string; text: string; confirmLabel: string; onConfirm(): void; onCancel(): void; busy?: boolean; children?: ComponentChildren }) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p>{text}</p>
      {children}
    </Dialog>
  )
}

function DetailsButtons({ e, reload }: { e: GuestEntry; reload(): Promise<void> }) {
  const [open, setOpen] = useState<'details' | 'data' | null>(null)
  // both dialogs say on closing whether they changed the registration
  const close = (changed: boolean) => {
    setOpen(null)
    if (changed) void reload()
  }
  return (
    <>
      <Button variant="secondary" class="guest-btn" onClick={() => setOpen('details')}>
        {t('guestPortal.details')}
      </Button>
      {e.canEditRegistrationData && (
        <Button variant="secondary" class="guest-btn" onClick={() => setOpen('data')}>
          {t('guestPortal.editData')}
        </Button>
      )}
      {open === 'details' && (
        <Suspense fallback={null}>
          <DetailsDialog visitorId={e.id} onClose={close} />
        </Suspense>
      )}
      {open === 'data' && (
        <Suspense fallback={null}>
          <DataDialog visitorId={e.id} onClose={close} />
        </Suspense>
      )}
    </>
  )
}

/** Decline with an optional reason (pending and invited registrations). */
function DeclineDialog({ e, onDone, onCancel }: { e: GuestEntry; onDone(reason: string): void; onCancel(): void }) {
  const [reason, setReason] = useState('')
  return (
    <Confirm title={t('guestPortal.decline.title')} text={e.event.displayName} confirmLabel={t('guestPortal.decline.submit')} onConfirm={() => onDone(reason)} onCancel={onCancel}>
      <div class="field field-full">
        <label for={`reason-${e.id}`}>{t('guestPortal.decline.reason')}</label>
        <textarea id={`reason-${e.id}`} maxLength={1000} rows={3} value={reason} onInput={(ev) => setReason((ev.target as HTMLTextAreaElement).value)} />
      </div>
    </Confirm>
  )
}

function TransferDialog({ e, onDone, onCancel }: { e: GuestEntry; onDone(name: string): void; onCancel(): void }) {
  const [v, setV] = useState({ firstName: '', lastName: '', email: '' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [err, setErr] = useState<string | null>(null)
  const submit = async () => {
    setBusy(true)
    setErr(null)
    try {
      await post(`/proxy/api/guest/events/visitors/${e.id}/transfer`, v)
      onDone(`${v.firstName} ${v.lastName}`.trim())
    } catch (x) {
      if (x instanceof ApiError && x.errorFields.length) setErrors(Object.fromEntries(x.errorFields.map((f) => [f.field, fieldMessage(f.errorType)])))
      else setErr(errorText(x))
    } finally {
      setBusy(false)
    }
  }
  const until = e.transferUntil ?? e.event.startDate
  const input = (k: 'firstName' | 'lastName' | 'email', label: string, type = 'text', autocomplete = 'off') => (
    <div class={`field ${errors[k] ? 'has-error' : ''}`}>
      <label for={`transfer-${k}`}>{label}</label>
      <input id={`transfer-${k}`} type={type as 'text'} autocomplete={autocomplete} value={v[k]} aria-invalid={!!errors[k]} onInput={(ev) => setV({ ...v, [k]: (ev.target as HTMLInputElement).value })} />
      {errors[k] && <p class="field-error">{errors[k]}</p>}
    </div>
  )
  return (
    <Dialog
      title={t('guestPortal.transfer.title')}
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} onClick={() => void submit()}>
            {t('guestPortal.transfer.submit')}
          </Button>
        </>
      }
    >
      <p>{t('guestPortal.transfer.hint', { date: formatDateIn(currentLanguage(), until, e.event.timezone), time: formatTime(until, e.event.timezone) })}</p>
      {input('firstName', t('defaultField.FIRST_NAME'))}
      {input('lastName', t('defaultField.LAST_NAME'))}
      {input('email', t('defaultField.EMAIL'), 'email')}
      {err && <p class="field-error">{err}</p>}
    </Dialog>
  )
}

/**
 * The guest's withdraw (a reject of the registration): `label` is the text key of the button that
 * opened it, naming the dialog and its confirm button, with the question under `<label>.confirm`;
 * `okText` is told once done.
 */
function WithdrawConfirm({ e, action, label, okText, onClose }: { e: GuestEntry; action: ReturnType<typeof useAction>; label: string; okText: string; onClose(): void }) {
  return (
    <Confirm
      title={t(label)}
      text={t(`${label}.confirm`, { event: e.event.displayName })}
      confirmLabel={t(label)}
      busy={action.busy}
      onCancel={onClose}
      onConfirm={async () => {
        await action.run(() => post(`/proxy/api/guest/events/${e.event.id}/reject`, { visitor: e.id }), okText)
        onClose()
      }}
    />
  )
}

export function RegisteredOptions({ e, reload, entryPass }: { e: GuestEntry; reload(): Promise<void>; entryPass: boolean }) {
  const a = useAction(reload)
  const [ask, setAsk] = useState<'withdraw' | 'transfer' | 'cancelRequest' | null>(null)
  // a paid order: the guest may ask the organiser to cancel it (one open request at a time)
  const request = e.ticketOrder?.cancellationRequest ?? null
  const mayRequest = e.ticketOrder?.status === 'PAID' && request?.status !== 'OPEN' && new Date(e.event.startDate).getTime() > Date.now()
  return (
    <div class="guest-options">
      {e.ticketOrder?.status === 'PAID' && request?.status === 'OPEN' && (
        <p class="guest-ticket-blocked" role="status">
          {t('guestPortal.cancelRequest.open', { at: formatDateIn(currentLanguage(), request.createdAt, e.event.timezone) })}
        </p>
      )}
      {e.ticketOrder?.status === 'PAID' && request?.status === 'DECLINED' && (
        <p class="guest-ticket-blocked" role="status">
          {t('guestPortal.cancelRequest.declinedNote', { reason: request.declineReason ?? '' })}
        </p>
      )}
      {e.ticketBlocked && (
        <p class="guest-ticket-blocked" role="status">
          {t(`guest.ticket.blocked.${e.ticketBlocked}`)}{' '}
          {e.ticketOrder?.status === 'OPEN' && <a href={`/pay/${encodeURIComponent(e.ticketOrder.id)}`}>{t('guest.ticket.blocked.pay')}</a>}
        </p>
      )}
      <Downloads e={e} entryPass={entryPass} />
      {!entryPass && !e.ticketBlocked && <TicketQr visitorId={e.id} status={e.registrationStatus.status} />}
      <div class="guest-card-actions">
        <DetailsButtons e={e} reload={reload} />
        {e.ticketOrder?.paymentMethodChangeable && (
          <LinkButton variant="secondary" class="guest-btn" href={`/pay/${encodeURIComponent(e.ticketOrder.id)}`}>
            {t('guestPortal.changePaymentMethod')}
          </LinkButton>
        )}
        {!entryPass && (
          <Button variant="secondary" class="guest-btn" busy={a.busy} onClick={() => void a.run(() => post(`/proxy/api/public/events/${e.event.id}/visitor/resendMail`, { visitorId: e.id }), t('guestPortal.toast.mailSent'))}>
            {t('guestPortal.resendMail')}
          </Button>
        )}
        {e.canTransfer && !e.ticketBlocked && (
          <Button variant="secondary" class="guest-btn" onClick={() => setAsk('transfer')}>
            {t('guestPortal.transfer')}
          </Button>
        )}
        {!e.event.hideDeclineButton && e.ticketOrder?.withdrawable !== false && (
          <Button variant="ghost" class="guest-btn guest-withdraw" onClick={() => setAsk('withdraw')}>
            {t('guestPortal.withdraw')}
          </Button>
        )}
        {mayRequest && (
          <Button variant="ghost" class="guest-btn guest-withdraw" onClick={() => setAsk('cancelRequest')}>
            {t('guestPortal.cancelRequest.button')}
          </Button>
        )}
      </div>
      {ask === 'cancelRequest' && (
        <Suspense fallback={null}>
          <CancelRequestDialog
            visitorId={e.id}
            onCancel={() => setAsk(null)}
            onDone={() => {
              setAsk(null)
              void a.run(async () => undefined, t('guestPortal.cancelRequest.sent'))
            }}
          />
        </Suspense>
      )}
      {ask === 'withdraw' && <WithdrawConfirm e={e} action={a} label="guestPortal.withdraw" okText={t('guestPortal.toast.withdrawn')} onClose={() => setAsk(null)} />}
      {ask === 'transfer' && (
        <TransferDialog
          e={e}
          onCancel={() => setAsk(null)}
          onDone={(name) => {
            setAsk(null)
            void a.run(async () => undefined, t('guestPortal.toast.transferred', { name }))
          }}
        />
      )}
      {a.view}
    </div>
  )
}

/** Activate and decline: pending registrations (a place is held) and invitations. */
function Decision({ e, reload }: { e: GuestEntry; reload(): Promise<void> }) {
  const a = useAction(reload)
  const [declining, setDeclining] = useState(false)
  // an invitation is confirmed through the registration form, pre-filled with what the organiser
  // knows, so its required questions and agreements are answered (issue 10, item 5); a pending
  // registration has been through the form already and is confirmed at once
  const viaForm = e.registrationStatus.status === 'INVITED'
  // a paid registration is confirmed by paying its order (the activate call refuses it)
  const toPay = e.ticketOrder?.status === 'OPEN' ? e.ticketOrder.id : null
  return (
    <>
      {toPay ? (
        <LinkButton href={`/pay/${toPay}`} class="guest-btn">
          {t('guestPortal.pay')}
        </LinkButton>
      ) : viaForm ? (
        <LinkButton href={`/public/event/${e.event.id}`} class="guest-btn">
          {t('guestPortal.activate')}
        </LinkButton>
      ) : (
        <Button class="guest-btn" busy={a.busy} onClick={() => void a.run(() => post(`/proxy/api/guest/events/${e.event.id}/activate`, { visitor: e.id }), t('guestPortal.toast.activated'))}>
          {t('guestPortal.activate')}
        </Button>
      )}
      {!e.event.hideDeclineButton && e.ticketOrder?.withdrawable !== false && (
        <Button variant="secondary" class="guest-btn" onClick={() => setDeclining(true)}>
          {t('guestPortal.decline')}
        </Button>
      )}
      {declining && (
        <DeclineDialog
          e={e}
          onCancel={() => setDeclining(false)}
          onDone={async (reason) => {
            await a.run(() => post(`/proxy/api/guest/events/${e.event.id}/reject`, { visitor: e.id, ...(reason.trim() ? { reason: reason.trim() } : {}) }), t('guestPortal.toast.declined'))
            setDeclining(false)
          }}
        />
      )}
      {a.view}
    </>
  )
}

export function PendingOptions({ e, reload }: { e: GuestEntry; reload(): Promise<void> }) {
  return (
    <div class="guest-options">
      <div class="guest-card-actions">
        <Decision e={e} reload={reload} />
        <DetailsButtons e={e} reload={reload} />
        <InvitationDownload e={e} />
        <LinkButton href={`/public/event/${e.event.id}`} variant="ghost" class="guest-btn">
          {t('guest.toEvent')}
        </LinkButton>
      </div>
    </div>
  )
}

/**
 * A registration deleted with its cancelled or refunded ticket order: its state and the reason, no
 * documents, no actions but the order's pay page (which shows the cancellation or refund).
 */
function EndedOrder({ e }: { e: GuestEntry }) {
  return (
    <div class="guest-options">
      {e.ticketBlocked && (
        <p class="guest-ticket-blocked" role="status">
          {t(`guest.ticket.blocked.${e.ticketBlocked}`)}{' '}
          {e.ticketOrder && <a href={`/pay/${encodeURIComponent(e.ticketOrder.id)}`}>{t('guest.ticket.blocked.order')}</a>}
        </p>
      )}
    </div>
  )
}

/** Invited, open and declined registrations. */
export function OtherOptions({ e, reload }: { e: GuestEntry; reload(): Promise<void> }) {
  if (e.registrationStatus.status === 'DELETED') return <EndedOrder e={e} />
  return <OpenOptions e={e} reload={reload} />
}

function OpenOptions({ e, reload }: { e: GuestEntry; reload(): Promise<void> }) {
  const a = useAction(reload)
  const status = e.registrationStatus.status
  const invited = status === 'INVITED'
  // a guest on the waiting list leaves it, a request awaiting approval is withdrawn (both a decline)
  const leave = status === 'WAITING_LIST' ? 'leaveWaitingList' : status === 'REQUIRE_APPROVAL' ? 'withdrawRequest' : null
  const [asking, setAsking] = useState(false)
  return (
    <div class="guest-options">
      <div class="guest-card-actions">
        {invited && <Decision e={e} reload={reload} />}
        {invited && (
          <Button variant="ghost" class="guest-btn" busy={a.busy} onClick={() => void a.run(() => post(`/proxy/api/guest/${e.id}/sendInvitation`, {}), t('guestPortal.toast.mailSent'))}>
            {t('guestPortal.sendInvitation')}
          </Button>
        )}
        <InvitationDownload e={e} />
        <LinkButton href={`/public/event/${e.event.id}`} variant="ghost" class="guest-btn">
          {t('guest.toEvent')}
        </LinkButton>
        {leave && !e.event.hideDeclineButton && e.ticketOrder?.withdrawable !== false && (
          <Button variant="ghost" class="guest-btn guest-withdraw" onClick={() => setAsking(true)}>
            {t(`guestPortal.${leave}`)}
          </Button>
        )}
      </div>
      {asking && leave && (
        <WithdrawConfirm
          e={e}
          action={a}
          label={`guestPortal.${leave}`}
          okText={t(leave === 'leaveWaitingList' ? 'guestPortal.toast.leftWaitingList' : 'guestPortal.toast.requestWithdrawn')}
          onClose={() => setAsking(false)}
        />
      )}
      {a.view}
    </div>
  )
}
