// Signing missing agreements at the check-in desk: the check-in is refused for a REQUIRED agreement,
// the guest reads it, ticks "Ich stimme zu" and signs on the desk's screen, the desk repeats the
// check-in; the signature then shows in the event's list of who signed what. A second guest signs
// from the guest card on a phone-sized screen with a finger (touch events).
import { expect, type Page } from '@playwright/test'
import { expectImageLoaded, SHOTS, setupAdmin, shot, test, watchCsp } from './fixtures'

async function draw(page: Page, canvas: string, points: Array<[number, number]>) {
  const box = (await page.locator(canvas).boundingBox())!
  const at = ([x, y]: [number, number]) => [box.x + box.width * x, box.y + box.height * y] as const
  await page.mouse.move(...at(points[0]))
  await page.mouse.down()
  for (const p of points.slice(1)) await page.mouse.move(...at(p), { steps: 6 })
  await page.mouse.up()
}

/** A finger stroke: real touch events through the DevTools protocol (pointerType "touch"). */
async function drawTouch(page: Page, canvas: string, points: Array<[number, number]>) {
  const box = (await page.locator(canvas).boundingBox())!
  const cdp = await page.context().newCDPSession(page)
  const at = ([x, y]: [number, number]) => ({ x: box.x + box.width * x, y: box.y + box.height * y })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(points[0])] })
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]]
    for (let s = 1; s <= 6; s++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at([a[0] + ((b[0] - a[0]) * s) / 6, a[1] + ((b[1] - a[1]) * s) / 6])] })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}

const SCRIBBLE: Array<[number, number]> = [
  [0.1, 0.7],
  [0.2, 0.3],
  [0.3, 0.75],
  [0.45, 0.35],
  [0.6, 0.7],
  [0.75, 0.4],
  [0.9, 0.6],
]

test('desk: a missing agreement is signed on the spot, then the guest is checked in', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const api = async (method: 'post' | 'get', path: string, data?: unknown) => {
    const r = await page.request[method](`${server.url}${path}`, data === undefined ? undefined : { data })
    expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true)
    return r.json()
  }
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const event = await api('post', '/proxy/api/events', {
    displayName: 'Werksführung',
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(),
    timezone: 'Europe/Berlin',
    locationName: 'Halle 3',
    city: 'Bremen',
  })
  await api('post', '/proxy/api/agreements', {
    displayName: 'Sicherheitsunterweisung',
    validity: 'EVENT',
    eventId: event.id,
    appearance: 'REQUIRED',
    description: '<p>Ich habe die <strong>Sicherheitsregeln</strong> der Halle gelesen und trage Schutzkleidung.</p><ul><li>Helm</li><li>Sicherheitsschuhe</li></ul>',
  })
  const guest = async (firstName: string, lastName: string) => {
    const v = await api('post', `/proxy/api/events/${event.id}/visitors`, { salutation: 'Frau', firstName, lastName, email: `${firstName.toLowerCase()}@example.org`, status: 'CONFIRMED' })
    return { ...v, ticketCode: (await api('get', `/proxy/api/events/${event.id}/visitors/${v.id}`)).ticketCode as string }
  }
  const grete = await guest('Grete', 'Gast')
  const paula = await guest('Paula', 'Pfeil')

  // the ticket code, the check-in refused for the missing agreement
  await page.goto(`${server.url}/events/${event.id}/checkin`)
  const code = page.getByLabel('Ticket-Code oder Name')
  await code.fill(grete.ticketCode)
  await code.press('Enter')
  await expect(page.getByRole('heading', { name: 'Grete Gast' })).toBeVisible()
  await expect(page.getByText('Erforderliche Einverständniserklärungen fehlen noch: Sicherheitsunterweisung')).toBeVisible()
  await page.getByRole('button', { name: 'Grete Gast einchecken' }).click()
  await expect(page.getByText('Es fehlen erforderliche Einverständniserklärungen.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Trotzdem einchecken' })).toBeVisible()

  // cancel changes nothing
  await page.getByRole('button', { name: 'Jetzt unterschreiben' }).click()
  const dialog = page.getByRole('dialog', { name: 'Einverständniserklärungen unterschreiben' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Abbrechen' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Es fehlen erforderliche Einverständniserklärungen.')).toBeVisible()
  await expect(page.locator('.desk-in .desk-count')).toHaveText('0')

  // sign: nothing ticked, nothing drawn, then the German messages
  await page.getByRole('button', { name: 'Jetzt unterschreiben' }).click()
  await expect(dialog.getByRole('heading', { name: 'Sicherheitsunterweisung' })).toBeVisible()
  await expect(dialog.locator('.agreement-text strong')).toHaveText('Sicherheitsregeln')
  await expect(dialog.locator('.agreement-text li')).toHaveText(['Helm', 'Sicherheitsschuhe'])
  await expect(dialog.getByText('Hier unterschreiben')).toBeVisible()
  expect(await dialog.locator('canvas').evaluate((c) => getComputedStyle(c).touchAction)).toBe('none')
  await dialog.getByRole('button', { name: 'Unterschreiben und einchecken' }).click()
  await expect(dialog.getByText('Diese Einverständniserklärung ist erforderlich.')).toBeVisible()
  await expect(dialog.getByText('Bitte unterschreiben Sie.')).toBeVisible()
  await shot(page, 'desk-sign-01-dialog-errors')
  await dialog.getByLabel('Ich stimme zu').check()
  await draw(page, '#desk-signature', SCRIBBLE)
  await expect(dialog.getByText('Unterschrift erfasst.')).toBeVisible()
  await expect(dialog.getByText('Bitte unterschreiben Sie.')).toBeHidden()
  // clearing takes the ink away; keyboard reaches the button
  await dialog.getByRole('button', { name: 'Löschen' }).focus()
  await page.keyboard.press('Enter')
  await expect(dialog.getByRole('button', { name: 'Löschen' })).toBeDisabled()
  await draw(page, '#desk-signature', SCRIBBLE)
  await shot(page, 'desk-sign-02-dialog-signed')
  // the server's refusal of a broken image shows in German under the pad; nothing is checked in
  const signPath = `**/proxy/api/events/${event.id}/visitors/${grete.id}/agreements`
  await page.route(signPath, (route) => {
    const body = JSON.parse(route.request().postData()!)
    body.agreements[0].signature = 'data:image/png;base64,AAAA'
    return route.continue({ postData: JSON.stringify(body) })
  })
  await dialog.getByRole('button', { name: 'Unterschreiben und einchecken' }).click()
  await expect(dialog.getByRole('alert').filter({ hasText: 'Bitte unterschreiben Sie.' })).toBeVisible()
  await expect(page.locator('.desk-in .desk-count')).toHaveText('0')
  await page.unroute(signPath)
  await dialog.getByRole('button', { name: 'Unterschreiben und einchecken' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  await expect(page.locator('.desk-in .desk-count')).toHaveText('1')
  await expect(page.locator('.desk-agreements')).toContainText('Sicherheitsunterweisung: Zugestimmt')
  await expect(page.getByText('Erforderliche Einverständniserklärungen fehlen noch')).toBeHidden()
  await shot(page, 'desk-sign-03-checked-in')

  // phone (3× pixel density, touch): Paula signs from the guest card with a finger, before anyone
  // tries to check her in
  const phoneCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true, storageState: await page.context().storageState() })
  const phone = await phoneCtx.newPage()
  const csp = watchCsp(phone)
  await phone.goto(`${server.url}/events/${event.id}/checkin`)
  await phone.getByLabel('Ticket-Code oder Name').fill(paula.ticketCode)
  await phone.getByLabel('Ticket-Code oder Name').press('Enter')
  await expect(phone.getByRole('heading', { name: 'Paula Pfeil' })).toBeVisible()
  await phone.getByRole('button', { name: 'Jetzt unterschreiben' }).tap()
  const phoneDialog = phone.getByRole('dialog', { name: 'Einverständniserklärungen unterschreiben' })
  await expect(phoneDialog).toBeVisible()
  await phoneDialog.getByLabel('Ich stimme zu').tap()
  await phoneDialog.locator('canvas').scrollIntoViewIfNeeded()
  // the canvas draws at the screen's pixel density and fits the phone
  const size = await phoneDialog.locator('canvas').evaluate((c: HTMLCanvasElement) => ({ w: c.width, h: c.height, css: c.getBoundingClientRect(), vw: window.innerWidth }))
  expect(size.w).toBe(Math.round(size.css.width * 3))
  expect(size.h).toBe(Math.round(size.css.height * 3))
  expect(size.css.right).toBeLessThanOrEqual(size.vw)
  // a finger on the pad draws instead of scrolling the page
  expect(await phoneDialog.locator('canvas').evaluate((c) => getComputedStyle(c).touchAction)).toBe('none')
  const types: string[] = []
  await phone.exposeFunction('seenPointer', (type: string) => void types.push(type))
  await phoneDialog.locator('canvas').evaluate((c) => c.addEventListener('pointermove', (e) => (window as any).seenPointer((e as PointerEvent).pointerType)))
  await drawTouch(phone, '#desk-signature', SCRIBBLE)
  await expect(phoneDialog.getByText('Unterschrift erfasst.')).toBeVisible()
  await expect.poll(() => types.includes('touch')).toBe(true)
  await phone.screenshot({ path: `${SHOTS}/desk-sign-04-dialog-phone.png` })
  await phoneDialog.getByRole('button', { name: /^Unterschreiben$/ }).tap()
  await expect(phoneDialog).toBeHidden()
  await expect(phone.getByText('Unterschrift gespeichert.')).toBeVisible()
  await phone.getByRole('button', { name: 'Paula Pfeil einchecken' }).tap()
  await expect(phone.getByText('1 Person eingecheckt.')).toBeVisible()
  await expect(phone.locator('.desk-in .desk-count')).toHaveText('2')
  await shot(phone, 'desk-sign-05-phone-checked-in')
  expect(csp, 'CSP violations').toEqual([])
  await phoneCtx.close()

  // who signed what and when: both signatures drawn at the desk, the images load
  await page.goto(`${server.url}/events/${event.id}/agreements`)
  for (const name of ['Grete Gast', 'Paula Pfeil']) {
    const img = page.getByRole('img', { name: `Unterschrift von ${name}` })
    await expectImageLoaded(img)
  }
  await shot(page, 'desk-sign-06-signatures')
  const sigs = await api('post', '/proxy/api/agreements/signatures/search', { eventId: event.id })
  expect(sigs.items.map((s: any) => [s.firstName, s.status, s.origin])).toEqual([
    ['Paula', 'CONFIRMED', 'DESK'],
    ['Grete', 'CONFIRMED', 'DESK'],
  ])
  for (const s of sigs.items) {
    const png = await (await page.request.get(`${server.url}/proxy/api/agreements/signatures/${s.signatureId}/signature`)).body()
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    expect(png.length).toBeLessThan(60_000)
  }
})
