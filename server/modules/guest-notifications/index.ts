// POST /api/guest/notifications (guest-side.md 7): the guest's notifications, 20 a page.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { requireGuest } from '../identity/auth'
import { NotificationPaging } from './model'
import { guestNotifications } from './service'

export function guestNotificationRoutes(ctx: AppContext) {
  return new Elysia({ name: 'guest-notifications' }).post(
    '/proxy/api/guest/notifications',
    async (c) => {
      const g = await requireGuest(ctx, c)
      return guestNotifications(ctx, g.user.id, c.body, g.user.language)
    },
    { body: NotificationPaging, detail: { tags: ['guest'], summary: "The guest's notifications (the mails about their registrations), newest first; page 0-based, 20 a page" } },
  )
}
