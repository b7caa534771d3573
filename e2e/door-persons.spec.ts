// At the door, one QR code per person (issue 20, follow-up of A): a booking of two (the buyer and her
// companion) has a QR code for each on the ticket PDF. A scanned code admits exactly its person: the
// main guest's code scanned again says "Bereits eingecheckt" (with the sound) and does not let the
// companion in; the companion's own code then admits the companion. The desk's badges say what matters
// at the door: "Nicht bezahlt" for a ticket whose money has not come, "Storniert"/"Erstattet" for a
// cancelled or refunded order (not "Gelöscht"). Codes are typed as a hand scanner does (code + Enter).
import { buyByTransfer, deskField, paidDoorEvent, scanAtDesk } from './door-purchase'
import { pdfPageToPng, zbarDecode } from './fake-camera'
import { linkIn } from '../server/testing/smtp-sink'
import { expect, setupAdmin, shot, test } from './fixtures'

test('at the door: a personal QR code admits its person only; scanned again it says already checked in; the badges say unpaid, cancelled, refunded', async ({ page, server, browser }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const req = page.request
  const { eventId, categoryId } = await paidDoorEvent(req, server)
  const buyerCtx = await browser.newContext()
  try {
    await buyByTransfer(buyerCtx.request, server, eventId, categoryId, { firstName: 'Paula', lastName: 'Musterfrau', email: 'paula@example.org', escortPersons: [{ firstName: 'Pia', lastName: 'Begleiterin' }] })
    await buyByTransfer(buyerCtx.request, server, eventId, categoryId, { firstName: 'Carl', lastName: 'Storno', email: 'carl@example.org' })
    await buyByTransfer(buyerCtx.request, server, eventId, categoryId, { firstName: 'Erna', lastName: 'Erstattung', email: 'erna@example.org' })
    // registered with a ticket, but left before paying: a guest may still withdraw that
    const w = await buyerCtx.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Herr', firstName: 'Walter', lastName: 'Widerruf', email: 'walter@example.org', tickets: [{ categoryId, amount: 1 }] } })
    expect(w.status()).toBe(201)
  } finally {
    await buyerCtx.close()
  }
  const counts = async () => (await (await req.get(`${server.url}/proxy/api/events/${eventId}/checkin/counts`)).json()) as { checkedIn: number }
  const lookupOf = async (q: string) => (await (await req.get(`${server.url}/proxy/api/events/${eventId}/checkin/lookup?${q}`)).json()).items[0]

  // unpaid: a warning badge beside the refusal, not the green "Angemeldet"
  await page.goto(`${server.url}/events/${eventId}/checkin`)
  await scanAtDesk(page, 'Musterfrau')
  const head = page.locator('.desk-guest-head')
  await expect(page.getByRole('heading', { name: /Paula Musterfrau/ })).toBeVisible()
  await expect(page.getByText(/Nicht bezahlt: 50,00 € offen/)).toBeVisible()
  await expect(head.getByText('Nicht bezahlt', { exact: true })).toBeVisible()
  await expect(head.getByText('Angemeldet', { exact: true })).toHaveCount(0)
  await shot(page, 'door-persons-01-desk-unpaid-badge')
  await page.getByRole('button', { name: 'Zahlung erfassen' }).click()
  await page.getByRole('dialog', { name: 'Zahlung von 50,00 € erfassen' }).getByRole('button', { name: 'Zahlung erfasst' }).click()
  await expect(head.getByText('Angemeldet', { exact: true })).toBeVisible()

  // the ticket PDF mailed with the payment: one QR code per person
  const paidMail = await server.smtp.waitFor((m) => m.to.includes('paula@example.org') && m.subject.startsWith('Zahlung erhalten'), 15_000)
  const pdf = paidMail.parsed.attachments.find((a) => /^Ticket/.test(a.filename ?? ''))
  expect(pdf).toBeTruthy()
  const codes = zbarDecode(pdfPageToPng(pdf!.content as Buffer, { dpi: 150 }))
  expect(codes).toHaveLength(2)
  const byPerson = new Map<number, string>()
  for (const c of codes) byPerson.set((await lookupOf(`code=${encodeURIComponent(c)}`)).scannedPerson, c)
  const main = byPerson.get(0)!
  const companion = byPerson.get(1)!
  expect(main && companion).toBeTruthy()

  // the main guest's code: only Paula is admitted by it; Pia is shown apart
  await page.reload()
  await scanAtDesk(page, main)
  await expect(page.getByRole('heading', { name: /Paula Musterfrau/ })).toBeVisible()
  await expect(page.getByText('Weitere Personen dieser Buchung – mit diesem Code nicht eingelassen:')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Alle einchecken' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Paula Musterfrau einchecken' }).click()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  expect((await counts()).checkedIn).toBe(1)
  // the same code again: already used, said prominently; the companion stays out
  await scanAtDesk(page, main)
  const already = page.getByRole('alert').filter({ hasText: /Bereits eingecheckt um/ })
  await expect(already).toBeVisible()
  await expect(already).not.toContainText('von 2 Personen')
  await expect(page.getByRole('button', { name: 'Alle einchecken' })).toHaveCount(0)
  await expect(page.locator('.desk-person-scanned')).toContainText('Paula Musterfrau')
  await shot(page, 'door-persons-02-desk-main-again')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'door-persons-03-desk-main-again-phone')
  await page.setViewportSize({ width: 1280, height: 800 })
  expect((await counts()).checkedIn).toBe(1)

  // the companion's own code: not used yet, admits Pia
  await scanAtDesk(page, companion)
  await expect(page.getByRole('heading', { name: /Paula Musterfrau/ })).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: /Bereits eingecheckt/ })).toHaveCount(0)
  await expect(page.locator('.desk-person-scanned')).toContainText('Pia Begleiterin')
  await shot(page, 'door-persons-04-desk-companion')
  await page.getByRole('button', { name: 'Pia Begleiterin einchecken' }).click()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  expect((await counts()).checkedIn).toBe(2)
  await scanAtDesk(page, companion)
  await expect(page.getByRole('alert').filter({ hasText: /Pia Begleiterin: Bereits eingecheckt um/ })).toBeVisible()

  // cancelled and refunded orders: their state, not "Gelöscht"
  const carl = await lookupOf('search=Storno')
  expect((await req.post(`${server.url}/proxy/api/events/${eventId}/orders/${carl.payment.orderId}/cancel`)).ok()).toBe(true)
  const erna = await lookupOf('search=Erstattung')
  expect((await req.post(`${server.url}/proxy/api/events/${eventId}/orders/${erna.payment.orderId}/deskPayment`)).ok()).toBe(true)
  const refund = await req.post(`${server.url}/proxy/api/events/${eventId}/orders/${erna.payment.orderId}/refund`)
  expect(refund.ok(), await refund.text()).toBe(true)
  // a cancelled registration is no longer found by name: its printed code is what reaches the desk
  await scanAtDesk(page, carl.ticketCode)
  await expect(page.getByRole('heading', { name: /Carl Storno/ })).toBeVisible()
  await expect(head.getByText('Storniert', { exact: true })).toBeVisible()
  await expect(head.getByText('Gelöscht', { exact: true })).toHaveCount(0)
  await shot(page, 'door-persons-05-desk-cancelled')
  await scanAtDesk(page, erna.ticketCode)
  await expect(page.getByRole('heading', { name: /Erna Erstattung/ })).toBeVisible()
  await expect(head.getByText('Erstattet', { exact: true })).toBeVisible()
  await expect(head.getByText('Gelöscht', { exact: true })).toHaveCount(0)
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'door-persons-06-desk-refunded-phone')

  // a guest who withdrew: the reason at the door is the withdrawal, not "the order was cancelled"
  const walter = await lookupOf('search=Widerruf')
  const guestCtx = await browser.newContext()
  try {
    expect((await guestCtx.request.post(`${server.url}/proxy/api/public/visitor/resendMail`, { data: { email: 'walter@example.org' } })).ok()).toBe(true)
    const access = await server.smtp.waitFor((m) => m.to.includes('walter@example.org') && m.text.includes('/guest/dashboard?token='), 15_000)
    const g = await guestCtx.newPage()
    await g.goto(linkIn(access, '/guest/dashboard?token='))
    await expect(g.getByText('Hafenkonzert').first()).toBeVisible()
    const rejected = await g.request.post(`${server.url}/proxy/api/guest/events/${eventId}/reject`, { data: { visitor: walter.id, reason: 'Termin verschoben' } })
    expect(rejected.ok(), await rejected.text()).toBe(true)
  } finally {
    await guestCtx.close()
  }
  await scanAtDesk(page, 'Widerruf')
  await expect(page.getByRole('heading', { name: /Walter Widerruf/ })).toBeVisible()
  await expect(page.getByText('Der Gast hat seine Anmeldung zurückgezogen: kein Einlass.')).toBeVisible()
  await expect(page.getByText(/wurde storniert/)).toHaveCount(0)
  await shot(page, 'door-persons-07-desk-withdrawn-phone')
  await expect(deskField(page)).toBeVisible()
})
