// The full picture of one registration for the organiser: data, escorts, labels, presence, agreements.
import type { AppContext } from '../../context'
import { labelsOfVisitors } from '../tags/service'
import { escortDto, visitorListDto } from './dto'
import { escortsOf, waitingListPositions } from './repository'
import type { EventVisitorRow } from './visitors.table'

/** Extra parts of the detail other modules add (presence periods, agreements). */
export const detailParts: Array<(ctx: AppContext, v: EventVisitorRow) => Promise<Record<string, unknown>>> = []

export async function visitorDetail(ctx: AppContext, v: EventVisitorRow) {
  const [escorts, labels, positions, ...extra] = await Promise.all([
    escortsOf(ctx.db, v.id),
    labelsOfVisitors(ctx.db, [v.id]),
    v.status === 'WAITING_LIST' ? waitingListPositions(ctx.db, [v.id]) : new Map<number, number>(),
    ...detailParts.map((p) => p(ctx, v)),
  ])
  return { ...visitorListDto(v, labels.get(v.id), positions.get(v.id) ?? null), escortPersons: escorts.map(escortDto), ...Object.assign({}, ...extra) }
}
