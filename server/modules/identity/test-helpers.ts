// Test data for identity tests: users with accounts in agencies, logged in through the real API.
import * as OTPAuth from 'otpauth'
import { type Agent, type Harness, TEST_PASSWORD, uniqueEmail } from '../../testing/harness'
import { hashPassword } from './passwords'
import type { Role } from './roles'

export interface TestUser {
  userId: number
  email: string
  password: string
  accounts: Array<{ id: number; agencyId: number; role: string }>
}

let n = 0
export async function createAgency(h: Harness, name = `Agentur ${++n}-${Date.now().toString(36)}`) {
  return h.ctx.db.insertInto('agency').values({ display_name: name }).returningAll().executeTakeFirstOrThrow()
}

/** A user (status OK, password TEST_PASSWORD unless null) with one account per given agency/role. */
export async function createUser(
  h: Harness,
  opts: { email?: string; password?: string | null; accounts?: Array<{ agencyId: number; role: Role; status?: string; canEditAccount?: boolean }>; language?: string } = {},
): Promise<TestUser> {
  const email = (opts.email ?? uniqueEmail('user')).toLowerCase()
  const password = opts.password === undefined ? TEST_PASSWORD : opts.password
  const user = await h.ctx.db
    .insertInto('app_user')
    .values({ email, password_hash: password ? await hashPassword(password) : null, status: 'OK', language: opts.language ?? 'de' })
    .returningAll()
    .executeTakeFirstOrThrow()
  const accounts = []
  for (const a of opts.accounts ?? []) {
    const row = await h.ctx.db
      .insertInto('account')
      .values({ user_id: user.id, agency_id: a.agencyId, user_role: a.role, status: a.status ?? 'OK', first_name: 'Test', last_name: a.role, can_edit_account: a.canEditAccount ?? true })
      .returningAll()
      .executeTakeFirstOrThrow()
    accounts.push({ id: row.id, agencyId: a.agencyId, role: a.role })
  }
  return { userId: user.id, email, password: password ?? '', accounts }
}

/** Logs in through POST /auth/login; sets the account header when one account is given. */
export async function loginAs(h: Harness, u: { email: string; password: string }, opts: { accountId?: number; ip?: string; userAgent?: string } = {}): Promise<Agent> {
  const agent = h.agent()
  if (opts.ip) agent.headers['x-forwarded-for'] = opts.ip
  if (opts.userAgent) agent.headers['user-agent'] = opts.userAgent
  const r = await agent.post('/auth/login', { email: u.email, password: u.password })
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`)
  if (opts.accountId) agent.headers['x-account-id'] = String(opts.accountId)
  return agent
}

/** The current TOTP code for a base32 secret, at the harness clock's time. */
export function totpCode(h: Harness, secret: string, offsetSteps = 0) {
  return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: h.clock.now().getTime() + offsetSteps * 30_000 })
}

/** Moves the clock to the start of the next 30 s step, so a fresh TOTP code is available. */
export function nextTotpStep(h: Harness) {
  const now = h.clock.now().getTime()
  h.clock.advance(30_000 - (now % 30_000) + 10)
}
