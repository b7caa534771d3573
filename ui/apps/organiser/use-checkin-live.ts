// The desk's live feed (docs/checkin-offline.md "Live"): the event's server-sent events, read with
// fetch (EventSource cannot send the account header), reconnecting after a drop. Each message brings
// the counts and the changed registrations' records; the desk updates its counts and the shown guest.
import { useEffect, useRef } from 'preact/hooks'
import type { Person } from '../../../server/modules/checkin/model'
import { session } from '../../api/client'

export interface LiveCounts {
  registered: number
  checkedIn: number
  checkedOut: number
}
/** a registration record (offline-state.ts): v id, p persons [number, first, last, state, in, out] */
export interface LiveRecord {
  v: number
  removed?: true
  p?: Array<[number, string | null, string | null, 0 | 1 | 2, string | null, string | null]>
}

const STATES = ['OPEN', 'CHECKED_IN', 'CHECKED_OUT'] as const

/** The persons with the states of a live record (unchanged when the record does not name them). */
export function withLiveState<R extends { id: number; persons: Person[] }>(reg: R, rec: LiveRecord): R {
  if (rec.v !== reg.id || !rec.p) return reg
  const by = new Map(rec.p.map((p) => [p[0], p]))
  return { ...reg, persons: reg.persons.map((p) => { const r = by.get(p.person); return r ? { ...p, checkState: STATES[r[3]], checkinDate: r[4], checkoutDate: r[5] } : p }) }
}

export function useCheckinLive(eventId: number, onCounts: (c: LiveCounts) => void, onRecord: (r: LiveRecord) => void) {
  const handlers = useRef({ onCounts, onRecord })
  handlers.current = { onCounts, onRecord }
  useEffect(() => {
    const ctrl = new AbortController()
    let retry: ReturnType<typeof setTimeout> | null = null
    const connect = async () => {
      try {
        const headers: Record<string, string> = { accept: 'text/event-stream' }
        if (session.accountId) headers['x-account-id'] = session.accountId
        const res = await fetch(`/proxy/api/events/${eventId}/checkin/live`, { headers, credentials: 'same-origin', signal: ctrl.signal })
        if (!res.ok || !res.body) throw new Error(String(res.status))
        const reader = res.body.getReader()
        const dec = new TextDecoder()
        let buf = ''
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          buf += dec.decode(value, { stream: true })
          let i: number
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i)
            buf = buf.slice(i + 2)
            const data = /^data: (.*)$/m.exec(block)?.[1]
            if (!data) continue
            const msg = JSON.parse(data) as { counts?: LiveCounts; changes?: LiveRecord[] }
            if (msg.counts) handlers.current.onCounts(msg.counts)
            for (const r of msg.changes ?? []) handlers.current.onRecord(r)
          }
        }
      } catch {
        // dropped or refused: the desk's 5-second poll still runs; try again shortly
      }
      if (!ctrl.signal.aborted) retry = setTimeout(() => void connect(), 3000)
    }
    void connect()
    return () => {
      ctrl.abort()
      if (retry) clearTimeout(retry)
    }
  }, [eventId])
}
