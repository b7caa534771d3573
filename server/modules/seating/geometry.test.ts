// The seat picker's hit-testing and the editor's numbering (pure functions of the UI, tested here
// because the UI has no unit-test folder of its own).
import { expect, test } from 'bun:test'
import { alignChairs, arcPositions, rowLetter, seatNumbers } from '../../../ui/apps/organiser/seating/model'
import { type Chair, chairAt, rowOf } from '../../../ui/components/seat-picker/model'

const chair = (id: number, x: number, y: number, viewType: 'CIRCLE' | 'RECTANGLE' = 'CIRCLE'): Chair => ({
  id,
  label: `A ${id}`,
  priceCategory: null,
  status: null,
  options: [],
  viewType,
  percentX: x,
  percentY: y,
  percentWidth: 4,
  percentHeight: 4,
  places: 1,
  freeChairs: 1,
  minAmount: 1,
  maxAmount: 1,
})

test('chairAt finds the chair under a point: boxes for rectangles, ellipses for circles, the topmost first', () => {
  const chairs = [chair(1, 10, 10), chair(2, 20, 10, 'RECTANGLE'), chair(3, 21, 11, 'RECTANGLE')]
  expect(chairAt(chairs, 12, 12)?.id).toBe(1)
  // the corner of a circle's box is outside the circle
  expect(chairAt(chairs, 10.2, 10.2)).toBeNull()
  // a rectangle's corner is inside it
  expect(chairAt(chairs, 20.1, 10.1)?.id).toBe(2)
  // overlapping: the one drawn last wins
  expect(chairAt(chairs, 22, 12)?.id).toBe(3)
  expect(chairAt(chairs, 50, 50)).toBeNull()
  expect(chairAt([], 1, 1)).toBeNull()
})

test('rows and numbering', () => {
  expect(rowOf('A 12')).toBe('A')
  expect(rowOf('  Tisch 3')).toBe('Tisch')
  expect([0, 1, 25, 26, 27, 51, 52].map(rowLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA'])
  expect(seatNumbers(5, 'LTR')).toEqual([1, 2, 3, 4, 5])
  expect(seatNumbers(5, 'MIDDLE')).toEqual([5, 3, 1, 2, 4])
  expect(seatNumbers(10, 'MIDDLE')).toEqual([9, 7, 5, 3, 1, 2, 4, 6, 8, 10])
  expect(seatNumbers(1, 'MIDDLE')).toEqual([1])
  for (const n of [1, 2, 7, 30]) expect([...seatNumbers(n, 'MIDDLE')].sort((a, b) => a - b)).toEqual(seatNumbers(n, 'LTR'))
})

test('a curved row: chairs on a circle of the radius, symmetric, the middle highest, round in pixels whatever the area', () => {
  const area = { width: 1500, height: 1000 }
  const w = 2
  const h = 3
  const pts = arcPositions(7, 30, 120, area, 10, w, h)
  expect(pts).toHaveLength(7)
  // the centre of the circle in pixels: (750, 100 + 450); every chair's middle-top is 450 px from it
  for (const p of pts) expect(Math.hypot(((p.x + w / 2) / 100) * 1500 - 750, (p.y / 100) * 1000 - 550)).toBeCloseTo(450, 6)
  expect(pts[3].x + w / 2).toBeCloseTo(50, 6)
  expect(pts[3].y).toBeCloseTo(10, 6)
  expect(pts[0].x + pts[6].x + w).toBeCloseTo(100, 6)
  expect(pts[0].y).toBeCloseTo(pts[6].y, 6)
  expect(pts[0].y).toBeGreaterThan(pts[1].y)
  // 120 degrees: the outermost chairs 60 degrees from the top
  expect(((pts[6].x + w / 2 - 50) / 100) * 1500).toBeCloseTo(450 * Math.sin(Math.PI / 3), 6)
  expect(arcPositions(1, 30, 90, area, 10, w, h)).toEqual([{ x: 50 - w / 2, y: 10 }])
})

test('align: edges, middles and even distribution of the selection', () => {
  const c = (uid: string, x: number, y: number, wd = 2, ht = 3) => ({ uid, percentX: x, percentY: y, percentWidth: wd, percentHeight: ht })
  const sel = [c('a', 10, 20), c('b', 30, 5, 4, 6), c('c', 14, 40)]
  const pos = (m: Map<string, ReturnType<typeof c>>) => [...m.values()].map((x) => [x.uid, x.percentX, x.percentY])
  expect(pos(alignChairs(sel, 'LEFT'))).toEqual([['a', 10, 20], ['b', 10, 5], ['c', 10, 40]])
  expect(pos(alignChairs(sel, 'RIGHT'))).toEqual([['a', 32, 20], ['b', 30, 5], ['c', 32, 40]])
  expect(pos(alignChairs(sel, 'TOP'))).toEqual([['a', 10, 5], ['b', 30, 5], ['c', 14, 5]])
  expect(pos(alignChairs(sel, 'BOTTOM'))).toEqual([['a', 10, 40], ['b', 30, 37], ['c', 14, 40]])
  // middles on the selection's middle: x from 10 to 34 → 22
  expect(pos(alignChairs(sel, 'CENTER_H'))).toEqual([['a', 21, 20], ['b', 20, 5], ['c', 21, 40]])
  // y from 5 to 43 → 24
  expect(pos(alignChairs(sel, 'CENTER_V'))).toEqual([['a', 10, 22.5], ['b', 30, 21], ['c', 14, 22.5]])
  // by their middles 11, 15, 32 → 11, 21.5, 32 in that order
  expect(pos(alignChairs(sel, 'DISTRIBUTE_H'))).toEqual([['a', 10, 20], ['c', 20.5, 40], ['b', 30, 5]])
  expect(alignChairs([sel[0]], 'LEFT').size).toBe(0)
})
