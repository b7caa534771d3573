// Mail settings, the mail sender at agency / event / guest level, and a guest's mails (docs/mail.md).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { agencyMessageSources } from '../system/agency-messages'
import { eventOfAgency } from '../events/service'
import { requireFeature, requireOrganiser } from '../identity/auth'
import { visitorOfEvent } from '../visitors/service'
import { agencySender, levelSender, saveAgencySender, saveLevelSender, senderOptions } from './sender'
import { createMailSettings, deleteMailSettings, mailSettingsDto, mailSettingsOfAgency, searchMailSettings, updateMailSettings } from './settings'
import { checkMailSettings } from './settings-check'
import { AgencySenderInput, LevelSenderInput, MailSettingsInput, MailSettingsSearch } from './settings-model'
import { guestMails } from './guest-mails'
import { MAX_MAIL_TEXT_BODY, MAX_MAIL_TEXT_SUBJECT, listMailTexts, previewMailText, resetMailText, saveMailText } from './texts'

const IdParams = z.object({ id: idParam() })
const EventParams = z.object({ id: idParam() })
const VisitorParams = z.object({ id: idParam(), vid: idParam() })
const TextParams = z.object({ kind: z.string().max(40), language: z.string().max(10) })
const TextQuery = z.object({ language: z.string().max(10).default('de') })
const MailTextBody = z.object({ subject: z.string().trim().min(1).max(MAX_MAIL_TEXT_SUBJECT), body: z.string().trim().min(1).max(MAX_MAIL_TEXT_BODY) })

// app/init's agency messages: every mail setting of the agency not checked OK (its mails would fail)
agencyMessageSources.push(async (ctx, agencyId) => {
  const rows = await ctx.db.selectFrom('mail_settings').select(['id', 'display_name']).where('agency_id', '=', agencyId).where('status', '=', 'INVALID').orderBy('display_name').orderBy('id').execute()
  return rows.map((r) => ({ agencyMessageType: 'MAIL_SETTINGS_INVALID' as const, mailSettingsId: r.id, displayName: r.display_name }))
})

export function mailRoutes(ctx: AppContext) {
  return new Elysia({ name: 'mail' })
    .post(
      '/proxy/api/mailSettings/search',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return searchMailSettings(ctx, actor.account.agency_id, { search: c.body.search, ...c.body.paging })
      },
      { body: MailSettingsSearch, detail: { tags: ['mail'], summary: "Search the agency's mail settings (page size up to 100000, sorted by displayName)" } },
    )
    .get(
      '/proxy/api/mailSettings/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return mailSettingsDto(ctx, await mailSettingsOfAgency(ctx.db, actor.account.agency_id, c.params.id))
      },
      { params: IdParams, detail: { tags: ['mail'], summary: 'One mail setting (the SMTP password is never returned; DOMAIN: the DNS records to publish)' } },
    )
    .post(
      '/proxy/api/mailSettings',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        requireFeature(ctx, 'MAIL_CUSTOM')
        if (c.body.type === 'SMTP' && c.body.user && !c.body.password) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'password', errorType: 'REQUIRED' }] })
        c.set.status = 201
        return mailSettingsDto(ctx, await createMailSettings(ctx, actor.account.agency_id, c.body))
      },
      { body: MailSettingsInput, detail: { tags: ['mail'], summary: 'Create mail settings: SMTP (the agency’s server) or DOMAIN (einlass signs for it; status INVALID until checked)' } },
    )
    .put(
      '/proxy/api/mailSettings/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        requireFeature(ctx, 'MAIL_CUSTOM')
        return mailSettingsDto(ctx, await updateMailSettings(ctx, actor.account.agency_id, c.params.id, c.body))
      },
      { params: IdParams, body: MailSettingsInput, detail: { tags: ['mail'], summary: 'Change mail settings (a changed server, login or domain needs a new check)' } },
    )
    .delete(
      '/proxy/api/mailSettings/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        await deleteMailSettings(ctx, actor.account.agency_id, c.params.id)
        return { deleted: true }
      },
      { params: IdParams, detail: { tags: ['mail'], summary: 'Delete mail settings (refused with 409 while a sender uses them)' } },
    )
    .post(
      '/proxy/api/mailSettings/:id/check',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        requireFeature(ctx, 'MAIL_CUSTOM')
        return mailSettingsDto(ctx, await checkMailSettings(ctx, actor.account.agency_id, c.params.id, actor.user.email))
      },
      { params: IdParams, detail: { tags: ['mail'], summary: 'Check mail settings now: SMTP logs in and sends a test mail to you; DOMAIN reads its SPF and DKIM records' } },
    )
    .get(
      '/proxy/api/mailSender/options',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return senderOptions(ctx, actor.account.agency_id)
      },
      { detail: { tags: ['mail'], summary: "What the sender widget offers: the server's sender and domain, each domain of the agency's mail settings with its prefixes and status, the licence features" } },
    )
    .get(
      '/proxy/api/agency/mailTexts',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return listMailTexts(ctx, actor.account.agency_id, c.query.language)
      },
      { query: TextQuery, detail: { tags: ['mail'], summary: "The mail kinds an agency may word itself, in one language: default text, the agency's own text (or null) and the placeholders" } },
    )
    .put(
      '/proxy/api/agency/mailTexts/:kind/:language',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return saveMailText(ctx, actor.account.agency_id, c.params.kind, c.params.language, c.body)
      },
      { params: TextParams, body: MailTextBody, detail: { tags: ['mail'], summary: 'Save the agency’s own subject and body of a mail kind in a language (unknown placeholders, unpaired braces and broken plurals are refused)' } },
    )
    .delete(
      '/proxy/api/agency/mailTexts/:kind/:language',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return resetMailText(ctx, actor.account.agency_id, c.params.kind, c.params.language)
      },
      { params: TextParams, detail: { tags: ['mail'], summary: 'Back to the default text of a mail kind in a language' } },
    )
    .post(
      '/proxy/api/agency/mailTexts/:kind/:language/preview',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return previewMailText(ctx, actor.account.agency_id, c.params.kind, c.params.language, c.body)
      },
      { params: TextParams, body: MailTextBody, detail: { tags: ['mail'], summary: 'Render a mail text with sample values (subject, html, text) without saving or sending it' } },
    )
    .get(
      '/proxy/api/agency/mailSender',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return agencySender(ctx, actor.account.agency_id)
      },
      { detail: { tags: ['mail'], summary: "The agency's mail sender" } },
    )
    .put(
      '/proxy/api/agency/mailSender',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return saveAgencySender(ctx, actor.account.agency_id, c.body)
      },
      { body: AgencySenderInput, detail: { tags: ['mail'], summary: "Set the agency's mail sender (name needs MAIL_CUSTOM_SENDER_NAME, address MAIL_CUSTOM)" } },
    )
    .get(
      '/proxy/api/events/:id/mailSender',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        const e = await eventOfAgency(ctx, actor, c.params.id)
        return levelSender(ctx, { agencyId: e.agency_id, eventId: e.id })
      },
      { params: EventParams, detail: { tags: ['mail'], summary: "An event's own mail sender (override false: the agency's applies)" } },
    )
    .put(
      '/proxy/api/events/:id/mailSender',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        const e = await eventOfAgency(ctx, actor, c.params.id)
        return saveLevelSender(ctx, { agencyId: e.agency_id, eventId: e.id }, c.body)
      },
      { params: EventParams, body: LevelSenderInput, detail: { tags: ['mail'], summary: "Set or switch off an event's own mail sender" } },
    )
    .get(
      '/proxy/api/events/:id/visitors/:vid/mailSender',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        const e = await eventOfAgency(ctx, actor, c.params.id)
        const v = await visitorOfEvent(ctx.db, e, c.params.vid)
        return levelSender(ctx, { agencyId: e.agency_id, eventId: e.id, visitorId: v.id })
      },
      { params: VisitorParams, detail: { tags: ['mail'], summary: "A guest's own mail sender (override false: the event's or agency's applies)" } },
    )
    .put(
      '/proxy/api/events/:id/visitors/:vid/mailSender',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        const e = await eventOfAgency(ctx, actor, c.params.id)
        const v = await visitorOfEvent(ctx.db, e, c.params.vid)
        return saveLevelSender(ctx, { agencyId: e.agency_id, eventId: e.id, visitorId: v.id }, c.body)
      },
      { params: VisitorParams, body: LevelSenderInput, detail: { tags: ['mail'], summary: "Set or switch off a guest's own mail sender" } },
    )
    .get(
      '/proxy/api/events/:id/visitors/:vid/mails',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        const e = await eventOfAgency(ctx, actor, c.params.id)
        const v = await visitorOfEvent(ctx.db, e, c.params.vid)
        return guestMails(ctx, v)
      },
      { params: VisitorParams, detail: { tags: ['mail'], summary: "The mails einlass sent or tried to send to a guest, with status, sender and the server's answer" } },
    )
}
