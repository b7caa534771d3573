import { describe, expect, test } from 'bun:test'
import QRCode from 'qrcode'
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { findByScan } from './service'
import { generationOf, signTicketCode, verifyTicketCode } from './signed-code'

const key = Buffer.alloc(32, 7).toString('base64')
const otherKey = Buffer.alloc(32, 8).toString('base64')
const real = { eventId: 123, visitorId: 4_567_890, person: 2, ticketCode: 'ABCDE12345' }

describe('signed ticket codes', () => {
  test('round trip; compact enough for a small alphanumeric QR', () => {
    const code = signTicketCode(key, real)
    expect(code).toMatch(/^E1-[0-9A-Z-]+$/)
    expect(code.length).toBeLessThanOrEqual(40)
    expect(verifyTicketCode(key, code)).toEqual({ eventId: 123, visitorId: 4_567_890, person: 2, generation: generationOf('ABCDE12345') })
    expect(verifyTicketCode(key, ` ${code.toLowerCase()} `)).not.toBeNull()
    // QR version 2 (25 × 25 modules) at level M holds it
    expect(QRCode.create(code, { errorCorrectionLevel: 'M' }).version).toBeLessThanOrEqual(3)
  })

  test('every changed part, another key, another spelling: refused', () => {
    const code = signTicketCode(key, real)
    const parts = code.split('-')
    for (let i = 1; i < parts.length; i++) {
      const changed = [...parts]
      changed[i] = changed[i].slice(0, -1) + (changed[i].endsWith('1') ? '2' : '1')
      expect(verifyTicketCode(key, changed.join('-'))).toBeNull()
    }
    expect(verifyTicketCode(otherKey, code)).toBeNull()
    expect(verifyTicketCode(key, code.replace('E1-', 'E1-0'))).toBeNull() // leading zero: not the signed spelling
    expect(verifyTicketCode(key, code.slice(0, -1))).toBeNull()
    expect(verifyTicketCode(key, 'E1-')).toBeNull()
    expect(verifyTicketCode(key, 'ABCDE-12345')).toBeNull()
    // per-event keys: the same visitor signed for another event differs
    expect(signTicketCode(key, { ...real, eventId: 124 }).split('-')[5]).not.toBe(parts[5])
  })

  test('the desk refuses a forged code without touching the database', async () => {
    let touched = 0
    const closedDb = new Proxy({}, { get: () => { touched++; throw new Error('database read') } })
    const ctx = { db: closedDb, secrets: { signingKey: key, uploadKey: key } } as unknown as AppContext
    const event = { id: 123, agency_id: 1 } as EventRow
    const forged = signTicketCode(otherKey, real)
    const err = await findByScan(ctx, event, forged).catch((e) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).status).toBe(404)
    expect((err as AppError).errorType).toBe('TICKET_NOT_FOUND')
    expect(touched).toBe(0)
    // a genuine one goes on to the database (which here refuses)
    await expect(findByScan(ctx, event, signTicketCode(key, real))).rejects.toThrow('database read')
    expect(touched).toBeGreaterThan(0)
  })
})
