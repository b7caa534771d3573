// The guest signs missing REQUIRED agreements on the desk's device: each agreement's name and text
// (HTML sanitised by the server when the agreement is saved, shown as on the agreements page), an
// "I agree" box each, one drawn signature for all; saved with origin DESK and the staff account
// (POST /events/:id/visitors/:vid/agreements). The desk then repeats the refused check-in, if any.
import { useEffect, useState } from 'preact/hooks'
import { ApiError, errorText, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { SignaturePad } from '../../components/signature-pad'
import { Alert, Button } from '../../components/ui'
import { fieldMessage, t } from '../../i18n'

export interface SignedAgreement {
  id: number
  displayName: string
  appearance: string
  status: string | null
}

export function DeskSignDialog({
  eventId,
  visitorId,
  guestName,
  agreements,
  andCheckIn,
  onCancel,
  onSigned,
}: {
  eventId: number
  visitorId: number
  guestName: string
  agreements: Array<{ id: number; displayName: string }>
  /** the submit button says "sign and check in" (the desk repeats the refused check-in) */
  andCheckIn: boolean
  onCancel(): void
  onSigned(list: SignedAgreement[]): void
}) {
  const [texts, setTexts] = useState<Record<number, string>>({})
  const [agreed, setAgreed] = useState<Record<number, boolean>>({})
  const [png, setPng] = useState<string | null>(null)
  const [tried, setTried] = useState(false)
  const [sigError, setSigError] = useState<string | null>(null)
  const [err, setErr] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    post<Array<{ id: number; description: string }>>('/proxy/api/agreements/search', { eventId }).then(
      (list) => setTexts(Object.fromEntries(list.map((a) => [a.id, a.description]))),
      () => {},
    )
  }, [eventId])

  const submit = async () => {
    setTried(true)
    setErr(null)
    setSigError(null)
    if (agreements.some((a) => !agreed[a.id]) || !png) return
    setBusy(true)
    try {
      const list = await post<SignedAgreement[]>(`/proxy/api/events/${eventId}/visitors/${visitorId}/agreements`, {
        agreements: agreements.map((a) => ({ id: a.id, status: 'CONFIRMED', signature: png })),
      })
      onSigned(list)
    } catch (e) {
      const sig = e instanceof ApiError ? e.errorFields.find((f) => f.field.endsWith('.signature')) : undefined
      if (sig) setSigError(fieldMessage(sig.errorType))
      const other = e instanceof ApiError ? e.errorFields.filter((f) => !f.field.endsWith('.signature')) : []
      if (!sig || other.length) setErr([errorText(e), ...other.map((f) => fieldMessage(f.errorType))].join(' '))
    } finally {
      setBusy(false)
    }
  }

  const sigMessage = sigError ?? (tried && !png ? fieldMessage('SIGNATURE_REQUIRED') : null)
  return (
    <Dialog
      wide
      title={t('checkin.signTitle')}
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} onClick={() => void submit()}>
            {andCheckIn ? t('checkin.signAndCheckIn') : t('checkin.signOnly')}
          </Button>
        </>
      }
    >
      <p class="desk-sign-guest">
        <strong>{guestName}</strong>
      </p>
      <p class="muted">{t('checkin.signIntro')}</p>
      {err && <Alert tone="error">{err}</Alert>}
      <ul class="desk-sign-list">
        {agreements.map((a) => {
          const missing = tried && !agreed[a.id]
          return (
            <li key={a.id} class={`desk-sign-item ${missing ? 'has-error' : ''}`}>
              <h3 id={`desk-sign-${a.id}`}>{a.displayName}</h3>
              {texts[a.id] && <div class="agreement-text" dangerouslySetInnerHTML={{ __html: texts[a.id] }} />}
              <label class="checkbox desk-sign-agree">
                <input
                  type="checkbox"
                  checked={Boolean(agreed[a.id])}
                  aria-describedby={`desk-sign-${a.id}`}
                  aria-invalid={missing ? 'true' : undefined}
                  onChange={(e) => setAgreed({ ...agreed, [a.id]: (e.target as HTMLInputElement).checked })}
                />{' '}
                {t('checkin.agree')}
              </label>
              {missing && <small class="field-error">{fieldMessage('AGREEMENT_REQUIRED')}</small>}
            </li>
          )
        })}
      </ul>
      <SignaturePad
        id="desk-signature"
        invalid={Boolean(sigMessage)}
        onChange={(p) => {
          setPng(p)
          setSigError(null)
        }}
      />
      {sigMessage && (
        <small class="field-error" role="alert">
          {sigMessage}
        </small>
      )}
    </Dialog>
  )
}
