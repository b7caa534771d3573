// The guest's documents: the organiser sets up the document settings card (logo, Apple Wallet with a
// self-signed chain; a wrong key is refused at the field), then a guest on a phone who came in through
// the invitation mail downloads the ticket PDF, the calendar entry and the wallet pass from the links
// of their dashboard entry. The PDF is read back (pdftotext, zbarimg) and its first page is rendered
// to a PNG beside the screenshots for people to look at.
import { expect } from '@playwright/test'
import { generateKeyPairSync } from 'node:crypto'
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { deflateSync } from 'node:zlib'
import forge from 'node-forge'
import { SHOTS, setupAdmin, shot, test, watchCsp } from './fixtures'
import { mailLink } from './identity-helpers'

function selfSignedChain(passTypeId: string) {
  const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })
  const ca = pair()
  const signer = pair()
  const make = (subject: forge.pki.CertificateField[], issuer: forge.pki.CertificateField[], pub: string, signWith: string, isCa: boolean) => {
    const c = forge.pki.createCertificate()
    c.publicKey = forge.pki.publicKeyFromPem(pub)
    c.serialNumber = isCa ? '01' : '02'
    c.validity.notBefore = new Date(Date.now() - 86400_000)
    c.validity.notAfter = new Date(Date.now() + 365 * 86400_000)
    c.setSubject(subject)
    c.setIssuer(issuer)
    c.setExtensions([{ name: 'basicConstraints', cA: isCa }])
    c.sign(forge.pki.privateKeyFromPem(signWith), forge.md.sha256.create())
    return forge.pki.certificateToPem(c)
  }
  const caName = [{ name: 'commonName', value: 'Test WWDR G4' }]
  return {
    wwdr: make(caName, caName, ca.publicKey, ca.privateKey, true),
    certificate: make([{ name: 'commonName', value: `Pass Type ID: ${passTypeId}` }], caName, signer.publicKey, ca.privateKey, false),
    key: signer.privateKey,
    wrongKey: ca.privateKey,
  }
}

/** A small logo: a blue square with a white band (PNG written by hand, no image library). */
function logoPng(size = 96): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (b: Buffer) => {
    let c = 0xffffffff
    for (const x of b) c = crcTable[(c ^ x) & 255] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const td = Buffer.concat([Buffer.from(type), data])
    const out = Buffer.alloc(8 + data.length + 4)
    out.writeUInt32BE(data.length, 0)
    td.copy(out, 4)
    out.writeUInt32BE(crc(td), 8 + data.length)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  const rows: Buffer[] = []
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3)
    const band = y > size * 0.42 && y < size * 0.58
    for (let x = 0; x < size; x++) row.set(band ? [255, 255, 255] : [30, 64, 175], 1 + x * 3)
    rows.push(row)
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))])
}

test('documents: the organiser sets up logo and Apple Wallet; a guest on a phone downloads ticket, calendar entry and pass', async ({ page, server, browser }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server, { agency: 'Agentur Sonnenschein' })
  const api = async (method: 'post' | 'get', path: string, data?: unknown) => {
    const r = await page.request[method](`${server.url}${path}`, data === undefined ? undefined : { data })
    expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true)
    return r.json()
  }

  // the settings card, as the administrator sees it
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`${server.url}/account/settings`)
  const card = page.locator('.doc-settings')
  await expect(card.getByRole('heading', { name: 'Dokumente und Wallet' })).toBeVisible()
  await expect(card.getByText('Nicht eingerichtet')).toHaveCount(2)
  await card.getByLabel('Logo auf Tickets und Namensschildern (PNG oder JPEG)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() })
  await expect(card.locator('.doc-settings-logo img')).toBeVisible()
  const chain = selfSignedChain('pass.org.example.sonnenschein')
  await card.getByLabel('Apple Wallet anbieten').check()
  await card.getByLabel('Pass Type ID').fill('pass.org.example.sonnenschein')
  await card.getByLabel('Team ID').fill('ABCDE12345')
  await card.getByLabel('Pass-Type-Zertifikat (PEM)').fill(chain.certificate)
  await card.getByLabel('Privater Schlüssel (PEM)').fill(chain.wrongKey)
  await card.getByLabel('Apple WWDR-Zwischenzertifikat (PEM)').fill(chain.wwdr)
  await card.getByRole('button', { name: 'Speichern' }).click()
  await expect(card.getByText('Zertifikat oder Schlüssel sind ungültig.')).toBeVisible()
  await shot(page, 'guest-docs-01-settings-wrong-key')
  await card.getByLabel('Privater Schlüssel (PEM)').fill(chain.key)
  await card.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Die Einstellungen wurden gespeichert.')).toBeVisible()
  await expect(card.locator('legend', { hasText: 'Apple Wallet' }).getByText('Eingerichtet')).toBeVisible()
  await expect(card.getByLabel('Privater Schlüssel (PEM)')).toHaveAttribute('placeholder', 'Gespeichert – zum Ersetzen neu einfügen')
  await shot(page, 'guest-docs-02-settings-saved')

  // a registered guest with an escort, who came in through the invitation mail
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const event = await api('post', '/proxy/api/events', {
    displayName: 'Sommerfest am Fluss',
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(),
    timezone: 'Europe/Berlin',
    locationName: 'Halle 7',
    street: 'Uferstraße',
    streetNumber: '12',
    postCode: '28195',
    city: 'Bremen',
    primaryColor: '#1E40AF',
  })
  const v = await api('post', `/proxy/api/events/${event.id}/visitors`, { salutation: 'Frau', firstName: 'Grete', lastName: 'Gäßler', email: 'grete@example.org', escortPersons: [{ firstName: 'Jörg', lastName: 'Müller' }] })
  await api('post', `/proxy/api/events/${event.id}/visitors/${v.id}/invite`, {})
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, acceptDownloads: true })
  const g = await phone.newPage()
  const csp = watchCsp(g)
  await g.goto(await mailLink(server, 'grete@example.org', /Sommerfest/, '/guest/dashboard?token='))
  await expect(g).toHaveURL(/\/guest\/dashboard$/)
  const gapi = async (method: 'post' | 'get', path: string, data?: unknown) => {
    const r = await g.request[method](`${server.url}${path}`, data === undefined ? undefined : { data })
    expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true)
    return r.json()
  }
  await gapi('post', `/proxy/api/guest/events/${event.id}/activate`, { visitor: v.id })
  const entry = (await gapi('get', '/proxy/api/guest/events')).confirmedEvents.find((x: any) => x.id === v.id)
  expect(Object.keys(entry.tokens).sort()).toEqual(['downloadLinkAppleWallet', 'downloadLinkIcs', 'downloadLinkNameTags', 'downloadLinkTicket', 'downloadToken', 'downloadTokenIcs', 'downloadTokenWallet'])
  await g.reload()
  await shot(g, 'guest-docs-03-phone-dashboard')

  // the guest taps each link; the browser downloads the file under its German name
  const tap = async (href: string) => {
    await g.evaluate((h) => {
      const a = document.createElement('a')
      a.href = h
      a.textContent = 'download'
      a.id = 'doc-link'
      document.body.append(a)
    }, href)
    const [download] = await Promise.all([g.waitForEvent('download'), g.locator('#doc-link').tap()])
    await g.evaluate(() => document.getElementById('doc-link')?.remove())
    const dir = mkdtempSync(join(tmpdir(), 'einlass-dl-'))
    const file = join(dir, download.suggestedFilename())
    await download.saveAs(file)
    return { name: download.suggestedFilename(), file }
  }
  const ticket = await tap(entry.tokens.downloadLinkTicket)
  expect(ticket.name).toBe('Ticket Sommerfest am Fluss.pdf')
  const text = spawnSync('pdftotext', ['-layout', ticket.file, '-'], { encoding: 'utf8' }).stdout
  for (const s of ['TICKET', 'Sommerfest am Fluss', 'Uferstraße 12', '28195 Bremen', 'Agentur Sonnenschein', 'Grete Gäßler', 'Jörg Müller', 'Begleitperson 1', 'Bitte zeigen Sie diesen Code beim Einlass vor.']) expect(text).toContain(s)
  const png = join(SHOTS, 'guest-docs-04-ticket-pdf')
  expect(spawnSync('pdftoppm', ['-png', '-r', '110', '-singlefile', ticket.file, png]).status).toBe(0)
  const codes = spawnSync('zbarimg', ['-q', '--raw', `${png}.png`], { encoding: 'utf8' }).stdout.trim().split('\n').sort()
  expect(codes).toHaveLength(2)
  for (const c of codes) expect(c).toMatch(/^E1-[0-9A-Z]+-[0-9A-Z]+-[0-9A-Z]+-[0-9A-Z]{4}-[0-9A-Z]{16}$/)
  // the desk accepts the scanned escort code
  const look = await api('get', `/proxy/api/events/${event.id}/checkin/lookup?code=${encodeURIComponent(codes[1])}`)
  expect(look.items[0]).toMatchObject({ id: v.id })
  const ics = await tap(entry.tokens.downloadLinkIcs)
  expect(ics.name).toBe('Sommerfest am Fluss.ics')
  const icsText = spawnSync('cat', [ics.file], { encoding: 'utf8' }).stdout
  expect(icsText).toContain('METHOD:PUBLISH')
  expect(icsText).toContain(`UID:einlass-${v.id}-${event.id}@`)
  expect(icsText).toMatch(/DTSTART;TZID=Europe\/Berlin:\d{8}T\d{6}/)
  const pass = await tap(entry.tokens.downloadLinkAppleWallet)
  expect(pass.name).toBe('Sommerfest am Fluss.pkpass')
  const dir = mkdtempSync(join(tmpdir(), 'einlass-pass-'))
  expect(spawnSync('unzip', ['-q', pass.file, '-d', dir]).status).toBe(0)
  writeFileSync(join(dir, 'wwdr.pem'), chain.wwdr)
  const verify = spawnSync('openssl', ['smime', '-verify', '-inform', 'DER', '-in', join(dir, 'signature'), '-content', join(dir, 'manifest.json'), '-CAfile', join(dir, 'wwdr.pem'), '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' })
  expect(verify.stderr).toContain('Verification successful')
  copyFileSync(join(dir, 'icon@2x.png'), join(SHOTS, 'guest-docs-05-pass-icon.png'))
  expect(csp).toEqual([])
  await phone.close()
})
