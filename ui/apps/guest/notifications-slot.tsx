// The notifications tab's content (guest-side.md 2, "Notifications list"). The list itself belongs to
// the guest-extras work; this slot keeps the tab and the /guest/notifications route in place until
// it lands (replace this component's body, keep its name).
import { t } from '../../i18n'

export function NotificationsSlot() {
  return (
    <div class="guest-notifications" data-testid="notifications-slot">
      <p class="muted">{t('guestPortal.notifications.empty')}</p>
    </div>
  )
}
