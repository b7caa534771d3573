// The pay page's checkout: the payment method (step 8), the confirmation with its edit links (step
// 40), the finished order (100) and the order's summary shown beside every step.
import { useState } from 'preact/hooks'
import { Button, Card } from '../../components/ui'
import { currentLanguage, t } from '../../i18n'
import { countryLabel } from '../../../server/modules/forms/country-codes'
import { OnlinePay } from './online'
import { type Info, money, type Proceed, type Online } from './model'

export function MethodStep({ info, proceed }: { info: Info; proceed: Proceed }) {
  const [chosen, setChosen] = useState<string | null>(info.ticketOrder.paymentMethod ?? (info.paymentMethods.length === 1 ? info.paymentMethods[0].method : null))
  const [busy, setBusy] = useState(false)
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.8')}</h2>
      <div class="pay-methods" role="radiogroup" aria-label={t('ticketing.step.8')}>
        {info.paymentMethods.map((m) => (
          <label key={m.id} class={`pay-method ${chosen === m.method ? 'is-chosen' : ''}`}>
            <input type="radio" name="paymentMethod" value={m.method} checked={chosen === m.method} onChange={() => setChosen(m.method)} />
            <span>{t(`ticketing.method.${m.method}`)}</span>
          </label>
        ))}
      </div>
      <div class="pay-actions">
        <Button
          busy={busy}
          disabled={!chosen}
          onClick={async () => {
            setBusy(true)
            await proceed('proceed/paymentSelection', { paymentMethod: chosen })
            setBusy(false)
          }}
        >
          {t('ticketing.pay.next')}
        </Button>
      </div>
    </Card>
  )
}

function EditLink({ info, step, proceed }: { info: Info; step: number; proceed: Proceed }) {
  if (!info.ticketOrder.editableSteps.includes(step)) return null
  return (
    <button type="button" class="pay-edit" onClick={() => void proceed('proceed/reset', { step })}>
      {t('ticketing.pay.edit')}
    </button>
  )
}

const ONLINE_METHODS = ['STRIPE', 'PAYPAL', 'MOLLIE']

/** The organiser's terms with the checkbox the buyer ticks before paying (docs/ticketing.md, "Selling rules"). */
function TermsCheck({ info, accepted, onChange, error }: { info: Info; accepted: boolean; onChange(v: boolean): void; error: boolean }) {
  const terms = info.terms
  if (!terms) return null
  return (
    <section class="pay-terms">
      {terms.termsText && (
        <details>
          <summary>{t('ticketing.pay.termsTitle')}</summary>
          <div class="pay-terms-text">{terms.termsText}</div>
        </details>
      )}
      <label class="pay-terms-check">
        <input type="checkbox" name="acceptTerms" checked={accepted} aria-invalid={error} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
        <span>
          {t('ticketing.pay.acceptTerms')}
          {terms.termsUrl && (
            <>
              {' '}
              <a href={terms.termsUrl} target="_blank" rel="noopener noreferrer">
                {t('ticketing.pay.termsLink')}
              </a>
            </>
          )}
        </span>
      </label>
      {error && <small class="field-error">{t('field.TERMS_NOT_ACCEPTED')}</small>}
    </section>
  )
}

export function ConfirmStep({ info, proceed, online }: { info: Info; proceed: Proceed; online: Online }) {
  const o = info.ticketOrder
  const a = o.invoiceAddress
  const [busy, setBusy] = useState(false)
  const [accepted, setAccepted] = useState(false)
  const [termsError, setTermsError] = useState(false)
  const termsOk = !info.terms || accepted
  return (
    <Card class="pay-step">
      <h2>{t('ticketing.step.40')}</h2>
      {a && (
        <section class="pay-review">
          <h3>
            {t('ticketing.step.1')} <EditLink info={info} step={1} proceed={proceed} />
          </h3>
          <p>
            {a.receiver}
            {a.addition ? `, ${a.addition}` : ''}
            <br />
            {a.street} {a.streetNumber}
            <br />
            {a.postCode} {a.city}, {countryLabel(a.country, currentLanguage())}
          </p>
        </section>
      )}
      {info.escortPersons.length > 0 && (
        <section class="pay-review">
          <h3>
            {t('ticketing.step.5')} <EditLink info={info} step={5} proceed={proceed} />
          </h3>
          <p>{info.escortPersons.map((e) => `${e.firstName} ${e.lastName}`).join(', ')}</p>
        </section>
      )}
      {o.grossPrice > 0 && o.paymentMethod && (
        <section class="pay-review">
          <h3>
            {t('ticketing.step.8')} <EditLink info={info} step={8} proceed={proceed} />
          </h3>
          <p>{t(`ticketing.method.${o.paymentMethod}`)}</p>
        </section>
      )}
      <TermsCheck info={info} accepted={accepted} error={termsError} onChange={(v) => (setAccepted(v), setTermsError(false))} />
      {o.grossPrice > 0 && ONLINE_METHODS.includes(o.paymentMethod ?? '') ? (
        // the provider's buttons only once the terms are accepted: each of their calls says so
        termsOk && <OnlinePay info={info} base={online.base} done={online.done} />
      ) : (
      <div class="pay-actions">
        <Button
          busy={busy}
          onClick={async () => {
            if (!termsOk) return setTermsError(true)
            setBusy(true)
            await proceed('proceed/paymentPay', { paymentMethod: o.grossPrice === 0 ? 'COUPON' : o.paymentMethod, acceptTerms: accepted })
            setBusy(false)
          }}
        >
          {o.grossPrice === 0 ? t('ticketing.pay.confirmFree') : t('ticketing.pay.confirm', { total: money(o.grossPrice, o.currency) })}
        </Button>
      </div>
      )}
    </Card>
  )
}

export function Finished({ info, qrCode: fresh, proceed }: { info: Info; qrCode: string | null; proceed: Proceed }) {
  const o = info.ticketOrder
  const qrCode = fresh ?? info.qrCode
  const m = info.paymentMethods.find((x) => x.method === o.paymentMethod)
  const transfer = o.paymentMethod === 'TRANSFER' && o.status === 'OPEN'
  return (
    <Card class="pay-step pay-finished">
      <h2>{o.status === 'PAID' ? t('ticketing.pay.paid') : t('ticketing.pay.thanks')}</h2>
      {transfer && m && (
        <>
          <p>{t('ticketing.pay.transferIntro', { total: money(o.grossPrice, o.currency) })}</p>
          <dl class="pay-bank">
            <dt>{t('ticketing.pay.accountHolder')}</dt>
            <dd>{m.accountHolder}</dd>
            <dt>IBAN</dt>
            <dd>{m.iban?.replace(/(.{4})/g, '$1 ').trim()}</dd>
            <dt>BIC</dt>
            <dd>{m.bic}</dd>
            {m.bank && (
              <>
                <dt>{t('ticketing.pay.bank')}</dt>
                <dd>{m.bank}</dd>
              </>
            )}
            <dt>{t('ticketing.pay.reference')}</dt>
            <dd>
              <strong>{o.transferReference}</strong>
            </dd>
            <dt>{t('ticketing.pay.amount')}</dt>
            <dd>{money(o.grossPrice, o.currency)}</dd>
          </dl>
          {qrCode ? (
            <figure class="pay-girocode">
              <img src={qrCode} alt={t('ticketing.pay.girocodeAlt')} width={240} height={240} />
              <figcaption>{t('ticketing.pay.girocode')}</figcaption>
            </figure>
          ) : (
            <p class="muted">{t('ticketing.pay.girocodeMail')}</p>
          )}
        </>
      )}
      {o.paymentMethod === 'INVOICE' && o.status === 'CONFIRMED' && <p>{t('ticketing.pay.invoiceDone')}</p>}
      {o.paymentMethod === 'LOCATION' && o.status === 'CONFIRMED' && <p>{t('ticketing.pay.locationDone', { total: money(o.grossPrice, o.currency) })}</p>}
      {/* the method's instructions while something is to be paid; a paid order is not asked again (issue 20 item 22) */}
      {info.confirmationText && <p>{info.confirmationText}</p>}
      <p class="muted">{t('ticketing.pay.mailSent')}</p>
      {o.canChangePaymentMethod && (
        <div class="pay-actions">
          <Button variant="secondary" onClick={() => void proceed('proceed/reset', { step: 8 })}>
            {t('ticketing.pay.changeMethod')}
          </Button>
        </div>
      )}
      {info.redirectUrl && (
        <div class="pay-actions">
          <a class="btn btn-primary" href={info.redirectUrl} target="_top" rel="noopener">
            {t('ticketing.pay.toLink')}
          </a>
        </div>
      )}
    </Card>
  )
}

export function Summary({ info }: { info: Info }) {
  const o = info.ticketOrder
  return (
    <Card class="pay-summary">
      <h2>{t('ticketing.pay.summary')}</h2>
      <table>
        <tbody>
          {o.visitorTickets.map((l, i) => (
            <tr key={i}>
              <td>
                {l.amount} × {l.displayName}
                {l.chairInfo && <small class="pay-seats">{t('ticketing.pay.seats', { labels: l.chairInfo })}</small>}
              </td>
              <td class="num">{money(l.amount * l.unitPrice, o.currency)}</td>
            </tr>
          ))}
          {o.discount > 0 && (
            <tr>
              <td>{t('ticketing.pay.coupon', { code: o.usedCoupons.map((c) => c.code).join(', ') })}</td>
              <td class="num">−{money(o.discount, o.currency)}</td>
            </tr>
          )}
          {/* the seats by line where the lines name them (seat-bound categories); else the order's seats in one row */}
          {info.seats.length > 0 && !o.visitorTickets.some((l) => l.chairInfo) && (
            <tr>
              <td colSpan={2}>
                <small class="pay-seats">{t('ticketing.pay.seats', { labels: info.seats.join(', ') })}</small>
              </td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr class="pay-total">
            <th scope="row">{t('ticketing.pay.total')}</th>
            <td class="num">{money(o.grossPrice, o.currency)}</td>
          </tr>
          {o.taxPrices.map((tp) => (
            <tr key={tp.taxCode} class="muted">
              <td>{t('ticketing.pay.taxIncluded', { rate: String(tp.taxValue).replace('.', ',') })}</td>
              <td class="num">{money(tp.totalPrice, o.currency)}</td>
            </tr>
          ))}
        </tfoot>
      </table>
    </Card>
  )
}
