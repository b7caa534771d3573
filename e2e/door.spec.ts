// At the door (issue 20 A, B): a guest buys two tickets and pays by transfer. While the money has not
// arrived the dashboard has no ticket (and says why), self check-in refuses, and the desk shows the
// amount due and admits only after the desk person records the payment. Then the guest downloads the
// real ticket PDF; its page is rendered (pdftoppm), its QR codes decoded (zbarimg), and the page is
// played as the camera of a second Chromium (e2e/fake-camera.ts): the desk's camera reads the printed
// QR (jsQR, as headless Chromium has no BarcodeDetector) and checks the guests in. A hand scanner
// (fast keys and Enter while a button has focus) and the typed short code find the guest too. The
// organiser sets when invoice orders get their tickets on the tickets tab.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { linkIn } from '../server/testing/smtp-sink'
import { launchWithCamera, pdfPageToPng, writeCameraFile, zbarDecode } from './fake-camera'
import { buyByTransfer, deskField, paidDoorEvent } from './door-purchase'
import { expect, setupAdmin, shot, test } from './fixtures'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }


test('at the door: an unpaid transfer has no ticket until the desk records its payment; the printed QR is read by the desk camera, a hand scanner and the typed short code admit', async ({ page, server, browser }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const { eventId, categoryId } = await paidDoorEvent(page.request, server)
  const ctx = await browser.newContext(PHONE)
  const dir = mkdtempSync(join(tmpdir(), 'einlass-door-'))
  try {
    const g = await ctx.newPage()
    const email = 'paula@example.org'
    await buyByTransfer(ctx.request, server, eventId, categoryId, { firstName: 'Paula', lastName: 'Musterfrau', email, escortPersons: [{ firstName: 'Pia', lastName: 'Begleiterin' }] })

    // the guest's dashboard: no ticket while the transfer is on its way, and why
    expect((await ctx.request.post(`${server.url}/proxy/api/public/visitor/resendMail`, { data: { email } })).ok()).toBe(true)
    const access = await server.smtp.waitFor((m) => m.to.includes(email) && m.text.includes('/guest/dashboard?token='), 15_000)
    await g.goto(linkIn(access, '/guest/dashboard?token='))
    await expect(g.getByText('Hafenkonzert').first()).toBeVisible()
    await expect(g.getByText('Ihre Tickets erhalten Sie, sobald die Zahlung eingegangen ist.')).toBeVisible()
    await expect(g.getByRole('link', { name: 'Ticket (PDF)' })).toHaveCount(0)
    await expect(g.getByRole('button', { name: 'Ticket (QR-Code) anzeigen' })).toHaveCount(0)
    await shot(g, 'door-01-dashboard-unpaid-phone')
    // self check-in: refused, saying why
    const entries = (await (await g.request.get(`${server.url}/proxy/api/guest/events`)).json()).confirmedEvents as Array<{ id: number; eventToken: string }>
    await g.goto(`${server.url}/guest/checkin/${entries[0].eventToken}`)
    await expect(g.getByText('Ihre Tickets erhalten Sie, sobald die Zahlung eingegangen ist.')).toBeVisible()
    await shot(g, 'door-02-selfcheckin-unpaid-phone')

    // the desk: the amount due, no admission; the desk person records the payment after a question
    await page.goto(`${server.url}/events/${eventId}/checkin`)
    await deskField(page).fill('Musterfrau')
    await deskField(page).press('Enter')
    await expect(page.getByRole('heading', { name: /Paula Musterfrau/ })).toBeVisible()
    await expect(page.getByText(/Nicht bezahlt: 50,00 € offen \(Bestellung [A-Z2-9]{8}\)\. Kein Einlass/)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Alle einchecken' })).toBeDisabled()
    await shot(page, 'door-03-desk-unpaid')
    await page.getByRole('button', { name: 'Zahlung erfassen' }).click()
    const ask = page.getByRole('dialog', { name: 'Zahlung von 50,00 € erfassen' })
    await expect(ask).toBeVisible()
    await shot(page, 'door-04-desk-record-payment')
    await ask.getByRole('button', { name: 'Zahlung erfasst' }).click()
    await expect(page.getByText('Die Zahlung von 50,00 € wurde erfasst.')).toBeVisible()
    await expect(page.getByText(/Nicht bezahlt/)).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Alle einchecken' })).toBeEnabled()
    await shot(page, 'door-05-desk-paid')

    // the guest now has the ticket: downloaded from the dashboard as a person would
    await g.goto(`${server.url}/guest/dashboard`)
    const link = g.getByRole('link', { name: 'Ticket (PDF)' })
    await expect(link).toBeVisible()
    await expect(g.getByText('Ihre Tickets erhalten Sie, sobald die Zahlung eingegangen ist.')).toHaveCount(0)
    const [download] = await Promise.all([g.waitForEvent('download'), link.click()])
    const pdfFile = join(dir, 'ticket.pdf')
    await download.saveAs(pdfFile)
    const pdf = readFileSync(pdfFile)
    const png = pdfPageToPng(pdf, { dpi: 150 })
    const codes = zbarDecode(png)
    expect(codes).toHaveLength(2)
    for (const c of codes) expect(c).toMatch(/^E1-[0-9A-Z]+-[0-9A-Z]+-[0-9A-Z]+-[0-9A-Z]{4}-[0-9A-Z]{16}$/)
    // the confirmation mail: the order's mail had no ticket while unpaid; the payment's mail carries the same codes
    const received = await server.smtp.waitFor((m) => m.to.includes(email) && /Bestellung/.test(m.subject), 15_000)
    expect(received.parsed.attachments.some((a) => /^Ticket/.test(a.filename ?? ''))).toBe(false)
    const paidMail = await server.smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Zahlung erhalten'), 15_000)
    const mailed = paidMail.parsed.attachments.find((a) => /^Ticket/.test(a.filename ?? ''))
    expect(mailed).toBeTruthy()
    expect(zbarDecode(pdfPageToPng(mailed!.content as Buffer)).sort()).toEqual([...codes].sort())
    const short = /Ticket-Code: ([0-9A-Z]{5}-[0-9A-Z]{5})/.exec(spawnSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' }).stdout)?.[1]
    expect(short).toBeTruthy()

    // the desk's camera reads the printed QR: the page image played as the camera of a second Chromium
    const cam = writeCameraFile(png, join(dir, 'camera.y4m'))
    expect(codes).toContain(cam.data)
    const camBrowser = await launchWithCamera(cam.path)
    try {
      const desk = await camBrowser.newContext({ storageState: await page.context().storageState(), locale: 'de-DE', viewport: { width: 1024, height: 768 } })
      const d = await desk.newPage()
      await d.goto(`${server.url}/events/${eventId}/checkin`)
      await d.getByRole('button', { name: 'Kamera' }).click()
      await expect(d.getByRole('heading', { name: /Paula Musterfrau/ })).toBeVisible({ timeout: 20_000 })
      await expect(d.getByText(/Nicht bezahlt/)).toHaveCount(0)
      await shot(d, 'door-06-desk-camera-found')
      // the camera read one person's code: that person is admitted (the other has a code of their own)
      await expect(d.getByRole('button', { name: 'Alle einchecken' })).toHaveCount(0)
      await d.locator('.desk-person-scanned').getByRole('button', { name: /einchecken$/ }).click()
      await expect(d.getByText('1 Person eingecheckt.')).toBeVisible()
      await shot(d, 'door-07-desk-camera-checked-in')
      await desk.close()
    } finally {
      await camBrowser.close()
    }

    // a hand scanner: fast keys and Enter while a button has focus; the other person's code admits them
    await page.reload()
    await page.getByRole('button', { name: 'Suchen' }).focus()
    await page.keyboard.type(codes.find((c) => c !== cam.data)!, { delay: 5 })
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: /Paula Musterfrau/ })).toBeVisible()
    await expect(page.getByRole('alert').filter({ hasText: /Bereits eingecheckt/ })).toHaveCount(0)
    await page.locator('.desk-person-scanned').getByRole('button', { name: /einchecken$/ }).click()
    await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
    // the camera's code typed by the hand scanner: that ticket was used already
    await page.getByRole('button', { name: 'Suchen' }).focus()
    await page.keyboard.type(cam.data!, { delay: 5 })
    await page.keyboard.press('Enter')
    await expect(page.getByRole('alert').filter({ hasText: /Bereits eingecheckt/ })).toBeVisible()
    await shot(page, 'door-08-desk-hand-scanner-already')
    // typing the short code printed on the ticket
    await page.reload()
    await deskField(page).fill(short!.toLowerCase())
    await page.getByRole('button', { name: 'Suchen' }).click()
    await expect(page.getByRole('heading', { name: /Paula Musterfrau/ })).toBeVisible()
    await expect(page.getByText(short!)).toBeVisible()
    await shot(page, 'door-09-desk-short-code')

    // the tickets tab: invoice orders get their tickets only once paid
    await page.goto(`${server.url}/events/${eventId}/tickets`)
    const setting = page.getByRole('group', { name: 'Tickets bei Kauf auf Rechnung' })
    await expect(setting.getByLabel('Sofort mit der Bestellung')).toBeChecked()
    await setting.getByLabel('Erst nach Zahlungseingang').check()
    await expect(page.getByText('Gespeichert.')).toBeVisible()
    await expect(setting.getByLabel('Erst nach Zahlungseingang')).toBeChecked()
    await setting.scrollIntoViewIfNeeded()
    await shot(page, 'door-10-tickets-tab-invoice-setting')
    expect(await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/ticketSettings`)).json()).toMatchObject({ invoiceTickets: 'AFTER_PAYMENT' })
  } finally {
    await ctx.close()
  }
})

test('at the door on a phone: an invoice the event wants paid first is refused until the desk records it; a payment at the location is admitted with the amount to collect', async ({ page, server }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const req = page.request
  const { eventId, categoryId } = await paidDoorEvent(req, server)
  const location = await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: { method: 'LOCATION' } })
  const methods = (await (await req.get(`${server.url}/proxy/api/events/${eventId}/paymentMethods`)).json()) as Array<{ id: number }>
  expect((await req.put(`${server.url}/proxy/api/events/${eventId}/paymentMethods`, { data: { ids: [...methods.map((m) => m.id), (await location.json()).id] } })).status()).toBe(200)
  expect((await req.put(`${server.url}/proxy/api/events/${eventId}/ticketSettings`, { data: { invoiceTickets: 'AFTER_PAYMENT' } })).status()).toBe(200)
  // two buyers through the public calls (a separate context: not the organiser's session)
  const buyerCtx = await page.context().browser()!.newContext()
  try {
    for (const [last, method] of [
      ['Rechnung', 'INVOICE'],
      ['Kasse', 'LOCATION'],
    ]) {
      const r = await buyerCtx.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Herr', firstName: 'Theo', lastName: last, email: `theo.${last.toLowerCase()}@example.org`, tickets: [{ categoryId, amount: 1 }] } })
      expect(r.status()).toBe(201)
      const o = `${server.url}/proxy/api/guest/ticketOrder/${(await r.json()).ticketOrderId}`
      await buyerCtx.request.post(`${o}/proceed/invoiceAddress`, { data: { invoiceAddress: { receiver: `Theo ${last}`, street: 'Hafenstraße', streetNumber: '2', postCode: '20459', city: 'Hamburg' } } })
      await buyerCtx.request.post(`${o}/proceed/paymentSelection`, { data: { paymentMethod: method } })
      expect((await (await buyerCtx.request.post(`${o}/proceed/paymentPay`, { data: { paymentMethod: method } })).json()).step).toBe(100)
    }
  } finally {
    await buyerCtx.close()
  }
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${server.url}/events/${eventId}/checkin`)
  // the invoice: refused until paid
  await deskField(page).fill('Rechnung')
  await deskField(page).press('Enter')
  await expect(page.getByText(/Nicht bezahlt: 25,00 € offen/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Theo Rechnung einchecken' })).toBeDisabled()
  await shot(page, 'door-11-desk-invoice-unpaid-phone')
  await page.getByRole('button', { name: 'Zahlung erfassen' }).click()
  await page.getByRole('dialog', { name: 'Zahlung von 25,00 € erfassen' }).getByRole('button', { name: 'Zahlung erfasst' }).click()
  await expect(page.getByRole('button', { name: 'Theo Rechnung einchecken' })).toBeEnabled()
  await page.getByRole('button', { name: 'Theo Rechnung einchecken' }).click()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  // the payment at the location: admitted, the amount to collect shown with the same action
  await deskField(page).fill('Kasse')
  await deskField(page).press('Enter')
  await expect(page.getByText(/Zahlung vor Ort offen: 25,00 €/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Theo Kasse einchecken' })).toBeEnabled()
  await shot(page, 'door-12-desk-location-phone')
  await page.getByRole('button', { name: 'Zahlung erfassen' }).click()
  await page.getByRole('dialog', { name: 'Zahlung von 25,00 € erfassen' }).getByRole('button', { name: 'Zahlung erfasst' }).click()
  await expect(page.getByText(/Zahlung vor Ort offen/)).toHaveCount(0)
  await page.getByRole('button', { name: 'Theo Kasse einchecken' }).click()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  await shot(page, 'door-13-desk-location-paid-phone')
})
