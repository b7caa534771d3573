// Mail texts an agency edits: stored per kind and language, checked on save, previewed, and used by
// the mails that go out (escaped like the defaults).
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { createUser, loginAs } from '../identity/test-helpers'

forEachDialect('mail texts', (h) => {
  let admin: Agent & { agencyId: number }
  test('setup', async () => {
    admin = await h().admin()
  })

  test('GET lists the kinds with default text, no override and the placeholders', async () => {
    const r = await admin.get('/proxy/api/agency/mailTexts?language=de')
    expect(r.status).toBe(200)
    const inv = r.body.items.find((i: any) => i.kind === 'INVITATION')
    expect(inv).toMatchObject({ placeholders: ['name', 'event', 'date', 'time', 'agency'], override: null, defaultText: { subject: 'Einladung: {event}' } })
    expect(inv.defaultText.body).toContain('{agency} lädt Sie herzlich')
    expect(r.body.items.map((i: any) => i.kind)).toContain('REGISTRATION_CONFIRMATION')
    expect((await admin.get('/proxy/api/agency/mailTexts?language=xx')).status).toBe(404)
  })

  test('PUT saves per language, a second PUT replaces, DELETE resets; unknown kinds are 404', async () => {
    const put = await admin.put('/proxy/api/agency/mailTexts/INVITATION/en', { subject: 'Join us: {event}', body: 'Dear guest,\n\nwe invite you to {event}.' })
    expect(put.status).toBe(200)
    expect(put.body.override).toMatchObject({ subject: 'Join us: {event}', body: 'Dear guest,\n\nwe invite you to {event}.' })
    const again = await admin.put('/proxy/api/agency/mailTexts/INVITATION/en', { subject: 'Come: {event}', body: 'Hello.' })
    expect(again.body.override).toMatchObject({ subject: 'Come: {event}', body: 'Hello.' })
    expect((await admin.get('/proxy/api/agency/mailTexts?language=de')).body.items.find((i: any) => i.kind === 'INVITATION').override).toBeNull()
    const del = await admin.delete('/proxy/api/agency/mailTexts/INVITATION/en')
    expect(del.body.override).toBeNull()
    expect((await admin.put('/proxy/api/agency/mailTexts/NOPE/de', { subject: 'a', body: 'b' })).status).toBe(404)
    expect((await admin.put('/proxy/api/agency/mailTexts/INVITATION/xx', { subject: 'a', body: 'b' })).status).toBe(404)
  })

  test('a broken placeholder, unpaired braces or a broken plural is refused with a German message naming it', async () => {
    const unknown = await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'Einladung', body: 'Hallo {vorname}!' })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: 'body', errorType: 'MAIL_TEXT_UNKNOWN_PLACEHOLDER', placeholder: 'vorname' }] })
    expect(unknown.body.errorMessage).toBe('Den Platzhalter „vorname“ gibt es in dieser E-Mail nicht. Erlaubt sind: {name}, {event}, {date}, {time}, {agency}.')
    const open = await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'Einladung {event', body: 'Hallo' })
    expect(open.body.errorFields[0]).toMatchObject({ field: 'subject', errorType: 'MAIL_TEXT_UNBALANCED_BRACES' })
    expect(open.body.errorMessage).toContain('geschweiften Klammern')
    const close = await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'Einladung', body: 'Hallo name}' })
    expect(close.body.errorFields[0]).toMatchObject({ field: 'body', errorType: 'MAIL_TEXT_UNBALANCED_BRACES' })
    const plural = await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'x', body: '{time, plural, one {# Uhr}}' })
    expect(plural.body.errorFields[0]).toMatchObject({ errorType: 'MAIL_TEXT_INVALID_PLURAL', placeholder: 'time' })
    const pluralUnknown = await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'x', body: '{n, plural, one {#} other {#}}' })
    expect(pluralUnknown.body.errorFields[0]).toMatchObject({ errorType: 'MAIL_TEXT_UNKNOWN_PLACEHOLDER', placeholder: 'n' })
    const spaced = await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'x', body: 'Hallo { name }' })
    expect(spaced.body.errorFields[0]).toMatchObject({ errorType: 'MAIL_TEXT_UNKNOWN_PLACEHOLDER' })
    expect((await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'x'.repeat(201), body: 'b' })).body.errorFields[0]).toMatchObject({ field: 'subject', errorType: 'TOO_LONG' })
    expect((await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'x', body: 'b'.repeat(10_001) })).body.errorFields[0]).toMatchObject({ field: 'body', errorType: 'TOO_LONG' })
    expect((await admin.get('/proxy/api/agency/mailTexts?language=de')).body.items.find((i: any) => i.kind === 'INVITATION').override).toBeNull()
    // a valid plural over a known placeholder is fine
    expect((await admin.put('/proxy/api/agency/mailTexts/ACTIVATED/de', { subject: 'x', body: '{time, plural, one {# Uhr} other {# Uhr}}' })).status).toBe(200)
  })

  test('preview renders subject, HTML and text with sample values, escaped, without saving or sending', async () => {
    const r = await admin.post('/proxy/api/agency/mailTexts/INVITATION/de/preview', { subject: 'Herzlich: {event}', body: 'Liebe Gäste,\n\n<b>{event}</b> am {date}.' })
    expect(r.status).toBe(200)
    expect(r.body.subject).toBe('Herzlich: Sommerfest')
    expect(r.body.html).toContain('&lt;b&gt;Sommerfest&lt;/b&gt; am 12.06.2027.')
    expect(r.body.html).not.toContain('<b>Sommerfest')
    expect(r.body.text).toContain('Liebe Gäste,\n\n<b>Sommerfest</b> am 12.06.2027.')
    expect(r.body.text).toContain('Einladung ansehen')
    expect((await admin.post('/proxy/api/agency/mailTexts/INVITATION/de/preview', { subject: 'x', body: '{foo}' })).body.errorFields[0].placeholder).toBe('foo')
    expect((await admin.get('/proxy/api/agency/mailTexts?language=de')).body.items.find((i: any) => i.kind === 'INVITATION').override).toBeNull()
  })

  test('a sent invitation carries the agency’s own text (escaped); another agency still gets the default', async () => {
    await admin.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'Sei dabei: {event}', body: 'Hallo {name},\n\n{agency} feiert <i>{event}</i> am {date}.' })
    const e = await createEvent(admin, { displayName: 'Jubiläum' })
    const email = uniqueEmail('own-text')
    const g = await addGuest(admin, e.id, { email, firstName: 'Ina', lastName: 'Iden' })
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})).status).toBe(200)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.subject).toBe('Sei dabei: Jubiläum')
    expect(mail.text).toContain('Ina Iden,')
    expect(mail.text).toContain('feiert <i>Jubiläum</i> am')
    expect(mail.html).toContain('feiert &lt;i&gt;Jubiläum&lt;/i&gt; am')
    expect(mail.text).not.toContain('lädt Sie herzlich')

    const other = await h().admin({ agency: 'Andere Agentur' })
    const e2 = await createEvent(other, { displayName: 'Fremdfest' })
    const email2 = uniqueEmail('default-text')
    const g2 = await addGuest(other, e2.id, { email: email2 })
    await other.post(`/proxy/api/events/${e2.id}/visitors/${g2.id}/invite`, {})
    await h().deliverMail()
    const mail2 = await h().smtp.waitFor((m) => m.to.includes(email2))
    expect(mail2.subject).toBe('Einladung: Fremdfest')
    // the other agency sees none of the first one's texts
    expect((await other.get('/proxy/api/agency/mailTexts?language=de')).body.items.find((i: any) => i.kind === 'INVITATION').override).toBeNull()
    await admin.delete('/proxy/api/agency/mailTexts/INVITATION/de')
  })

  test('the confirmation of a registration uses the agency’s own text when it is rendered at delivery', async () => {
    await admin.put('/proxy/api/agency/mailTexts/REGISTRATION_CONFIRMATION/de', { subject: 'Danke: {event}', body: 'Schön, dass Sie zu {event} kommen.' })
    const e = await createEvent(admin, { displayName: 'Hoffest' })
    const email = uniqueEmail('confirm-own')
    const r = await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Mia', lastName: 'Mail', email } })
    expect(r.status).toBe(201)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.subject).toBe('Danke: Hoffest')
    expect(mail.text).toContain('Schön, dass Sie zu Hoffest kommen.')
  })

  test('only an organiser with the agency-settings permission may read or change texts', async () => {
    expect((await h().request('GET', '/proxy/api/agency/mailTexts')).status).toBe(401)
    const editor = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const ed = await loginAs(h(), editor, { accountId: editor.accounts[0]!.id })
    expect((await ed.get('/proxy/api/agency/mailTexts')).status).toBe(403)
    expect((await ed.put('/proxy/api/agency/mailTexts/INVITATION/de', { subject: 'a', body: 'b' })).status).toBe(403)
    expect((await ed.delete('/proxy/api/agency/mailTexts/INVITATION/de')).status).toBe(403)
    expect((await ed.post('/proxy/api/agency/mailTexts/INVITATION/de/preview', { subject: 'a', body: 'b' })).status).toBe(403)
  })
})
