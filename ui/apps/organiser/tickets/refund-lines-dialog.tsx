// The organiser refunds chosen tickets of a paid order (docs/ticketing.md, "Refunds per line"): a
// number per line (up to the tickets it has left) and the escort persons whose tickets go; the amount
// shown is computed as the server does (each line's gross split by quantity). The server's refusals
// (every ticket, persons that do not match, more than is left) are shown in the dialog.
import { useState } from 'preact/hooks'
import { errorText, post } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { toast } from '../../../components/overlay'
import { Alert, Button } from '../../../components/ui'
import { t } from '../../../i18n'
import { money } from './money'

/** what the dialog reads of the order page's order (its own shape: the page imports this dialog) */
interface RefundableOrder {
  id: number
  number: string
  currency: string
  lines: Array<{ id: number; amount: number; refundedQuantity: number; grossPrice: number; displayName: string }>
  persons: Array<{ kind: 'GUEST' | 'ESCORT'; escortId: number | null; name: string; checkedIn: boolean; checkedOut: boolean }>
}

const value = (l: { grossPrice: number; amount: number }, count: number) => Math.round((l.grossPrice * count) / l.amount)

export function RefundLinesDialog({ eventId, order, onClose, onDone }: { eventId: number; order: RefundableOrder; onClose(): void; onDone(): void }) {
  const lines = order.lines.filter((l) => l.amount - l.refundedQuantity > 0)
  const escorts = order.persons.filter((p) => p.kind === 'ESCORT' && p.escortId != null && !(p.checkedIn && !p.checkedOut))
  const [counts, setCounts] = useState<Record<number, number>>({})
  const [chosen, setChosen] = useState<number[]>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const amount = lines.reduce((s, l) => s + value(l, l.refundedQuantity + (counts[l.id] ?? 0)) - value(l, l.refundedQuantity), 0)
  const tickets = Object.values(counts).reduce((s, n) => s + n, 0)
  const submit = async (e?: Event) => {
    e?.preventDefault()
    setError(null)
    setBusy(true)
    try {
      const picked = lines.filter((l) => (counts[l.id] ?? 0) > 0).map((l) => ({ lineId: l.id, quantity: counts[l.id]! }))
      await post(`/proxy/api/events/${eventId}/orders/${order.id}/refundLines`, { lines: picked, escortIds: chosen })
      toast(t('orderDetail.refundLinesDone'))
      onDone()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      title={t('orderDetail.refundLinesTitle', { number: order.number })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} disabled={tickets === 0} onClick={() => void submit()}>
            {t('orderDetail.refundLinesSubmit')}
          </Button>
        </>
      }
    >
      <form class="form-grid refund-lines" noValidate onSubmit={submit}>
        <p class="field-full">{t('orderDetail.refundLinesIntro')}</p>
        {lines.map((l) => (
          <div class="field field-half" key={l.id}>
            <label for={`refund-line-${l.id}`}>{t('orderDetail.refundLinesQuantity', { name: l.displayName, left: l.amount - l.refundedQuantity })}</label>
            <input
              id={`refund-line-${l.id}`}
              type="number"
              min={0}
              max={l.amount - l.refundedQuantity}
              value={counts[l.id] ?? 0}
              onInput={(e) => {
                const n = Math.max(0, Math.min(l.amount - l.refundedQuantity, Math.floor(Number((e.target as HTMLInputElement).value) || 0)))
                setCounts((c) => ({ ...c, [l.id]: n }))
              }}
            />
          </div>
        ))}
        {escorts.length > 0 && (
          <fieldset class="field field-full refund-lines-persons">
            <legend>{t('orderDetail.refundLinesPersons')}</legend>
            {escorts.map((p) => (
              <div class="field field-check" key={p.escortId!}>
                <input
                  type="checkbox"
                  id={`refund-person-${p.escortId}`}
                  checked={chosen.includes(p.escortId!)}
                  onChange={(e) => {
                    const on = (e.target as HTMLInputElement).checked
                    setChosen((c) => (on ? [...c, p.escortId!] : c.filter((x) => x !== p.escortId)))
                  }}
                />
                <label for={`refund-person-${p.escortId}`}>{p.name || t('orderDetail.escort')}</label>
              </div>
            ))}
          </fieldset>
        )}
        <p class="field-full" data-testid="refund-lines-amount">
          <strong>{t('orderDetail.refundLinesAmount', { amount: money(amount, order.currency) })}</strong>
        </p>
      </form>
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
    </Dialog>
  )
}
