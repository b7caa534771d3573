// The tickets tab's warning when the event's seat plan has price categories that name no ticket
// category: no ticket is sold until they are linked (SEATING_NOT_LINKED, docs/seating.md).
import { useResource } from '../../../components/hooks'
import { Alert } from '../../../components/ui'
import { t } from '../../../i18n'

export function SeatingLinkWarning({ eventId }: { eventId: number }) {
  const { data } = useResource<{ unlinkedPriceCategories?: string[] }>(`/proxy/api/events/${eventId}/seatingplan`)
  const names = data?.unlinkedPriceCategories ?? []
  if (!names.length) return null
  return (
    <Alert tone="warn">
      {t('seating.unlinked', { names: names.join(', ') })} <a href={`/events/${eventId}/seating`}>{t('seating.unlinkedLink')}</a>
    </Alert>
  )
}
