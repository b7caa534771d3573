// Step 90 of the pay page: the payment is on its way (the provider has not confirmed it yet). The
// guest may start over with another method; a dialog asks first. A payment already made still counts
// when it arrives, or is refunded if the order is paid otherwise (docs/payments.md, "Reset on the
// wait step").
import { useState } from 'preact/hooks'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { Button, Card, Spinner } from '../../components/ui'
import { t } from '../../i18n'

export function PaymentWaiting({ method, reset }: { method: string | null; reset(): void }) {
  const [asking, setAsking] = useState(false)
  return (
    <Card class="pay-notice">
      <Spinner label={t(method === 'MOLLIE' ? 'ticketing.pay.waitMollie' : 'ticketing.pay.wait')} />
      <Button variant="secondary" onClick={() => setAsking(true)}>
        {t('ticketing.pay.resetPayment')}
      </Button>
      {asking && (
        <ConfirmDialog title={t('ticketing.pay.resetPayment')} confirmLabel={t('ticketing.pay.resetPayment')} cancelLabel={t('ticketing.pay.resetKeep')} onConfirm={reset} onClose={() => setAsking(false)}>
          <p>{t('ticketing.pay.resetConfirm')}</p>
        </ConfirmDialog>
      )}
    </Card>
  )
}
