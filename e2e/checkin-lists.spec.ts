// Check-in lists (issue 21): the organiser creates two lists beside the event's check-in settings,
// "Abendkasse" for everyone and "VIP" for the VIP category only. A buyer has one normal and one VIP
// ticket (one QR code per person on the ticket PDF). At the desk on the VIP list the normal ticket's
// code is refused with the reason and its person cannot be checked in; the VIP ticket's code admits
// its person; the counts are the list's. The desk remembers its list; a list with check-ins cannot be
// deleted (the refusal in the dialog). Screenshots: the editor, the desk on a desktop and a phone.
import { buyByTransfer, deskField, paidDoorEvent, scanAtDesk } from './door-purchase'
import { pdfPageToPng, zbarDecode } from './fake-camera'
import { join } from 'node:path'
import { expect, SHOTS, setupAdmin, shot, test } from './fixtures'

test('check-in lists: Abendkasse for all, VIP only for VIP tickets; the desk refuses the normal ticket on the VIP list with the reason and counts per list', async ({ page, server, browser }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const req = page.request
  const { eventId, categoryId: standing } = await paidDoorEvent(req, server, 'Hafengala')
  const vipCat = await req.post(`${server.url}/proxy/api/events/${eventId}/ticketCategories`, { data: { displayName: 'VIP', grossPrice: 9000, taxCode: 'TAX_7' } })
  expect(vipCat.status()).toBe(201)
  const vip = (await vipCat.json()).id as number

  // the organiser: two lists in the event's settings
  await page.goto(`${server.url}/events/${eventId}/edit`)
  const editor = page.locator('.checkin-lists')
  await expect(editor.getByRole('heading', { name: 'Check-in-Listen' })).toBeVisible()
  await expect(editor.getByText('Noch keine Check-in-Listen')).toBeVisible()
  await editor.getByRole('button', { name: 'Liste anlegen', exact: true }).click()
  await editor.getByLabel('Name der Liste').fill('Abendkasse')
  await editor.getByRole('button', { name: 'Liste speichern', exact: true }).click()
  await expect(editor.locator('.checkin-list-item').filter({ hasText: 'Abendkasse' })).toContainText('Alle Kategorien')
  await editor.getByRole('button', { name: 'Liste anlegen', exact: true }).click()
  await editor.getByLabel('Name der Liste').fill('VIP-Lounge')
  await editor.getByRole('checkbox', { name: 'VIP', exact: true }).check()
  await editor.screenshot({ path: join(SHOTS, 'checkin-lists-00-editor-form.png') })
  await editor.getByRole('button', { name: 'Liste speichern', exact: true }).click()
  // renamed: "VIP"
  await editor.getByRole('button', { name: 'VIP-Lounge bearbeiten' }).click()
  await editor.getByLabel('Name der Liste').fill('VIP')
  await editor.getByRole('button', { name: 'Liste speichern', exact: true }).click()
  const vipRow = editor.locator('.checkin-list-item').filter({ hasText: /^VIP/ })
  await expect(vipRow).toContainText('VIP')
  await expect(editor.locator('.checkin-list-item')).toHaveCount(2)
  await editor.screenshot({ path: join(SHOTS, 'checkin-lists-01-editor.png') })
  const lists = (await (await req.get(`${server.url}/proxy/api/events/${eventId}/checkin/lists`)).json()).items as Array<{ id: number; name: string; categoryIds: number[] }>
  expect(lists.map((l) => [l.name, l.categoryIds])).toEqual([
    ['Abendkasse', []],
    ['VIP', [vip]],
  ])

  // the buyer: one normal (Stehplatz) and one VIP ticket, for herself and her companion
  const buyerCtx = await browser.newContext()
  try {
    const r = await buyerCtx.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, {
      data: { salutation: 'Frau', firstName: 'Paula', lastName: 'Musterfrau', email: 'paula@example.org', escortPersons: [{ firstName: 'Pia', lastName: 'Begleiterin' }], tickets: [{ categoryId: standing, amount: 1 }, { categoryId: vip, amount: 1 }] },
    })
    expect(r.status(), await r.text()).toBe(201)
    const o = `${server.url}/proxy/api/guest/ticketOrder/${(await r.json()).ticketOrderId}`
    const address = { receiver: 'Paula Musterfrau', street: 'Hafenstraße', streetNumber: '1', postCode: '20459', city: 'Hamburg' }
    expect((await (await buyerCtx.request.post(`${o}/proceed/invoiceAddress`, { data: { invoiceAddress: address } })).json()).step).toBe(8)
    expect((await (await buyerCtx.request.post(`${o}/proceed/paymentSelection`, { data: { paymentMethod: 'TRANSFER' } })).json()).step).toBe(40)
    expect((await (await buyerCtx.request.post(`${o}/proceed/paymentPay`, { data: { paymentMethod: 'TRANSFER' } })).json()).step).toBe(100)
    // a second guest with a normal ticket only (counted on the Abendkasse, not on VIP)
    await buyByTransfer(buyerCtx.request, server, eventId, standing, { firstName: 'Carl', lastName: 'Normal', email: 'carl@example.org' })
  } finally {
    await buyerCtx.close()
  }
  const lookupOf = async (q: string) => (await (await req.get(`${server.url}/proxy/api/events/${eventId}/checkin/lookup?${q}`)).json()).items[0]
  for (const name of ['Musterfrau', 'Normal']) {
    const reg = await lookupOf(`search=${name}`)
    const paid = await req.post(`${server.url}/proxy/api/events/${eventId}/orders/${reg.payment.orderId}/deskPayment`)
    expect(paid.ok(), await paid.text()).toBe(true)
  }
  // the ticket PDF mailed with the payment: one QR code per person; which one holds the VIP ticket
  const paidMail = await server.smtp.waitFor((m) => m.to.includes('paula@example.org') && m.subject.startsWith('Zahlung erhalten'), 15_000)
  const pdf = paidMail.parsed.attachments.find((a) => /^Ticket/.test(a.filename ?? ''))
  expect(pdf).toBeTruthy()
  const codes = zbarDecode(pdfPageToPng(pdf!.content as Buffer, { dpi: 150 }))
  expect(codes).toHaveLength(2)
  const vipListId = lists[1].id
  let normalCode = ''
  let vipCode = ''
  let vipName = ''
  for (const c of codes) {
    const item = await lookupOf(`code=${encodeURIComponent(c)}&listId=${vipListId}`)
    const p = item.persons.find((x: { person: number }) => x.person === item.scannedPerson)
    if (p.listRefusal) normalCode = c
    else {
      vipCode = c
      vipName = `${p.firstName} ${p.lastName}`
    }
  }
  expect(normalCode && vipCode).toBeTruthy()

  // the desk on the VIP list
  await page.goto(`${server.url}/events/${eventId}/checkin`)
  const chooser = page.getByLabel('Check-in-Liste')
  await expect(chooser).toBeVisible()
  await chooser.selectOption({ label: 'VIP' })
  const counts = page.locator('.desk-counts')
  await expect(counts.locator('> div').nth(0)).toContainText('1')
  await expect(counts.locator('.desk-in')).toContainText('0')
  // the normal ticket's code: refused at once, with the reason; its person cannot be checked in
  await scanAtDesk(page, normalCode)
  await expect(page.getByRole('alert').filter({ hasText: 'Dieses Ticket (Kategorie „Stehplatz“) gilt nicht für „VIP“.' })).toBeVisible()
  await expect(page.locator('.desk-person-scanned .desk-person-refusal')).toHaveText('Dieses Ticket (Kategorie „Stehplatz“) gilt nicht für „VIP“.')
  await expect(page.locator('.desk-person-scanned').getByRole('button', { name: /einchecken$/ })).toBeDisabled()
  await shot(page, 'checkin-lists-02-desk-vip-refused')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'checkin-lists-03-desk-vip-refused-phone')
  await page.setViewportSize({ width: 1280, height: 800 })
  // the VIP ticket's code: admitted
  await scanAtDesk(page, vipCode)
  await expect(page.getByRole('alert')).toHaveCount(0)
  await page.getByRole('button', { name: `${vipName} einchecken` }).click()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  await expect(counts.locator('.desk-in')).toContainText('1')
  await expect(counts.locator('> div').nth(0)).toContainText('1')
  // the other person of the booking (the normal ticket) stays refused on this list after the check-in
  await expect(page.locator('.desk-persons-others .desk-person-refusal')).toHaveText('Dieses Ticket (Kategorie „Stehplatz“) gilt nicht für „VIP“.')
  await expect(page.locator('.desk-persons-others').getByRole('button', { name: /einchecken$/ })).toBeDisabled()
  await shot(page, 'checkin-lists-04-desk-vip-admitted')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'checkin-lists-05-desk-vip-admitted-phone')
  await page.setViewportSize({ width: 1280, height: 800 })
  const listCounts = async (id: number) => (await (await req.get(`${server.url}/proxy/api/events/${eventId}/checkin/counts?listId=${id}`)).json()) as Record<string, number>
  expect(await listCounts(vipListId)).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })

  // the Abendkasse admits everyone: the normal ticket too; its own counts
  await chooser.selectOption({ label: 'Abendkasse' })
  await expect(counts.locator('> div').nth(0)).toContainText('3')
  await expect(counts.locator('.desk-in')).toContainText('0')
  await scanAtDesk(page, normalCode)
  await expect(page.locator('.desk-person-refusal')).toHaveCount(0)
  await page.locator('.desk-person-scanned').getByRole('button', { name: /einchecken$/ }).click()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  await expect(counts.locator('.desk-in')).toContainText('1')
  expect(await listCounts(lists[0].id)).toEqual({ registered: 3, checkedIn: 1, checkedOut: 0 })
  expect(await listCounts(vipListId)).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
  // the desk remembers its list in this browser
  await page.reload()
  await expect(page.getByLabel('Check-in-Liste')).toHaveValue(String(lists[0].id))
  await expect(deskField(page)).toBeVisible()

  // a list with check-ins cannot be deleted: the reason in the dialog, the list stays
  await page.goto(`${server.url}/events/${eventId}/edit`)
  await editor.getByRole('button', { name: 'VIP löschen', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Check-in-Liste löschen' })
  await expect(dialog).toContainText('Die Check-in-Liste „VIP“ löschen?')
  await dialog.getByRole('button', { name: 'Löschen', exact: true }).click()
  await expect(dialog.getByText('Auf dieser Check-in-Liste wurde bereits eingecheckt, deshalb kann sie nicht gelöscht werden.')).toBeVisible()
  await dialog.screenshot({ path: join(SHOTS, 'checkin-lists-06-delete-refused.png') })
  await dialog.getByRole('button', { name: 'Abbrechen', exact: true }).click()
  await expect(editor.locator('.checkin-list-item')).toHaveCount(2)
})
