// The requests the public event page's HTML starts before the UI has loaded (./early.ts), as the page takes them.
/** What early.ts leaves for the page on window.__einlassEarly. */
export interface EarlyRequests {
  eventId: number
  event?: Promise<Response>
  form?: Promise<Response>
  plan?: Promise<Response>
  /** the plan's first area, read without identification (a fresh visit holds nothing) */
  area?: Promise<{ areaId: number; response: Promise<Response> } | null>
}
