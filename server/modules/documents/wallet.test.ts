import { expect, test } from 'bun:test'
import { createHash, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose'
import forge from 'node-forge'
import { type Agent, forEachDialect } from '../../testing/harness'
import { createEvent, licenseWith } from '../../testing/organiser'
import { verifyTicketCode } from '../checkin/signed-code'
import { createUser, loginAs } from '../identity/test-helpers'
import { guestWithToken } from './test-helpers'

/** A self-signed stand-in for Apple's WWDR intermediate and a Pass Type ID certificate it issued (node-forge). */
function appleChain(passTypeId = 'pass.org.example.einlass') {
  const keyPem = (k: { privateKey: string; publicKey: string }) => k
  const caKeys = keyPem(generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }))
  const signerKeys = keyPem(generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }))
  const make = (subject: forge.pki.CertificateField[], issuer: forge.pki.CertificateField[], publicPem: string, signingPem: string, ca: boolean, serial: string) => {
    const cert = forge.pki.createCertificate()
    cert.publicKey = forge.pki.publicKeyFromPem(publicPem)
    cert.serialNumber = serial
    cert.validity.notBefore = new Date(Date.now() - 86400_000)
    cert.validity.notAfter = new Date(Date.now() + 365 * 86400_000)
    cert.setSubject(subject)
    cert.setIssuer(issuer)
    cert.setExtensions(ca ? [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true }] : [{ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true }])
    cert.sign(forge.pki.privateKeyFromPem(signingPem), forge.md.sha256.create())
    return forge.pki.certificateToPem(cert)
  }
  const caName = [{ name: 'commonName', value: 'Test WWDR G4' }, { name: 'organizationName', value: 'Test' }]
  const signerName = [{ name: 'commonName', value: `Pass Type ID: ${passTypeId}` }, { type: '0.9.2342.19200300.100.1.1', value: passTypeId }]
  const wwdr = make(caName, caName, caKeys.publicKey, caKeys.privateKey, true, '01')
  const certificate = make(signerName, caName, signerKeys.publicKey, caKeys.privateKey, false, '02')
  // the key as Keychain exports it: encrypted PEM with a passphrase
  const key = forge.pki.encryptRsaPrivateKey(forge.pki.privateKeyFromPem(signerKeys.privateKey), 'Geheim!', { algorithm: 'aes256' })
  return { wwdr, certificate, key, passphrase: 'Geheim!', passTypeId, otherKey: caKeys.privateKey }
}

function googleKey() {
  return generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } })
}

async function run(cmd: string[], cwd?: string) {
  const p = Bun.spawn(cmd, { cwd, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  return { code, out, err }
}

forEachDialect(
  'guest documents: Apple Wallet pass and Google Wallet link',
  (h) => {
    let admin: Agent & { agencyId: number; accountId: number }
    const apple = appleChain()
    const google = googleKey()
    test('setup', async () => {
      admin = await h().admin({ agency: 'Agentur Süd' })
    })

    test('settings: admin only, certificates checked against keys, keys never returned; wallet links only once set up', async () => {
      const e = await createEvent(admin, { displayName: 'Wintergala', primaryColor: '#1E40AF' })
      const g = await guestWithToken(h(), admin, e.id)
      const entry = async () => (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
      expect((await entry()).downloadTokenWallet).toBeUndefined()
      expect((await admin.get('/proxy/api/agency/documentSettings')).body).toEqual({ logoAssetId: null, apple: null, google: null, appleConfigured: false, googleConfigured: false })
      // an editor may not
      const editor = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
      const ed = await loginAs(h(), editor, { accountId: editor.accounts[0].id })
      expect((await ed.get('/proxy/api/agency/documentSettings')).status).toBe(403)
      expect((await ed.put('/proxy/api/agency/documentSettings', {})).status).toBe(403)
      const appleBody = { passTypeId: apple.passTypeId, teamId: 'ABCDE12345', certificate: apple.certificate, key: apple.key, keyPassphrase: apple.passphrase, wwdr: apple.wwdr }
      // a key that does not belong to the certificate, a wrong passphrase, garbage
      for (const bad of [{ key: apple.otherKey, keyPassphrase: '' }, { keyPassphrase: 'falsch' }, { certificate: 'kein Zertifikat' }]) {
        const r = await admin.put('/proxy/api/agency/documentSettings', { apple: { ...appleBody, ...bad } })
        expect(r.status).toBe(400)
        expect(r.body.errorFields[0].errorType).toBe('WALLET_CERTIFICATE_INVALID')
      }
      const badTeam = await admin.put('/proxy/api/agency/documentSettings', { apple: { ...appleBody, teamId: 'x' } })
      expect(badTeam.body.errorFields).toEqual([{ field: 'apple.teamId', errorType: 'INVALID' }])
      expect((await admin.put('/proxy/api/agency/documentSettings', { google: { issuerId: '3388000000012345', serviceAccount: 'wallet@example.iam.gserviceaccount.com', key: 'nope' } })).body.errorFields).toEqual([
        { field: 'google.key', errorType: 'WALLET_CERTIFICATE_INVALID' },
      ])
      const ok = await admin.put('/proxy/api/agency/documentSettings', { apple: appleBody, google: { issuerId: '3388000000012345', serviceAccount: 'wallet@example.iam.gserviceaccount.com', key: google.privateKey } })
      expect(ok.status).toBe(200)
      expect(ok.body).toMatchObject({ appleConfigured: true, googleConfigured: true, apple: { passTypeId: apple.passTypeId, keyStored: true, passphraseStored: true }, google: { keyStored: true } })
      expect(JSON.stringify(ok.body)).not.toContain('PRIVATE KEY')
      const row = await h().ctx.db.selectFrom('document_settings').selectAll().where('agency_id', '=', admin.agencyId).executeTakeFirstOrThrow()
      expect(row.apple_key_sealed).toStartWith('v1.')
      expect(row.apple_key_sealed).not.toContain('PRIVATE')
      // saving again without the keys keeps them
      const again = await admin.put('/proxy/api/agency/documentSettings', { apple: { ...appleBody, key: undefined, keyPassphrase: undefined }, google: { issuerId: '3388000000012345', serviceAccount: 'wallet@example.iam.gserviceaccount.com' } })
      expect(again.body).toMatchObject({ appleConfigured: true, googleConfigured: true })
      const t = await entry()
      expect(t.downloadTokenWallet).toMatch(/^[a-z2-7]{32}$/)
      expect(t.downloadLinkAppleWallet).toBe(`/proxy/api/download/${t.downloadTokenWallet}`)
      expect(t.downloadLinkGoogleWallet).toBe(`/proxy/api/download/${t.downloadTokenWallet}/google`)
      // only Google: no Apple link
      await admin.put('/proxy/api/agency/documentSettings', { google: { issuerId: '3388000000012345', serviceAccount: 'wallet@example.iam.gserviceaccount.com' } })
      const onlyGoogle = await entry()
      expect(onlyGoogle.downloadLinkAppleWallet).toBeUndefined()
      expect(onlyGoogle.downloadLinkGoogleWallet).toBeDefined()
      expect((await h().app.handle(new Request(`http://localhost/proxy/api/download/${t.downloadTokenWallet}`))).status).toBe(404)
    })

    test('the .pkpass: manifest SHA-1 hashes match, the signature verifies against the chain (openssl), the barcode is the signed code', async () => {
      await admin.put('/proxy/api/agency/documentSettings', { apple: { passTypeId: apple.passTypeId, teamId: 'ABCDE12345', certificate: apple.certificate, key: apple.key, keyPassphrase: apple.passphrase, wwdr: apple.wwdr } })
      const e = await createEvent(admin, { displayName: 'Wintergala', primaryColor: '#1E40AF' })
      const g = await guestWithToken(h(), admin, e.id)
      const t = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
      const res = await h().app.handle(new Request(`http://localhost${t.downloadLinkAppleWallet}`))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass')
      expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''Wintergala.pkpass")
      const dir = mkdtempSync(join(tmpdir(), 'einlass-pkpass-'))
      writeFileSync(join(dir, 'pass.pkpass'), new Uint8Array(await res.arrayBuffer()))
      expect((await run(['unzip', '-q', 'pass.pkpass', '-d', 'x'], dir)).code).toBe(0)
      const x = join(dir, 'x')
      const files = readdirSync(x).sort()
      expect(files).toEqual(['icon.png', 'icon@2x.png', 'manifest.json', 'pass.json', 'signature'])
      const manifest = JSON.parse(readFileSync(join(x, 'manifest.json'), 'utf8'))
      expect(Object.keys(manifest).sort()).toEqual(['icon.png', 'icon@2x.png', 'pass.json'])
      for (const [name, hash] of Object.entries(manifest)) expect(createHash('sha1').update(readFileSync(join(x, name))).digest('hex')).toBe(hash as string)
      writeFileSync(join(dir, 'wwdr.pem'), apple.wwdr)
      const v = await run(['openssl', 'smime', '-verify', '-inform', 'DER', '-in', 'x/signature', '-content', 'x/manifest.json', '-CAfile', 'wwdr.pem', '-purpose', 'any', '-out', '/dev/null'], dir)
      expect(v.err).toContain('Verification successful')
      expect(v.code).toBe(0)
      // a changed pass.json no longer matches the signed manifest
      const pass = JSON.parse(readFileSync(join(x, 'pass.json'), 'utf8'))
      expect(pass).toMatchObject({ passTypeIdentifier: apple.passTypeId, teamIdentifier: 'ABCDE12345', organizationName: 'Agentur Süd', description: 'Wintergala', serialNumber: `einlass-${g.id}`, backgroundColor: 'rgb(30,64,175)' })
      expect(pass.eventTicket.primaryFields[0]).toMatchObject({ label: 'Veranstaltung', value: 'Wintergala' })
      expect(pass.eventTicket.auxiliaryFields[0]).toMatchObject({ label: 'Gast', value: 'Grete Gast' })
      const code = pass.barcodes[0].message
      expect(pass.barcodes[0].format).toBe('PKBarcodeFormatQR')
      expect(verifyTicketCode(h().ctx.secrets.signingKey, code)).toMatchObject({ eventId: e.id, visitorId: g.id, person: 0 })
      expect((await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${encodeURIComponent(code)}`)).body.items[0]).toMatchObject({ id: g.id, scannedPerson: 0 })
      // the wallet token never serves a PDF, and a declined registration's pass is gone
      expect((await h().app.handle(new Request(`http://localhost/proxy/api/download/${t.downloadTokenWallet}/ticket`))).status).toBe(404)
      await g.guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: g.id })
      expect((await h().app.handle(new Request(`http://localhost${t.downloadLinkAppleWallet}`))).status).toBe(404)
    })

    test('Google Wallet: a save link with a JWT signed by the service account key, holding the class and the object', async () => {
      await admin.put('/proxy/api/agency/documentSettings', { google: { issuerId: '3388000000012345', serviceAccount: 'wallet@example.iam.gserviceaccount.com', key: google.privateKey } })
      const e = await createEvent(admin, { displayName: 'Frühlingsfest' })
      const g = await guestWithToken(h(), admin, e.id)
      const t = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
      const res = await h().app.handle(new Request(`http://localhost${t.downloadLinkGoogleWallet}`, { redirect: 'manual' }))
      expect(res.status).toBe(302)
      const location = res.headers.get('location')!
      expect(location).toStartWith('https://pay.google.com/gp/v/save/')
      const jwt = location.slice('https://pay.google.com/gp/v/save/'.length)
      expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
      const { payload } = await jwtVerify(jwt, await importSPKI(google.publicKey, 'RS256'), { issuer: 'wallet@example.iam.gserviceaccount.com', audience: 'google' })
      expect(payload.typ).toBe('savetowallet')
      expect(payload.origins).toEqual([h().ctx.config.baseUrl])
      const p = payload.payload as any
      expect(p.eventTicketClasses[0]).toMatchObject({ id: `3388000000012345.einlass-event-${e.id}`, issuerName: 'Agentur Süd', eventName: { defaultValue: { value: 'Frühlingsfest' } }, dateTime: { start: new Date(e.startDate).toISOString() } })
      expect(p.eventTicketObjects[0]).toMatchObject({ id: `3388000000012345.einlass-${g.id}`, classId: `3388000000012345.einlass-event-${e.id}`, state: 'ACTIVE', ticketHolderName: 'Grete Gast', barcode: { type: 'QR_CODE' } })
      expect(verifyTicketCode(h().ctx.secrets.signingKey, p.eventTicketObjects[0].barcode.value)).toMatchObject({ visitorId: g.id, person: 0 })
      // a forged JWT key would not verify
      const other = googleKey()
      await expect(jwtVerify(jwt, await importSPKI(other.publicKey, 'RS256'))).rejects.toThrow()
    })
  },
  { license: licenseWith([], { events: -1 }) },
)
