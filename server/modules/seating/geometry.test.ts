// The seat picker's hit-testing and the editor's numbering (pure functions of the UI, tested here
// because the UI has no unit-test folder of its own).
import { describe, expect, test } from 'bun:test'
import { alignChairs, arcPositions, fromServer, rowLetter, seatNumbers, toServer, unlinkedCategories } from '../../../ui/apps/organiser/seating/model'
import { type Chair, chairAt, fitView, groupOf, rowOf, TAP_PX } from '../../../ui/components/seat-picker/model'

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

test('the editor keeps each price category\'s ticket category through load and save, and names the unlinked ones in use', () => {
  const chairOf = (id: number, cat: number) => ({ id, label: `A ${id}`, priceCategory: { id: cat }, status: null, options: [], viewType: 'CIRCLE', percentX: 1, percentY: 1, percentWidth: 2, percentHeight: 2, places: 1, minAmount: 1, maxAmount: 1 })
  const plan = fromServer({
    priceCategories: [
      { id: 1, displayName: 'Parkett', color: '#2b8a3e', ticketCategoryId: 7 },
      { id: 2, displayName: 'Loge', color: '#d9480f', ticketCategoryId: null },
      { id: 3, displayName: 'Reserve', color: '#1d4ed8', ticketCategoryId: null },
    ],
    areas: [{ id: 1, displayName: 'Saal', width: 1500, height: 1000, areaImage: null, chairs: [chairOf(1, 1), chairOf(2, 2)] }],
  })
  expect(toServer(plan).priceCategories.map((c) => c.ticketCategoryId)).toEqual([7, null, null])
  expect(unlinkedCategories(plan).map((c) => c.displayName)).toEqual(['Loge'])
})

describe('the seat map\'s first view (issue 20 item 25)', () => {
  // a 1500 × 1000 area on a phone 390 px wide (260 px high at zoom 1); two rows of ten in its middle
  const rows: Chair[] = []
  for (let r = 0; r < 2; r++) for (let i = 0; i < 10; i++) rows.push({ ...chair(r * 10 + i + 1, 20 + i * 6, 30 + r * 8), percentWidth: 3, percentHeight: 4.5 })
  const onScreen = (v: { z: number; x: number; y: number }, c: Chair, W: number, H: number) => ({
    left: v.x + (c.percentX / 100) * W * v.z,
    right: v.x + ((c.percentX + c.percentWidth) / 100) * W * v.z,
    top: v.y + (c.percentY / 100) * H * v.z,
    bottom: v.y + ((c.percentY + c.percentHeight) / 100) * H * v.z,
    size: Math.min((c.percentWidth / 100) * W * v.z, (c.percentHeight / 100) * H * v.z),
  })
  test('a desktop sees every chair, the empty area around them cut away', () => {
    const v = fitView(rows, 800, 533, false, 540)
    expect(v.z).toBeGreaterThan(1.4)
    const boxes = rows.map((c) => onScreen(v, c, 800, 533))
    expect(Math.min(...boxes.map((b) => b.left))).toBeGreaterThanOrEqual(0)
    expect(Math.max(...boxes.map((b) => b.right))).toBeLessThanOrEqual(800)
    expect(Math.min(...boxes.map((b) => b.top))).toBeGreaterThanOrEqual(0)
    expect(Math.max(...boxes.map((b) => b.bottom))).toBeLessThanOrEqual(v.h)
    // the canvas takes the chairs' proportions: no band of empty plan above and below
    expect(v.h).toBeLessThan(533 * v.z * 0.3)
  })
  test('on a phone each chair is at least the minimum tap size, the view centred on the chairs', () => {
    const v = fitView(rows, 390, 260, true, 500)
    for (const c of rows) expect(onScreen(v, c, 390, 260).size).toBeGreaterThanOrEqual(TAP_PX - 1e-6)
    const mid = rows.map((c) => onScreen(v, c, 390, 260))
    const centre = (Math.min(...mid.map((b) => b.left)) + Math.max(...mid.map((b) => b.right))) / 2
    expect(Math.abs(centre - 195)).toBeLessThan(2)
  })
  test('no chairs: the whole area; never beyond the zoom limits', () => {
    expect(fitView([], 390, 260, true, 500)).toMatchObject({ z: 1, x: 0, y: 0, h: 260 })
    const tiny = [{ ...chair(1, 50, 50), percentWidth: 0.05, percentHeight: 0.05 }]
    expect(fitView(tiny, 390, 260, true, 500).z).toBe(20)
  })
  test('tables are listed as tables, not as a row called "Tisch"', () => {
    expect(groupOf({ label: 'Tisch 3', places: 8 })).toBe('')
    expect(groupOf({ label: 'A 12', places: 1 })).toBe('A')
  })
})
