// The statuses of each entity with the CSS class the UI uses for its badge (GET /proxy/api/static/status).
// Display names are the catalogue keys `status.<entity>.<STATUS>`.
export const STATUS_CATALOGUE: Record<string, Array<[status: string, cssClass: string]>> = {
  visitor: [
    ['CONFIRMED', 'badge-ok'],
    ['INVITED', 'badge-info'],
    ['ADDED', 'badge-neutral'],
    ['APPEARED', 'badge-ok'],
    ['REQUIRE_APPROVAL', 'badge-warn'],
    ['DECLINED', 'badge-error'],
    ['OPEN', 'badge-neutral'],
    ['PENDING', 'badge-warn'],
    ['DELETED', 'badge-error'],
    ['VISITOR_DECLINED', 'badge-error'],
    ['WAITING_LIST', 'badge-info'],
  ],
  event: [
    ['OK', 'badge-ok'],
    ['PRESET', 'badge-info'],
    ['GLOBAL_PRESET', 'badge-info'],
    ['DELETED', 'badge-error'],
  ],
  task: [
    ['WAIT', 'badge-neutral'],
    ['RUNNING', 'badge-info'],
    ['FINISHED', 'badge-ok'],
    ['ERROR', 'badge-error'],
  ],
  agreement: [
    ['CONFIRMED', 'badge-ok'],
    ['DECLINED', 'badge-error'],
    ['OPEN', 'badge-warn'],
  ],
  checkin: [
    ['OPEN', 'badge-neutral'],
    ['CHECKED_IN', 'badge-ok'],
    ['CHECKED_OUT', 'badge-info'],
  ],
}
