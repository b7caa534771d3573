// Helpers for the organiser workspace tests: licenses with features, events and guests in one call.
import { expect } from 'bun:test'
import { COMMUNITY, type LicenseState } from '../modules/license/license'
import { type Agent, eventBody, uniqueEmail } from './harness'

export function licenseWith(features: string[], limits: Partial<LicenseState['limits']> = {}): LicenseState {
  return { ...COMMUNITY, edition: 'licensed', licensee: 'Test', validUntil: '2099-12-31', reason: null, features, limits: { ...COMMUNITY.limits, ...limits } }
}

export async function createEvent(agent: Agent, overrides: Record<string, unknown> = {}) {
  const r = await agent.post('/proxy/api/events', eventBody(overrides))
  expect(r.status).toBe(201)
  return r.body as { id: number; [k: string]: any }
}

export async function addGuest(agent: Agent, eventId: number, body: Record<string, unknown> = {}) {
  const r = await agent.post(`/proxy/api/events/${eventId}/visitors`, { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: uniqueEmail('guest'), ...body })
  if (r.status !== 201) throw new Error(`addGuest: ${r.status} ${r.text}`)
  return r.body as { id: number; email: string; [k: string]: any }
}
