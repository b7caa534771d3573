// /guest/checkin/{token}: the open self check-in page (guest-side.md 2). The dialog itself belongs to
// the guest-extras work; this slot keeps the route out of the dashboard redirect until it lands
// (replace this component's body, keep its name).
import { PublicFrame } from '../../components/public-frame'
import { Spinner } from '../../components/ui'

export function CheckinSlot() {
  return (
    <PublicFrame>
      <div data-testid="checkin-slot">
        <Spinner />
      </div>
    </PublicFrame>
  )
}
