// Issue 24: the pay page in the guest's language: its texts and its amounts. French with
// MULTI_LANGUAGE writes money as French does ("39,00 €" with a narrow space), Leichte Sprache (offered
// without the feature) has its own words and keeps the agency's German money format.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { testLicenseText } from '../server/testing/license-test-key'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'

/** A paid event (39,00 € a seat, invoice or on site) and a guest's order in it: the order's pay page address. */
async function orderToPay(page: Page, server: Server, language: string): Promise<string> {
  const req = page.request
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Jazznacht', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200 },
  })
  expect(ev.status()).toBe(201)
  const id = (await ev.json()).id as number
  const cat = await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: { displayName: 'Sitzplatz', grossPrice: 3900, taxCode: 'TAX_7' } })
  expect(cat.status()).toBe(201)
  const ids: number[] = []
  for (const m of [{ method: 'INVOICE' }, { method: 'LOCATION' }]) ids.push((await (await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: m })).json()).id)
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids } })).status()).toBe(200)
  const r = await req.post(`${server.url}/proxy/api/public/events/${id}/registrations`, {
    data: { salutation: 'Frau', firstName: 'Élodie', lastName: 'Martin', email: `pay-${language}@example.org`, language, tickets: [{ categoryId: (await cat.json()).id, amount: 1 }] },
  })
  expect(r.status()).toBe(201)
  return `${server.url}/pay/${(await r.json()).ticketOrderId}`
}

/** A guest's browser that chose the language before (the switcher keeps it in the browser). */
async function guestIn(browser: Browser, language: string) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } })
  await ctx.addInitScript((code) => localStorage.setItem('einlass.language', code), language)
  return ctx
}

test.describe('the pay page in French (MULTI_LANGUAGE)', () => {
  let licensed: Server
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-pay-fr-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Agentur Sonnenschein', validUntil: '2031-03-31', features: ['MULTI_LANGUAGE'], limits: { events: -1, guestAccounts: -1, agencyUsers: -1, storageMb: 1024 } }))
    licensed = await startServer({}, { dataDir })
  })
  test.afterAll(async () => {
    await licensed?.stop()
  })

  test('French texts, the amount as French writes it', async ({ page, browser }) => {
    test.setTimeout(90_000)
    await setupAdmin(page, licensed)
    const url = await orderToPay(page, licensed, 'fr')
    const ctx = await guestIn(browser, 'fr')
    try {
      const g = await ctx.newPage()
      await g.goto(url)
      await expect(g.getByText('Votre commande', { exact: true })).toBeVisible()
      await expect(g.getByText('Adresse de facturation').first()).toBeVisible()
      await expect(g.getByText(/Étape 1 sur 3/)).toBeVisible()
      const total = g.getByRole('row', { name: /Total/ })
      await expect(total).toContainText(/39,00\s€/)
      await expect(g.getByText('Gesamt')).toHaveCount(0)
      await shot(g, 'paypage-languages-01-fr-phone')
    } finally {
      await ctx.close()
    }
  })
})

test('the pay page in Leichte Sprache: its own words, the agency\'s money format', async ({ page, server, browser }) => {
  test.setTimeout(90_000)
  await setupAdmin(page, server)
  const url = await orderToPay(page, server, 'de-ls')
  const ctx = await guestIn(browser, 'de-ls')
  try {
    const g = await ctx.newPage()
    await g.goto(url)
    await expect(g.getByText(/Schritt 1 von 3/)).toBeVisible()
    const total = g.getByRole('row', { name: /Zusammen/ })
    await expect(total).toContainText('39,00 €')
    await expect(g.getByRole('row', { name: /Gesamt/ })).toHaveCount(0)
    await shot(g, 'paypage-languages-02-de-ls-phone')
  } finally {
    await ctx.close()
  }
})
