// The identity mails. Each is written into the outbox inside the caller's transaction.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { t } from '../../i18n/catalogue'
import { formatDate, formatTime } from '../../i18n/format'
import { type GreetedPerson, mailGreeting } from '../mail/greeting'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'

interface Recipient {
  id: number
  email: string
  language: string
}

const footer = (lang: string) => t(lang, 'identity.mail.footer')

/**
 * Whom a mail greets: the names of the user's newest account, else of their newest registration
 * (a guest without an account); nobody known greets without a name ("Guten Tag,").
 */
async function personOf(db: Db, userId: number): Promise<GreetedPerson> {
  const named = (eb: any) => eb.or([eb('first_name', 'is not', null), eb('last_name', 'is not', null)])
  const account = await db.selectFrom('account').select(['salutation', 'title', 'first_name', 'last_name']).where('user_id', '=', userId).where(named).orderBy('id', 'desc').executeTakeFirst()
  const p = account ?? (await db.selectFrom('event_visitor').select(['salutation', 'title', 'first_name', 'last_name']).where('user_id', '=', userId).where(named).orderBy('id', 'desc').executeTakeFirst())
  return p ? { salutation: p.salutation, title: p.title, firstName: p.first_name, lastName: p.last_name } : {}
}

async function send(db: Db, kind: string, to: Recipient, parts: { subject: string; paragraphs: string[]; button?: { label: string; url: string } }) {
  const lang = to.language
  const mail = renderMail({
    subject: parts.subject,
    // the salutation with the name in the recipient's language and form of address (mail/greeting.ts)
    greeting: mailGreeting(lang, await personOf(db, to.id)),
    paragraphs: parts.paragraphs,
    button: parts.button,
    after: parts.button ? [t(lang, 'mail.linkFallback', { url: parts.button.url })] : [],
    footer: footer(lang),
  })
  await enqueueMail(db, { kind, to: to.email, ...mail, language: lang, userId: to.id })
}

export function mailTfaCode(db: Db, to: Recipient, code: string, minutes: number) {
  const lang = to.language
  return send(db, 'TFA_CODE', to, {
    subject: t(lang, 'identity.mail.tfaCode.subject', { code }),
    paragraphs: [t(lang, 'identity.mail.tfaCode.body', { code, minutes }), t(lang, 'identity.mail.tfaCode.ignore')],
  })
}

export function mailInvitation(ctx: AppContext, db: Db, to: Recipient, p: { agency: string; role: string; inviter: string; token: string; newUser: boolean; days: number }) {
  const lang = to.language
  const url = `${ctx.config.baseUrl}/invitation?token=${encodeURIComponent(p.token)}`
  return send(db, 'INVITATION', to, {
    subject: t(lang, 'identity.mail.invitation.subject', { agency: p.agency }),
    paragraphs: [
      t(lang, 'identity.mail.invitation.body', { agency: p.agency, role: t(lang, `role.${p.role}`), inviter: p.inviter }),
      t(lang, p.newUser ? 'identity.mail.invitation.setPassword' : 'identity.mail.invitation.accept', { days: p.days }),
    ],
    button: { label: t(lang, p.newUser ? 'identity.mail.invitation.buttonNew' : 'identity.mail.invitation.button'), url },
  })
}

export function mailDeletionConfirm(ctx: AppContext, db: Db, to: Recipient, p: { token: string; what: string[]; whole: boolean; admin: boolean; hours: number }) {
  const lang = to.language
  const url = `${ctx.config.baseUrl}/account/deletion?token=${encodeURIComponent(p.token)}`
  return send(db, 'DELETION_CONFIRM', to, {
    subject: t(lang, p.whole ? 'identity.mail.deletion.subjectUser' : 'identity.mail.deletion.subject'),
    paragraphs: [
      t(lang, p.whole ? 'identity.mail.deletion.bodyUser' : 'identity.mail.deletion.body'),
      ...p.what,
      ...(p.admin ? [t(lang, 'identity.mail.deletion.admin')] : []),
      t(lang, 'identity.mail.deletion.grace', { hours: p.hours }),
    ],
    button: { label: t(lang, 'identity.mail.deletion.button'), url },
  })
}

export function mailAccessLink(ctx: AppContext, db: Db, to: Recipient, token: string, hours: number) {
  const lang = to.language
  const url = `${ctx.config.baseUrl}/guest/dashboard?token=${encodeURIComponent(token)}`
  return send(db, 'ACCESS_LINK', to, {
    subject: t(lang, 'identity.mail.accessLink.subject'),
    paragraphs: [t(lang, 'identity.mail.accessLink.body', { hours }), t(lang, 'identity.mail.accessLink.ignore')],
    button: { label: t(lang, 'identity.mail.accessLink.button'), url },
  })
}

export function mailNewDevice(db: Db, to: Recipient, p: { when: string; device: string; ip: string }) {
  const lang = to.language
  return send(db, 'LOGIN_NEW_DEVICE', to, {
    subject: t(lang, 'identity.mail.newDevice.subject'),
    paragraphs: [t(lang, 'identity.mail.newDevice.body', { date: formatDate(p.when), time: formatTime(p.when), device: p.device, ip: p.ip }), t(lang, 'identity.mail.newDevice.advice')],
  })
}

export function mailAccountChanged(db: Db, to: Recipient, p: { agency: string; role?: string; removed?: boolean }) {
  const lang = to.language
  return send(db, 'ACCOUNT_CHANGES', to, {
    subject: t(lang, 'identity.mail.accountChanged.subject', { agency: p.agency }),
    paragraphs: [p.removed ? t(lang, 'identity.mail.accountChanged.removed', { agency: p.agency }) : t(lang, 'identity.mail.accountChanged.role', { agency: p.agency, role: t(lang, `role.${p.role}`) })],
  })
}

export function mailColleagueJoined(ctx: AppContext, db: Db, to: Recipient, p: { agency: string; colleague: string }) {
  const lang = to.language
  return send(db, 'COLLEAGUE_JOINED', to, {
    subject: t(lang, 'identity.mail.colleagueJoined.subject', { colleague: p.colleague }),
    paragraphs: [t(lang, 'identity.mail.colleagueJoined.body', { agency: p.agency, colleague: p.colleague })],
    button: { label: t(lang, 'identity.mail.colleagueJoined.button'), url: `${ctx.config.baseUrl}/agency/users` },
  })
}

export function mailPasswordReset(ctx: AppContext, db: Db, to: Recipient, token: string, minutes: number) {
  const lang = to.language
  const url = `${ctx.config.baseUrl}/password/reset?token=${encodeURIComponent(token)}`
  return send(db, 'PASSWORD_RESET', to, {
    subject: t(lang, 'identity.mail.passwordReset.subject'),
    paragraphs: [t(lang, 'identity.mail.passwordReset.body', { minutes }), t(lang, 'identity.mail.passwordReset.ignore')],
    button: { label: t(lang, 'identity.mail.passwordReset.button'), url },
  })
}

/** A reset asked for a user who was invited but never set a password: the invitation is the way in. */
export function mailPasswordResetPending(db: Db, to: Recipient) {
  const lang = to.language
  return send(db, 'PASSWORD_RESET', to, {
    subject: t(lang, 'identity.mail.passwordPending.subject'),
    paragraphs: [t(lang, 'identity.mail.passwordPending.body'), t(lang, 'identity.mail.passwordPending.expired'), t(lang, 'identity.mail.passwordReset.ignore')],
  })
}

export function mailPasswordChanged(ctx: AppContext, db: Db, to: Recipient, when: string) {
  const lang = to.language
  return send(db, 'PASSWORD_CHANGED', to, {
    subject: t(lang, 'identity.mail.passwordChanged.subject'),
    paragraphs: [t(lang, 'identity.mail.passwordChanged.body', { date: formatDate(when), time: formatTime(when) }), t(lang, 'identity.mail.passwordChanged.advice')],
    button: { label: t(lang, 'identity.mail.passwordChanged.button'), url: `${ctx.config.baseUrl}/password/forgot` },
  })
}
