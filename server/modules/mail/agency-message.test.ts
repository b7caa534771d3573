// An agency mail setting that is not checked OK shows up in app/init's agencyMessages as
// MAIL_SETTINGS_INVALID (the source mail/index.ts registers in system/agency-messages.ts).
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { licenseWith } from '../../testing/organiser'

const LICENSE = licenseWith(['MAIL_CUSTOM'])
const invalidOnes = async (agent: Agent) => ((await agent.get('/proxy/api/app/init')).body.agencyMessages as any[]).filter((m) => m.agencyMessageType === 'MAIL_SETTINGS_INVALID')

forEachDialect(
  'mail settings in the agency messages',
  (h) => {
    test('an INVALID setting is reported with its id and name, an OK one and other agencies’ are not', async () => {
      const admin = await h().admin()
      expect(await invalidOnes(admin)).toEqual([])
      const r = await admin.post('/proxy/api/mailSettings', { type: 'DOMAIN', displayName: 'Eigene Domain', domainName: 'agentur.example', prefix: null })
      expect(r.status).toBe(201)
      expect(await invalidOnes(admin)).toEqual([{ agencyMessageType: 'MAIL_SETTINGS_INVALID', mailSettingsId: r.body.id, displayName: 'Eigene Domain' }])
      const other = await h().admin({ agency: 'Andere Agentur' })
      expect(await invalidOnes(other)).toEqual([])
      await h().ctx.db.updateTable('mail_settings').set({ status: 'OK' }).where('id', '=', r.body.id).execute()
      expect(await invalidOnes(admin)).toEqual([])
    })
  },
  { license: LICENSE },
)
