// The agreements of the registration form (issue 10, item 3): each with its text as the organiser
// wrote it (sanitised on the server), whether it is required, and the signature pad the spec asks
// for ("A drawn signature is required to save"). Loaded only when the event has agreements, so the
// public page's scripts stay small for every other event.
import { SignaturePad } from '../../components/signature-pad'
import { currentLanguage, fieldMessage, t } from '../../i18n'

export interface PublicAgreement {
  id: number
  displayName: string
  description: string
  appearance: 'VISIBLE' | 'REQUIRED'
  version: number
  /** the organiser's name and text per language, non-empty fields only (server/modules/agreements/translations.ts) */
  translations?: Record<string, Partial<{ displayName: string; description: string }>>
}

export default function AgreementsBlock({
  agreements,
  errors,
  onSign,
}: {
  agreements: PublicAgreement[]
  /** agreement id → error code (AGREEMENT_REQUIRED, SIGNATURE_REQUIRED, AGREEMENT_CHANGED) */
  errors: Record<number, string>
  onSign(id: number, png: string | null): void
}) {
  return (
    <fieldset class="field-full registration-agreements">
      <legend>{t('registration.agreements.title')}</legend>
      {agreements.map((shown) => {
        // in the guest's language where the organiser translated it
        const a = { ...shown, ...shown.translations?.[currentLanguage()] }
        const error = errors[a.id]
        return (
          <section key={a.id} class={`registration-agreement ${error ? 'has-error' : ''}`} id={`agreement-${a.id}`} aria-labelledby={`agreement-${a.id}-title`}>
            <h3 id={`agreement-${a.id}-title`}>
              {a.displayName} <span class={`badge ${a.appearance === 'REQUIRED' ? 'badge-warn' : 'badge-neutral'}`}>{t(a.appearance === 'REQUIRED' ? 'registration.agreements.required' : 'registration.agreements.optional')}</span>
            </h3>
            {a.description && <div class="registration-agreement-text" dangerouslySetInnerHTML={{ __html: a.description }} />}
            <p class="muted">{t(a.appearance === 'REQUIRED' ? 'registration.agreements.signRequired' : 'registration.agreements.signOptional')}</p>
            <SignaturePad id={`agreement-${a.id}-signature`} invalid={!!error} onChange={(png) => onSign(a.id, png)} />
            {error && (
              <small class="field-error" role="alert">
                {fieldMessage(error)}
              </small>
            )}
          </section>
        )
      })}
    </fieldset>
  )
}
