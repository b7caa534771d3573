// The UI reads input limits from the server's zod schemas (ui/components/schema-limits.ts; tests live under server/).
import { expect, test } from 'bun:test'
import { z } from 'zod'
import { EventInput } from './modules/events/model'
import { RegistrationInput } from './modules/registration/model'
import { MAX_BASIC_TEXT } from './modules/forms/values'
import { maxLengthOf, maxLengths, registerWithLimits } from '../ui/components/schema-limits'

test('maxlength read through optional, nullable, default and transform wrappers', () => {
  expect(maxLengthOf(z.string().max(5))).toBe(5)
  expect(maxLengthOf(z.string().trim().max(7, 'TOO_LONG').nullish().transform((v) => v ?? null))).toBe(7)
  expect(maxLengthOf(z.string().max(9).optional().default('x'))).toBe(9)
  expect(maxLengthOf(z.string())).toBeUndefined()
  expect(maxLengthOf(z.number().max(3))).toBeUndefined()
  expect(maxLengths(z.object({ a: z.string().max(2), b: z.object({ c: z.string().max(4).nullish() }), n: z.number() }))).toEqual({ a: 2, 'b.c': 4 })
})

test('the schemas the forms use give their inputs a maxlength', () => {
  const ev = maxLengths(EventInput)
  expect(ev.displayName).toBeGreaterThan(0)
  expect(ev.country).toBe(3)
  expect(maxLengths(RegistrationInput).lastName).toBe(MAX_BASIC_TEXT)
  const reg = registerWithLimits((name: string) => ({ name }), EventInput)
  expect(reg('displayName') as object).toEqual({ name: 'displayName', maxLength: ev.displayName })
  expect(reg('maxVisitors')).toEqual({ name: 'maxVisitors' })
})
