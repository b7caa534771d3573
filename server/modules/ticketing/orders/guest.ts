// The guest's ticket order calls of guest-side.md §7 (docs/ticketing.md, "Pay page and step
// machine"). Every proceed call names the step it serves; it changes the order only with a
// conditional update on (id, step, status OPEN), so a stale tab, a double click or a replay
// changes nothing and answers 409 ORDER_STEP_CHANGED with the current step. Each call is one
// transaction: nothing is half-written.
import { localisedEvent } from '../../events/translations'
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { bool, fromJson, isoNow, toJson } from '../../../db/types'
import { AppError, fieldError, notFound } from '../../../shared/errors'
import type { FieldError } from '../../../shared/validation'
import { eventPaymentMethods, paymentMethodDto, paymentProvider } from '../payment-methods'
import { giroCodePng } from '../girocode'
import { formatPrice } from '../money'
import type { InvoiceAddressStep } from '../model'
import { sellerSettings } from '../seller-settings'
import type { InvoiceAddress, OrderStatus, PaymentMethodRow, TicketOrderRow, TicketOrderTable } from '../ticketing.table'
import { orderChairInfo } from '../../seating/orders'
import { enqueueTask } from '../../tasks/runner'
import { EXPIRE_TASK, HOLD_MINUTES, addHistory } from './create'
import { isValidLeitwegId } from './leitweg'
import { enqueueOrderMail, transferReference } from './mails'
import { type MissingField, fillMissingFields, missingFieldsOf } from './missing-fields'
import { reholdOrder } from './release'
import { orderSeatLabels } from './seats'
import { eventTerms, hasTerms, termsAcceptanceDto, termsVersion } from '../terms'
import { onOrderSettled } from './settle'
import { checkStepEscorts, payEscortDto, writeStepEscorts } from './escort-step'
import { formDefinitions } from '../../forms/service'
import { escortAppearance } from '../../forms/engine'
import { escortRace } from '../../visitors/escort-write'
import { deadlineDays, paymentDeadline, scheduleDeadline } from './deadline'
import { canChangeMethod, switchPaymentMethod } from './switch-method'
import { NOT_PAYABLE, STEP, USER_STEPS, type StepState, canGoBack, displayNumber, editableSteps, nextStep } from './steps'

/** The Ticket info's stripePayment (set by the payments module; null without it). */
export let stripePaymentInfo: ((ctx: AppContext, order: TicketOrderRow, method: PaymentMethodRow | null) => Promise<Record<string, unknown> | null>) | null = null
export function setStripePaymentInfo(f: typeof stripePaymentInfo) {
  stripePaymentInfo = f
}

export async function orderByPublicId(db: Db, publicId: string): Promise<TicketOrderRow> {
  if (!/^[a-z2-7]{24}$/.test(publicId)) throw notFound()
  const o = await db.selectFrom('ticket_order').selectAll().where('public_id', '=', publicId).executeTakeFirst()
  if (!o) throw notFound()
  return o
}

/**
 * REQUIRE_FIELDS while required fields of the registration are empty (orders/missing-fields.ts),
 * REQUIRE_ESCORT_PERSONS while the tickets name fewer persons than they are; whether step 5 applies.
 * Orders that wait (WAITING_LIST, REQUIRE_APPROVAL) or ended skip both (§4); so does a finished one.
 */
async function additional(db: Db, order: TicketOrderRow, now: Date): Promise<{ actions: string[]; applies: boolean; missingFields: MissingField[] }> {
  const none = { actions: [], applies: false, missingFields: [] }
  if (order.visitor_id == null || (NOT_PAYABLE as readonly string[]).includes(order.status)) return none
  const v = await db.selectFrom('event_visitor').select('visitor_count').where('id', '=', order.visitor_id).executeTakeFirst()
  if (!v) return none
  const n = await db.selectFrom('escort_person').select((eb) => eb.fn.countAll<number>().as('n')).where('visitor_id', '=', order.visitor_id).executeTakeFirstOrThrow()
  const missingFields = order.step < STEP.EXTERNAL_SITE ? await missingFieldsOf(db, order, now) : []
  const actions = [...(missingFields.length ? ['REQUIRE_FIELDS'] : []), ...(Number(n.n) < v.visitor_count - 1 ? ['REQUIRE_ESCORT_PERSONS'] : [])]
  return { actions, applies: v.visitor_count > 1 || missingFields.length > 0, missingFields }
}

export async function stepState(db: Db, order: TicketOrderRow, now: Date, methods?: PaymentMethodRow[]): Promise<StepState & { missingFields: MissingField[] }> {
  const ms = methods ?? (await eventPaymentMethods(db, { id: order.event_id, agency_id: order.agency_id, currency: order.currency }))
  const more = await additional(db, order, now)
  return {
    missingFields: more.missingFields,
    additionalApplies: more.applies,
    grossPrice: order.gross_price,
    invoiceAddressDisabled: bool(order.invoice_address_disabled),
    hasInvoiceAddress: order.invoice_address != null,
    requiredActions: more.actions,
    paymentMethod: order.payment_method,
    methodCount: ms.length,
  }
}

type Address = { street: string | null; streetNumber: string | null; postCode: string | null; city: string | null; country: string | null }
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

/**
 * The Ticket info's userAccount (§3: firstName, lastName, email, address, invoiceAddress) from real
 * data: the registration's names and e-mail (the buyer's own, also after the place was passed on),
 * its ADDRESS answer or else the guest's account in the agency; the invoice address entered on step 1,
 * or until then the one the registration's address offers. Null for an order without a registration.
 */
async function userAccountOf(db: Db, order: TicketOrderRow) {
  if (order.visitor_id == null) return null
  const v = await db.selectFrom('event_visitor').select(['id', 'user_id', 'first_name', 'last_name', 'email', 'company']).where('id', '=', order.visitor_id).executeTakeFirst()
  if (!v) return null
  const answer = await db
    .selectFrom('visitor_field_value as a')
    .innerJoin('event_field as f', 'f.id', 'a.field_id')
    .select('a.value')
    .where('a.visitor_id', '=', v.id)
    .where('f.default_field', '=', 'ADDRESS')
    .executeTakeFirst()
  const parsed = fromJson<Record<string, unknown> | null>(answer?.value ?? null, null)
  let address: Address | null = parsed && typeof parsed === 'object' ? { street: text(parsed.street), streetNumber: text(parsed.streetNumber), postCode: text(parsed.postCode), city: text(parsed.city), country: text(parsed.country) } : null
  if (!address?.street && !address?.city && v.user_id != null) {
    const acc = await db.selectFrom('account').select(['street', 'street_number', 'post_code', 'city', 'country']).where('user_id', '=', v.user_id).where('agency_id', '=', order.agency_id).orderBy('id').executeTakeFirst()
    if (acc && (acc.street || acc.city)) address = { street: acc.street, streetNumber: acc.street_number, postCode: acc.post_code, city: acc.city, country: acc.country }
  }
  if (address && !Object.values(address).some(Boolean)) address = null
  const name = [v.first_name, v.last_name].filter(Boolean).join(' ')
  const given = fromJson<InvoiceAddress | null>(order.invoice_address, null)
  const offered =
    address?.street && address.postCode && address.city
      ? { receiver: text(v.company) ?? name, addition: null, street: address.street, streetNumber: address.streetNumber, postCode: address.postCode, city: address.city, country: address.country ?? 'DEU' }
      : null
  return { firstName: v.first_name, lastName: v.last_name, email: v.email ?? order.email, address, invoiceAddress: given ?? offered }
}

/** The Ticket info's fields (§3): the appearance of each escort field of the event's form. */
/** GET /api/guest/ticketOrder/{id}: the Ticket info of §3. */
export async function ticketInfo(ctx: AppContext, publicId: string, language = 'de') {
  const order = await orderByPublicId(ctx.db, publicId)
  // the event's name in the page's language where the organiser translated it
  const event = await localisedEvent(ctx.db, await ctx.db.selectFrom('event').selectAll().where('id', '=', order.event_id).executeTakeFirstOrThrow(), language)
  const methods = await eventPaymentMethods(ctx.db, event)
  const state = await stepState(ctx.db, order, ctx.clock.now(), methods)
  const seller = await sellerSettings(ctx.db, order.agency_id)
  const lines = await ctx.db.selectFrom('ticket_order_line').selectAll().where('order_id', '=', order.id).orderBy('sort_order').execute()
  const chairInfo = await orderChairInfo(ctx.db, order.id)
  const coupon = order.coupon_id ? await ctx.db.selectFrom('coupon').select(['code', 'value_type', 'reduction']).where('id', '=', order.coupon_id).executeTakeFirst() : undefined
  const escorts = order.visitor_id ? await ctx.db.selectFrom('escort_person').selectAll().where('visitor_id', '=', order.visitor_id).orderBy('number').execute() : []
  const visitor = order.visitor_id ? await ctx.db.selectFrom('event_visitor').select(['id', 'status', 'visitor_count', 'first_name', 'last_name', 'salutation']).where('id', '=', order.visitor_id).executeTakeFirst() : undefined
  const chosen = methods.find((m) => m.method === order.payment_method) ?? null
  const taxPrices = new Map<string, { taxCode: string; taxValue: number; totalPrice: number; grossPrice: number }>()
  for (const l of lines) {
    if (l.tax_code === 'TAX_NONE') continue
    const t = taxPrices.get(l.tax_code) ?? { taxCode: l.tax_code, taxValue: l.tax_rate / 100, totalPrice: 0, grossPrice: 0 }
    t.totalPrice += l.tax_price
    t.grossPrice += l.gross_price
    taxPrices.set(l.tax_code, t)
  }
  const transfer = order.payment_method === 'TRANSFER' && chosen
  // a transfer still to be paid shows its GiroCode again when the page is opened later
  const qrCode =
    transfer && chosen.iban && order.status === 'OPEN' && order.step === STEP.FINISHED && order.currency === 'EURO'
      ? await giroCodePng({ bic: chosen.bic, name: chosen.account_holder ?? '', iban: chosen.iban, amount: order.gross_price, reference: transferReference(order, chosen) })
      : null
  return {
    ticketOrder: {
      number: order.number,
      step: order.step,
      displayStep: displayNumber(order.step, state)?.n ?? null,
      /** how many steps this order shows ("Schritt n von m") */
      displaySteps: displayNumber(order.step, state)?.of ?? null,
      status: order.status,
      grossPrice: order.gross_price,
      grossPriceText: formatPrice(order.gross_price, order.currency, seller.currencyPrefix),
      currency: order.currency,
      tax: order.tax_price,
      discount: order.discount,
      taxPrices: [...taxPrices.values()].sort((a, b) => b.taxValue - a.taxValue),
      visitorTickets: lines.map((l) => ({ amount: l.amount, displayName: l.display_name, grossPrice: l.gross_price, unitPrice: l.unit_price, discount: l.discount, sortOrder: l.sort_order, chairInfo: chairInfo.get(l.category_id) ?? null, tax: l.tax_rate / 100, taxCode: l.tax_code, taxPrice: l.tax_price })),
      usedCoupons: coupon ? [{ code: coupon.code, valueType: coupon.value_type, reduction: coupon.reduction }] : [],
      invoiceAddress: fromJson<InvoiceAddress | null>(order.invoice_address, null),
      taxIdentificationNumber: order.tax_identification_number,
      referenceNumber: order.reference_number,
      additionalInvoiceText: order.additional_invoice_text,
      invoiceReceiver: order.invoice_receiver,
      paymentMethod: order.payment_method,
      fullName: order.full_name,
      invoiceAddressDisabled: bool(order.invoice_address_disabled),
      holdUntil: order.status === 'OPEN' && order.step < STEP.FINISHED ? order.hold_until : null,
      editableSteps: order.status === 'OPEN' ? editableSteps(order.step, state) : [],
      /** the page offers "continue" (a reset): the rule GET .../reset applies */
      canContinue: await canContinue(ctx.db, order),
      /** the page offers "Zahlungsart ändern" (POST .../proceed/reset {step: 8} after the confirmation, switch-method.ts) */
      canChangePaymentMethod: await canChangeMethod(ctx.db, order, methods.length),
      /** the payment deadline of money still to be sent */
      paymentDueAt: order.paid_at ? null : order.payment_due_at,
      transferReference: transfer ? transferReference(order, chosen) : null,
    },
    event: { id: event.id, displayName: event.display_name, startDate: event.start_date, endDate: event.end_date, timezone: event.timezone, registrationButtonType: event.registration_button_type, primaryColor: event.primary_color, currency: event.currency, locationName: event.location_name, city: event.city },
    logoPath: event.image_asset_id ? `/proxy/api/asset/${event.image_asset_id}?dimension=Regular_400` : null,
    eventLink: `${ctx.config.baseUrl}/public/event/${event.id}`,
    qrCode,
    /** the chosen method's text for the guest (payment instructions): while something is to be paid, not once it is paid */
    confirmationText: chosen && order.status !== 'PAID' && order.status !== 'REFUNDED' ? chosen.confirmation_text : null,
    /** the seats of the order (area · row and number), issue 20 item 23 */
    seats: await orderSeatLabels(ctx.db, order),
    /** where the page goes once the order is finished and settled (§4 "redirects to the returned URL"): the organiser's link after registration */
    redirectUrl: order.step === STEP.FINISHED ? event.external_confirmation_link : null,
    paymentMethods: methods.map(paymentMethodDto),
    requiredActions: state.requiredActions,
    missingFields: state.missingFields,
    escortPersons: escorts.map(payEscortDto),
    /** which escort properties the event asks for (HIDDEN, VISIBLE, REQUIRED; §3 fields) */
    fields: escortAppearance(await formDefinitions(ctx.db, event)),
    language: order.language,
    locale: order.language,
    email: order.email,
    visitor: visitor ? { id: visitor.id, status: visitor.status, visitorCount: visitor.visitor_count, firstName: visitor.first_name, lastName: visitor.last_name } : null,
    /** the agency's money format: the currency sign before the amount */
    currencyPrefix: seller.currencyPrefix,
    useInvoiceXML: seller.useInvoiceXML,
    requireReferenceId: seller.requireReferenceId,
    userAccount: await userAccountOf(ctx.db, order),
    // provider scripts (settings), loaded by the page only for their method (docs/payments.md)
    paymentScripts: { stripe: ctx.config.payments.stripe_js_url, paypal: ctx.config.payments.paypal_js_url },
    stripePayment: stripePaymentInfo ? await stripePaymentInfo(ctx, order, chosen) : null,
    imprintUrl: seller.imprintUrl,
    privacyUrl: seller.privacyUrl,
    /** the organiser's terms the buyer accepts before paying (null: no checkbox), and the acceptance once given */
    terms: hasTerms(eventTerms(event)) ? eventTerms(event) : null,
    termsAccepted: termsAcceptanceDto(order),
  }
}

export async function orderState(ctx: AppContext, publicId: string) {
  return answer(ctx, await orderByPublicId(ctx.db, publicId))
}

const stepChanged = (o: Pick<TicketOrderRow, 'step' | 'status'>) => new AppError(409, 'ORDER_STEP_CHANGED', { extra: { step: o.step, orderStatus: o.status } })

/**
 * Runs one proceed call: checks status and expected step, lets `work` compute the changes, then
 * writes them with a conditional update on the step it read (a concurrent call loses cleanly).
 */
async function proceed(
  ctx: AppContext,
  publicId: string,
  expected: number | ((step: number) => boolean),
  work: (trx: Db, order: TicketOrderRow) => Promise<{ set: Partial<Record<keyof TicketOrderTable, unknown>>; history?: string; after?: (o: TicketOrderRow) => Promise<void> }>,
) {
  const order0 = await orderByPublicId(ctx.db, publicId)
  const now = ctx.clock.now()
  const at = isoNow(now)
  const result = await ctx.db.transaction().execute(async (trx) => {
    const order = (await trx.selectFrom('ticket_order').selectAll().where('id', '=', order0.id).executeTakeFirst())!
    if ((NOT_PAYABLE as readonly string[]).includes(order.status)) throw new AppError(409, 'ORDER_NOT_PAYABLE', { extra: { step: order.step, orderStatus: order.status } })
    const ok = typeof expected === 'number' ? order.step === expected : expected(order.step)
    if (!ok || order.status !== 'OPEN') throw stepChanged(order)
    const w = await work(trx, order)
    const merged = { ...order, ...w.set } as TicketOrderRow
    if (w.set.step === undefined) merged.step = nextStep(await stepState(trx, merged, now))
    // an order whose method was changed after confirming keeps its payment deadline instead of a hold
    const holding = merged.status === 'OPEN' && merged.step < STEP.EXTERNAL_SITE && !order.payment_due_at
    // renewed to 30 minutes from now, never shortened (an approved order is held for days)
    const renewed = isoNow(new Date(now.getTime() + HOLD_MINUTES * 60_000))
    const holdUntil = order.hold_until && order.hold_until > renewed ? order.hold_until : renewed
    const updated = await trx
      .updateTable('ticket_order')
      .set({ ...(w.set as any), step: merged.step, ...(holding ? { hold_until: holdUntil } : {}), updated_at: at })
      .where('id', '=', order.id)
      .where('step', '=', order.step)
      .where('status', '=', 'OPEN')
      .returningAll()
      .executeTakeFirst()
    if (!updated) throw stepChanged((await trx.selectFrom('ticket_order').select(['step', 'status']).where('id', '=', order.id).executeTakeFirstOrThrow()) as TicketOrderRow)
    if (w.history) await addHistory(trx, order.id, at, w.history, null, { from: order.step, to: updated.step })
    if (w.after) await w.after(updated)
    return updated
  })
  ctx.notifyMail()
  return result
}

/** What every proceed call answers: the order's step and status and the step's display number (a user step only). */
export async function answer(ctx: AppContext, o: TicketOrderRow, extra: Record<string, unknown> = {}) {
  const shown = (USER_STEPS as readonly number[]).includes(o.step) && o.status === 'OPEN' ? displayNumber(o.step, await stepState(ctx.db, o, ctx.clock.now())) : null
  return { step: o.step, status: o.status, displayStep: shown?.n ?? null, ...extra }
}

/** POST .../proceed/invoiceAddress (§5 rules). */
export async function proceedInvoiceAddress(ctx: AppContext, publicId: string, input: InvoiceAddressStep) {
  const pre = await orderByPublicId(ctx.db, publicId)
  const seller = await sellerSettings(ctx.db, pre.agency_id)
  const problems: FieldError[] = []
  if (seller.useInvoiceXML && seller.requireReferenceId && !input.referenceNumber) problems.push({ field: 'referenceNumber', errorType: 'REQUIRED' })
  if (seller.useInvoiceXML && input.referenceNumber && !isValidLeitwegId(input.referenceNumber)) problems.push({ field: 'referenceNumber', errorType: 'INVALID_LEITWEG_ID' })
  if (problems.length) throw fieldError(problems)
  const xml = seller.useInvoiceXML
  const o = await proceed(ctx, publicId, STEP.INVOICE_ADDRESS, async () => ({
    set: {
      invoice_address: toJson(input.invoiceAddress),
      tax_identification_number: xml ? input.taxIdentificationNumber : null,
      reference_number: xml ? (input.referenceNumber?.toUpperCase() ?? null) : null,
      additional_invoice_text: xml ? input.additionalInvoiceText : null,
      invoice_receiver: xml ? input.invoiceReceiver : null,
    },
    history: 'INVOICE_ADDRESS',
  }))
  return answer(ctx, o)
}

/**
 * POST .../proceed/additionalInformations: the required fields still empty and the escort persons
 * the tickets still lack (escort-step.ts: the event's escort settings, checked like the registration
 * form, written in place). Two calls at once: one wins, the other answers 409.
 */
export async function proceedAdditionalInformations(ctx: AppContext, publicId: string, input: { escortPersons: Array<Record<string, unknown>>; fieldData?: Record<string, unknown> }) {
  const pre = await orderByPublicId(ctx.db, publicId)
  const now = ctx.clock.now()
  // read and checked before the transaction (the single writer on SQLite): the event's escort rules
  const seen = pre.visitor_id ? await ctx.db.selectFrom('event_visitor').select(['id', 'visitor_count', 'escort_rev']).where('id', '=', pre.visitor_id).executeTakeFirst() : undefined
  let rows: ReturnType<typeof checkStepEscorts> | null = null
  if (seen) {
    const event = await ctx.db.selectFrom('event').selectAll().where('id', '=', pre.event_id).executeTakeFirstOrThrow()
    rows = checkStepEscorts(await formDefinitions(ctx.db, event), event, now, pre.language, input.escortPersons, seen.visitor_count - 1)
  }
  try {
    const o = await proceed(ctx, publicId, STEP.ADDITIONAL_INFORMATIONS, async (trx, order) => {
      // the required fields still empty first: nothing is stored unless both parts pass
      await fillMissingFields(trx, order, input.fieldData ?? {}, ctx.clock.now())
      if (seen && rows && order.visitor_id === seen.id) {
        const v = await trx.selectFrom('event_visitor').select('visitor_count').where('id', '=', seen.id).executeTakeFirstOrThrow()
        if (v.visitor_count !== seen.visitor_count) throw new AppError(409, 'ESCORTS_CHANGED_MEANWHILE')
        await writeStepEscorts(trx, seen, rows)
      }
      return { set: {}, history: 'ADDITIONAL_INFORMATIONS' }
    })
    return answer(ctx, o)
  } catch (e) {
    throw escortRace(e)
  }
}

/** POST .../proceed/paymentSelection: one of the event's enabled methods. */
export async function proceedPaymentSelection(ctx: AppContext, publicId: string, input: { paymentMethod: string }) {
  const o = await proceed(ctx, publicId, STEP.PAYMENT_METHOD, async (trx, order) => {
    const methods = await eventPaymentMethods(trx, { id: order.event_id, agency_id: order.agency_id, currency: order.currency })
    if (!methods.some((m) => m.method === input.paymentMethod) || !paymentProvider(input.paymentMethod)) {
      throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'paymentMethod', errorType: 'INVALID' }] })
    }
    return { set: { payment_method: input.paymentMethod }, history: 'PAYMENT_METHOD' }
  })
  return answer(ctx, o)
}

/** POST .../proceed/paymentPay on the confirmation: the method's provider decides what follows. */
export async function proceedPaymentPay(ctx: AppContext, publicId: string, input: { paymentMethod?: string | null; fullName?: string | null; acceptTerms?: boolean | null }) {
  let qrCode: string | null = null
  let redirectUrl: string | null = null
  // online methods start or finish their payment at the provider first (payment-methods.ts)
  let prepared: unknown
  const pre = await orderByPublicId(ctx.db, publicId)
  if (pre.status === 'OPEN' && pre.step === STEP.CONFIRMATION) await checkTerms(ctx, pre, input.acceptTerms === true)
  const preProvider = pre.gross_price > 0 && pre.payment_method ? paymentProvider(pre.payment_method) : null
  if (preProvider?.prepare && pre.status === 'OPEN' && pre.step === STEP.CONFIRMATION && (!input.paymentMethod || input.paymentMethod === pre.payment_method)) {
    const row = (await eventPaymentMethods(ctx.db, { id: pre.event_id, agency_id: pre.agency_id, currency: pre.currency })).find((m) => m.method === pre.payment_method)
    if (!row) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
    prepared = await preProvider.prepare(ctx, pre, row, { fullName: input.fullName })
    // a provider that settled the order itself (a PayPal capture) answers the order as it is now
    if ((prepared as { settled?: boolean } | undefined)?.settled) return answer(ctx, await orderByPublicId(ctx.db, publicId), { qrCode: null, redirectUrl: null })
  }
  const o = await proceed(ctx, publicId, STEP.CONFIRMATION, async (trx, order) => {
    // a field made required while the guest was on the later steps: filled in on step 5 first
    if ((await missingFieldsOf(trx, order, ctx.clock.now())).length) throw new AppError(409, 'ORDER_FIELDS_MISSING', { extra: { step: order.step, orderStatus: order.status } })
    const method = order.gross_price === 0 ? 'COUPON' : order.payment_method
    if (!method || (input.paymentMethod && input.paymentMethod !== method)) throw stepChanged(order)
    const row = method === 'COUPON' ? null : ((await eventPaymentMethods(trx, { id: order.event_id, agency_id: order.agency_id, currency: order.currency })).find((m) => m.method === method) ?? null)
    const provider = paymentProvider(method)
    if (!provider || (method !== 'COUPON' && !row)) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
    const r = await provider.pay(ctx, trx, order, row, { fullName: input.fullName, prepared })
    qrCode = r.qrCode ?? null
    redirectUrl = r.redirectUrl ?? null
    const settles = r.status === 'PAID' || r.status === 'CONFIRMED'
    const seller = await sellerSettings(trx, order.agency_id)
    const deadline = await deadlineDays(trx, order.event_id, seller.paymentTermsDays)
    const now = ctx.clock.now()
    return {
      set: {
        payment_method: method,
        step: r.step,
        status: r.status,
        full_name: input.fullName ?? order.full_name,
        hold_until: null,
        // a due date for money still to be sent (transfer, invoice); paying at the door has none (issue 20 item 22)
        // (the event's payment deadline, never after its start: orders/deadline.ts)
        // (a changed method keeps the deadline it had: switching never extends it, switch-method.ts)
        payment_due_at: (r.status === 'OPEN' || r.status === 'CONFIRMED') && method !== 'LOCATION' ? (order.payment_due_at ?? isoNow(paymentDeadline(now, deadline.days, deadline.startDate))) : null,
        ...(r.status === 'PAID' ? { paid_amount: r.paidAmount ?? order.gross_price, paid_at: isoNow(now) } : {}),
      },
      history: `PAY_${method}`,
      after: async (updated) => {
        // the registration of an order still waiting for its transfer holds its places: CONFIRMED too
        if (updated.status === 'OPEN' && updated.visitor_id != null) {
          await trx.updateTable('event_visitor').set({ status: 'CONFIRMED' }).where('id', '=', updated.visitor_id).where('status', '=', 'PENDING').execute()
        }
        if (settles) await onOrderSettled(ctx, trx, updated)
        await scheduleDeadline(ctx, trx, updated, now)
        // an online payment still at the provider gets its mail when the provider says paid
        if (updated.step === STEP.FINISHED) await enqueueOrderMail(ctx, trx, updated, 'received', row)
      },
    }
  })
  // a finished order goes where the organiser's link after registration points (§4), if set
  if (o.step === STEP.FINISHED && !redirectUrl) redirectUrl = (await ctx.db.selectFrom('event').select('external_confirmation_link').where('id', '=', o.event_id).executeTakeFirst())?.external_confirmation_link ?? null
  return answer(ctx, o, { qrCode, redirectUrl })
}

/**
 * The organiser's terms (docs/ticketing.md, "Selling rules"): with any, starting a payment needs
 * `acceptTerms` (paymentPay, paypal/init, mollie/init) or an acceptance recorded by an earlier start
 * (PayPal's approval comes back through paymentPay); else FIELD_ERROR acceptTerms TERMS_NOT_ACCEPTED.
 * The acceptance is recorded before the payment starts (also when the provider settles the order
 * itself), with the version and the text as they read now.
 */
export async function checkTerms(ctx: AppContext, order: TicketOrderRow, accepted: boolean) {
  const event = await ctx.db.selectFrom('event').select(['terms_text', 'terms_url']).where('id', '=', order.event_id).executeTakeFirstOrThrow()
  const terms = eventTerms(event)
  if (!hasTerms(terms)) return
  if (!accepted && order.terms_accepted_at) return
  if (!accepted) throw fieldError([{ field: 'acceptTerms', errorType: 'TERMS_NOT_ACCEPTED' }])
  await ctx.db
    .updateTable('ticket_order')
    .set({ terms_accepted_at: isoNow(ctx.clock.now()), terms_version: termsVersion(terms), terms_text: terms.termsText })
    .where('id', '=', order.id)
    .where('status', '=', 'OPEN')
    .execute()
}

/** POST .../proceed/reset {step}: back to an earlier user step (§4 back rules). */
export async function proceedBack(ctx: AppContext, publicId: string, target: number) {
  const pre = await orderByPublicId(ctx.db, publicId)
  // an unpaid order after its confirmation: changing the payment method (switch-method.ts)
  if (target === STEP.PAYMENT_METHOD && (pre.status === 'OPEN' || pre.status === 'CONFIRMED') && pre.step >= STEP.EXTERNAL_SITE) return answer(ctx, await switchPaymentMethod(ctx, pre))
  const state = await stepState(ctx.db, pre, ctx.clock.now())
  if (pre.status === 'OPEN' && !canGoBack(pre.step, target, state)) throw new AppError(409, 'ORDER_BACK_NOT_ALLOWED', { extra: { step: pre.step, orderStatus: pre.status } })
  const o = await proceed(ctx, publicId, pre.step, async () => ({
    // back to payment method clears the chosen method (§4)
    set: { step: target, ...(target === STEP.PAYMENT_METHOD ? { payment_method: null } : {}) },
    history: 'BACK',
  }))
  return answer(ctx, o)
}

/**
 * Whether the guest may continue the order (GET .../reset, the page's continue button; one rule for
 * both, issue 20 item 15): expired (901), failed (910) and a payment the guest cancelled at the
 * provider (900, PAYMENT_CANCELED: its last history entry is the provider's PAYMENT_FAILED) start
 * over; so does the confirmed reset on the wait step (90). An order the organiser cancelled (also
 * step 900) stays cancelled: the guest sees the order-cancelled notice of §4, as for REFUNDED and
 * DELETED — reviving it would undo the organiser's decision.
 */
export async function canContinue(db: Db, o: Pick<TicketOrderRow, 'id' | 'status' | 'step'>): Promise<boolean> {
  if (o.status === 'OPEN') return o.step === STEP.WAIT || o.step === STEP.FAILED
  if (o.status !== 'CANCELED') return false
  if (o.step === STEP.EXPIRED || o.step === STEP.FAILED) return true
  if (o.step !== STEP.CANCELED) return false
  const last = await db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', o.id).orderBy('id', 'desc').limit(1).executeTakeFirst()
  return last?.kind === 'PAYMENT_FAILED'
}

/**
 * GET .../reset: continue after a cancelled, expired or failed payment, or the confirmed reset on
 * SYSTEM_PAYMENT_WAIT: takes the tickets again if they were given back, clears method and payment,
 * and starts at the first step. The page answers 'Ok, die Zahlung wurde zurückgesetzt.'.
 */
export async function resetOrder(ctx: AppContext, publicId: string) {
  const pre = await orderByPublicId(ctx.db, publicId)
  if (!(await canContinue(ctx.db, pre))) throw new AppError(409, 'ORDER_RESET_NOT_ALLOWED', { extra: { step: pre.step, orderStatus: pre.status } })
  const now = ctx.clock.now()
  const at = isoNow(now)
  const o = await ctx.db.transaction().execute(async (trx) => {
    const flip = await trx
      .updateTable('ticket_order')
      // the deadline of the payment reset goes with it: the next paymentPay sets a new one
      .set({ status: 'OPEN' as OrderStatus, payment_method: bool(pre.invoice_address_disabled) ? 'COUPON' : null, payment_due_at: null, payment_reminded_at: null, hold_until: isoNow(new Date(now.getTime() + HOLD_MINUTES * 60_000)), updated_at: at })
      .where('id', '=', pre.id)
      .where('step', '=', pre.step)
      .where('status', '=', pre.status)
      .returningAll()
      .executeTakeFirst()
    if (!flip) throw stepChanged(pre)
    await reholdOrder(trx, flip, at)
    const methods = await eventPaymentMethods(trx, { id: flip.event_id, agency_id: flip.agency_id, currency: flip.currency })
    const preselected = flip.payment_method ?? (methods.length === 1 ? methods[0].method : null)
    const step = nextStep(await stepState(trx, { ...flip, payment_method: preselected }, now, methods))
    const row = (await trx.updateTable('ticket_order').set({ step, payment_method: preselected }).where('id', '=', flip.id).returningAll().executeTakeFirst())!
    await addHistory(trx, flip.id, at, 'RESET', null, { from: pre.step })
    await enqueueTask(ctx.clock, trx, { kind: EXPIRE_TASK, agencyId: row.agency_id, payload: { orderId: row.id }, runAfter: new Date(row.hold_until!) })
    return row
  })
  return answer(ctx, o)
}
