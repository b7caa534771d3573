// Timeslot reservations in the browser (guest-side.md 4): unselected → pending → selected with a
// token and an expiry; single choice releases the previous pick first; an mm:ss countdown to the
// latest expiry ticks each second; at expiry every timed pick is cleared, the server is told to drop
// them, and REGISTRATION_VALID_UNTIL_EXPIRED is shown. Availability is polled every 30 s.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import type { FieldDef, SlotSelection } from '../../../server/modules/forms/definitions'
import { ApiError, api, post } from '../../api/client'
import { t } from '../../i18n'
import { toast } from '../overlay'

export interface SlotState {
  status: 'pending' | 'selected'
  token?: string
  expireDate?: string
}

export const AVAILABILITY_POLL_MS = 30_000

/** A fresh id for this visit of the form: its reservations and uploads carry it. */
export function newIdentification(): string {
  const c = globalThis.crypto
  return c?.randomUUID ? c.randomUUID() : `v${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`
}

export function formatCountdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000))
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/** A chair hold of this visit (seating plan): one countdown with the timeslots. */
export interface ChairHold {
  token: string
  amount: number
  expireDate: string
}

export interface Reservations {
  /** chair holds per chair id (the seat picker's) */
  chairs: Record<number, ChairHold>
  /** the seat picker tells of a new hold (null: given back); every hold of the visit now expires with the newest */
  setChair(chairId: number, hold: ChairHold | null): void
  /** per timeslot id */
  slots: Record<number, SlotState>
  /** free places per timeslot id from the last availability poll (negative = unlimited) */
  free: Record<number, number>
  /** ms left until the latest expiry, or null without timed reservations */
  remaining: number | null
  expired: boolean
  dismissExpired(): void
  /** picks or drops a slot; resolves to the field's new selection */
  toggle(field: FieldDef, slotId: number, current: SlotSelection[], amount?: number): Promise<SlotSelection[]>
  renew(): Promise<void>
}

export function useReservations(opts: {
  eventId: number
  identification: string
  /** admin mode and preview: selections without reservations */
  reserve: boolean
  hasTimeslots: boolean
  /** a guest changing their registration (the server keeps their old slots until the change is saved) */
  registrationChange?: boolean
  /** called when picks are cleared at expiry (field id → selections to drop) */
  onExpire(): void
}): Reservations {
  const [slots, setSlots] = useState<Record<number, SlotState>>({})
  const [chairs, setChairs] = useState<Record<number, ChairHold>>({})
  const chairsRef = useRef(chairs)
  chairsRef.current = chairs
  const [free, setFree] = useState<Record<number, number>>({})
  const [now, setNow] = useState(() => Date.now())
  const [expired, setExpired] = useState(false)
  const slotsRef = useRef(slots)
  slotsRef.current = slots
  const onExpire = useRef(opts.onExpire)
  onExpire.current = opts.onExpire

  const latest = [...Object.values(slots), ...Object.values(chairs)].reduce<number | null>((m, s) => (s.expireDate ? Math.max(m ?? 0, new Date(s.expireDate).getTime()) : m), null)
  // one countdown: the server moves every hold of the visit to the newest expiry (reservations/service.ts alignVisitHolds)
  const align = (expireDate: string) => {
    setSlots((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.expireDate ? { ...v, expireDate } : v])))
    setChairs((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, { ...v, expireDate }])))
  }
  // Date.now() as well: `now` only moves with the tick, a fresh reservation must not show extra seconds
  const remaining = latest === null ? null : Math.max(0, latest - Math.max(now, Date.now()))

  // countdown tick, once per second while a timed reservation exists
  useEffect(() => {
    if (latest === null) return
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [latest])

  const poll = useCallback(async () => {
    try {
      const map = await post<Record<string, number>>('/proxy/api/public/reservation/availabilities', { eventId: opts.eventId })
      const next: Record<number, number> = {}
      for (const [k, v] of Object.entries(map)) next[Number(k)] = v
      setFree(next)
    } catch {
      /* the next poll tries again */
    }
  }, [opts.eventId])

  // expiry: clear timed picks, release them on the server, tell the guest
  useEffect(() => {
    if (latest === null || now < latest) return
    const hadChairs = Object.keys(chairsRef.current).length > 0
    setSlots({})
    setChairs({})
    setExpired(true)
    onExpire.current()
    void api('DELETE', '/proxy/api/public/reservation/timeslot', { deleteAllTimed: true, identification: opts.identification })
      .catch(() => undefined)
      .then(poll)
    if (hadChairs) void api('DELETE', `/proxy/api/public/events/${opts.eventId}/seatingplan/reservation/chair`, { deleteAll: true, identification: opts.identification }).catch(() => undefined)
  }, [now, latest])

  // Leaving the page (closing the tab, navigating away, going back) releases the timed holds: a
  // beacon still reaches the server while the page goes (sendBeacon can only POST, hence the
  // server's POST alias of the DELETE). Leaving the form inside the app releases them as well. A
  // page restored from the back/forward cache starts without picks.
  useEffect(() => {
    if (!opts.reserve || !opts.hasTimeslots) return
    const body = () => JSON.stringify({ deleteAllTimed: true, identification: opts.identification })
    const held = () => Object.values(slotsRef.current).some((s) => s.token)
    const onHide = () => {
      if (!held()) return
      const sent = navigator.sendBeacon?.('/proxy/api/public/reservation/timeslot/release', new Blob([body()], { type: 'application/json' }))
      if (!sent) void fetch('/proxy/api/public/reservation/timeslot/release', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(), keepalive: true }).catch(() => undefined)
    }
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return
      setSlots({})
      onExpire.current()
      void poll()
    }
    window.addEventListener('pagehide', onHide)
    window.addEventListener('pageshow', onShow)
    return () => {
      window.removeEventListener('pagehide', onHide)
      window.removeEventListener('pageshow', onShow)
      if (held()) void api('DELETE', '/proxy/api/public/reservation/timeslot', { deleteAllTimed: true, identification: opts.identification }).catch(() => undefined)
    }
  }, [opts.reserve, opts.hasTimeslots, opts.identification])

  useEffect(() => {
    if (!opts.reserve || !opts.hasTimeslots) return
    void poll()
    const id = setInterval(poll, AVAILABILITY_POLL_MS)
    return () => clearInterval(id)
  }, [opts.reserve, opts.hasTimeslots, poll])

  const release = async (slotId: number) => {
    const s = slotsRef.current[slotId]
    setSlots((m) => {
      const { [slotId]: _, ...rest } = m
      return rest
    })
    if (!s?.token) return
    try {
      await api('DELETE', '/proxy/api/public/reservation/timeslot', { reservationToken: s.token })
      void poll()
    } catch {
      toast(t('errors.UNABLE_TO_REVOKE_RESERVATION'), 'error', 5000)
    }
  }

  const toggle = async (field: FieldDef, slotId: number, current: SlotSelection[], amount = 1): Promise<SlotSelection[]> => {
    const chosen = current.some((c) => c.timeslotId === slotId)
    if (!opts.reserve) {
      if (chosen) return current.filter((c) => c.timeslotId !== slotId)
      return field.multiple ? [...current, { timeslotId: slotId, amount }] : [{ timeslotId: slotId, amount }]
    }
    if (chosen) {
      await release(slotId)
      return current.filter((c) => c.timeslotId !== slotId)
    }
    // Single choice: the previous pick is released before the new one is asked for.
    let kept = current
    if (!field.multiple && current.length) {
      for (const c of current) await release(c.timeslotId)
      kept = []
    }
    setSlots((m) => ({ ...m, [slotId]: { status: 'pending' } }))
    try {
      const r = await post<{ succeeded: boolean; reservationToken: string; expireDate: string; freeSlots: number }>('/proxy/api/public/reservation/timeslot', {
        timeslotId: slotId,
        identification: opts.identification,
        amount,
        registrationChange: opts.registrationChange ?? false,
      })
      align(r.expireDate)
      setSlots((m) => ({ ...m, [slotId]: { status: 'selected', token: r.reservationToken, expireDate: r.expireDate } }))
      setFree((f) => ({ ...f, [slotId]: r.freeSlots }))
      setExpired(false)
      return [...kept, { timeslotId: slotId, amount, reservationToken: r.reservationToken }]
    } catch (e) {
      setSlots((m) => {
        const { [slotId]: _, ...rest } = m
        return rest
      })
      const freeSlots = e instanceof ApiError ? (e.body.freeSlots as number | undefined) : undefined
      if (typeof freeSlots === 'number') setFree((f) => ({ ...f, [slotId]: freeSlots }))
      toast(t(freeSlots === 0 ? 'errors.TIMESLOT_NOT_AVAILABLE' : 'errors.TIMESLOT_NOT_RESERVED'), 'error', 5000)
      return kept
    }
  }

  const renew = async () => {
    try {
      const r = await post<{ expireDate: string }>('/proxy/api/public/reservation/timeslot/renew', { identification: opts.identification })
      align(r.expireDate)
    } catch {
      setNow(Number.MAX_SAFE_INTEGER)
    }
  }

  const setChair = (chairId: number, hold: ChairHold | null) => {
    if (hold) {
      align(hold.expireDate)
      setExpired(false)
    }
    setChairs((m) => {
      const { [chairId]: _, ...rest } = m
      return hold ? { ...rest, [chairId]: hold } : rest
    })
  }

  return { chairs, setChair, slots, free, remaining, expired, dismissExpired: () => setExpired(false), toggle, renew }
}
