// The performance guard's verdict (bench/guard-judge.ts, issue 25) from made-up rounds: the ratios
// against bench/guard.json's records, the throughput judged only with idle CPU, errors failing, and a
// failure on an overloaded machine inconclusive unless strict. No server, no timing.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { type Measured, PATHS, type Recorded, type Round, judgeRounds, verdictOf } from '../../bench/guard-judge'

const recorded: Recorded = { note: '', ratios: { registration: { throughput: 0.2, cpu: 0.1 }, order: { throughput: 0.1, cpu: 0.08 }, checkin: { throughput: 0.2, cpu: 0.1 } } }
const m = (rate: number, cpuMs: number, idle = 0, other = 0): Measured => ({ rate, cpuMs, ok: Math.round(rate * 2), other, p99: 10, idle })
/** a round with the baseline at 10,000/s and 0.05 ms, each path at `factor` of its recorded ratios */
function round(factor: number, o: { idle?: number; load?: string; other?: number } = {}): Round {
  const path = (p: 'registration' | 'order' | 'checkin') => m(10_000 * recorded.ratios[p].throughput * factor, 0.05 / (recorded.ratios[p].cpu * factor), o.idle ?? 0, o.other ?? 0)
  return { baseline: m(10_000, 0.05, o.idle ?? 0), registration: path('registration'), order: path('order'), checkin: path('checkin'), load: o.load ?? '2.0 2.0 2.0' }
}

describe('performance guard verdict', () => {
  test('at the records it passes; 20 % below still passes; 30 % below fails with the reason', () => {
    expect(verdictOf(judgeRounds([round(1)], recorded), [round(1)], 2)).toBe('PASS')
    expect(verdictOf(judgeRounds([round(0.8)], recorded), [round(0.8)], 2)).toBe('PASS')
    const slow = [round(0.7), round(0.65)]
    const r = judgeRounds(slow, recorded)
    expect(verdictOf(r, slow, 2)).toBe('FAIL')
    for (const p of PATHS) expect(r[p].why.join()).toContain('CPU ratio')
  })

  test('the best round counts: one slow round beside a good one passes', () => {
    const rounds = [round(0.5), round(1)]
    expect(verdictOf(judgeRounds(rounds, recorded), rounds, 2)).toBe('PASS')
  })

  test('throughput is judged only when the machine had CPU to spare', () => {
    // CPU as recorded, throughput at half: busy machine → not judged; 20 % idle → judged and failing
    const halfRate = (idle: number): Round => {
      const r = round(1, { idle })
      for (const p of PATHS) r[p] = { ...r[p], rate: r[p].rate / 2 }
      return r
    }
    expect(verdictOf(judgeRounds([halfRate(0)], recorded), [halfRate(0)], 2)).toBe('PASS')
    const quiet = judgeRounds([halfRate(0.2)], recorded)
    expect(verdictOf(quiet, [halfRate(0.2)], 2)).toBe('FAIL')
    expect(quiet.order.why.join()).toContain('throughput ratio')
  })

  test('answers other than 2xx fail even at good ratios', () => {
    const rounds = [round(1, { other: 500 })]
    expect(verdictOf(judgeRounds(rounds, recorded), rounds, 2)).toBe('FAIL')
  })

  test('a failure on a machine overloaded in every round is inconclusive, unless strict', () => {
    const busy = [round(0.5, { load: '20.5 20 20' }), round(0.5, { load: '14 20 20' })]
    const r = judgeRounds(busy, recorded)
    expect(verdictOf(r, busy, 2)).toBe('INCONCLUSIVE')
    expect(verdictOf(r, busy, 2, true)).toBe('FAIL')
    // one round at a judgeable load is enough to judge
    const mixed = [round(0.5, { load: '20 20 20' }), round(0.5, { load: '7 20 20' })]
    expect(verdictOf(judgeRounds(mixed, recorded), mixed, 2)).toBe('FAIL')
  })

  test('bench/guard.json has a record for every path', () => {
    const file = JSON.parse(readFileSync(resolve(import.meta.dir, '../../bench/guard.json'), 'utf8')) as Recorded
    for (const p of PATHS) {
      expect(file.ratios[p].throughput).toBeGreaterThan(0)
      expect(file.ratios[p].cpu).toBeGreaterThan(0)
    }
  })
})
