// The check-in desk for staff on a phone or a laptop: a code field that keeps focus (hardware scanners
// type the code and Enter), the camera (BarcodeDetector, else jsQR loaded on demand), name search;
// the guest with escorts and agreements; check in/out one or all; live counts. Missing REQUIRED
// agreements are signed on the spot (desk-sign.tsx), after which a refused check-in is repeated.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Person } from '../../../server/modules/checkin/model'
import { formatTime } from '../../../server/i18n/format'
import { ApiError, errorText, get, post } from '../../api/client'
import { Alert, Badge, Button, Card } from '../../components/ui'
import { t } from '../../i18n'
import { DeskPayment, type DeskPaymentInfo } from './tickets/desk-payment'
import { StatusBadge } from './common'
import { DeskSignDialog, type SignedAgreement } from './desk-sign'
import { DeskListChooser, listParam, refusalText, scanRefusal, useDeskList, withRefusals } from './checkin-desk-list'
import type { EventFull } from './event-model'
import { useCheckinLive, withLiveState } from './use-checkin-live'

interface Registration {
  id: number
  status: string
  vip: boolean
  email: string | null
  company: string | null
  ticketCode: string | null
  canCheckin: boolean
  /** the ticket order: amount due, and why the ticket does not admit (yet) */
  payment?: DeskPaymentInfo | null
  persons: Person[]
  /** seats on the event's seating plan */
  chairs?: Array<{ chairId: number; label: string; amount: number }>
  agreements: Array<{ id: number; displayName: string; appearance: string; status: string }>
  missingAgreements: Array<{ id: number; displayName: string }>
  /**
   * The person a scanned personal QR code names (0 = main guest, n = escort n); null/absent for the
   * short ticket code or a name search. Such a scan admits only that person.
   */
  scannedPerson?: number | null
}
interface Counts {
  registered: number
  checkedIn: number
  checkedOut: number
}

const nameOf = (p: Person) => [p.title, p.firstName, p.lastName].filter(Boolean).join(' ')

/**
 * A distinct sound for a ticket that was already used: two low tones (the page made no sound before;
 * the staff member may not look at the screen while scanning). Silent where audio is not allowed.
 */
function alreadySound() {
  try {
    const Ctx = (window as any).AudioContext ?? (window as any).webkitAudioContext
    if (!Ctx) return
    const ac: AudioContext = new Ctx()
    for (const [i, f] of [330, 220].entries()) {
      const o = ac.createOscillator()
      const g = ac.createGain()
      o.type = 'square'
      o.frequency.value = f
      g.gain.value = 0.08
      o.connect(g).connect(ac.destination)
      o.start(ac.currentTime + i * 0.22)
      o.stop(ac.currentTime + i * 0.22 + 0.18)
    }
    setTimeout(() => void ac.close().catch(() => {}), 800)
  } catch {
    // no audio: the colour and the text still say it
  }
}

/**
 * "Bereits eingecheckt um 14:20 (von …)" for a registration whose persons are (partly) in already. A
 * scanned personal QR code asks only about its person: the others of the booking have codes of their own.
 */
function alreadyText(reg: Registration, tz: string): string | null {
  const scanned = personalScan(reg)
  const inside = reg.persons.filter((p) => p.checkState === 'CHECKED_IN' && (scanned === null || p.person === scanned))
  if (!inside.length) return null
  if (scanned === null && inside.length < reg.persons.length) return t('checkin.alreadySome', { n: inside.length, total: reg.persons.length })
  const first = inside.find((p) => p.person === 0) ?? inside[0]
  const name = scanned !== null && reg.persons.length > 1 ? `${nameOf(first)}: ` : ''
  const time = first.checkinDate ? formatTime(first.checkinDate, tz) : '–'
  if (first.checkinOrigin === 'SELF') return name + t('checkin.alreadySelf', { time })
  return name + (first.checkinBy ? t('checkin.already', { time, by: first.checkinBy }) : t('checkin.alreadyAt', { time }))
}

/** The person a scanned personal QR code names, when that person belongs to the registration. */
function personalScan(reg: Registration): number | null {
  const n = reg.scannedPerson
  return typeof n === 'number' && reg.persons.some((p) => p.person === n) ? n : null
}

/**
 * The desk's badge: what matters at the door rather than the raw status. A registration whose order
 * was refunded or cancelled says so (not "Gelöscht"); one whose ticket is not paid yet is not shown as
 * "Angemeldet" beside the refusal.
 */
function DeskBadge({ reg }: { reg: Registration }) {
  const block = reg.payment?.ticketBlocked
  if (reg.status === 'DELETED' && (block === 'REFUNDED' || block === 'CANCELED')) return <Badge tone="error">{t(`checkin.badge.${block}`)}</Badge>
  if ((block === 'UNPAID' || block === 'PAYMENT_PENDING') && (reg.status === 'CONFIRMED' || reg.status === 'APPEARED')) return <Badge tone="warn">{t('checkin.badge.UNPAID')}</Badge>
  return <StatusBadge status={reg.status} />
}

/**
 * A code rather than a name: the signed QR text (E1-…; 'E1ß' from a hand scanner set to a US layout
 * typing into a German one) or the short ticket code (XXXXX-XXXXX, also without the dash).
 */
const looksLikeCode = (s: string) => /^E1[-ß]/i.test(s.trim()) || (s.replace(/[\s-]/g, '').length === 10 && /^[0-9A-Za-z\s-]+$/.test(s) && /\d/.test(s))
/** whether keys typed while no field has focus belong to the code field (a hand scanner types fast) */
const typesIntoField = (target: EventTarget | null) => !(target instanceof HTMLElement) || !(target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
const nonce = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`)

function CameraScanner({ onCode, onClose }: { onCode(code: string): void; onClose(): void }) {
  const video = useRef<HTMLVideoElement>(null)
  const [err, setErr] = useState<string | null>(null)
  useEffect(() => {
    let stream: MediaStream | null = null
    let stop = false
    let raf = 0
    ;(async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
        if (stop || !video.current) return
        video.current.srcObject = stream
        await video.current.play()
        const Detector = (globalThis as any).BarcodeDetector
        const detector = Detector ? new Detector({ formats: ['qr_code'] }) : null
        const jsqr = detector ? null : (await import('jsqr')).default
        const canvas = document.createElement('canvas')
        const ctx2d = canvas.getContext('2d', { willReadFrequently: true })!
        const scan = async () => {
          if (stop || !video.current) return
          const v = video.current
          let found: string | null = null
          if (v.videoWidth) {
            if (detector) {
              const codes = await detector.detect(v).catch(() => [])
              found = codes[0]?.rawValue ?? null
            } else if (jsqr) {
              canvas.width = v.videoWidth
              canvas.height = v.videoHeight
              ctx2d.drawImage(v, 0, 0)
              const img = ctx2d.getImageData(0, 0, canvas.width, canvas.height)
              found = jsqr(img.data, img.width, img.height)?.data ?? null
            }
          }
          if (found) onCode(found)
          else raf = requestAnimationFrame(() => void scan())
        }
        void scan()
      } catch {
        setErr(t('checkin.cameraError'))
      }
    })()
    return () => {
      stop = true
      cancelAnimationFrame(raf)
      stream?.getTracks().forEach((tr) => tr.stop())
    }
  }, [])
  return (
    <div class="camera">
      {err ? <Alert tone="error">{err}</Alert> : <video ref={video} muted playsInline aria-label={t('checkin.camera')} />}
      <Button variant="secondary" onClick={onClose}>
        {t('common.close')}
      </Button>
    </div>
  )
}

export function CheckinDesk({ event }: { event: EventFull }) {
  const [input, setInput] = useState('')
  const [counts, setCounts] = useState<Counts | null>(null)
  const [results, setResults] = useState<Registration[]>([])
  const [current, setCurrent] = useState<Registration | null>(null)
  const [message, setMessage] = useState<{ tone: 'ok' | 'error' | 'warn' | 'already'; text: string } | null>(null)
  const [missing, setMissing] = useState<{ body: Record<string, unknown>; items: Array<{ id: number; displayName: string }> } | null>(null)
  /** the signing dialog: for a refused check-in (repeated after signing) or opened from the guest card */
  const [signing, setSigning] = useState<{ items: Array<{ id: number; displayName: string }>; retry: Record<string, unknown> | null } | null>(null)
  const [busy, setBusy] = useState(false)
  const [camera, setCamera] = useState(false)
  const field = useRef<HTMLInputElement>(null)
  // A hand scanner types the code as keys and Enter into whatever has focus: after a click on a guest's
  // button the focus is on that button, so printable keys then go to the code field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1 || !typesIntoField(e.target) || document.querySelector('[role="dialog"]')) return
      field.current?.focus()
    }
    document.addEventListener('keydown', onKey, true)
    return () => document.removeEventListener('keydown', onKey, true)
  }, [])
  // the check-in list this desk works on (checkin-desk-list.tsx); none: the event as a whole
  const desk = useDeskList(event.id)
  const loadCounts = () => get<Counts>(`/proxy/api/events/${event.id}/checkin/counts${listParam(desk.listId, true)}`).then(setCounts, () => {})
  useEffect(() => {
    setCounts(null)
    setCurrent(null)
    setResults([])
    setMessage(null)
    void loadCounts()
    const h = setInterval(() => void loadCounts(), 5000)
    return () => clearInterval(h)
  }, [event.id, desk.listId])
  // live counts are the whole event's: on a list the 5-second poll of the list's counts stays in charge
  useCheckinLive(event.id, (c) => { if (!desk.listId) setCounts(c) }, (rec) => setCurrent((c) => (c ? withLiveState(c, rec) : c)))

  const lookup = async (raw: string, asCode = false) => {
    const q = raw.trim()
    if (!q) return
    setMessage(null)
    setMissing(null)
    setBusy(true)
    try {
      const param = asCode || looksLikeCode(q) ? `code=${encodeURIComponent(q)}` : `search=${encodeURIComponent(q)}`
      const r = await get<{ items: Registration[] }>(`/proxy/api/events/${event.id}/checkin/lookup?${param}${listParam(desk.listId)}`)
      setResults(r.items)
      setCurrent(r.items.length === 1 ? r.items[0] : null)
      if (!r.items.length) setMessage({ tone: 'error', text: t('checkin.nothingFound') })
      // a ticket scanned again: prominent, in its own colour, with a sound
      const already = r.items.length === 1 ? alreadyText(r.items[0], event.timezone) : null
      if (already) {
        setMessage({ tone: 'already', text: already })
        alreadySound()
      }
      // a ticket this list does not admit: the reason at once
      const refused = r.items.length === 1 ? scanRefusal(r.items[0].persons, personalScan(r.items[0])) : null
      if (refused) setMessage({ tone: 'error', text: refused })
      setInput('')
    } catch (e) {
      setResults([])
      setCurrent(null)
      setMessage({ tone: 'error', text: errorText(e) })
    } finally {
      setBusy(false)
      field.current?.focus()
    }
  }

  const send = async (body: Record<string, unknown>) => {
    if (!current) return
    setBusy(true)
    setMissing(null)
    try {
      const r = await post<{ persons: Person[]; status: string; checkedIn: number[]; checkedOut: number[] }>(`/proxy/api/events/${event.id}/checkin`, { visitorId: current.id, nonce: nonce(), ...(desk.listId ? { listId: desk.listId } : {}), ...body })
      setCurrent((c) => (c && c.id === current.id ? { ...c, persons: withRefusals(c.persons, r.persons), status: r.status } : c))
      setMessage({
        tone: 'ok',
        text: r.checkedIn.length ? t('checkin.checkedIn', { n: r.checkedIn.length }) : t('checkin.checkedOut', { n: r.checkedOut.length }),
      })
      void loadCounts()
    } catch (e) {
      if (e instanceof ApiError && e.errorType === 'AGREEMENTS_MISSING') {
        const items = (e.body.missingAgreements as Array<{ id: number; displayName: string }>) ?? []
        setMissing({ body, items })
        setMessage({ tone: 'warn', text: errorText(e) })
      } else setMessage({ tone: 'error', text: errorText(e) })
    } finally {
      setBusy(false)
      field.current?.focus()
    }
  }

  /** the registration read again (after the desk recorded its payment) */
  const refresh = async (reg: Registration) => {
    const r = await get<{ items: Registration[] }>(`/proxy/api/events/${event.id}/checkin/lookup?code=${encodeURIComponent(reg.ticketCode ?? '')}${listParam(desk.listId)}`).catch(() => null)
    const next = r?.items.find((x) => x.id === reg.id)
    if (next) {
      setCurrent((c) => (c && c.id === next.id ? next : c))
      setResults((rs) => rs.map((x) => (x.id === next.id ? next : x)))
    }
    setMessage(null)
    field.current?.focus()
  }

  const signed = (list: SignedAgreement[]) => {
    const retry = signing?.retry ?? null
    setSigning(null)
    if (!current) return
    const agreements = list.map((a) => ({ id: a.id, displayName: a.displayName, appearance: a.appearance, status: a.status ?? 'OPEN' }))
    const next = { ...current, agreements, missingAgreements: agreements.filter((a) => a.appearance === 'REQUIRED' && a.status !== 'CONFIRMED') }
    setCurrent(next)
    setResults((rs) => rs.map((r) => (r.id === next.id ? next : r)))
    if (retry) void send(retry)
    else {
      setMissing(null)
      setMessage({ tone: 'ok', text: t('checkin.signed') })
      field.current?.focus()
    }
  }

  const openMissing = current?.agreements.filter((a) => a.appearance === 'REQUIRED' && a.status !== 'CONFIRMED') ?? []
  const anyOpen = current?.persons.some((p) => p.checkState !== 'CHECKED_IN')
  const anyIn = current?.persons.some((p) => p.checkState === 'CHECKED_IN')
  // a scanned personal QR code admits its person only; the others of the booking are shown apart and
  // checked in only when the desk person taps them (they have codes of their own)
  const scanned = current ? personalScan(current) : null
  const others = current && scanned !== null ? current.persons.filter((p) => p.person !== scanned) : []
  // the guest withdrew: their order was cancelled with it, but the reason at the door is the withdrawal
  const withdrawn = current?.status === 'VISITOR_DECLINED'
  const personRow = (p: Person, highlight: boolean, secondary = false) =>
    current && (
      <li key={p.person} class={`desk-person state-${p.checkState}${highlight ? ' desk-person-scanned' : ''}`}>
        <span>
          <strong>{nameOf(p)}</strong> {p.person > 0 && <span class="muted">({t('checkin.escort')})</span>}
          <br />
          <span class="muted">
            {p.checkState === 'CHECKED_IN' && p.checkinDate
              ? p.checkinBy
                ? t('checkin.inSinceBy', { time: formatTime(p.checkinDate, event.timezone), by: p.checkinBy })
                : t('checkin.inSince', { time: formatTime(p.checkinDate, event.timezone) })
              : t(`status.checkin.${p.checkState}`)}
          </span>
          {p.listRefusal && p.checkState !== 'CHECKED_IN' && <span class="desk-person-refusal">{refusalText(p)}</span>}
        </span>
        {p.checkState === 'CHECKED_IN' ? (
          <Button variant="secondary" busy={busy} onClick={() => void send({ checkoutGuests: [p.person] })} aria-label={t('checkin.checkOutPerson', { name: nameOf(p) })}>
            {t('checkin.checkOut')}
          </Button>
        ) : (
          <Button variant={secondary ? 'secondary' : undefined} busy={busy} disabled={!current.canCheckin || !!p.listRefusal} onClick={() => void send({ checkinGuests: [p.person] })} aria-label={t('checkin.checkInPerson', { name: nameOf(p) })}>
            {t('checkin.checkIn')}
          </Button>
        )}
      </li>
    )
  return (
    <div class="desk">
      <DeskListChooser lists={desk.lists} listId={desk.listId} onChange={desk.choose} />
      <div class="desk-counts" aria-live="polite">
        <div>
          <span class="desk-count">{counts?.registered ?? '–'}</span>
          <span>{t('checkin.registered')}</span>
        </div>
        <div class="desk-in">
          <span class="desk-count">{counts?.checkedIn ?? '–'}</span>
          <span>{t('checkin.in')}</span>
        </div>
        <div>
          <span class="desk-count">{counts?.checkedOut ?? '–'}</span>
          <span>{t('checkin.out')}</span>
        </div>
      </div>
      <Card>
        <form
          class="desk-form"
          onSubmit={(e) => {
            e.preventDefault()
            void lookup(input)
          }}
        >
          <label for="desk-code" class="sr-only">
            {t('checkin.codeLabel')}
          </label>
          <input
            id="desk-code"
            ref={field}
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            placeholder={t('checkin.codeLabel')}
            value={input}
            onInput={(e) => setInput((e.target as HTMLInputElement).value)}
          />
          <Button type="submit" busy={busy}>
            {t('checkin.find')}
          </Button>
          <Button variant="secondary" onClick={() => setCamera(!camera)}>
            {t('checkin.camera')}
          </Button>
        </form>
        {camera && (
          <CameraScanner
            onCode={(code) => {
              setCamera(false)
              void lookup(code, true)
            }}
            onClose={() => setCamera(false)}
          />
        )}
      </Card>
      {message && (
        <div class={`desk-message desk-${message.tone}`} role={message.tone === 'error' || message.tone === 'already' ? 'alert' : 'status'}>
          {message.text}
          {missing && (
            <>
              <ul>
                {missing.items.map((m) => (
                  <li key={m.id}>{m.displayName}</li>
                ))}
              </ul>
              <div class="button-row">
                <Button busy={busy} onClick={() => setSigning({ items: missing.items, retry: missing.body })}>
                  {t('checkin.sign')}
                </Button>
                <Button variant="secondary" busy={busy} onClick={() => void send({ ...missing.body, ignoreMissingAgreements: true })}>
                  {t('checkin.ignoreAgreements')}
                </Button>
              </div>
            </>
          )}
        </div>
      )}
      {!current && results.length > 1 && (
        <Card>
          <ul class="desk-results">
            {results.map((r) => (
              <li key={r.id}>
                <button type="button" class="link-btn" onClick={() => (setCurrent(r), setMessage(null))}>
                  {nameOf(r.persons[0])}
                </button>{' '}
                <DeskBadge reg={r} /> <span class="muted">{r.email}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {current && (
        <Card class="desk-guest">
          <div class="desk-guest-head">
            <h2>
              {nameOf(current.persons[0])} {current.vip && <Badge tone="warn">VIP</Badge>}
            </h2>
            <DeskBadge reg={current} />
          </div>
          <p class="muted">
            {[current.company, current.email, current.ticketCode].filter(Boolean).join(' · ')}
          </p>
          {!!current.chairs?.length && (
            <p class="desk-seat">
              <strong>{t('seating.deskSeat', { labels: current.chairs.map((c) => (c.amount > 1 ? `${c.label} (${c.amount})` : c.label)).join(', ') })}</strong>
            </p>
          )}
          {withdrawn ? (
            <Alert tone="error">{t('checkin.withdrawn')}</Alert>
          ) : (
            !current.canCheckin && !current.payment?.ticketBlocked && <Alert tone="error">{t('checkin.notAllowed')}</Alert>
          )}
          {!withdrawn && <DeskPayment eventId={event.id} payment={current.payment} onPaid={() => refresh(current)} />}
          <ul class="desk-persons">{(scanned === null ? current.persons : current.persons.filter((p) => p.person === scanned)).map((p) => personRow(p, scanned !== null))}</ul>
          {scanned !== null && others.length > 0 && (
            <>
              <p class="desk-others muted">{t('checkin.othersOfBooking')}</p>
              <ul class="desk-persons desk-persons-others">{others.map((p) => personRow(p, false, true))}</ul>
            </>
          )}
          <div class="button-row">
            {current.persons.length > 1 && anyOpen && scanned === null && (
              <Button busy={busy} disabled={!current.canCheckin} onClick={() => void send({ checkinGuests: 'ALL' })}>
                {t('checkin.checkInAll')}
              </Button>
            )}
            {current.persons.length > 1 && anyIn && (
              <Button variant="secondary" busy={busy} onClick={() => void send({ checkoutGuests: 'ALL' })}>
                {t('checkin.checkOutAll')}
              </Button>
            )}
          </div>
          {current.agreements.length > 0 && (
            <div class="desk-agreements">
              <h3>{t('events.tab.agreements')}</h3>
              <ul class="plain-list">
                {current.agreements.map((a) => (
                  <li key={a.id}>
                    {a.displayName}: <Badge tone={a.status === 'CONFIRMED' ? 'ok' : a.appearance === 'REQUIRED' ? 'error' : 'neutral'}>{t(`status.agreement.${a.status}`)}</Badge>
                    {a.appearance === 'REQUIRED' && <span class="muted"> ({t('agreements.required')})</span>}
                  </li>
                ))}
              </ul>
              {openMissing.length > 0 && !missing && (
                <div class="desk-sign-hint">
                  <span>{t('checkin.missingHint')} {openMissing.map((a) => a.displayName).join(', ')}</span>
                  <Button variant="secondary" busy={busy} onClick={() => setSigning({ items: openMissing, retry: null })}>
                    {t('checkin.sign')}
                  </Button>
                </div>
              )}
            </div>
          )}
        </Card>
      )}
      {signing && current && (
        <DeskSignDialog
          eventId={event.id}
          visitorId={current.id}
          guestName={nameOf(current.persons[0])}
          agreements={signing.items}
          andCheckIn={signing.retry !== null}
          onCancel={() => setSigning(null)}
          onSigned={signed}
        />
      )}
    </div>
  )
}
