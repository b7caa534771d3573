// The client's address for rate limits, sessions and the new-device mail. The connection's address
// is the client unless it is a trusted reverse proxy (server.trusted_proxies): then the client is
// the right-most X-Forwarded-For entry that is not itself a trusted proxy. Entries further left were
// written by whoever sent the request and may be made up; a peer that is not trusted may send any
// header, so its header is ignored.
import { BlockList, isIP } from 'node:net'

/** An address or CIDR range (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`), or null when it is neither. */
export function parseProxyEntry(entry: string): { address: string; prefix: number; type: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, ...rest] = entry.trim().split('/')
  const version = isIP(address)
  if (!version || rest.length) return null
  const max = version === 4 ? 32 : 128
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null
  const prefix = prefixText === undefined ? max : Number(prefixText)
  if (prefix > max) return null
  return { address, prefix, type: version === 4 ? 'ipv4' : 'ipv6' }
}

const lists = new WeakMap<readonly string[], BlockList>()
function trustedList(entries: readonly string[]): BlockList {
  let list = lists.get(entries)
  if (!list) {
    list = new BlockList()
    for (const e of entries) {
      const p = parseProxyEntry(e)
      // the configuration is validated at start (config.ts); a bad entry here trusts nothing more
      if (p) list.addSubnet(p.address, p.prefix, p.type)
    }
    lists.set(entries, list)
  }
  return list
}

/** Whether an address is one of the trusted proxies (an IPv4 range also covers its ::ffff: form). */
export function isTrustedProxy(address: string, trusted: readonly string[]): boolean {
  if (!trusted.length) return false
  const version = isIP(address)
  return version !== 0 && trustedList(trusted).check(address, version === 4 ? 'ipv4' : 'ipv6')
}

type PeerSource = { requestIP(r: Request): { address: string } | null } | null | undefined

/**
 * The connection's address of each request, taken from the request Bun handed to `fetch` BEFORE
 * anything replaced it: the `/api/…` alias and the byte counter of chunked bodies build new Request
 * objects, for which Bun's `requestIP` knows no connection (it answered null, and the header was then
 * believed as if a trusted proxy had sent it: a rate-limit bypass for every client).
 */
const peers = new WeakMap<Request, { address: string | null }>()

/** Remembers the connection's address of `original` for the request the app will see. */
export function rememberPeer(original: Request, server: PeerSource, seen: Request): void {
  if (!server) return
  const known = peers.get(original)
  peers.set(seen, known ?? { address: server.requestIP(original)?.address ?? null })
}

/**
 * The address of the connection a request came through (also for requests the alias or the body
 * counter rebuilt), null when the connection has none, undefined for in-process requests.
 */
export function connectionPeer(request: Request, server: PeerSource): string | null | undefined {
  const remembered = peers.get(request)
  if (remembered) return remembered.address
  if (!server) return undefined
  return server.requestIP(request)?.address ?? null
}

/**
 * The client's address. `server` is Bun's server (absent for in-process requests, as in tests: there
 * is no connection, so the header is read as if a trusted proxy had sent it). A request that came
 * through a connection without an address (a Unix socket) is 'unknown', its header not believed.
 */
export function clientIp(request: Request, server: PeerSource, trusted: readonly string[]): string {
  const remembered = peers.get(request)
  const peer = remembered ? remembered.address : (server?.requestIP(request)?.address ?? null)
  if (remembered && peer === null) return 'unknown'
  if (peer !== null && !isTrustedProxy(peer, trusted)) return peer
  const chain = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (!chain.length) return peer ?? 'unknown'
  // from the right: each trusted proxy names the address it got the request from
  for (let i = chain.length - 1; i >= 0; i--) if (!isTrustedProxy(chain[i], trusted)) return chain[i]
  // every entry is a trusted proxy: the left-most is as far as the chain goes
  return chain[0]
}

