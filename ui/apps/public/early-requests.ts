// The requests the public event page's HTML starts before the UI has loaded (./early.ts, and its
// worker ./page-worker.ts), as the page takes them.
import type { ComponentType } from 'preact'
import type { SeatPickerProps } from '../../components/seat-picker'

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

/** The worker's message: plan and area; null: it could not read them. */
export type WorkerMessage = SeatingAnswers | null

/** What early.ts leaves for the page on window.__einlassEarly. */
export interface EarlyRequests {
  eventId: number
  event?: Promise<Response>
  form?: Promise<Response>
  /** the plan and first area from the worker; null when it could not read them (the page asks itself) */
  seating?: Promise<SeatingAnswers | null>
}

/**
 * The seat picker the seating page (index-public-seating.html) drew before the app (./plan-first.tsx),
 * left on window.__einlassPicker for the registration page (./index.tsx) to take: a window property,
 * not a shared module, which would be one more chunk on every public page.
 */
export interface DrawnPicker {
  eventId: number
  plan: NonNullable<SeatPickerProps['plan']>
  initial?: SeatPickerProps['initial']
  /**
   * The form's seat picker: the drawn one, moved into the form, rendered with the form's props (the
   * same component, so the plan, an open chair popup and the focus stay).
   */
  Picker: ComponentType<SeatPickerProps>
  /** the picker unmounts and what stands in for the page goes (the page left, or shows no form) */
  discard(): void
}
