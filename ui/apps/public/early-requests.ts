// The requests the public event page's HTML starts before the UI has loaded (./early.ts, and its
// worker ./page-worker.ts), as the page takes them.

/** An answer the worker read: its status and body (UTF-8 bytes, JSON when json). */
export interface WorkerAnswer {
  status: number
  json: boolean
  bytes: ArrayBuffer
}
/** The seating plan and its first area (read without identification: a fresh visit holds nothing). */
export interface SeatingAnswers {
  plan: WorkerAnswer
  area: { areaId: number; answer: WorkerAnswer } | null
}

/** The worker's messages: that the plan has areas (planOnly), then plan and area; null: it could not read them. */
export type WorkerMessage = { planOnly: true } | SeatingAnswers | null

/** What early.ts leaves for the page on window.__einlassEarly. */
export interface EarlyRequests {
  eventId: number
  event?: Promise<Response>
  form?: Promise<Response>
  /** the plan and first area from the worker; null when it could not read them (the page asks itself) */
  seating?: Promise<SeatingAnswers | null>
}
