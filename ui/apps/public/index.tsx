// Public event page /public/event/{id} and its embeddable frame /public/event/{id}/frame.
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'preact/hooks'
import { useFieldArray, useForm } from 'react-hook-form'
import { useRoute } from 'wouter'
import { formatDate, formatTime } from '../../../server/i18n/format'
import { RegistrationInput } from '../../../server/modules/registration/model'
import { SALUTATIONS } from '../../../server/modules/forms/definitions'
import { ApiError, errorText, post } from '../../api/client'
import { FieldErrorDialog } from '../../components/field-error-dialog'
import { SelectField, TextField, applyServerErrors } from '../../components/form'
import { useResource } from '../../components/hooks'
import { PublicFrame } from '../../components/layout'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { currentLanguage, t, useLanguage } from '../../i18n'

interface PublicEvent {
  id: number
  displayName: string
  subTitle: string | null
  startDate: string
  endDate: string
  timezone: string
  eventType: string
  address: { locationName: string | null; street: string | null; streetNumber: string | null; postCode: string | null; city: string | null }
  agency: { displayName: string } | null
  registrationState: 'OPEN' | 'NOT_OPEN' | 'CLOSED' | 'EXPIRED' | 'FULL'
  freePlaces: number | null
  maxVisitorPerSubscription: number
  registrationButtonType: string
  registrationFrom: string | null
  primaryColor: string | null
}

type FormValues = import('zod').input<typeof RegistrationInput>

function RegistrationForm({ event, onDone }: { event: PublicEvent; onDone(r: { status: string; email: string }): void }) {
  const [fieldError, setFieldError] = useState<ApiError | null>(null)
  const [error, setErrorText] = useState<string | null>(null)
  const { register, handleSubmit, formState, setError, control } = useForm<FormValues>({
    resolver: zodResolver(RegistrationInput) as any,
    mode: 'onTouched',
    defaultValues: { escortPersons: [] },
  })
  const escorts = useFieldArray({ control, name: 'escortPersons' })
  const maxEscorts = event.maxVisitorPerSubscription > 0 ? event.maxVisitorPerSubscription - 1 : 10
  const errors = formState.errors
  const labels: Record<string, string> = { salutation: t('registration.salutation'), firstName: t('registration.firstName'), lastName: t('registration.lastName'), email: t('registration.email') }
  const submit = handleSubmit(async (values) => {
    setErrorText(null)
    try {
      const r = await post<{ status: string; email: string }>(`/proxy/api/public/events/${event.id}/registrations`, { ...values, language: currentLanguage() })
      onDone(r)
    } catch (e) {
      if (e instanceof ApiError && (e.errorType === 'FIELD_ERROR' || e.errorType === 'FIELD_ERROR_WARN_BUT_SAVED') && e.errorFields.length) {
        applyServerErrors(e, setError)
        setFieldError(e)
      } else {
        applyServerErrors(e, setError)
        setErrorText(errorText(e))
      }
    }
  })
  return (
    <form onSubmit={submit} noValidate class="form-grid" aria-labelledby="reg-title">
      <h2 id="reg-title" class="form-title">
        {t('registration.title')}
      </h2>
      {error && (
        <Alert tone="error" class="field-full">
          {error}
        </Alert>
      )}
      <SelectField
        label={t('registration.salutation')}
        reg={register('salutation')}
        errors={errors}
        required
        size="half"
        placeholder={t('registration.salutation.choose')}
        options={SALUTATIONS.map((s) => ({ value: s, label: s }))}
      />
      <TextField label={t('registration.title.field')} reg={register('title')} errors={errors} size="half" autocomplete="honorific-prefix" />
      <TextField label={t('registration.firstName')} reg={register('firstName')} errors={errors} required size="half" autocomplete="given-name" />
      <TextField label={t('registration.lastName')} reg={register('lastName')} errors={errors} required size="half" autocomplete="family-name" />
      <TextField label={t('registration.email')} reg={register('email')} errors={errors} required type="email" autocomplete="email" />
      {maxEscorts > 0 && (
        <fieldset class="field-full escorts">
          <legend>{t('registration.escorts')}</legend>
          {escorts.fields.map((f, i) => (
            <div key={f.id} class="escort form-grid">
              <div class="escort-head field-full">
                <strong>{t('registration.escortNumber', { n: i + 1 })}</strong>
                <Button variant="ghost" onClick={() => escorts.remove(i)}>
                  {t('registration.removeEscort')}
                </Button>
              </div>
              <TextField label={t('registration.firstName')} reg={register(`escortPersons.${i}.firstName`)} errors={errors} required size="half" />
              <TextField label={t('registration.lastName')} reg={register(`escortPersons.${i}.lastName`)} errors={errors} required size="half" />
            </div>
          ))}
          {escorts.fields.length < maxEscorts && (
            <Button variant="secondary" onClick={() => escorts.append({ firstName: '', lastName: '' })}>
              {t('registration.addEscort')}
            </Button>
          )}
        </fieldset>
      )}
      <div class="form-actions">
        <Button type="submit" busy={formState.isSubmitting}>
          {t(event.registrationButtonType === 'SEND' ? 'registration.submit' : 'registration.submitRequest')}
        </Button>
      </div>
      {fieldError && <FieldErrorDialog error={fieldError} labels={labels} onClose={() => setFieldError(null)} />}
    </form>
  )
}

function EventPage({ id, frame }: { id: number; frame: boolean }) {
  useLanguage()
  const { data: event, error } = useResource<PublicEvent>(`/proxy/api/public/events/${id}`)
  const [done, setDone] = useState<{ status: string; email: string } | null>(null)
  // The frame tells its parent page its height so the iframe grows with the form.
  useEffect(() => {
    if (!frame || window.parent === window) return
    const post = () => window.parent.postMessage({ type: 'einlass:height', height: document.documentElement.scrollHeight, eventId: id }, '*')
    const ro = new ResizeObserver(post)
    ro.observe(document.body)
    post()
    return () => ro.disconnect()
  }, [frame])
  if (error) return <PublicFrame footer={!frame}>{<Alert tone="error">{error.status === 404 ? t('errors.NOT_FOUND') : errorText(error)}</Alert>}</PublicFrame>
  if (!event) return <Spinner />
  const place = event.eventType === 'ONLINE' ? t('events.online') : [event.address.locationName, [event.address.street, event.address.streetNumber].filter(Boolean).join(' '), [event.address.postCode, event.address.city].filter(Boolean).join(' ')].filter(Boolean).join(', ')
  return (
    <PublicFrame footer={!frame}>
      <article class="event-public">
        {!frame && (
          <header class="event-hero" style={event.primaryColor ? { borderTopColor: event.primaryColor } : undefined}>
            {event.agency && <p class="muted">{event.agency.displayName}</p>}
            <h1>{event.displayName}</h1>
            {event.subTitle && <p class="lead">{event.subTitle}</p>}
            <p class="event-meta">
              <span>
                {formatDate(event.startDate, event.timezone)}, {formatTime(event.startDate, event.timezone)} – {formatTime(event.endDate, event.timezone)}
              </span>
              {place && <span>{place}</span>}
            </p>
          </header>
        )}
        <Card>
          {done ? (
            <div class="done" role="status">
              <h2>{t('registration.done.title')}</h2>
              <p>{done.status === 'REQUIRE_APPROVAL' ? t('registration.done.approval') : t('registration.done.text', { email: done.email })}</p>
            </div>
          ) : event.registrationState !== 'OPEN' ? (
            <Alert tone="warn">{t(`events.registrationState.${event.registrationState}`)}</Alert>
          ) : (
            <>
              {event.freePlaces != null && <p class="muted">{t('registration.freePlaces', { n: event.freePlaces })}</p>}
              <RegistrationForm event={event} onDone={setDone} />
            </>
          )}
        </Card>
      </article>
    </PublicFrame>
  )
}

export default function PublicApp() {
  const [isFrame, fp] = useRoute('/public/event/:id/frame')
  const [isPage, pp] = useRoute('/public/event/:id')
  if (isFrame) return <EventPage id={Number(fp!.id)} frame />
  if (isPage) return <EventPage id={Number(pp!.id)} frame={false} />
  return (
    <PublicFrame>
      <Alert tone="error">{t('errors.NOT_FOUND')}</Alert>
    </PublicFrame>
  )
}
