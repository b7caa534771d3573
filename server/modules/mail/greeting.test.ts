import { describe, expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest } from '../../testing/organiser'
import { mailGreeting } from './greeting'

describe('mail greeting', () => {
  test('German letters greet by salutation and last name, neutrally without a gendered salutation', () => {
    expect(mailGreeting('de', { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker' })).toBe('Sehr geehrte Frau Becker,')
    expect(mailGreeting('de', { salutation: 'Herr', firstName: 'Jan', lastName: 'Becker' })).toBe('Sehr geehrter Herr Becker,')
    expect(mailGreeting('de', { salutation: 'Herr', title: 'Dr.', firstName: 'Jan', lastName: 'Becker' })).toBe('Sehr geehrter Herr Dr. Becker,')
    expect(mailGreeting('de', { salutation: 'Divers', firstName: 'Kim', lastName: 'Lee-Wagner' })).toBe('Guten Tag Kim Lee-Wagner,')
    expect(mailGreeting('de', { salutation: null, firstName: 'Kim', lastName: 'Lee-Wagner' })).toBe('Guten Tag Kim Lee-Wagner,')
    expect(mailGreeting('de', {})).toBe('Guten Tag,')
  })

  test('no emoji and no salutation text in the greeting', () => {
    expect(mailGreeting('de', { salutation: 'Divers 😀', firstName: 'Kim 😀', lastName: 'Lee-Wagner' })).toBe('Guten Tag Kim Lee-Wagner,')
    expect(mailGreeting('de', { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker 🎉' })).toBe('Sehr geehrte Frau Becker,')
  })

  test('the du form greets by first name; English has its own forms', () => {
    expect(mailGreeting('de-du', { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker' })).toBe('Hallo Anna,')
    expect(mailGreeting('de-du', { salutation: 'Divers', firstName: 'Kim', lastName: 'Lee-Wagner' })).toBe('Hallo Kim,')
    expect(mailGreeting('de-du', {})).toBe('Hallo,')
    expect(mailGreeting('en', { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker' })).toBe('Dear Ms Becker,')
    expect(mailGreeting('en', { salutation: 'Herr', firstName: 'Jan', lastName: 'Becker' })).toBe('Dear Mr Becker,')
    expect(mailGreeting('en', { salutation: 'Divers', firstName: 'Kim', lastName: 'Lee-Wagner' })).toBe('Dear Kim Lee-Wagner,')
    // every other language greets in its own words (server/i18n/locales)
    expect(mailGreeting('fr', { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker' })).toBe('Madame Becker,')
  })
})

forEachDialect('mail greeting in sent mails', (h) => {
  test('the confirmation and the invitation greet as a German letter does', async () => {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody())).body
    const email = uniqueEmail('anna')
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker', email } })
    expect(r.status).toBe(201)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.text).toContain('Sehr geehrte Frau Becker,')
    expect(mail.text).not.toContain('Guten Tag Frau')

    const kim = await addGuest(admin, event.id, { salutation: 'Divers', firstName: 'Kim', lastName: 'Lee-Wagner' })
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${kim.id}/invite`, {})).status).toBe(200)
    await h().deliverMail()
    const inv = await h().smtp.waitFor((m) => m.to.includes(kim.email))
    expect(inv.text).toContain('Guten Tag Kim Lee-Wagner,')
    expect(inv.text).not.toContain('Divers')
  })
})

forEachDialect('mail greeting in the access-link mail', (h) => {
  test('the access link greets the guest by name, formally, in du form or in English (issue 20, item 30)', async () => {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody())).body
    const cases: Array<[string, string, string]> = [
      ['de', 'Sehr geehrte Frau Becker,', 'Mit diesem Link sehen Sie'],
      ['de-du', 'Hallo Anna,', 'Mit diesem Link siehst du'],
      ['en', 'Dear Ms Becker,', 'This link shows your events'],
    ]
    for (const [language, greeting, body] of cases) {
      const email = uniqueEmail(`anna-${language}`)
      const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker', email, language } })
      expect(r.status).toBe(201)
      expect((await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email } })).status).toBe(200)
      await h().deliverMail()
      const mail = await h().smtp.waitFor((m) => m.to.includes(email) && m.text.includes(body))
      expect(mail.text).toContain(`${greeting}\n\n${body}`)
      expect(mail.text).not.toContain('Guten Tag,')
      expect(mail.text).not.toContain('Frau Anna')
    }
  })
})
