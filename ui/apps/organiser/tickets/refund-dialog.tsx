// The organiser's refund of an online payment through its provider (docs/payments.md, "Refunds"):
// an amount in euros, or empty for all that is still open; checked with the server's own schema
// (RefundPaymentInput) before it is sent, the server's field errors (REFUND_TOO_LARGE) at the field,
// others (provider down, order no longer paid) in the dialog.
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { RefundPaymentInput } from '../../../../server/modules/payments/model'
import { errorText, post } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { TextField, applyServerErrors } from '../../../components/form'
import { toast } from '../../../components/overlay'
import { sharedResolver } from '../../../components/resolver'
import { Alert, Button } from '../../../components/ui'
import { t } from '../../../i18n'
import { parseCents } from './money'

interface Values {
  amount: string
}
/** empty: the rest (null); not a price: NaN, which the schema refuses as INVALID */
const toInput = (v: Values) => ({ amount: v.amount.trim() ? (parseCents(v.amount) ?? Number.NaN) : null })

/** `offline`: the organiser records money given back by hand (POST …/refund {amount}), else the provider refunds it. */
export function RefundDialog({ eventId, order, offline, onClose, onDone }: { eventId: number; order: { id: number; number: string }; offline?: boolean; onClose(): void; onDone(): void }) {
  const [error, setError] = useState<string | null>(null)
  const { register, handleSubmit, formState, setError: setFieldError, setFocus } = useForm<Values>({ defaultValues: { amount: '' }, resolver: sharedResolver(RefundPaymentInput, toInput) })
  // the amount first (the dialog would focus its close button); runs after the dialog's own focus
  useEffect(() => setFocus('amount'), [])
  const submit = handleSubmit(async (v) => {
    setError(null)
    try {
      await post(`/proxy/api/events/${eventId}/orders/${order.id}/${offline ? 'refund' : 'refundPayment'}`, toInput(v))
      toast(t(offline ? 'ticketing.admin.refunded' : 'payments.admin.refunded'))
      onDone()
    } catch (e) {
      if (!applyServerErrors(e, setFieldError)) setError(errorText(e))
    }
  })
  return (
    <Dialog
      title={t(offline ? 'orderDetail.refundOfflineTitle' : 'payments.admin.refundTitle', { number: order.number })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button busy={formState.isSubmitting} onClick={() => void submit()}>
            {t(offline ? 'orderDetail.refundOfflineSubmit' : 'payments.admin.refundSubmit')}
          </Button>
        </>
      }
    >
      <form class="form-grid" noValidate onSubmit={submit}>
        <TextField label={t('payments.admin.refundAmountLabel')} reg={register('amount')} errors={formState.errors} hint={t(offline ? 'orderDetail.refundOfflineHint' : 'payments.admin.refundAmountHint')} inputMode="decimal" autocomplete="off" />
      </form>
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
    </Dialog>
  )
}
