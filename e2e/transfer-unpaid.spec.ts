// Passing a place on needs a valid ticket (issue 20, follow-up of B): the card of an order waiting for
// its transfer does not offer "Platz weitergeben" (its hint promises the new person a ticket by mail,
// which does not exist before the money has come); once the payment is recorded the card offers it.
import { linkIn } from '../server/testing/smtp-sink'
import { buyByTransfer, paidDoorEvent } from './door-purchase'
import { expect, setupAdmin, shot, test } from './fixtures'

test('an unpaid transfer has no "pass on" on the dashboard; after the payment it is offered', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const { eventId, categoryId } = await paidDoorEvent(page.request, server, 'Hafenkonzert', { allowTransfer: true })
  const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const email = 'paula@example.org'
    await buyByTransfer(phone.request, server, eventId, categoryId, { firstName: 'Paula', lastName: 'Musterfrau', email })
    expect((await phone.request.post(`${server.url}/proxy/api/public/visitor/resendMail`, { data: { email } })).ok()).toBe(true)
    const access = await server.smtp.waitFor((m) => m.to.includes(email) && m.text.includes('/guest/dashboard?token='), 15_000)
    const g = await phone.newPage()
    await g.goto(linkIn(access, '/guest/dashboard?token='))
    await expect(g.getByText('Hafenkonzert').first()).toBeVisible()
    await expect(g.getByText('Ihre Tickets erhalten Sie, sobald die Zahlung eingegangen ist.')).toBeVisible()
    await expect(g.getByRole('button', { name: 'Platz weitergeben' })).toHaveCount(0)
    await shot(g, 'transfer-unpaid-01-dashboard-phone')
    // the organiser records the payment (as the desk does): the ticket is valid, passing on is offered
    const reg = (await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/checkin/lookup?search=Musterfrau`)).json()).items[0]
    expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/orders/${reg.payment.orderId}/deskPayment`)).ok()).toBe(true)
    await g.reload()
    await expect(g.getByRole('link', { name: 'Ticket (PDF)' })).toBeVisible()
    await g.getByRole('button', { name: 'Platz weitergeben' }).click()
    await expect(g.getByRole('dialog')).toContainText('Die Person erhält eine E-Mail mit ihrem neuen Ticket.')
    await shot(g, 'transfer-unpaid-02-paid-pass-on-phone')
  } finally {
    await phone.close()
  }
})

test('a cancelled order stays on the dashboard with its state and reason, and its link opens the order', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const { eventId, categoryId } = await paidDoorEvent(page.request, server, 'Hafenkonzert', { allowTransfer: true })
  const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const email = 'carl@example.org'
    await buyByTransfer(phone.request, server, eventId, categoryId, { firstName: 'Carl', lastName: 'Storno', email })
    const reg = (await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/checkin/lookup?search=Storno`)).json()).items[0]
    expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/orders/${reg.payment.orderId}/cancel`)).ok()).toBe(true)
    expect((await phone.request.post(`${server.url}/proxy/api/public/visitor/resendMail`, { data: { email } })).ok()).toBe(true)
    const access = await server.smtp.waitFor((m) => m.to.includes(email) && m.text.includes('/guest/dashboard?token='), 15_000)
    const g = await phone.newPage()
    await g.goto(linkIn(access, '/guest/dashboard?token='))
    await expect(g.getByText('Hier sind noch keine Veranstaltungen.')).toHaveCount(0)
    const card = g.locator('.guest-event').filter({ hasText: 'Hafenkonzert' })
    await expect(card).toBeVisible()
    await expect(card.getByText(/Bestellung storniert · 1 Person/)).toBeVisible()
    await expect(card.getByText('Diese Bestellung wurde storniert: Es gibt keine gültigen Tickets.')).toBeVisible()
    await expect(card.getByRole('button')).toHaveCount(0)
    await expect(card.getByRole('link', { name: 'Ticket (PDF)' })).toHaveCount(0)
    await shot(g, 'transfer-unpaid-03-cancelled-dashboard-phone')
    await g.setViewportSize({ width: 1280, height: 800 })
    await shot(g, 'transfer-unpaid-04-cancelled-dashboard')
    await card.getByRole('link', { name: 'Bestellung ansehen' }).click()
    await expect(g).toHaveURL(/\/pay\//)
    await expect(g.getByText(/storniert/i).first()).toBeVisible()
    await shot(g, 'transfer-unpaid-05-cancelled-pay-page')
  } finally {
    await phone.close()
  }
})
