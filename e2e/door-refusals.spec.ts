// The refusals at the door (issue 20 D): a guest holds a real printed ticket (bought on the public
// page, downloaded from the dashboard the order mail links to, its QR decoded from the rendered PDF),
// then the ticket stops being valid — refunded, cancelled by the organiser, passed on to someone
// else, withdrawn by the guest — and the desk's camera, filming that same printed page, refuses it
// with the reason; the dashboard and the old download link no longer hand the ticket out. The unpaid
// transfer's refusal is part of the transfer journey (door-journeys.spec.ts).
import { type Browser, type Page } from '@playwright/test'
import { buy, downloadTicket, EVENT_NAME, expect, expectNobodyIn, expectRefused, mailTo, openDesk, openInNewContext, portalLinkIn, registeredCard, sellingEvent, shot, test, TICKET_MAIL, ticketFromMail, type Method } from './door-helpers'
import type { Server } from './fixtures'

/** Buys and downloads the ticket; answers the printed ticket, the old download link and the guest's open dashboard. */
async function holder(page: Page, server: Server, browser: Browser, method: Method, slug: string) {
  const { eventId } = await sellingEvent(page, server, method)
  const email = `paula.${slug}@example.org`
  await buy(browser, server, eventId, method, { first: 'Paula', email }, slug)
  const got = await ticketFromMail(browser, server, email, TICKET_MAIL[method], slug)
  return { eventId, email, ...got }
}

/** The old download link no longer serves the ticket. */
async function expectTicketGone(page: Page, download: string) {
  const r = await page.request.get(download)
  expect(r.status()).toBe(404)
}

/** The organiser's order row on the event's Tickets tab. */
async function orderRow(page: Page, server: Server, eventId: number) {
  await page.goto(`${server.url}/events/${eventId}/tickets`)
  const row = page.getByRole('row', { name: /Paula/ }).first()
  await expect(row).toBeVisible()
  return row
}

test('refunded: the card payment is refunded through Stripe; the printed QR is refused at the desk', async ({ page, server, browser }) => {
  const slug = 'door-refunded'
  const h = await holder(page, server, browser, 'STRIPE', slug)
  const row = await orderRow(page, server, h.eventId)
  await row.getByRole('button', { name: 'Über Zahlungsdienst erstatten' }).click()
  await page.getByRole('dialog', { name: /Über Zahlungsdienst erstatten/ }).getByRole('button', { name: 'Erstatten' }).click()
  await expect(page.getByText('Die Erstattung wurde beim Zahlungsdienst ausgelöst.')).toBeVisible()
  await expect(row).toContainText('Erstattet')
  await mailTo(server, h.email, /^Bestellung erstattet: /)

  // the guest's dashboard no longer offers the ticket, the old link serves none
  await h.g.reload()
  await expect(h.g.getByRole('heading', { name: 'Meine Veranstaltungen' })).toBeVisible()
  await expect(registeredCard(h.g)).toHaveCount(0)
  await expect(h.g.getByRole('link', { name: 'Ticket (PDF)' })).toHaveCount(0)
  await shot(h.g, `${slug}-05-dashboard-phone`)
  await expectTicketGone(page, h.download)
  expect(h.csp).toEqual([])
  await h.ctx.close()

  const desk = await openDesk(page.context(), server, h.eventId)
  try {
    await desk.scan(h.ticket.png, h.ticket.code)
    await expectRefused(desk.page, 'Paula Musterfrau', /^Die Bestellung [A-Z2-9]{8} wurde erstattet: kein gültiges Ticket\./)
    await shot(desk.page, `${slug}-06-desk-refuses`)
  } finally {
    await desk.close()
  }
})

test('cancelled: the organiser cancels the order bought on invoice; the printed QR is refused at the desk', async ({ page, server, browser }) => {
  const slug = 'door-cancelled'
  const h = await holder(page, server, browser, 'INVOICE', slug)
  const row = await orderRow(page, server, h.eventId)
  await row.getByRole('button', { name: 'Stornieren' }).click()
  await page.getByRole('dialog', { name: /^Bestellung .+ stornieren$/ }).getByRole('button', { name: 'Stornieren', exact: true }).click()
  await expect(page.getByText('Die Bestellung wurde storniert.')).toBeVisible()
  await expect(row).toContainText('Storniert')
  await mailTo(server, h.email, /^Bestellung storniert: /)

  await h.g.reload()
  await expect(h.g.getByRole('heading', { name: 'Meine Veranstaltungen' })).toBeVisible()
  await expect(registeredCard(h.g)).toHaveCount(0)
  await shot(h.g, `${slug}-05-dashboard-phone`)
  await expectTicketGone(page, h.download)
  await h.ctx.close()

  const desk = await openDesk(page.context(), server, h.eventId)
  try {
    await desk.scan(h.ticket.png, h.ticket.code)
    await expectRefused(desk.page, 'Paula Musterfrau', /^Die Bestellung [A-Z2-9]{8} wurde storniert: kein gültiges Ticket\./)
    await shot(desk.page, `${slug}-06-desk-refuses`)
  } finally {
    await desk.close()
  }
})

test('withdrawn: the guest withdraws from a free order on the dashboard; the printed QR is refused at the desk', async ({ page, server, browser }) => {
  const slug = 'door-withdrawn'
  const h = await holder(page, server, browser, 'COUPON', slug)
  await registeredCard(h.g).getByRole('button', { name: 'Teilnahme zurückziehen' }).click()
  await h.g.getByRole('dialog', { name: 'Teilnahme zurückziehen' }).getByRole('button', { name: 'Teilnahme zurückziehen' }).click()
  await expect(h.g.getByText('Ihre Teilnahme wurde zurückgezogen.')).toBeVisible()
  await h.g.getByRole('button', { name: 'OK' }).click()
  await expect(registeredCard(h.g)).toHaveCount(0)
  await shot(h.g, `${slug}-05-dashboard-phone`)
  await expectTicketGone(page, h.download)
  await h.ctx.close()

  const desk = await openDesk(page.context(), server, h.eventId)
  try {
    await desk.scan(h.ticket.png, h.ticket.code)
    // the free order went with the withdrawal, but the reason at the door is the withdrawal itself
    // (docs/organiser.md, desk badges), not "the order was cancelled"
    await expectRefused(desk.page, 'Paula Musterfrau', /^Der Gast hat seine Anmeldung zurückgezogen: kein Einlass\.$/)
    await shot(desk.page, `${slug}-06-desk-refuses`)
  } finally {
    await desk.close()
  }
})

test('passed on: the old printed QR is refused at the desk, the new guest’s ticket from her mail admits her', async ({ page, server, browser }) => {
  const slug = 'door-passed-on'
  const h = await holder(page, server, browser, 'INVOICE', slug)
  await registeredCard(h.g).getByRole('button', { name: 'Platz weitergeben' }).click()
  const dialog = h.g.getByRole('dialog', { name: 'Platz an eine andere Person weitergeben' })
  await dialog.getByLabel('Vorname').fill('Greta')
  await dialog.getByLabel('Nachname').fill('Gastfreund')
  await dialog.getByLabel('E-Mail-Adresse').fill('greta@example.org')
  await dialog.getByRole('button', { name: 'Platz weitergeben' }).click()
  await expect(h.g.getByText('Ihr Platz wurde an Greta Gastfreund weitergegeben.')).toBeVisible()
  await h.g.getByRole('button', { name: 'OK' }).click()
  await expect(registeredCard(h.g)).toHaveCount(0)
  await expectTicketGone(page, h.download)
  await h.ctx.close()

  // Greta's mail links to her dashboard, where her own ticket waits
  const mail = await mailTo(server, 'greta@example.org', new RegExp(`^Ein Platz bei „${EVENT_NAME}“ für Sie`))
  const greta = await openInNewContext(browser, portalLinkIn(mail))
  await expect(registeredCard(greta.g).getByRole('link', { name: 'Ticket (PDF)' })).toBeVisible()
  await shot(greta.g, `${slug}-05-new-guest-dashboard-phone`)
  const hers = await downloadTicket(greta.g, `${slug}-05-new-guest-ticket-pdf`)
  expect(hers.code).not.toBe(h.ticket.code)
  expect(greta.csp).toEqual([])
  await greta.ctx.close()

  const desk = await openDesk(page.context(), server, h.eventId)
  const d = desk.page
  try {
    // Paula's printed page: no ticket any more
    await desk.scan(h.ticket.png, h.ticket.code)
    await expect(d.getByRole('alert')).toHaveText('Zu diesem Code gibt es kein Ticket.')
    await expect(d.getByRole('heading', { name: 'Paula Musterfrau' })).toHaveCount(0)
    await expectNobodyIn(d)
    await shot(d, `${slug}-06-desk-refuses-old-qr`)
    // Greta's: admitted
    await desk.scan(hers.png, hers.code)
    await expect(d.getByRole('heading', { name: 'Greta Gastfreund' })).toBeVisible()
    await d.getByRole('button', { name: 'Greta Gastfreund einchecken' }).click()
    await expect(d.getByText('1 Person eingecheckt.')).toBeVisible()
    await shot(d, `${slug}-07-desk-admits-new-guest`)
  } finally {
    await desk.close()
  }
})
