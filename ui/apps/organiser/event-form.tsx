// Create an event: the essentials a registration needs (name, dates, place, capacity, window).
import { useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { useLocation } from 'wouter'
import { utcToZonedInput, zonedToUtc } from '../../../server/i18n/format'
import { EventInput } from '../../../server/modules/events/model'
import { errorText, post } from '../../api/client'
import { applyServerErrors, CheckboxField, SelectField, TextField } from '../../components/form'
import { useUnsavedChangesWarning } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { sharedResolver } from '../../components/resolver'
import { Alert, Button, Card, PageHeader } from '../../components/ui'
import { t } from '../../i18n'

interface EventFormValues {
  displayName: string
  subTitle: string
  startDate: string
  endDate: string
  timezone: string
  eventType: 'ON_SITE' | 'ONLINE'
  locationName: string
  street: string
  streetNumber: string
  postCode: string
  city: string
  maxVisitors: string
  useDate: boolean
  registrationFrom: string
  registrationUntil: string
}

const toInstant = (local: string, tz: string) => (local ? zonedToUtc(local, tz).toISOString() : '')

function toInput(v: EventFormValues) {
  return {
    displayName: v.displayName,
    subTitle: v.subTitle,
    startDate: toInstant(v.startDate, v.timezone),
    endDate: toInstant(v.endDate, v.timezone),
    timezone: v.timezone,
    eventType: v.eventType,
    locationName: v.locationName,
    street: v.street,
    streetNumber: v.streetNumber,
    postCode: v.postCode,
    city: v.city,
    maxVisitors: v.maxVisitors === '' ? null : Number(v.maxVisitors),
    useDate: v.useDate,
    registrationFrom: v.useDate && v.registrationFrom ? toInstant(v.registrationFrom, v.timezone) : null,
    registrationUntil: v.registrationUntil ? toInstant(v.registrationUntil, v.timezone) : null,
  }
}

export function EventCreate() {
  const [, navigate] = useLocation()
  const [error, setErrorText] = useState<string | null>(null)
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setHours(18, 0, 0, 0)
  const tz = 'Europe/Berlin'
  const { register, handleSubmit, formState, setError, watch } = useForm<EventFormValues>({
    resolver: sharedResolver(EventInput, toInput),
    mode: 'onTouched',
    defaultValues: {
      timezone: tz,
      eventType: 'ON_SITE',
      startDate: utcToZonedInput(start, tz),
      endDate: utcToZonedInput(new Date(start.getTime() + 4 * 3600_000), tz),
      maxVisitors: '',
      useDate: false,
    },
  })
  useUnsavedChangesWarning(formState.isDirty && !formState.isSubmitSuccessful)
  const submit = handleSubmit(async (values) => {
    setErrorText(null)
    try {
      const e = await post<{ id: number }>('/proxy/api/events', EventInput.parse(toInput(values)))
      toast(t('events.created'))
      navigate(`/events/${e.id}`)
    } catch (e) {
      if (!applyServerErrors(e, setError)) setErrorText(errorText(e))
    }
  })
  const online = watch('eventType') === 'ONLINE'
  const errors = formState.errors
  return (
    <>
      <PageHeader title={t('events.new')} />
      <Card>
        {error && <Alert tone="error">{error}</Alert>}
        <form onSubmit={submit} noValidate class="form-grid">
          <TextField label={t('events.field.displayName')} reg={register('displayName')} errors={errors} required />
          <TextField label={t('events.field.subTitle')} reg={register('subTitle')} errors={errors} />
          <TextField label={t('events.field.startDate')} reg={register('startDate')} errors={errors} required type="datetime-local" size="half" />
          <TextField label={t('events.field.endDate')} reg={register('endDate')} errors={errors} required type="datetime-local" size="half" />
          <SelectField
            label={t('events.field.eventType')}
            reg={register('eventType')}
            errors={errors}
            size="half"
            options={[
              { value: 'ON_SITE', label: t('events.type.ON_SITE') },
              { value: 'ONLINE', label: t('events.type.ONLINE') },
            ]}
          />
          <TextField label={t('events.field.maxVisitors')} reg={register('maxVisitors')} errors={errors} type="number" min={1} size="half" hint={t('events.field.maxVisitors.hint')} />
          {!online && (
            <>
              <TextField label={t('events.field.locationName')} reg={register('locationName')} errors={errors} />
              <TextField label={t('events.field.street')} reg={register('street')} errors={errors} size="half" />
              <TextField label={t('events.field.streetNumber')} reg={register('streetNumber')} errors={errors} size="half" />
              <TextField label={t('events.field.postCode')} reg={register('postCode')} errors={errors} size="half" />
              <TextField label={t('events.field.city')} reg={register('city')} errors={errors} size="half" />
            </>
          )}
          <CheckboxField label={t('events.field.useDate')} reg={register('useDate')} errors={errors} />
          {watch('useDate') && <TextField label={t('events.field.registrationFrom')} reg={register('registrationFrom')} errors={errors} type="datetime-local" size="half" />}
          <TextField label={t('events.field.registrationUntil')} reg={register('registrationUntil')} errors={errors} type="datetime-local" size="half" />
          <div class="form-actions">
            <Button type="button" variant="secondary" onClick={() => navigate('/events')}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" busy={formState.isSubmitting}>
              {t('common.save')}
            </Button>
          </div>
        </form>
      </Card>
    </>
  )
}
