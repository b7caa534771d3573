// The full picture of one registration for the organiser: data, escorts, labels, presence, agreements.
import type { AppContext } from '../../context'
import { formDefinitions } from '../forms/service'
import { labelsOfVisitors } from '../tags/service'
import { answerList, answersOf } from './answers'
import { escortDto, visitorListDto } from './dto'
import { escortsOf, waitingListPositions } from './repository'
import type { EventVisitorRow } from './visitors.table'

/** Extra parts of the detail other modules add (presence periods, agreements). */
export const detailParts: Array<(ctx: AppContext, v: EventVisitorRow) => Promise<Record<string, unknown>>> = []

/** Every answer to the organiser's own questions, as the guest saw it (German labels and values). */
async function answersOfVisitor(ctx: AppContext, v: EventVisitorRow) {
  const event = await ctx.db.selectFrom('event').select(['id', 'form_version']).where('id', '=', v.event_id).executeTakeFirstOrThrow()
  const [defs, values] = await Promise.all([formDefinitions(ctx.db, event), answersOf(ctx.db, [v.id])])
  return { answers: answerList(defs, values.get(v.id)) }
}

export async function visitorDetail(ctx: AppContext, v: EventVisitorRow) {
  const [escorts, labels, positions, ...extra] = await Promise.all([
    escortsOf(ctx.db, v.id),
    labelsOfVisitors(ctx.db, [v.id]),
    v.status === 'WAITING_LIST' ? waitingListPositions(ctx.db, [v.id]) : new Map<number, number>(),
    answersOfVisitor(ctx, v),
    ...detailParts.map((p) => p(ctx, v)),
  ])
  return { ...visitorListDto(v, labels.get(v.id), positions.get(v.id) ?? null), escortPersons: escorts.map(escortDto), ...Object.assign({}, ...extra) }
}
