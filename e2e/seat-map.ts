// Where a chair is on the seat map's canvas: the picker fits its first view to the chairs (and on a
// phone zooms to a tappable size), so a chair's place follows the view the canvas reports in
// data-view ("zoom offsetX offsetY areaWidth areaHeight", CSS pixels). A chair outside the view is
// brought in with "Ganzer Plan" first.
import { expect, type Locator } from '@playwright/test'

type Spot = { percentX: number; percentY: number; percentWidth: number; percentHeight: number }

async function pointIn(canvas: Locator, c: Spot) {
  await expect(canvas).toHaveAttribute('data-view', /\d/)
  const [z, x, y, W, H] = (await canvas.getAttribute('data-view'))!.split(' ').map(Number)
  return { x: x + ((c.percentX + c.percentWidth / 2) / 100) * W * z, y: y + ((c.percentY + c.percentHeight / 2) / 100) * H * z }
}

/** The chair's middle on the canvas, in the canvas's own coordinates (for tap/click `position`). */
export async function chairPoint(canvas: Locator, c: Spot) {
  let p = await pointIn(canvas, c)
  const box = (await canvas.boundingBox())!
  if (p.x < 2 || p.y < 2 || p.x > box.width - 2 || p.y > box.height - 2) {
    await canvas.locator('xpath=../..').getByRole('button', { name: 'Ganzer Plan' }).click()
    await expect(canvas).toHaveAttribute('data-view', /^1 /)
    p = await pointIn(canvas, c)
  }
  return p
}
