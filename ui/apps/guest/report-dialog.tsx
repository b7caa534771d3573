// The report dialog (guest-side.md 2, 4, 5, 8): step 1 the type (EVENT_RELATED and CANCEL_EVENT only
// with an event), step 2 the organiser's contact info for those, else the report form; SEXUAL_ABUSE
// clears and hides the identity fields. The server checks the §5 rules and names fields (FIELD_ERROR).
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { ApiError, get, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { CheckboxField, Field, TextField, applyServerErrors } from '../../components/form'
import { Alert, Button, Spinner } from '../../components/ui'
import { t } from '../../i18n'

interface ReportType {
  value: string
  translationKey: string
  visible: boolean
  showForm: boolean
}
interface ReportInfo {
  reportTypes: ReportType[]
  eventName: string | null
  contactInfo: { agencyName: string; guestContact: string | null; phones: string[]; mails: string[]; extraInfo: string | null } | null
}
interface ReportForm {
  reason: string
  important: boolean
  firstName: string
  lastName: string
  email: string
  submitIdentity: boolean
  confirmCorrectData: boolean
}

export function ReportDialog({ event, onClose }: { event?: { id: number; displayName: string } | null; onClose(): void }) {
  const [info, setInfo] = useState<ReportInfo | null>(null)
  const [type, setType] = useState<string>('')
  const [step, setStep] = useState<1 | 2>(1)
  const [state, setState] = useState<'form' | 'submitting' | 'submitted' | 'error'>('form')
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<ReportForm>({ defaultValues: { reason: '', important: false, firstName: '', lastName: '', email: '', submitIdentity: false, confirmCorrectData: false } })
  const errors = form.formState.errors
  useEffect(() => {
    get<ReportInfo>(`/proxy/api/public/report/info${event ? `?eventId=${event.id}` : ''}`)
      .then(setInfo)
      .catch(() => setFailure(t('report.failure')))
  }, [event?.id])
  const chosen = info?.reportTypes.find((r) => r.value === type)
  const abuse = type === 'SEXUAL_ABUSE'

  const send = form.handleSubmit(async (v) => {
    setState('submitting')
    setFailure(null)
    const identity = abuse ? { firstName: null, lastName: null, email: null, submitIdentity: false } : { firstName: v.firstName, lastName: v.lastName, email: v.email, submitIdentity: v.submitIdentity }
    try {
      await post('/proxy/api/public/report', {
        reportType: type,
        origin: 'guest',
        originUrl: location.href,
        eventId: event?.id ?? null,
        eventName: event?.displayName ?? null,
        important: v.important,
        sexualAbuse: abuse,
        reason: v.reason,
        confirmCorrectData: abuse ? false : v.confirmCorrectData,
        ...identity,
      })
      setState('submitted')
    } catch (e) {
      applyServerErrors(e, form.setError)
      setFailure(e instanceof ApiError && e.errorType !== 'FIELD_ERROR' ? e.errorTranslation || t('report.failure') : t('report.failure'))
      setState('error')
    }
  })

  const actions =
    state === 'submitted' ? (
      <Button onClick={onClose}>{t('report.close')}</Button>
    ) : step === 1 ? (
      <>
        <Button variant="secondary" onClick={onClose}>
          {t('report.close')}
        </Button>
        <Button disabled={!type} onClick={() => setStep(2)}>
          {t('report.continue')}
        </Button>
      </>
    ) : (
      <>
        <Button variant="secondary" onClick={() => (setStep(1), setState('form'), setFailure(null))}>
          {t('report.back')}
        </Button>
        {chosen?.showForm ? (
          <Button busy={state === 'submitting'} onClick={() => void send()}>
            {t('report.send')}
          </Button>
        ) : (
          <Button onClick={onClose}>{t('report.close')}</Button>
        )}
      </>
    )

  return (
    <Dialog title={t('report.title')} onClose={onClose} actions={actions}>
      {state === 'submitted' ? (
        <Alert tone="ok" role="status">
          {t('report.success')}
        </Alert>
      ) : !info ? (
        failure ? <Alert tone="error">{failure}</Alert> : <Spinner />
      ) : step === 1 ? (
        <fieldset class="report-types">
          <legend>{t('report.step1')}</legend>
          {info.reportTypes
            .filter((r) => r.visible)
            .map((r) => (
              <label key={r.value} class="report-type">
                <input type="radio" name="reportType" value={r.value} checked={type === r.value} onChange={() => {
                    setType(r.value)
                    // SEXUAL_ABUSE: the identity is cleared, hidden and not sent
                    if (r.value === 'SEXUAL_ABUSE') for (const k of ['firstName', 'lastName', 'email'] as const) form.setValue(k, '')
                    if (r.value === 'SEXUAL_ABUSE') form.setValue('submitIdentity', false)
                  }}
                />
                <span>{t(r.translationKey)}</span>
              </label>
            ))}
        </fieldset>
      ) : chosen && !chosen.showForm ? (
        <div class="report-contact">
          {info.contactInfo && (info.contactInfo.guestContact || info.contactInfo.phones.length || info.contactInfo.mails.length) ? (
            <>
              <p>{t('report.contact.intro')}</p>
              <p>
                <strong>{info.contactInfo.agencyName}</strong>
                {info.contactInfo.guestContact && (
                  <>
                    <br />
                    {info.contactInfo.guestContact}
                  </>
                )}
              </p>
              <ul>
                {info.contactInfo.phones.map((p) => (
                  <li key={p}>
                    <a href={`tel:${p.replace(/\s+/g, '')}`}>{p}</a>
                  </li>
                ))}
                {info.contactInfo.mails.map((m) => (
                  <li key={m}>
                    <a href={`mailto:${m}`}>{m}</a>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>{t('report.contact.none')}</p>
          )}
        </div>
      ) : (
        <form class="report-form" onSubmit={(e) => (e.preventDefault(), void send())} noValidate>
          <p class="muted">
            {t('report.field.reportType')}: <strong>{chosen && t(chosen.translationKey)}</strong>
          </p>
          {failure && (
            <Alert tone="error" role="alert">
              {failure}
            </Alert>
          )}
          <Field label={t('report.field.reason')} name="reason" errors={errors} required>
            {(a) => <textarea {...a} {...form.register('reason')} rows={4} aria-required="true" />}
          </Field>
          <CheckboxField label={t('report.field.important')} reg={form.register('important')} errors={errors} />
          {abuse ? (
            <Alert tone="info">{t('report.abuseHint')}</Alert>
          ) : (
            <>
              <TextField label={t('report.field.firstName')} reg={form.register('firstName')} errors={errors} required size="half" autocomplete="given-name" />
              <TextField label={t('report.field.lastName')} reg={form.register('lastName')} errors={errors} required size="half" autocomplete="family-name" />
              <TextField label={t('report.field.email')} reg={form.register('email')} errors={errors} required type="email" autocomplete="email" />
              <CheckboxField label={t('report.field.submitIdentity')} reg={form.register('submitIdentity')} errors={errors} />
              <CheckboxField label={t('report.field.confirmCorrectData')} reg={form.register('confirmCorrectData')} errors={errors} />
            </>
          )}
        </form>
      )}
    </Dialog>
  )
}
