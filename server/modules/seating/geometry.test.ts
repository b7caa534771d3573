// The seat picker's hit-testing and the editor's numbering (pure functions of the UI, tested here
// because the UI has no unit-test folder of its own).
import { expect, test } from 'bun:test'
import { rowLetter, seatNumbers } from '../../../ui/apps/organiser/seating-editor'
import { type Chair, chairAt, rowOf } from '../../../ui/components/seat-picker'

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

test('5,000 chairs: a hit test takes well under a millisecond on average', () => {
  const many: Chair[] = []
  for (let r = 0; r < 50; r++) for (let i = 0; i < 100; i++) many.push({ ...chair(r * 100 + i, i, r * 2), percentWidth: 0.8, percentHeight: 1.5 })
  const t0 = performance.now()
  for (let k = 0; k < 200; k++) chairAt(many, (k % 100) + 0.4, ((k * 7) % 50) * 2 + 0.75)
  expect((performance.now() - t0) / 200).toBeLessThan(1)
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
