// The guest portal's calls (guest-side.md 7, "Guest events"): registration details, escort edits,
// data changes, the confirmation and invitation mails again, and passing a place on. Each checks
// that the registration named is the calling guest's own (another guest's id answers 404).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { requestLanguage } from '../../http/request'
import { idParam } from '../../shared/validation'
import { requireGuest } from '../identity/auth'
import { currentFormData, changeRegistrationData } from './data-change'
import { registrationDetails, saveEscorts } from './details'
import { DataChangeInput, EscortsPatch, ResendMailInput, TransferInput } from './model'
import { resendConfirmation, sendInvitationAgain } from './resend'
import { transferRegistration } from './transfer'

const tags = ['guest']
const IdParams = z.object({ id: idParam() })
// the same parameter name as the other /guest/events/visitors/:vid routes (the router refuses two names)
const VisitorParams = z.object({ vid: idParam() })

export function guestPortalRoutes(ctx: AppContext) {
  const lang = (c: { request: Request }) => requestLanguage(c.request, ctx.license.features)
  return new Elysia({ name: 'guest-portal' })
    .get(
      '/proxy/api/guest/events/visitors/:vid/details',
      async (c) => registrationDetails(ctx, await requireGuest(ctx, c), c.params.vid, lang(c)),
      { params: VisitorParams, detail: { tags, summary: 'Registration details: name, event, status, registered and checked-in persons, escort persons, master data and event fields' } },
    )
    .patch(
      '/proxy/api/guest/events/visitors/:vid',
      async (c) => saveEscorts(ctx, await requireGuest(ctx, c), c.params.vid, c.body.escortPersons, lang(c)),
      {
        params: VisitorParams,
        body: EscortsPatch,
        detail: { tags, summary: 'Save the escort persons of the guest\'s registration (until it has expired; places follow the person count; FIELD_ERROR, REGISTRATION_EXPIRED, EVENT_FULL)' },
      },
    )
    .get(
      '/proxy/api/guest/events/visitors/:vid/data',
      async (c) => currentFormData(ctx, await requireGuest(ctx, c), c.params.vid),
      { params: VisitorParams, detail: { tags, summary: 'The form and stored values for a data change (option CAN_EDIT_REGISTRATION_DATA)' } },
    )
    .put(
      '/proxy/api/guest/events/visitors/:vid/data',
      async (c) => changeRegistrationData(ctx, await requireGuest(ctx, c), c.params.vid, c.body, lang(c)),
      {
        params: VisitorParams,
        body: DataChangeInput,
        detail: { tags, summary: 'Change the registration data through the form engine (CAN_EDIT_REGISTRATION_DATA; defined values and timeslots move in one transaction; FIELD_ERROR)' },
      },
    )
    .post(
      '/proxy/api/public/events/:id/visitor/resendMail',
      async (c) => resendConfirmation(ctx, await requireGuest(ctx, c), c.params.id, c.body.visitorId),
      { params: IdParams, body: ResendMailInput, detail: { tags, summary: 'Send the registration confirmation of the guest\'s own registration again (RATE_LIMITED after 3 an hour)' } },
    )
    .post(
      '/proxy/api/guest/:id/sendInvitation',
      async (c) => sendInvitationAgain(ctx, await requireGuest(ctx, c), c.params.id),
      { params: IdParams, detail: { tags, summary: 'Send the invitation of the guest\'s own registration (INVITED, PENDING) again; {id} is the registration' } },
    )
    .post(
      '/proxy/api/guest/events/visitors/:vid/transfer',
      async (c) => transferRegistration(ctx, await requireGuest(ctx, c), c.params.vid, c.body),
      {
        params: VisitorParams,
        body: TransferInput,
        detail: { tags, summary: 'Pass the place on to another person (event setting allowTransfer until transferUntil): new name, e-mail, tokens and ticket code; both get a mail' },
      },
    )
}
