// Add or edit one guest with escort persons; status actions (approve, decline, invite, re-invite,
// delete, restore), VIP, and what happened so far (ticket code, agreements, presence periods).
import { Suspense, lazy } from 'preact/compat'
import { useState } from 'preact/hooks'
import { useFieldArray, useForm } from 'react-hook-form'
import { Link } from 'wouter'
import { formatDateTime } from '../../../server/i18n/format'
import { type Contact, VisitorInput } from '../../../server/modules/visitors/model'
import { ACTION_FROM } from '../../../server/modules/visitors/transitions'
import { ApiError, errorText, post, put } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { applyServerErrors, CheckboxField, SelectField, TextField } from '../../components/form'
import { AssignSeat } from './seating/assign-seat'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { sharedResolver } from '../../components/resolver'
import { registerWithLimits } from '../../components/schema-limits'
import { Alert, Badge, Button, CancelSave, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { LabelPicker, StatusBadge, usePermission } from './common'
import type { EventFull } from './event-model'
import { GuestMailsSection } from './mail/guest-mails'
import { SenderWidget } from './mail/sender-widget'

const DownloadDialog = lazy(() => import('../../components/download-dialog').then((m) => ({ default: m.DownloadDialog })))
/** Registrations that have an invitation PDF (documents/tokens.ts INVITATION_STATUSES). */
const WITH_INVITATION = ['INVITED', 'PENDING', 'OPEN', 'ADDED', 'CONFIRMED', 'APPEARED']

export interface GuestDetail extends Contact {
  id: number
  status: string
  /** the registration's order still under way (ticketing), if any */
  ticketOrder?: { number: string; status: string } | null
  /** every order of the registration, newest first: each opens the organiser's order page */
  ticketOrders?: Array<{ id: number; number: string; status: string }>
  vip: boolean
  /** a mail to the guest was refused by the receiving server (mail/worker.ts) */
  mailError?: boolean
  note: string | null
  visitorCount: number
  ticketCode: string | null
  invitationCount: number
  declineReason: string | null
  /** WAITING_LIST only: 1-based place in the queue */
  waitingListPosition: number | null
  tags: Array<{ id: number; displayName: string }>
  campaigns: Array<{ id: number; displayName: string }>
  escortPersons: Array<{ id: number; number: number; salutation: string | null; title: string | null; firstName: string | null; lastName: string | null; email: string | null; company?: string | null; position?: string | null; phoneNumber?: string | null; checkState: string }>
  /** persons added free of charge beyond the tickets */
  freePersons?: number
  presentDates?: Array<{ person: number; checkin: string; checkout: string | null; note: string | null }>
  transfers?: Array<{ from: { firstName: string | null; lastName: string | null; email: string | null }; to: { firstName: string; lastName: string; email: string }; date: string }>
  /** seats on the event's seating plan */
  chairs?: Array<{ chairId: number; label: string; amount: number }>
  /** assign mode offers only chairs of this price category (null: any) */
  seatCategoryId?: number | null
  agreements?: Array<{ id: number; displayName: string; appearance: string; status: string | null; confirmDate: string | null; declineDate: string | null; signatureId: number | null }>
  /** the answers to the organiser's own questions, as the guest saw them */
  answers?: Array<{ fieldId: number; label: string; type: string; value: string }>
  checkState: string
  /** persons of the registration in now (main guest and escorts) */
  personsIn?: number
}

interface Values {
  salutation: string
  title: string
  firstName: string
  lastName: string
  email: string
  company: string
  position: string
  phoneNumber: string
  vip: boolean
  note: string
  status: 'ADDED' | 'CONFIRMED'
  escortPersons: Array<EscortValues>
  /** paid events: escorts beyond the guest's tickets come free of charge (recorded by the server) */
  escortsFreeOfCharge: boolean
  tags: number[]
  campaigns: number[]
}

/** An escort as the dialog edits it: the names, and the rest of the contact data carried along unchanged. */
interface EscortValues {
  id?: number
  firstName: string
  lastName: string
  email: string
  salutation: string
  title: string
  company: string
  position: string
  phoneNumber: string
}
const blankEscort: EscortValues = { firstName: '', lastName: '', email: '', salutation: '', title: '', company: '', position: '', phoneNumber: '' }

const toInput = (v: Values) => ({
  ...v,
  escortPersons: v.escortPersons.map((e) => ({ id: e.id, firstName: e.firstName, lastName: e.lastName, email: e.email, salutation: e.salutation, title: e.title, company: e.company, position: e.position, phoneNumber: e.phoneNumber })),
})

/** Why a move-up from the waiting list was refused, in the organiser's words. */
export function promoteErrorText(e: unknown): string {
  if (e instanceof ApiError && e.errorType === 'EVENT_FULL') return t('guests.promote.full')
  if (e instanceof ApiError && e.errorType === 'FIELD_ERROR' && e.errorFields.some((f) => f.errorType === 'VALUE_UNAVAILABLE' || f.errorType === 'TIMESLOT_NOT_AVAILABLE')) return t('guests.promote.choiceGone')
  return errorText(e)
}

/** Moves a waiting guest up (the approve action); the server takes the places or changes nothing. */
export async function promoteGuest(eventId: number, guestId: number): Promise<boolean> {
  try {
    await post(`/proxy/api/events/${eventId}/visitors/${guestId}/approve`, {})
    toast(t('guests.promoted'))
    return true
  } catch (e) {
    toast(promoteErrorText(e), 'error', 5000)
    return false
  }
}

function Actions({ event, guest, onChanged }: { event: EventFull; guest: GuestDetail; onChanged(): void }) {
  const [busy, setBusy] = useState(false)
  const [reason, setReason] = useState('')
  const [reserve, setReserve] = useState(false)
  const [printing, setPrinting] = useState(false)
  const canManage = usePermission('EVENT.GUEST.MANAGE')
  const canInvite = usePermission('EVENT.INVITE')
  const run = async (action: string, body: Record<string, unknown>, done: string) => {
    setBusy(true)
    try {
      await post(`/proxy/api/events/${event.id}/visitors/${guest.id}/${action}`, body)
      toast(done)
      onChanged()
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    } finally {
      setBusy(false)
    }
  }
  const may = (a: keyof typeof ACTION_FROM) => (ACTION_FROM[a] as readonly string[]).includes(guest.status)
  const waiting = guest.status === 'WAITING_LIST'
  // a paid registration is confirmed by its order's payment (the server refuses approving it)
  const awaitsPayment = guest.status === 'PENDING' && guest.ticketOrder?.status === 'OPEN'
  return (
    <div class="guest-actions">
      {awaitsPayment && <p class="muted guest-awaits-payment">{t('guests.awaitsPayment', { order: guest.ticketOrder!.number })}</p>}
      {!!guest.ticketOrders?.length && (
        <p class="guest-orders">
          {t('orderDetail.guestOrders')}:{' '}
          {guest.ticketOrders.map((o, i) => (
            <span key={o.id}>
              {i > 0 && ', '}
              <Link href={`/events/${event.id}/orders/${o.id}`}>{o.number}</Link> <small class="muted">({t(`ticketing.status.${o.status}`)})</small>
            </span>
          ))}
        </p>
      )}
      <div class="button-row">
        {canManage && waiting && (
          <Button
            busy={busy}
            onClick={async () => {
              setBusy(true)
              if (await promoteGuest(event.id, guest.id)) onChanged()
              setBusy(false)
            }}
          >
            {t('guests.action.promote')}
          </Button>
        )}
        {canManage && may('approve') && !waiting && !awaitsPayment && (
          <Button busy={busy} onClick={() => void run('approve', {}, t('guests.approved'))}>
            {t('guests.action.approve')}
          </Button>
        )}
        {canInvite && may('invite') && guest.email && (
          <Button variant="secondary" busy={busy} onClick={() => void run('invite', { reservePlace: reserve }, t('guests.invited'))}>
            {guest.status === 'INVITED' || guest.status === 'PENDING' ? t('guests.action.reinvite') : t('guests.action.invite')}
          </Button>
        )}
        {canManage && may('decline') && (
          <Button variant="secondary" busy={busy} onClick={() => void run('decline', { reason: reason || null }, t('guests.declined'))}>
            {t('guests.action.decline')}
          </Button>
        )}
        {canManage && may('delete') && (
          <Button variant="danger" busy={busy} onClick={() => void run('delete', {}, t('guests.deleted'))}>
            {t('guests.action.delete')}
          </Button>
        )}
        {canManage && may('restore') && (
          <Button variant="secondary" busy={busy} onClick={() => void run('restore', {}, t('guests.restored'))}>
            {t('guests.action.restore')}
          </Button>
        )}
        {/* the invitation as PDF, to print or send by post (the download dialog) */}
        {WITH_INVITATION.includes(guest.status) && (
          <Button variant="secondary" onClick={() => setPrinting(true)}>
            {t('guestPortal.invitationPdf')}
          </Button>
        )}
      </div>
      {printing && (
        <Suspense fallback={null}>
          <DownloadDialog title={t('guestPortal.invitationPdf')} prepare={() => post<{ downloadLink: string }>(`/proxy/api/guest/${guest.id}/prepareDownloadInvitation`, {})} onClose={() => setPrinting(false)} />
        </Suspense>
      )}
      {canInvite && may('invite') && guest.email && (
        <label class="inline-check">
          <input type="checkbox" checked={reserve} onChange={(e) => setReserve((e.target as HTMLInputElement).checked)} />
          {t('guests.reservePlace')}
        </label>
      )}
      {canManage && may('decline') && (
        <div class="field field-full">
          <label for="decline-reason">{t('guests.declineReason')}</label>
          <input id="decline-reason" value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
        </div>
      )}
    </div>
  )
}

export function GuestDialog({ event, guestId, onClose, onChanged }: { event: EventFull; guestId: number | null; onClose(): void; onChanged(): void }) {
  const { data, reload } = useResource<GuestDetail>(guestId ? `/proxy/api/events/${event.id}/visitors/${guestId}` : null)
  if (guestId && !data) return <Dialog title={t('guests.edit')} onClose={onClose}><Spinner /></Dialog>
  return (
    <GuestForm
      key={data ? `${data.id}-${data.status}` : 'new'}
      event={event}
      guest={data ?? null}
      onClose={onClose}
      onChanged={() => {
        onChanged()
        void reload()
      }}
    />
  )
}

function GuestForm({ event, guest, onClose, onChanged }: { event: EventFull; guest: GuestDetail | null; onClose(): void; onChanged(): void }) {
  const [error, setErr] = useState<string | null>(null)
  // escorts beyond the tickets: said beside the free-of-charge checkbox, where the answer is
  const [ticketError, setTicketError] = useState<string | null>(null)
  const canManage = usePermission('EVENT.GUEST.MANAGE')
  const { register: rawRegister, handleSubmit, formState, control, setError, watch, setValue } = useForm<Values>({
    resolver: sharedResolver(VisitorInput, toInput),
    defaultValues: {
      salutation: guest?.salutation ?? '',
      title: guest?.title ?? '',
      firstName: guest?.firstName ?? '',
      lastName: guest?.lastName ?? '',
      email: guest?.email ?? '',
      company: guest?.company ?? '',
      position: guest?.position ?? '',
      phoneNumber: guest?.phoneNumber ?? '',
      vip: guest?.vip ?? false,
      note: guest?.note ?? '',
      status: 'ADDED',
      escortPersons:
        guest?.escortPersons.map((e) => ({ id: e.id, firstName: e.firstName ?? '', lastName: e.lastName ?? '', email: e.email ?? '', salutation: e.salutation ?? '', title: e.title ?? '', company: e.company ?? '', position: e.position ?? '', phoneNumber: e.phoneNumber ?? '' })) ?? [],
      escortsFreeOfCharge: false,
      tags: guest?.tags.map((x) => x.id) ?? [],
      campaigns: guest?.campaigns.map((x) => x.id) ?? [],
    },
  })
  // inputs carry the schema's maxlength
  const register = registerWithLimits(rawRegister, VisitorInput)

  const escorts = useFieldArray({ control, name: 'escortPersons' })
  const v = watch()
  const errors = formState.errors
  const submit = handleSubmit(async (values) => {
    setErr(null)
    setTicketError(null)
    try {
      const body = VisitorInput.parse(toInput(values))
      if (guest) await put(`/proxy/api/events/${event.id}/visitors/${guest.id}`, body)
      else await post(`/proxy/api/events/${event.id}/visitors`, body)
      toast(guest ? t('common.saved') : t('guests.added'))
      onChanged()
      onClose()
    } catch (e) {
      if (e instanceof ApiError && e.errorType === 'ESCORTS_NOT_PAID') setTicketError(errorText(e))
      else if (!applyServerErrors(e, setError)) setErr(errorText(e))
    }
  })
  return (
    <Dialog
      wide
      title={guest ? [guest.firstName, guest.lastName].filter(Boolean).join(' ') : t('guests.add')}
      onClose={onClose}
      actions={
        canManage ? (
          <CancelSave onCancel={onClose} onSave={() => void submit()} busy={formState.isSubmitting} />
        ) : (
          <Button onClick={onClose}>{t('common.close')}</Button>
        )
      }
    >
      {error && <Alert tone="error">{error}</Alert>}
      {guest && (
        <div class="guest-head">
          <StatusBadge status={guest.status} /> {guest.vip && <Badge tone="warn">VIP</Badge>}{' '}
          {guest.mailError && <Badge tone="error">{t('mail.guest.mailErrorShort')}</Badge>}{' '}
          {guest.ticketCode && (
            <span class="muted">
              {t('guests.ticketCode')}: <code>{guest.ticketCode}</code>
            </span>
          )}
          {guest.waitingListPosition && <span class="muted"> {t('guests.waitingList.positionLong', { n: guest.waitingListPosition })}</span>}
          {guest.invitationCount > 0 && <span class="muted"> · {t('guests.invitations', { n: guest.invitationCount })}</span>}
          {(guest.freePersons ?? 0) > 0 && <span class="muted guest-free-persons"> · {t('guests.freePersons', { n: guest.freePersons! })}</span>}
          {guest.declineReason && <p class="muted">{t('guests.declineReason')}: {guest.declineReason}</p>}
          <Actions event={event} guest={guest} onChanged={onChanged} />
        </div>
      )}
      {guest?.answers && guest.answers.length > 0 && (
        <section class="guest-section-block guest-answers-block">
          <h3>{t('visitors.answers.title')}</h3>
          <dl class="guest-answers">
            {guest.answers.map((a) => (
              <div key={a.fieldId}>
                <dt>{a.label}</dt>
                <dd>{a.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <form onSubmit={submit} noValidate class="form-grid">
        <SelectField label={t('registration.salutation')} reg={register('salutation')} errors={errors} size="half" placeholder={t('registration.salutation.choose')} options={['Herr', 'Frau', 'Divers'].map((s) => ({ value: s, label: s }))} />
        <TextField label={t('registration.title.field')} reg={register('title')} errors={errors} size="half" />
        <TextField label={t('registration.firstName')} reg={register('firstName')} errors={errors} size="half" required />
        <TextField label={t('registration.lastName')} reg={register('lastName')} errors={errors} size="half" required />
        <TextField label={t('registration.email')} reg={register('email')} errors={errors} type="email" size="half" />
        <TextField label={t('guests.field.phoneNumber')} reg={register('phoneNumber')} errors={errors} type="tel" size="half" />
        <TextField label={t('guests.field.company')} reg={register('company')} errors={errors} size="half" />
        <TextField label={t('guests.field.position')} reg={register('position')} errors={errors} size="half" />
        <CheckboxField label={t('guests.field.vip')} reg={register('vip')} errors={errors} />
        {!guest && <SelectField label={t('guests.field.status')} reg={register('status')} errors={errors} size="half" options={(['ADDED', 'CONFIRMED'] as const).map((s) => ({ value: s, label: t(`status.visitor.${s}`) }))} />}
        <TextField label={t('guests.field.note')} reg={register('note')} errors={errors} />
        <LabelPicker id="g-tags" kind="tags" label={t('events.field.tags')} value={v.tags} onChange={(x) => setValue('tags', x, { shouldDirty: true })} />
        <LabelPicker id="g-campaigns" kind="campaigns" label={t('events.field.campaigns')} value={v.campaigns} onChange={(x) => setValue('campaigns', x, { shouldDirty: true })} />
        <fieldset class="field-full">
          <legend>{t('registration.escorts')}</legend>
          {escorts.fields.map((f, i) => (
            <div key={f.id} class="escort">
              <div class="escort-head">
                <strong>{t('registration.escortNumber', { n: i + 1 })}</strong>
                <Button variant="ghost" onClick={() => escorts.remove(i)}>
                  {t('registration.removeEscort')}
                </Button>
              </div>
              <div class="form-grid">
                <TextField label={t('registration.firstName')} reg={register(`escortPersons.${i}.firstName`)} errors={errors} size="half" required />
                <TextField label={t('registration.lastName')} reg={register(`escortPersons.${i}.lastName`)} errors={errors} size="half" required />
              </div>
            </div>
          ))}
          <Button variant="secondary" onClick={() => escorts.append({ ...blankEscort })}>
            {t('registration.addEscort')}
          </Button>
          {event.isPayedEvent && (
            <div class="guest-free-escorts">
              <CheckboxField label={t('guests.field.escortsFreeOfCharge')} reg={register('escortsFreeOfCharge')} errors={errors} />
              <p class="muted">{t('guests.field.escortsFreeOfChargeHint')}</p>
              {ticketError && <Alert tone="error">{ticketError}</Alert>}
            </div>
          )}
        </fieldset>
      </form>
      {guest && <AssignSeat eventId={event.id} guestId={guest.id} chairs={guest.chairs ?? []} categoryId={guest.seatCategoryId} onChanged={onChanged} />}
      {guest && <GuestMailsSection eventId={event.id} guestId={guest.id} timezone={event.timezone} />}
      {guest && canManage && <SenderWidget level="guest" path={`/proxy/api/events/${event.id}/visitors/${guest.id}/mailSender`} />}
      {guest?.agreements && guest.agreements.length > 0 && (
        <section class="guest-section-block">
          <h3>{t('events.tab.agreements')}</h3>
          <ul class="plain-list">
            {guest.agreements.map((a) => (
              <li key={a.id}>
                <strong>{a.displayName}</strong> — {a.status ? t(`status.agreement.${a.status}`) : t('status.agreement.OPEN')}
                {a.confirmDate && ` · ${formatDateTime(a.confirmDate, event.timezone)}`}
                {a.declineDate && ` · ${formatDateTime(a.declineDate, event.timezone)}`}
                {a.signatureId && <img class="signature-thumb" alt={t('agreements.signature')} src={`/proxy/api/agreements/signatures/${a.signatureId}/signature`} />}
              </li>
            ))}
          </ul>
        </section>
      )}
      {guest?.transfers && guest.transfers.length > 0 && (
        <section class="guest-section-block" data-testid="guest-transfers">
          <h3>{t('visitors.transfers')}</h3>
          <ul class="plain-list">
            {guest.transfers.map((x, i) => (
              <li key={i}>
                {t('visitors.transfer.entry', {
                  date: formatDateTime(x.date, event.timezone),
                  from: `${[x.from.firstName, x.from.lastName].filter(Boolean).join(' ')} (${x.from.email ?? '–'})`,
                  to: `${x.to.firstName} ${x.to.lastName} (${x.to.email})`,
                })}
              </li>
            ))}
          </ul>
        </section>
      )}
      {guest?.presentDates && guest.presentDates.length > 0 && (
        <section class="guest-section-block">
          <h3>{t('guests.presence')}</h3>
          <ul class="plain-list">
            {guest.presentDates.map((p, i) => (
              <li key={i}>
                {p.person === 0 ? [guest.firstName, guest.lastName].join(' ') : t('registration.escortNumber', { n: p.person })}: {formatDateTime(p.checkin, event.timezone)}
                {p.checkout ? ` – ${formatDateTime(p.checkout, event.timezone)}` : ''} {p.note && <span class="muted">({p.note})</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  )
}
