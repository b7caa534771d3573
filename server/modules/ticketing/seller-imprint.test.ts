// One place for the imprint and privacy notice (issue 20, item 26): the seller settings ("Verkauf")
// read and write the agency's imprint and privacy addresses, the same ones "Impressum und Kontakt"
// edits and the guest pages show (docs/ticketing.md, "Seller settings").
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/database'
import { migrateToLatest, migrator } from '../../db/migrate'
import { forEachDialect } from '../../testing/harness'
import { createSchema } from '../../testing/postgres'

forEachDialect('seller settings and imprint share one imprint', (h) => {
  test('entered under Verkauf, shown under Impressum und Kontakt and to guests; and the other way round', async () => {
    const admin = await h().admin()
    const s = await admin.put('/proxy/api/agency/sellerSettings', { name: 'Agentur GmbH', imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz' })
    expect(s.status).toBe(200)
    expect(s.body).toMatchObject({ imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz' })
    const imprint = await admin.get('/proxy/api/agency/imprint')
    expect(imprint.body).toMatchObject({ imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz' })
    const pub = await h().request('GET', `/proxy/api/public/agency/${admin.agencyId}/imprint`)
    expect(pub.body).toMatchObject({ imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz' })

    // changed under Impressum und Kontakt: the seller settings show the change
    expect((await admin.put('/proxy/api/agency/imprint', { imprintText: '<p>Muster GmbH</p>', imprintUrl: 'https://example.org/impressum-neu', privacyText: '<p>Datenschutz</p>', privacyUrl: null })).status).toBe(200)
    expect((await admin.get('/proxy/api/agency/sellerSettings')).body).toMatchObject({ imprintUrl: 'https://example.org/impressum-neu', privacyUrl: null })

    // seller data saved without the imprint keys leaves the imprint as it is
    expect((await admin.put('/proxy/api/agency/sellerSettings', { name: 'Agentur AG' })).status).toBe(200)
    expect((await admin.get('/proxy/api/agency/imprint')).body).toMatchObject({ imprintUrl: 'https://example.org/impressum-neu', imprintText: '<p>Muster GmbH</p>', privacyText: '<p>Datenschutz</p>' })

    // another agency's settings stay apart
    const other = await h().admin()
    expect((await other.get('/proxy/api/agency/sellerSettings')).body).toMatchObject({ imprintUrl: null, privacyUrl: null })
  })
  test('the migration moves addresses entered only under Verkauf to the agency; an address the agency has wins', async () => {
    const dialect = h().dialect
    const dir = mkdtempSync(join(tmpdir(), 'einlass-imprint-'))
    const pg = dialect === 'postgres' ? await createSchema() : null
    const handle = await openDatabase(pg ? { dialect: 'postgres', url: pg.url, schema: pg.schema } : { dialect: 'sqlite', path: join(dir, 'old.sqlite') })
    try {
      const db = handle.db as any
      expect((await migrator(db).migrateTo('2026-11-27-710_refund_status')).error).toBeUndefined()
      const a = await db.insertInto('agency').values({ display_name: 'Nur Verkauf' }).returning('id').executeTakeFirstOrThrow()
      const b = await db.insertInto('agency').values({ display_name: 'Beides', imprint_url: 'https://b.example/impressum' }).returning('id').executeTakeFirstOrThrow()
      const c = await db.insertInto('agency').values({ display_name: 'Ohne', privacy_url: 'https://c.example/datenschutz' }).returning('id').executeTakeFirstOrThrow()
      await db.insertInto('seller_settings').values({ agency_id: a.id, imprint_url: 'https://a.example/impressum', privacy_url: 'https://a.example/datenschutz' }).execute()
      await db.insertInto('seller_settings').values({ agency_id: b.id, imprint_url: 'https://b.example/alt', privacy_url: 'https://b.example/datenschutz' }).execute()
      await migrateToLatest(db)
      const rows = await db.selectFrom('agency').select(['id', 'imprint_url', 'privacy_url']).orderBy('id').execute()
      expect(rows).toEqual([
        { id: a.id, imprint_url: 'https://a.example/impressum', privacy_url: 'https://a.example/datenschutz' },
        { id: b.id, imprint_url: 'https://b.example/impressum', privacy_url: 'https://b.example/datenschutz' },
        { id: c.id, imprint_url: null, privacy_url: 'https://c.example/datenschutz' },
      ])
    } finally {
      await handle.close()
      await pg?.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
