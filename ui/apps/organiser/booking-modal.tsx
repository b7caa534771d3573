// The booking modal of the server edition (spec agency-side §2.6, docs/booking.md): the licence's
// features, modules and limits with what is included and what is used; choosing one prepares a
// support request naming it (editable), sent to the support address (POST /proxy/api/license/request)
// or written by hand (mailto). A limit's quantity is a required number; the request text follows it
// after a 500 ms pause in typing. Sending stays disabled until something is chosen.
import { useEffect, useState } from 'preact/hooks'
import { errorText, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { useResource } from '../../components/hooks'
import { Alert, Badge, Button, Spinner } from '../../components/ui'
import { t } from '../../i18n'

/** GET /proxy/api/license (license/index.ts licenseOverview) */
export interface LicenseOverview {
  edition: 'licensed' | 'community'
  licensee: string | null
  validUntil: string | null
  problem: string | null
  features: Array<{ featureCode: string; included: boolean; everyEdition?: boolean }>
  limits: Record<'allowedEvents' | 'usedEvents' | 'allowedGuestAccounts' | 'usedGuestAccounts' | 'allowedAgencyUsers' | 'usedAgencyUsers' | 'allowedStorage' | 'usedStorage', number>
  supportEmail: string
}

export type LimitType = 'ADDITIONAL_EVENTS' | 'ADDITIONAL_STORAGE' | 'ADDITIONAL_ACCOUNTS' | 'ADDITIONAL_AGENCY_USERS'
export type BookingChoice = { featureType: 'FEATURE' | 'MODULE'; featureCode: string } | { featureType: LimitType }

/** Each limit option with its key in the licence overview's limits (allowed…/used…). */
export const LIMIT_OPTIONS: Array<{ type: LimitType; key: 'Events' | 'Storage' | 'GuestAccounts' | 'AgencyUsers'; label: string }> = [
  { type: 'ADDITIONAL_EVENTS', key: 'Events', label: 'license.limit.events' },
  { type: 'ADDITIONAL_ACCOUNTS', key: 'GuestAccounts', label: 'license.limit.guestAccounts' },
  { type: 'ADDITIONAL_AGENCY_USERS', key: 'AgencyUsers', label: 'license.limit.agencyUsers' },
  { type: 'ADDITIONAL_STORAGE', key: 'Storage', label: 'license.limit.storage' },
]
const DEFAULT_AMOUNT: Record<LimitType, number> = { ADDITIONAL_EVENTS: 10, ADDITIONAL_ACCOUNTS: 500, ADDITIONAL_AGENCY_USERS: 5, ADDITIONAL_STORAGE: 1024 }
/** the quantity reprices (here: rewrites the request) after this pause in typing (spec §9) */
export const QUANTITY_DEBOUNCE_MS = 500

const keyOf = (c: BookingChoice | null) => (c ? ('featureCode' in c ? `${c.featureType}:${c.featureCode}` : c.featureType) : '')
const shown = (n: number) => (n < 0 ? '∞' : n.toLocaleString('de-DE'))

export function BookingModal({ agencyName, initial = null, onClose }: { agencyName: string; initial?: BookingChoice | null; onClose(): void }) {
  const { data, error } = useResource<LicenseOverview>('/proxy/api/license')
  const [choice, setChoice] = useState<BookingChoice | null>(initial)
  const [amount, setAmount] = useState<string>(initial && !('featureCode' in initial) ? String(DEFAULT_AMOUNT[initial.featureType]) : '')
  const [settledAmount, setSettledAmount] = useState(amount)
  const [text, setText] = useState('')
  const [edited, setEdited] = useState(false)
  const [result, setResult] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    const timer = setTimeout(() => setSettledAmount(amount), QUANTITY_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [amount])

  const limit = choice && !('featureCode' in choice) ? LIMIT_OPTIONS.find((o) => o.type === choice.featureType)! : null
  const amountNumber = /^\d{1,7}$/.test(settledAmount.trim()) ? Number(settledAmount) : 0
  const wanted = !choice ? '' : limit ? t(`license.request.wanted.${limit.type}`, { amount: amountNumber }) : t(`license.feature.${(choice as { featureCode: string }).featureCode}`)
  // the prepared request follows the choice (and the settled quantity) until the person edits it
  useEffect(() => {
    if (!choice || !data || edited) return
    setText(
      limit
        ? t('booking.text.limit', { agency: agencyName, wanted, used: shown(data.limits[`used${limit.key}`]), allowed: shown(data.limits[`allowed${limit.key}`]) })
        : t('booking.text.feature', { agency: agencyName, wanted }),
    )
  }, [keyOf(choice), settledAmount, data, edited])

  const choose = (c: BookingChoice) => {
    setChoice(c)
    setEdited(false)
    setResult(null)
    if (!('featureCode' in c)) {
      setAmount(String(DEFAULT_AMOUNT[c.featureType]))
      setSettledAmount(String(DEFAULT_AMOUNT[c.featureType]))
    }
  }
  const amountMissing = Boolean(limit) && !/^\d{1,7}$/.test(amount.trim()) || (Boolean(limit) && Number(amount) < 1)
  const canSend = Boolean(choice) && !amountMissing && text.trim().length > 0 && !busy
  const send = async () => {
    if (!choice || !data) return
    setBusy(true)
    setResult(null)
    try {
      const r = await post<{ wanted: string; supportEmail: string }>('/proxy/api/license/request', { ...choice, amount: limit ? Number(amount) : null, message: text })
      setResult({ tone: 'ok', text: t('booking.sent', { wanted: r.wanted, email: r.supportEmail }) })
    } catch (e) {
      setResult({ tone: 'error', text: errorText(e) })
    } finally {
      setBusy(false)
    }
  }
  const mailto = data && choice ? `mailto:${data.supportEmail}?subject=${encodeURIComponent(t('license.request.mail.subject', { wanted, agency: agencyName }))}&body=${encodeURIComponent(text)}` : null

  const option = (c: BookingChoice, name: string, side: preact.ComponentChildren, disabled = false) => (
    <label class={`booking-option ${keyOf(choice) === keyOf(c) ? 'booking-option-on' : ''} ${disabled ? 'booking-option-off' : ''}`} key={keyOf(c)}>
      <input type="radio" name="booking-option" checked={keyOf(choice) === keyOf(c)} disabled={disabled} onChange={() => choose(c)} />
      <span class="booking-option-name">{name}</span>
      <span class="booking-option-side">{side}</span>
    </label>
  )

  return (
    <Dialog
      title={t('booking.title')}
      onClose={onClose}
      wide
      actions={
        <>
          {mailto && (
            <a class="btn btn-secondary" href={mailto}>
              {t('booking.mailInstead')}
            </a>
          )}
          <Button onClick={send} disabled={!canSend} busy={busy}>
            {t('booking.send')}
          </Button>
        </>
      }
    >
      {error && <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && (
        <div class="booking">
          <p class="booking-intro">{t('booking.intro', { email: data.supportEmail })}</p>
          <fieldset class="booking-group">
            <legend>{t('booking.features')}</legend>
            {data.features
              .filter((f) => !f.everyEdition)
              .map((f) => option({ featureType: 'FEATURE', featureCode: f.featureCode }, t(`license.feature.${f.featureCode}`), <Badge tone={f.included ? 'ok' : 'neutral'}>{t(f.included ? 'booking.included' : 'booking.notIncluded')}</Badge>, f.included))}
          </fieldset>
          <fieldset class="booking-group">
            <legend>{t('booking.modules')}</legend>
            {data.features
              .filter((f) => f.everyEdition)
              .map((f) => option({ featureType: 'MODULE', featureCode: f.featureCode }, t(`license.feature.${f.featureCode}`), <Badge tone="ok">{t('booking.everyEdition')}</Badge>, true))}
          </fieldset>
          <fieldset class="booking-group">
            <legend>{t('booking.limits')}</legend>
            {LIMIT_OPTIONS.map((o) =>
              option({ featureType: o.type }, t(o.label), <span class="muted">{t('booking.usage', { allowed: shown(data.limits[`allowed${o.key}`]) + (o.key === 'Storage' ? ' MB' : ''), used: shown(data.limits[`used${o.key}`]) + (o.key === 'Storage' ? ' MB' : '') })}</span>),
            )}
          </fieldset>
          {limit && (
            <div class={`field field-half ${amountMissing ? 'has-error' : ''}`}>
              <label for="booking-amount">
                {t(limit.type === 'ADDITIONAL_STORAGE' ? 'booking.amountStorage' : 'booking.amount')}
                <span class="req" aria-hidden="true"> *</span>
              </label>
              <input id="booking-amount" type="number" min={1} step={1} required value={amount} aria-invalid={amountMissing} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
              {amountMissing && <small class="field-error">{t('field.REQUIRED')}</small>}
            </div>
          )}
          {!choice && <p class="muted">{t('booking.chooseFirst')}</p>}
          {choice && (
            <div class="field field-full">
              <label for="booking-text">{t('booking.request')}</label>
              <textarea
                id="booking-text"
                rows={7}
                value={text}
                onInput={(e) => {
                  setText((e.target as HTMLTextAreaElement).value)
                  setEdited(true)
                }}
              />
              <small class="hint">{t('booking.requestHint', { email: data.supportEmail })}</small>
            </div>
          )}
          {result && (
            <Alert tone={result.tone} role={result.tone === 'ok' ? 'status' : 'alert'}>
              {result.text}
            </Alert>
          )}
        </div>
      )}
    </Dialog>
  )
}
