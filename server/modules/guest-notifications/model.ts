// The guest's notifications list (guest-side.md 2 "Notifications list", 3 "Notification", 9: 20 a page).
import { z } from 'zod'

export const NOTIFICATION_PAGE_SIZE = 20
export const NOTIFICATION_TYPES = ['EMAIL', 'PUSH_NOTIFICATION', 'SMS'] as const

/** the spec's "paging": a 0-based page number; the size is fixed at 20 (a smaller one may be asked) */
export const NotificationPaging = z.object({
  page: z.number().int().min(0, 'INVALID').max(1_000_000, 'INVALID').default(0),
  size: z.number().int().min(1, 'INVALID').max(NOTIFICATION_PAGE_SIZE, 'INVALID').default(NOTIFICATION_PAGE_SIZE),
})
export type NotificationPaging = z.infer<typeof NotificationPaging>

export interface GuestNotification {
  id: number
  eventId: number | null
  eventName: string | null
  title: string
  /** ISO instant: sent, or queued while not yet sent */
  date: string
  type: (typeof NOTIFICATION_TYPES)[number]
  failed: boolean
  /** push notifications carry their message; an e-mail shows a fixed text (UI) */
  message: string | null
  image: string | null
  eventLink: string | null
}
