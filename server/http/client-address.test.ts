// The client address behind reverse proxies: X-Forwarded-For is believed only from a trusted proxy,
// read from the right; from anyone else it is ignored (it would let a client pick its rate limit key).
import { afterAll, describe, expect, test } from 'bun:test'
import { patientTests } from '../testing/harness'
import { type ServerProcess, startServerProcess } from '../testing/process'
import { RATE_LIMITS } from '../modules/identity/rate-limit'
import { clientIp, isTrustedProxy, parseProxyEntry } from './client-address'

patientTests()

const from = (peer: string | null) => ({ requestIP: () => (peer === null ? null : { address: peer }) })
const req = (xff?: string) => new Request('http://x/', { headers: xff ? { 'x-forwarded-for': xff } : {} })

describe('clientIp', () => {
  test('a peer that is not trusted is the client, whatever header it sends', () => {
    expect(clientIp(req('1.2.3.4'), from('203.0.113.5'), [])).toBe('203.0.113.5')
    expect(clientIp(req('1.2.3.4'), from('203.0.113.5'), ['10.0.0.0/8'])).toBe('203.0.113.5')
  })

  test('behind a trusted proxy: the right-most entry that is not a trusted proxy', () => {
    const trusted = ['10.0.0.0/8', '192.0.2.1']
    expect(clientIp(req('198.51.100.7'), from('10.1.2.3'), trusted)).toBe('198.51.100.7')
    // the left entry was sent by the client and is not believed
    expect(clientIp(req('6.6.6.6, 198.51.100.7'), from('10.1.2.3'), trusted)).toBe('198.51.100.7')
    // two proxies: the second one's entry names the first proxy, which is trusted too
    expect(clientIp(req('6.6.6.6, 198.51.100.7, 192.0.2.1'), from('10.1.2.3'), trusted)).toBe('198.51.100.7')
    // no header: the proxy itself
    expect(clientIp(req(), from('10.1.2.3'), trusted)).toBe('10.1.2.3')
    // only proxies in the chain: the left-most
    expect(clientIp(req('192.0.2.1, 10.9.9.9'), from('10.1.2.3'), trusted)).toBe('192.0.2.1')
  })

  test('an IPv4 range covers the IPv4-mapped IPv6 form of a peer', () => {
    expect(clientIp(req('198.51.100.7'), from('::ffff:10.1.2.3'), ['10.0.0.0/8'])).toBe('198.51.100.7')
    expect(isTrustedProxy('::1', ['::1'])).toBe(true)
    expect(isTrustedProxy('fd00::5', ['fd00::/8'])).toBe(true)
    expect(isTrustedProxy('fe80::5', ['fd00::/8'])).toBe(false)
  })

  test('in-process requests (no connection) read the header from the right', () => {
    expect(clientIp(req('6.6.6.6, 198.51.100.7'), null, [])).toBe('198.51.100.7')
    expect(clientIp(req(), from(null), [])).toBe('unknown')
  })

  test('entries: addresses and CIDR ranges, nothing else', () => {
    expect(parseProxyEntry('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, type: 'ipv4' })
    expect(parseProxyEntry('::1')).toEqual({ address: '::1', prefix: 128, type: 'ipv6' })
    for (const bad of ['10.0.0.0/33', 'fd00::/129', 'proxy.example.org', '10.0.0/8', '10.0.0.1/8/8', '10.0.0.1/', '']) expect(parseProxyEntry(bad)).toBeNull()
  })
})

describe('rate limits and request ids of a real server process behind a proxy', () => {
  const servers: ServerProcess[] = []
  afterAll(async () => {
    for (const s of servers) await s.stop()
  })
  let n = 0
  /** an access-link request for an unknown address: counts against ACCESS_LINK_ADDRESS of the client */
  const probe = (s: ServerProcess, xff: string) =>
    fetch(`${s.url}/proxy/api/public/visitor/resendMail`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': xff }, body: JSON.stringify({ email: `probe${++n}@example.org` }) }).then((r) => r.status)
  const max = RATE_LIMITS.ACCESS_LINK_ADDRESS.max

  test('not trusted (the default): a spoofed X-Forwarded-For does not escape the limit of the connection', async () => {
    const s = await startServerProcess()
    servers.push(s)
    const statuses: number[] = []
    for (let i = 0; i <= max; i++) statuses.push(await probe(s, `198.51.100.${i}`))
    expect(statuses.slice(0, max).every((x) => x === 404)).toBe(true)
    expect(statuses[max]).toBe(429)
    // nor does a client plant its own request id in the log: one is made for it
    const planted = await fetch(`${s.url}/health`, { headers: { 'x-request-id': 'planted-by-client' } })
    expect(planted.headers.get('x-request-id')).not.toBe('planted-by-client')
  })

  test('trusted: each client has its own limit, and the entries a client adds on the left are not believed', async () => {
    const s = await startServerProcess({ env: { EINLASS_TRUSTED_PROXIES: '127.0.0.1, ::1' } })
    servers.push(s)
    // different clients behind the proxy: nobody is limited
    for (let i = 0; i <= max; i++) expect(await probe(s, `198.51.100.${i}`)).toBe(404)
    // the proxy's request id is kept, so one id follows a request through both logs
    const fromProxy = await fetch(`${s.url}/health`, { headers: { 'x-request-id': 'nginx-4f2a9c' } })
    expect(fromProxy.headers.get('x-request-id')).toBe('nginx-4f2a9c')
    // one client making up a new left entry each time: still one client
    const statuses: number[] = []
    for (let i = 0; i <= max; i++) statuses.push(await probe(s, `6.6.6.${i}, 203.0.113.9`))
    expect(statuses.slice(0, max).every((x) => x === 404)).toBe(true)
    expect(statuses[max]).toBe(429)
  })
})
