// A small OpenID Connect provider for tests and journeys, speaking the real shapes: discovery
// (/.well-known/openid-configuration), /authorize (a login form, or a POST answering with the code
// redirect), /token (authorization_code with PKCE S256 and client_secret_basic or _post) and /jwks
// (RS256 keys). Signs ID tokens with jose. Test cases are chosen per login: `mode` wrongAudience or
// expired makes the ID token carry another audience or an expiry in the past.
import { createHash, randomBytes } from 'node:crypto'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'

export type OidcMode = 'ok' | 'wrongAudience' | 'expired' | 'wrongNonce'

interface PendingCode {
  clientId: string
  redirectUri: string
  challenge: string
  nonce: string | null
  email: string
  mode: OidcMode
  expiresAt: number
}

export interface OidcFake {
  issuer: string
  port: number
  clientId: string
  clientSecret: string
  /** the ID tokens issued, newest last */
  issued: string[]
  stop(): void
}

const b64url = (b: Buffer) => b.toString('base64url')
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
function personName(email: string) {
  const [first, last] = email.split('@')[0].split('.')
  return last ? { name: `${cap(first)} ${cap(last)}`, given_name: cap(first), family_name: cap(last) } : { name: cap(first) }
}

export async function startOidcFake(opts: { clientId?: string; clientSecret?: string; port?: number } = {}): Promise<OidcFake> {
  const clientId = opts.clientId ?? 'einlass-staff'
  const clientSecret = opts.clientSecret ?? 'oidc-secret-for-tests'
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const kid = b64url(randomBytes(6))
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }
  const codes = new Map<string, PendingCode>()
  const issued: string[] = []
  let issuer = ''

  const form = (q: URLSearchParams) => {
    const hidden = [...q].map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}">`).join('')
    return `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Firmen-Login (Test-Anbieter)</title></head>
<body style="font:16px sans-serif;max-width:420px;margin:40px auto"><h1>Firmen-Login</h1><p>Test-Anbieter für OpenID Connect</p>
<form method="post" action="/authorize">${hidden}
<label>E-Mail-Adresse<br><input name="email" type="email" required style="width:100%;padding:8px"></label>
<p><label>Testfall<br><select name="mode"><option value="ok">Normal</option><option value="wrongAudience">Falsche Zielgruppe (aud)</option><option value="expired">Abgelaufenes Token</option><option value="wrongNonce">Falsche Nonce</option></select></label></p>
<button type="submit" style="padding:8px 16px">Anmelden</button></form></body></html>`
  }

  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      if (url.pathname === '/.well-known/openid-configuration') {
        return Response.json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          scopes_supported: ['openid', 'email', 'profile'],
        })
      }
      if (url.pathname === '/jwks') return Response.json({ keys: [jwk] })
      if (url.pathname === '/authorize' && req.method === 'GET') {
        const q = url.searchParams
        if (q.get('client_id') !== clientId) return new Response('unknown client', { status: 400 })
        if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return new Response('PKCE S256 and response_type=code required', { status: 400 })
        return new Response(form(q), { headers: { 'content-type': 'text/html; charset=utf-8' } })
      }
      if (url.pathname === '/authorize' && req.method === 'POST') {
        const f = new URLSearchParams(await req.text())
        const code = b64url(randomBytes(16))
        codes.set(code, {
          clientId: f.get('client_id') ?? '',
          redirectUri: f.get('redirect_uri') ?? '',
          challenge: f.get('code_challenge') ?? '',
          nonce: f.get('nonce'),
          email: f.get('email') ?? '',
          mode: (f.get('mode') as OidcMode) || 'ok',
          expiresAt: Date.now() + 60_000,
        })
        const back = new URL(f.get('redirect_uri') ?? '')
        back.searchParams.set('code', code)
        if (f.get('state')) back.searchParams.set('state', f.get('state')!)
        return new Response(null, { status: 302, headers: { location: back.toString() } })
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        const f = new URLSearchParams(await req.text())
        let id = f.get('client_id')
        let secret = f.get('client_secret')
        const basic = req.headers.get('authorization')
        if (basic?.startsWith('Basic ')) {
          const [u, p] = Buffer.from(basic.slice(6), 'base64').toString().split(':')
          id = decodeURIComponent(u)
          secret = decodeURIComponent(p ?? '')
        }
        if (id !== clientId || secret !== clientSecret) return Response.json({ error: 'invalid_client' }, { status: 401 })
        const code = codes.get(f.get('code') ?? '')
        codes.delete(f.get('code') ?? '')
        if (f.get('grant_type') !== 'authorization_code' || !code || code.expiresAt < Date.now() || code.redirectUri !== f.get('redirect_uri')) {
          return Response.json({ error: 'invalid_grant' }, { status: 400 })
        }
        const verifier = f.get('code_verifier') ?? ''
        if (b64url(createHash('sha256').update(verifier).digest()) !== code.challenge) return Response.json({ error: 'invalid_grant', error_description: 'PKCE' }, { status: 400 })
        const now = Math.floor(Date.now() / 1000)
        const exp = code.mode === 'expired' ? now - 3600 : now + 300
        const idToken = await new SignJWT({
          email: code.email,
          email_verified: true,
          // "anna.berg@…" → Anna Berg, as a directory would know her
          ...personName(code.email),
          ...(code.nonce ? { nonce: code.mode === 'wrongNonce' ? 'not-the-nonce' : code.nonce } : {}),
        })
          .setProtectedHeader({ alg: 'RS256', kid })
          .setIssuer(issuer)
          .setSubject(createHash('sha256').update(code.email).digest('hex').slice(0, 20))
          .setAudience(code.mode === 'wrongAudience' ? 'another-client' : clientId)
          .setIssuedAt(code.mode === 'expired' ? now - 7200 : now)
          .setExpirationTime(exp)
          .sign(privateKey)
        issued.push(idToken)
        return Response.json({ access_token: b64url(randomBytes(16)), token_type: 'Bearer', expires_in: 300, id_token: idToken })
      }
      return new Response('not found', { status: 404 })
    },
  })
  issuer = `http://127.0.0.1:${server.port}`
  return { issuer, port: server.port!, clientId, clientSecret, issued, stop: () => server.stop(true) }
}
