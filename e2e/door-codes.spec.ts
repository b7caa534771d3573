// Every code einlass prints admits its guest at the desk (issue 20 A): a guest buys two tickets on
// the public page (one for a companion named on the pay page), the ticket PDF from the dashboard holds
// one QR per person. At the desk the main guest's printed QR goes through the camera, the companion's
// through a hand scanner (keys and Enter, typed while the focus is on a button), the dashboard's QR
// (shown on the phone, photographed) through the camera again, and the short code printed on the
// ticket is typed. Each finds the registration. A personal QR admits exactly its person: the companion's
// code, scanned after the main guest is in, admits the companion (no "already in"); the dashboard's QR
// (the main guest's) then says that she is in already, named, as there are two persons in the booking.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { SHOTS } from './fixtures'
import { buyOnPublicPage, expect, mailTo, openDesk, openInNewContext, PHONE, portalLinkIn, registeredCard, sellingEvent, shot, test, downloadTicket } from './door-helpers'

test('two persons: the printed QRs by camera and hand scanner, the dashboard QR and the typed short code all find the guest at the desk', async ({ page, server, browser }) => {
  const slug = 'door-codes'
  const { eventId } = await sellingEvent(page, server, 'INVOICE')
  const email = 'paula.codes@example.org'
  const buyer = await browser.newContext(PHONE)
  const b = await buyer.newPage()
  await buyOnPublicPage(b, server, eventId, { first: 'Paula', email, tickets: 2 })
  await b.getByLabel(/^Straße/).fill('Karl-Liebknecht-Straße')
  await b.getByLabel(/^Hausnummer/).fill('12')
  await b.getByLabel(/^PLZ/).fill('04107')
  await b.getByLabel(/^Ort/).fill('Leipzig')
  await b.getByRole('button', { name: 'Weiter' }).click()
  // the second ticket's person is named on the pay page
  await b.getByLabel(/^Vorname/).fill('Pia')
  await b.getByLabel(/^Nachname/).fill('Begleiterin')
  await b.getByRole('button', { name: 'Weiter' }).click()
  await b.getByRole('button', { name: 'Zahlungspflichtig bestellen (50,00 €)' }).click()
  await expect(b.getByRole('heading', { name: 'Vielen Dank für Ihre Bestellung!' })).toBeVisible()
  await buyer.close()

  const mail = await mailTo(server, email, /^Ihre Bestellung /)
  const { ctx, g, csp } = await openInNewContext(browser, portalLinkIn(mail))
  const ticket = await downloadTicket(g, `${slug}-04-ticket-pdf`, 2)
  const text = spawnSync('pdftotext', ['-layout', ticket.pdf, '-'], { encoding: 'utf8' }).stdout
  for (const s of ['Paula Musterfrau', 'Pia Begleiterin']) expect(text).toContain(s)
  const short = text.match(/Ticket-Code: ([0-9A-Z]{5}-[0-9A-Z]{5})/)![1]
  // the dashboard's QR, as the phone shows it
  await registeredCard(g).getByRole('button', { name: 'Ticket (QR-Code) anzeigen' }).click()
  const qr = registeredCard(g).getByRole('img', { name: /QR/ })
  await expect(qr).toBeVisible()
  await shot(g, `${slug}-05-dashboard-qr-phone`)
  const dashboardPng = join(SHOTS, `${slug}-05-dashboard-qr.png`)
  await qr.screenshot({ path: dashboardPng })
  const [dashboardCode] = spawnSync('zbarimg', ['-q', '--raw', dashboardPng], { encoding: 'utf8' }).stdout.trim().split('\n')
  expect(dashboardCode).toBe(ticket.codes[0])
  expect(csp).toEqual([])
  await ctx.close()

  const desk = await openDesk(page.context(), server, eventId)
  const d = desk.page
  const field = d.getByPlaceholder('Ticket-Code oder Name')
  try {
    // the main guest's printed QR through the camera
    await desk.scan(ticket.png, ticket.codes[0])
    await expect(d.getByRole('heading', { name: 'Paula Musterfrau' })).toBeVisible()
    await expect(d.locator('.desk-person-scanned')).toContainText('Paula Musterfrau')
    await expect(d.getByText('Weitere Personen dieser Buchung – mit diesem Code nicht eingelassen:')).toBeVisible()
    await expect(d.getByRole('button', { name: 'Alle einchecken' })).toHaveCount(0)
    await d.getByRole('button', { name: 'Paula Musterfrau einchecken' }).click()
    await expect(d.getByText('1 Person eingecheckt.')).toBeVisible()
    await expect(d.locator('.desk-in .desk-count')).toHaveText('1')
    // the companion's printed QR through a hand scanner: keys and Enter while a button has the focus;
    // her own code, not used yet: she is the scanned person, nobody is "already in" by it
    await d.getByRole('button', { name: 'Pia Begleiterin einchecken' }).focus()
    await d.keyboard.type(ticket.codes[1], { delay: 5 })
    await d.keyboard.press('Enter')
    await expect(d.locator('.desk-person-scanned')).toContainText('Pia Begleiterin')
    await expect(d.getByRole('alert').filter({ hasText: /Bereits eingecheckt/ })).toHaveCount(0)
    await expect(d.getByRole('button', { name: 'Alle einchecken' })).toHaveCount(0)
    await d.locator('.desk-person-scanned').getByRole('button', { name: 'Pia Begleiterin einchecken' }).click()
    await expect(d.getByText('1 Person eingecheckt.')).toBeVisible()
    await expect(d.locator('.desk-in .desk-count')).toHaveText('2')
    await shot(d, `${slug}-06-desk-both-in`)
    // the dashboard's QR (the main guest's) through the camera: she is in already, said with her name
    await desk.scan(dashboardPng, dashboardCode)
    await expect(d.locator('.desk-person-scanned')).toContainText('Paula Musterfrau')
    await expect(d.getByRole('alert')).toContainText(/^Paula Musterfrau: Bereits eingecheckt um \d\d:\d\d Uhr/)
    // the short code typed names the booking, not a person: everyone is in already
    await field.fill(short.toLowerCase())
    await field.press('Enter')
    await expect(d.getByRole('heading', { name: 'Paula Musterfrau' })).toBeVisible()
    await expect(d.getByRole('alert')).toContainText(/^Bereits eingecheckt um \d\d:\d\d Uhr/)
    await shot(d, `${slug}-07-desk-short-code-already`)
  } finally {
    await desk.close()
  }
})
