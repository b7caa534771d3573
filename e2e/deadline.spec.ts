// Unpaid transfers' payment deadline (issue 21, docs/ticketing.md "Payment deadline"): the organiser
// sets the event's deadline and keeps overdue transfers (no automatic cancel); an order placed just
// before the start gets the start as its deadline, passes it and shows "Überfällig" in the list and
// its filter; the organiser extends it in the dialog (a date after the event's end is refused at the
// field), and the order shows its new deadline, recorded in its history.
import { linkIn } from '../server/testing/smtp-sink'
import { buyByTransfer, paidDoorEvent } from './door-purchase'
import { expect, setupAdmin, shot, test } from './fixtures'

/** "YYYY-MM-DD" and "HH:mm" of an instant in Berlin (the event's zone) */
function berlin(d: Date) {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d).map((x) => [x.type, x.value]))
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` }
}

test('a transfer passes its deadline, shows "Überfällig", and the organiser extends it', async ({ page, server }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  // the event starts in 40 seconds: an order now has the start as its deadline
  const start = new Date(Date.now() + 40_000)
  const end = new Date(start.getTime() + 3 * 3600_000)
  const { eventId, categoryId } = await paidDoorEvent(page.request, server, 'Hafenkonzert', { startDate: start.toISOString(), endDate: end.toISOString() })

  await page.goto(`${server.url}/events/${eventId}/tickets`)
  const settings = page.locator('form.tickets-deadline')
  await expect(settings.getByRole('heading', { name: 'Zahlungsfrist' })).toBeVisible()
  await expect(settings.getByLabel('Zahlungsfrist in Tagen')).toHaveAttribute('placeholder', '14 (Zahlungsziel der Verkaufseinstellungen)')
  await settings.getByLabel('Zahlungsfrist in Tagen').fill('0')
  await settings.getByRole('button', { name: 'Zahlungsfrist speichern' }).click()
  await expect(settings.getByRole('alert')).toBeVisible()
  await settings.getByLabel('Zahlungsfrist in Tagen').fill('10')
  await settings.getByLabel('Unbezahlte Überweisungen nach Ablauf der Frist automatisch stornieren').uncheck()
  await settings.getByRole('button', { name: 'Zahlungsfrist speichern' }).click()
  await expect(page.getByText('Die Zahlungsfrist wurde gespeichert.')).toBeVisible()
  await settings.scrollIntoViewIfNeeded()
  await shot(page, 'deadline-01-settings')
  expect(await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/ticketSettings`)).json()).toMatchObject({ paymentDeadlineDays: 10, cancelOverdue: false })

  const orderId = await buyByTransfer(page.request, server, eventId, categoryId, { firstName: 'Olga', lastName: 'Spät', email: 'olga@example.org' })
  const order = await (await page.request.get(`${server.url}/proxy/api/guest/ticketOrder/${orderId}`)).json()
  const number = order.ticketOrder.number as string

  // the start passes: the order is overdue (the event does not cancel automatically)
  await expect
    .poll(async () => (await (await page.request.post(`${server.url}/proxy/api/events/${eventId}/orders/search`, { data: {} })).json()).items[0].overdue, { timeout: 60_000, intervals: [2000] })
    .toBe(true)
  await page.reload()
  const row = page.getByRole('row', { name: new RegExp(number) })
  await expect(row.getByText('Überfällig')).toBeVisible()
  await expect(row).toContainText(`fällig bis`)
  await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('OVERDUE')
  await expect(page.getByRole('row', { name: new RegExp(number) })).toBeVisible()
  await row.scrollIntoViewIfNeeded()
  await shot(page, 'deadline-02-overdue')

  // the organiser extends it: after the event's end is refused at the field, two hours from now is taken
  await row.getByRole('button', { name: 'Frist verlängern' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText(`Zahlungsfrist für Bestellung ${number} verlängern`)
  await expect(dialog).toContainText('Bisherige Frist:')
  const tooLate = berlin(new Date(end.getTime() + 86400_000))
  await dialog.getByLabel('Neue Frist: Tag').fill(tooLate.day)
  await dialog.getByRole('button', { name: 'Frist verlängern' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Die Frist darf nicht nach dem Ende der Veranstaltung liegen.')
  await shot(page, 'deadline-03-extend-refused')
  const to = berlin(new Date(Date.now() + 2 * 3600_000))
  await dialog.getByLabel('Neue Frist: Tag').fill(to.day)
  await dialog.getByLabel('Uhrzeit').fill(to.time)
  await shot(page, 'deadline-04-extend-dialog')
  await dialog.getByRole('button', { name: 'Frist verlängern' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByText('Die Zahlungsfrist wurde verlängert.')).toBeVisible()
  // no longer overdue: gone from the filter, the list names the new deadline
  await expect(page.getByRole('row', { name: new RegExp(number) })).toHaveCount(0)
  await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('')
  const again = page.getByRole('row', { name: new RegExp(number) })
  await expect(again.getByText('Überfällig')).toHaveCount(0)
  const [d, m, y] = [to.day.slice(8, 10), to.day.slice(5, 7), to.day.slice(0, 4)]
  await expect(again).toContainText(`fällig bis ${d}.${m}.${y}, ${to.time}`)
  await again.scrollIntoViewIfNeeded()
  await shot(page, 'deadline-05-extended')
  const detail = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/orders/${(await (await page.request.post(`${server.url}/proxy/api/events/${eventId}/orders/search`, { data: {} })).json()).items[0].id}`)).json()
  expect(detail.history.at(-1)).toMatchObject({ kind: 'DEADLINE_EXTENDED' })
})

test('a guest asks to cancel a paid order in the portal; the organiser grants it; the refund mail arrives', async ({ page, server, browser }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const { eventId, categoryId } = await paidDoorEvent(page.request, server, 'Hafenkonzert')
  const email = 'greta@example.org'
  const orderId = await buyByTransfer(page.request, server, eventId, categoryId, { firstName: 'Greta', lastName: 'Storno', email })
  const number = (await (await page.request.get(`${server.url}/proxy/api/guest/ticketOrder/${orderId}`)).json()).ticketOrder.number as string
  const listed = (await (await page.request.post(`${server.url}/proxy/api/events/${eventId}/orders/search`, { data: {} })).json()).items[0]
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/orders/${listed.id}/markPaid`, { data: { amount: 2500, paidAt: new Date().toISOString() } })).ok()).toBe(true)

  const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    expect((await phone.request.post(`${server.url}/proxy/api/public/visitor/resendMail`, { data: { email } })).ok()).toBe(true)
    const access = await server.smtp.waitFor((m) => m.to.includes(email) && m.text.includes('/guest/dashboard?token='), 15_000)
    const g = await phone.newPage()
    await g.goto(linkIn(access, '/guest/dashboard?token='))
    const card = g.locator('.guest-event').filter({ hasText: 'Hafenkonzert' })
    await card.getByRole('button', { name: 'Stornierung beantragen' }).click()
    const ask = g.getByRole('dialog')
    await ask.getByRole('button', { name: 'Anfrage senden' }).click()
    await expect(ask.getByRole('alert')).toBeVisible()
    await ask.getByLabel('Grund').fill('Ich bin an dem Abend leider verreist.')
    await shot(g, 'deadline-06-guest-request-phone')
    await ask.getByRole('button', { name: 'Anfrage senden' }).click()
    await expect(g.getByText('Ihre Anfrage wurde gesendet.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(card.getByText(/Stornierung beantragt am/)).toBeVisible()
    await expect(card.getByRole('button', { name: 'Stornierung beantragen' })).toHaveCount(0)
    await shot(g, 'deadline-07-guest-requested-phone')

    // the organiser: the marker, the filter, the dialog, granted
    await page.goto(`${server.url}/events/${eventId}/tickets`)
    await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('REQUESTS')
    const row = page.getByRole('row', { name: new RegExp(number) })
    await expect(row.getByText('Stornierungsanfrage')).toBeVisible()
    await row.getByRole('button', { name: 'Anfrage prüfen' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('Ich bin an dem Abend leider verreist.')
    await shot(page, 'deadline-08-organiser-request')
    await dialog.getByRole('button', { name: 'Erstatten und stornieren' }).click()
    await expect(page.getByText('Die Bestellung wurde erstattet und storniert.')).toBeVisible()
    await expect(page.getByRole('row', { name: new RegExp(number) })).toHaveCount(0)
    await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('')
    await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText('Erstattet')
    await shot(page, 'deadline-09-organiser-granted')

    const refund = await server.smtp.waitFor((m) => m.to.includes(email) && /erstattet/i.test(m.subject), 15_000)
    expect(refund.text).toContain(number)
  } finally {
    await phone.close()
  }
})
