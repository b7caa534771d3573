// The live stream of an event's check-ins (docs/checkin-offline.md "Live"): server-sent events. One
// poller per event and process reads the change feed (changes.ts) every POLL_MS and sends the changed
// registrations' records and the counts to every desk of the event connected to this process. The
// feed is written by triggers in the database, so check-ins made on any process (Postgres) arrive
// within POLL_MS plus the read.
import type { AppContext } from '../../context'
import type { EventRow } from '../events/events.table'
import { changedSince, currentCursor, parseCursor } from './changes'
import { deskAgreements, recordsOf } from './offline-state'
import { checkinCounts } from './service'

export const POLL_MS = 400
const KEEPALIVE_MS = 15_000

interface Subscriber {
  send(chunk: string): void
}
interface Feed {
  subscribers: Set<Subscriber>
  cursor: number
  timer: ReturnType<typeof setTimeout> | null
  busy: boolean
}
const feeds = new WeakMap<AppContext, Map<number, Feed>>()
/** every open stream's end, for the shutdown: Bun's server.stop waits for running responses */
const open = new Set<() => void>()
let closed = false

/** Ends every live stream of this process (main.ts, before the server stops accepting). */
export function closeLiveStreams() {
  closed = true
  for (const end of [...open]) end()
}
const enc = new TextEncoder()
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

function feedsOf(ctx: AppContext) {
  let m = feeds.get(ctx)
  if (!m) feeds.set(ctx, (m = new Map()))
  return m
}

async function poll(ctx: AppContext, event: EventRow, feed: Feed) {
  if (feed.busy) return
  feed.busy = true
  try {
    const c = await changedSince(ctx.db, event.id, feed.cursor)
    feed.cursor = parseCursor(c.cursor) ?? feed.cursor
    if (c.visitorIds.length) {
      const required = (await deskAgreements(ctx.db, event)).map((a) => a.id)
      const changes = await recordsOf(ctx, event, c.visitorIds.slice(0, 2000), required)
      const data = frame('change', { changes, counts: await checkinCounts(ctx.db, event.id), cursor: c.cursor })
      for (const s of feed.subscribers) s.send(data)
    }
  } catch (e) {
    ctx.log.warn('live check-in feed read failed', { eventId: event.id, error: String(e) })
  } finally {
    feed.busy = false
  }
}

function schedule(ctx: AppContext, event: EventRow, feed: Feed) {
  feed.timer = setTimeout(async () => {
    await poll(ctx, event, feed)
    if (feed.subscribers.size && !closed) schedule(ctx, event, feed)
    else feed.timer = null
  }, POLL_MS)
}

/** The SSE response for one desk: `hello` with the counts and cursor, then `change` events. */
export async function liveResponse(ctx: AppContext, event: EventRow, request: Request): Promise<Response> {
  const all = feedsOf(ctx)
  let feed = all.get(event.id)
  if (!feed) {
    feed = { subscribers: new Set(), cursor: Number(await currentCursor(ctx.db)), timer: null, busy: false }
    all.set(event.id, feed)
  }
  const f = feed
  const hello = frame('hello', { counts: await checkinCounts(ctx.db, event.id), cursor: String(f.cursor), pollMs: POLL_MS })
  let sub: Subscriber | null = null
  let keepalive: ReturnType<typeof setInterval> | null = null
  let end: (() => void) | null = null
  const stop = () => {
    if (end) open.delete(end)
    if (sub) f.subscribers.delete(sub)
    sub = null
    if (keepalive) clearInterval(keepalive)
    keepalive = null
    if (!f.subscribers.size && all.get(event.id) === f && !f.timer) all.delete(event.id)
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      sub = {
        send(chunk) {
          try {
            controller.enqueue(enc.encode(chunk))
          } catch {
            stop()
          }
        },
      }
      f.subscribers.add(sub)
      controller.enqueue(enc.encode(`retry: 2000\n${hello}`))
      keepalive = setInterval(() => sub?.send(': keepalive\n\n'), KEEPALIVE_MS)
      if (!f.timer) schedule(ctx, event, f)
      request.signal?.addEventListener('abort', stop)
      end = () => {
        stop()
        try {
          controller.close()
        } catch {
          // already closed by the client
        }
      }
      open.add(end)
    },
    cancel: stop,
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } })
}
