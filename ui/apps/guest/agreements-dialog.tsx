// The agreement signature dialog (guest-side.md 2, 4): one agreement after another (step x/y), a
// drawn signature to sign, decline only for optional ones ("Abgelehnt, weiter" while more follow).
// The decisions are handed back together; the caller stores them (dashboard: right away, self
// check-in: with the check-in). A new decision replaces the earlier one on the server.
import { useState } from 'preact/hooks'
import { Dialog } from '../../components/dialog'
import { SignaturePad } from '../../components/signature-pad'
import { Badge, Button } from '../../components/ui'
import { t } from '../../i18n'
import type { Decision, GuestAgreement } from './agreement-counter'

export { AgreementCounter, type Decision, type GuestAgreement, toDecide } from './agreement-counter'

export function AgreementsDialog({ agreements, onDone, onCancel, busy, error }: { agreements: GuestAgreement[]; onDone(decisions: Decision[]): void; onCancel(): void; busy?: boolean; error?: string | null }) {
  const [step, setStep] = useState(0)
  const [decisions, setDecisions] = useState<Decision[]>([])
  const [signature, setSignature] = useState<string | null>(null)
  const [missingSig, setMissingSig] = useState(false)
  const a = agreements[step]
  const last = step === agreements.length - 1
  // "Abgelehnt, weiter" while required ones are still to come (guest-side.md 2)
  const requiredAhead = agreements.slice(step + 1).some((x) => x.appearance === 'REQUIRED')
  const decide = (d: Decision) => {
    const all = [...decisions.filter((x) => x.id !== d.id), d]
    setDecisions(all)
    setSignature(null)
    setMissingSig(false)
    if (last) onDone(all)
    else setStep(step + 1)
  }
  if (!a) return null
  return (
    <Dialog
      title={a.displayName}
      onClose={onCancel}
      actions={
        <div class="agreement-actions">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {t('guestAgreements.cancel')}
          </Button>
          {a.appearance === 'VISIBLE' && (
            <Button variant="secondary" onClick={() => decide({ id: a.id, status: 'DECLINED', signature: null })} disabled={busy}>
              {requiredAhead ? t('guestAgreements.declineContinue') : t('guestAgreements.decline')}
            </Button>
          )}
          <Button
            busy={busy && last}
            onClick={() => {
              if (!signature) return setMissingSig(true)
              decide({ id: a.id, status: 'CONFIRMED', signature })
            }}
          >
            {last ? t('guestAgreements.signSave') : t('guestAgreements.signContinue')}
          </Button>
        </div>
      }
    >
      <p class="agreement-head">
        <span class="agreement-step">
          {t('guestAgreements.title')}
          {agreements.length > 1 && ` · ${t('guestAgreements.step', { x: step + 1, y: agreements.length })}`}
        </span>
        <Badge tone={a.appearance === 'REQUIRED' ? 'warn' : 'neutral'}>{a.appearance === 'REQUIRED' ? t('guestAgreements.required') : t('guestAgreements.optional')}</Badge>
        {a.status && <Badge tone={a.status === 'CONFIRMED' ? 'ok' : 'neutral'}>{t(`guestAgreements.status.${a.status}`)}</Badge>}
      </p>
      {/* sanitised on the server when the organiser saved it (agreements/service.ts) */}
      {a.description && <div class="agreement-dialog-text" dangerouslySetInnerHTML={{ __html: a.description }} />}
      <SignaturePad key={a.id} id={`signature-${a.id}`} invalid={missingSig} onChange={(png) => (setSignature(png), png && setMissingSig(false))} />
      {missingSig && (
        <p class="field-error" role="alert">
          {t('field.SIGNATURE_REQUIRED')}
        </p>
      )}
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  )
}
