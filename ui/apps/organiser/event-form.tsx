// The event editor: every field the guest side reads (guest-side.md 3, Event), the registration
// window, check-in settings and options, tags and campaigns. One form for create and edit.
import { useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { useLocation } from 'wouter'
import { utcToZonedInput, zonedToUtc } from '../../../server/i18n/format'
import { CHECKIN_TARGETS, COVID_STATES, EventInput } from '../../../server/modules/events/model'
import { errorText, post, put } from '../../api/client'
import { applyServerErrors, CheckboxField, CountryField, SelectField, TextField } from '../../components/form'
import { useResource, useUnsavedChangesWarning } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { sharedResolver } from '../../components/resolver'
import { registerWithLimits } from '../../components/schema-limits'
import { Alert, Button, CancelSave, Card, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { LabelPicker } from './common'
import type { EventFull } from './event-model'
import { RichText } from './rich-text'
import { useUser } from '../../components/navigation-auth'
import { UploadPanel } from '../../shared/upload/upload-panel'
import { MediaPicker } from './media/picker'

/**
 * The event image: an upload of type EVENT (public) through the upload queue (ui/shared/upload:
 * checks, shrink to 2000 px, progress, abort), or an image picked from the media gallery when the
 * licence has MEDIA_GALLERY.
 */
function ImageField({ value, onChange }: { value: number | null; onChange(id: number | null): void }) {
  const [picking, setPicking] = useState(false)
  const gallery = useUser().features.includes('MEDIA_GALLERY')
  return (
    <div class="field field-full">
      {value && <img class="event-image-preview" src={`/proxy/api/asset/${value}?dimension=Regular_400`} alt={t('events.field.image')} />}
      <UploadPanel inputId="f-image" label={t('events.field.image')} uploadType="EVENT" crypted={false} multiple={false} compact onUploaded={(a) => onChange(a.id)} />
      <div class="button-row">
        {gallery && (
          <Button variant="secondary" onClick={() => setPicking(true)}>
            {t('media.pick')}
          </Button>
        )}
        {value && (
          <Button variant="ghost" onClick={() => onChange(null)}>
            {t('events.field.imageRemove')}
          </Button>
        )}
      </div>
      <small class="hint">{t('events.field.imageHint')}</small>
      {picking && (
        <MediaPicker
          onClose={() => setPicking(false)}
          onPick={(e) => {
            onChange(e.assetId)
            setPicking(false)
          }}
        />
      )}
    </div>
  )
}

interface Values {
  displayName: string
  subTitle: string
  description: string
  startDate: string
  endDate: string
  timezone: string
  eventType: 'ON_SITE' | 'ONLINE'
  visibility: 'PUBLIC' | 'PRIVATE' | 'OFFLINE'
  locationName: string
  street: string
  streetNumber: string
  postCode: string
  city: string
  country: string
  meetingUrl: string
  primaryColor: string
  accentColor: string
  maxVisitors: string
  maxVisitorPerSubscription: string
  useDate: boolean
  registrationFrom: string
  registrationUntil: string
  requireApproval: boolean
  hideDeclineButton: boolean
  useReporting: boolean
  disabledCovidStates: string[]
  currency: 'EURO' | 'CHF'
  registrationButtonType: 'SEND' | 'REGISTER'
  externalConfirmationLink: string
  externalConfirmationLabel: string
  defaultPhoneLocale: string
  lockBasicData: boolean
  allowSelfCheckin: boolean
  allowSelfCheckout: boolean
  checkinOpenDate: string
  checkinTarget: (typeof CHECKIN_TARGETS)[number]
  checkinUrl: string
  canEditRegistrationData: boolean
  allowTransfer: boolean
  transferUntil: string
  imageAssetId: number | null
  tags: number[]
  campaigns: number[]
}

const TIMEZONES = ['Europe/Berlin', 'Europe/Vienna', 'Europe/Zurich', 'Europe/London', 'Europe/Paris', 'America/New_York', 'UTC']
const toInstant = (local: string, tz: string) => (local ? zonedToUtc(local, tz).toISOString() : '')
const orNull = (v: string) => (v.trim() === '' ? null : v.trim())

function toInput(v: Values) {
  return {
    displayName: v.displayName,
    subTitle: v.subTitle,
    description: v.description,
    startDate: toInstant(v.startDate, v.timezone),
    endDate: toInstant(v.endDate, v.timezone),
    timezone: v.timezone,
    eventType: v.eventType,
    visibility: v.visibility,
    locationName: v.locationName,
    street: v.street,
    streetNumber: v.streetNumber,
    postCode: v.postCode,
    city: v.city,
    country: v.country,
    meetingUrl: orNull(v.meetingUrl),
    primaryColor: orNull(v.primaryColor),
    accentColor: orNull(v.accentColor),
    maxVisitors: v.maxVisitors === '' ? null : Number(v.maxVisitors),
    maxVisitorPerSubscription: v.maxVisitorPerSubscription === '' ? -1 : Number(v.maxVisitorPerSubscription),
    useDate: v.useDate,
    registrationFrom: v.useDate && v.registrationFrom ? toInstant(v.registrationFrom, v.timezone) : null,
    registrationUntil: v.registrationUntil ? toInstant(v.registrationUntil, v.timezone) : null,
    requireApproval: v.requireApproval,
    hideDeclineButton: v.hideDeclineButton,
    useReporting: v.useReporting,
    disabledCovidStates: v.disabledCovidStates,
    currency: v.currency,
    registrationButtonType: v.registrationButtonType,
    externalConfirmationLink: orNull(v.externalConfirmationLink),
    externalConfirmationLabel: v.externalConfirmationLabel,
    defaultPhoneLocale: v.defaultPhoneLocale,
    lockBasicData: v.lockBasicData,
    allowSelfCheckin: v.allowSelfCheckin,
    allowSelfCheckout: v.allowSelfCheckout,
    checkinOpenDate: v.checkinOpenDate ? toInstant(v.checkinOpenDate, v.timezone) : null,
    checkinTarget: v.checkinTarget,
    checkinUrl: orNull(v.checkinUrl),
    options: v.canEditRegistrationData ? ['CAN_EDIT_REGISTRATION_DATA'] : [],
    allowTransfer: v.allowTransfer,
    transferUntil: v.allowTransfer && v.transferUntil ? toInstant(v.transferUntil, v.timezone) : null,
    imageAssetId: v.imageAssetId,
    tags: v.tags,
    campaigns: v.campaigns,
  }
}

function defaults(e: EventFull | null): Values {
  const tz = e?.timezone ?? 'Europe/Berlin'
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setHours(18, 0, 0, 0)
  const local = (iso: string | null) => (iso ? utcToZonedInput(iso, tz) : '')
  return {
    displayName: e?.displayName ?? '',
    subTitle: e?.subTitle ?? '',
    description: e?.description ?? '',
    startDate: e ? local(e.startDate) : utcToZonedInput(start, tz),
    endDate: e ? local(e.endDate) : utcToZonedInput(new Date(start.getTime() + 4 * 3600_000), tz),
    timezone: tz,
    eventType: (e?.eventType as Values['eventType']) ?? 'ON_SITE',
    visibility: (e?.visibility as Values['visibility']) ?? 'PUBLIC',
    locationName: e?.address.locationName ?? '',
    street: e?.address.street ?? '',
    streetNumber: e?.address.streetNumber ?? '',
    postCode: e?.address.postCode ?? '',
    city: e?.address.city ?? '',
    country: e?.address.country ?? '',
    meetingUrl: e?.meetingUrl ?? '',
    primaryColor: e?.primaryColor ?? '',
    accentColor: e?.accentColor ?? '',
    maxVisitors: e?.maxVisitors == null ? '' : String(e.maxVisitors),
    maxVisitorPerSubscription: e && e.maxVisitorPerSubscription > 0 ? String(e.maxVisitorPerSubscription) : '',
    useDate: e?.useDate ?? false,
    registrationFrom: local(e?.registrationFrom ?? null),
    registrationUntil: local(e?.registrationUntil ?? null),
    requireApproval: e?.requireApproval ?? false,
    hideDeclineButton: e?.hideDeclineButton ?? false,
    useReporting: e?.useReporting ?? false,
    disabledCovidStates: e?.disabledCovidStates ?? [],
    currency: (e?.currency as Values['currency']) ?? 'EURO',
    registrationButtonType: (e?.registrationButtonType as Values['registrationButtonType']) ?? 'SEND',
    externalConfirmationLink: e?.externalConfirmationLink ?? '',
    externalConfirmationLabel: e?.externalConfirmationLabel ?? '',
    defaultPhoneLocale: e?.defaultPhoneLocale ?? 'de',
    lockBasicData: e?.lockBasicData ?? false,
    allowSelfCheckin: e?.allowSelfCheckin ?? false,
    allowSelfCheckout: e?.allowSelfCheckout ?? false,
    checkinOpenDate: local(e?.checkinOpenDate ?? null),
    checkinTarget: (e?.checkinTarget as Values['checkinTarget']) ?? 'NONE',
    checkinUrl: e?.checkinUrl ?? '',
    canEditRegistrationData: e?.options.includes('CAN_EDIT_REGISTRATION_DATA') ?? false,
    allowTransfer: e?.allowTransfer ?? false,
    transferUntil: local(e?.transferUntil ?? null),
    imageAssetId: e?.image?.id ?? null,
    tags: e?.tags.map((x) => x.id) ?? [],
    campaigns: e?.campaigns.map((x) => x.id) ?? [],
  }
}

export function EventForm({ event, onSaved }: { event: EventFull | null; onSaved(e: EventFull): void }) {
  const [, navigate] = useLocation()
  const [error, setErrorText] = useState<string | null>(null)
  const { register: rawRegister, handleSubmit, formState, setError, watch, setValue, reset } = useForm<Values>({
    resolver: sharedResolver(EventInput, toInput),
    mode: 'onTouched',
    defaultValues: defaults(event),
  })
  // inputs carry the schema's maxlength
  const register = registerWithLimits(rawRegister, EventInput)
  useUnsavedChangesWarning(formState.isDirty && !formState.isSubmitSuccessful)
  const submit = handleSubmit(async (values) => {
    setErrorText(null)
    try {
      const body = EventInput.parse(toInput(values))
      const saved = event ? await put<EventFull>(`/proxy/api/events/${event.id}`, body) : await post<EventFull>('/proxy/api/events', body)
      reset(defaults(saved))
      toast(event ? t('common.saved') : t('events.created'))
      onSaved(saved)
    } catch (e) {
      if (!applyServerErrors(e, setError)) setErrorText(errorText(e))
      else setErrorText(t('errors.FIELD_ERROR'))
    }
  })
  const v = watch()
  const errors = formState.errors
  const yesNo = (name: keyof Values, label: string) => <CheckboxField label={label} reg={register(name)} errors={errors} />
  return (
    <form onSubmit={submit} noValidate class="event-form">
      {error && <Alert tone="error">{error}</Alert>}
      <Card>
        <h2>{t('events.section.general')}</h2>
        <div class="form-grid">
          <TextField label={t('events.field.displayName')} reg={register('displayName')} errors={errors} required />
          <TextField label={t('events.field.subTitle')} reg={register('subTitle')} errors={errors} />
          <RichText id="f-description" label={t('events.field.description')} value={v.description} onChange={(html) => setValue('description', html, { shouldDirty: true })} />
          <SelectField
            label={t('events.field.visibility')}
            reg={register('visibility')}
            errors={errors}
            size="half"
            options={(['PUBLIC', 'PRIVATE', 'OFFLINE'] as const).map((x) => ({ value: x, label: t(`events.visibility.${x}`) }))}
          />
          <SelectField label={t('events.field.eventType')} reg={register('eventType')} errors={errors} size="half" options={(['ON_SITE', 'ONLINE'] as const).map((x) => ({ value: x, label: t(`events.type.${x}`) }))} />
        </div>
      </Card>
      <Card>
        <h2>{t('events.section.dates')}</h2>
        <div class="form-grid">
          <TextField label={t('events.field.startDate')} reg={register('startDate')} errors={errors} required type="datetime-local" size="half" />
          <TextField label={t('events.field.endDate')} reg={register('endDate')} errors={errors} required type="datetime-local" size="half" />
          <SelectField label={t('events.field.timezone')} reg={register('timezone')} errors={errors} size="half" options={TIMEZONES.map((z) => ({ value: z, label: z }))} />
          <TextField label={t('events.field.maxVisitors')} reg={register('maxVisitors')} errors={errors} type="number" min={1} size="half" hint={t('events.field.maxVisitors.hint')} />
          {yesNo('useDate', t('events.field.useDate'))}
          {v.useDate && <TextField label={t('events.field.registrationFrom')} reg={register('registrationFrom')} errors={errors} type="datetime-local" size="half" />}
          <TextField label={t('events.field.registrationUntil')} reg={register('registrationUntil')} errors={errors} type="datetime-local" size="half" />
        </div>
      </Card>
      <Card>
        <h2>{v.eventType === 'ONLINE' ? t('events.section.online') : t('events.section.place')}</h2>
        <div class="form-grid">
          {v.eventType === 'ONLINE' ? (
            <TextField label={t('events.field.meetingUrl')} reg={register('meetingUrl')} errors={errors} type="url" placeholder="https://" />
          ) : (
            <>
              <TextField label={t('events.field.locationName')} reg={register('locationName')} errors={errors} />
              <TextField label={t('events.field.street')} reg={register('street')} errors={errors} size="half" />
              <TextField label={t('events.field.streetNumber')} reg={register('streetNumber')} errors={errors} size="half" />
              <TextField label={t('events.field.postCode')} reg={register('postCode')} errors={errors} size="half" />
              <TextField label={t('events.field.city')} reg={register('city')} errors={errors} size="half" />
              <CountryField label={t('events.field.country')} reg={register('country')} errors={errors} placeholder={t('events.field.country.choose')} />
              <TextField label={t('events.field.meetingUrl')} reg={register('meetingUrl')} errors={errors} type="url" size="half" placeholder="https://" />
            </>
          )}
        </div>
      </Card>
      <Card>
        <h2>{t('events.section.registration')}</h2>
        <div class="form-grid">
          <TextField label={t('events.field.maxVisitorPerSubscription')} reg={register('maxVisitorPerSubscription')} errors={errors} type="number" min={1} size="half" hint={t('events.field.maxVisitorPerSubscription.hint')} />
          <SelectField
            label={t('events.field.registrationButtonType')}
            reg={register('registrationButtonType')}
            errors={errors}
            size="half"
            options={(['SEND', 'REGISTER'] as const).map((x) => ({ value: x, label: t(`events.buttonType.${x}`) }))}
          />
          <SelectField label={t('events.field.currency')} reg={register('currency')} errors={errors} size="half" options={[{ value: 'EURO', label: 'EUR (€)' }, { value: 'CHF', label: 'CHF' }]} />
          <TextField label={t('events.field.defaultPhoneLocale')} reg={register('defaultPhoneLocale')} errors={errors} size="half" />
          <TextField label={t('events.field.externalConfirmationLink')} reg={register('externalConfirmationLink')} errors={errors} type="url" size="half" placeholder="https://" />
          <TextField label={t('events.field.externalConfirmationLabel')} reg={register('externalConfirmationLabel')} errors={errors} size="half" />
          {yesNo('requireApproval', t('events.field.requireApproval'))}
          {yesNo('hideDeclineButton', t('events.field.hideDeclineButton'))}
          {yesNo('lockBasicData', t('events.field.lockBasicData'))}
          {yesNo('canEditRegistrationData', t('events.field.canEditRegistrationData'))}
          {yesNo('useReporting', t('events.field.useReporting'))}
          {yesNo('allowTransfer', t('events.field.allowTransfer'))}
          {v.allowTransfer && <TextField label={t('events.field.transferUntil')} reg={register('transferUntil')} errors={errors} type="datetime-local" size="half" />}
          <fieldset class="field-full covid-states">
            <legend>{t('events.field.disabledCovidStates')}</legend>
            {COVID_STATES.map((s) => (
              <label key={s} class="inline-check">
                <input
                  type="checkbox"
                  checked={v.disabledCovidStates.includes(s)}
                  onChange={(e) =>
                    setValue('disabledCovidStates', (e.target as HTMLInputElement).checked ? [...v.disabledCovidStates, s] : v.disabledCovidStates.filter((x) => x !== s), { shouldDirty: true })
                  }
                />
                {t(`events.covid.${s}`)}
              </label>
            ))}
          </fieldset>
        </div>
      </Card>
      <Card>
        <h2>{t('events.section.checkin')}</h2>
        <div class="form-grid">
          {yesNo('allowSelfCheckin', t('events.field.allowSelfCheckin'))}
          {yesNo('allowSelfCheckout', t('events.field.allowSelfCheckout'))}
          <TextField label={t('events.field.checkinOpenDate')} reg={register('checkinOpenDate')} errors={errors} type="datetime-local" size="half" hint={t('events.field.checkinOpenDate.hint')} />
          <SelectField label={t('events.field.checkinTarget')} reg={register('checkinTarget')} errors={errors} size="half" options={CHECKIN_TARGETS.map((x) => ({ value: x, label: t(`events.checkinTarget.${x}`) }))} />
          {v.checkinTarget === 'CUSTOM' && <TextField label={t('events.field.checkinUrl')} reg={register('checkinUrl')} errors={errors} type="url" placeholder="https://" required />}
        </div>
      </Card>
      <Card>
        <h2>{t('events.section.design')}</h2>
        <div class="form-grid">
          <ImageField value={v.imageAssetId} onChange={(id) => setValue('imageAssetId', id, { shouldDirty: true })} />
          <TextField label={t('events.field.primaryColor')} reg={register('primaryColor')} errors={errors} size="half" placeholder="#1f5f8b" hint={t('events.field.color.hint')} />
          <TextField label={t('events.field.accentColor')} reg={register('accentColor')} errors={errors} size="half" placeholder="#e07a1f" />
          <LabelPicker id="f-tags" kind="tags" label={t('events.field.tags')} value={v.tags} onChange={(x) => setValue('tags', x, { shouldDirty: true })} />
          <LabelPicker id="f-campaigns" kind="campaigns" label={t('events.field.campaigns')} value={v.campaigns} onChange={(x) => setValue('campaigns', x, { shouldDirty: true })} />
        </div>
      </Card>
      <div class="form-actions sticky-actions">
        <CancelSave onCancel={() => navigate(event ? `/events/${event.id}` : '/events')} busy={formState.isSubmitting} />
      </div>
    </form>
  )
}

export function EventCreate() {
  const [, navigate] = useLocation()
  const preset = new URLSearchParams(location.search).get('preset')
  const { data, error } = useResource<EventFull>(preset ? `/proxy/api/events/${preset}` : null)
  if (preset && error) return <Alert tone="error">{errorText(error)}</Alert>
  if (preset && !data) return <Spinner />
  return (
    <>
      <PageHeader title={t('events.new')} subtitle={data ? t('events.fromPreset', { name: data.displayName }) : undefined} />
      {data ? (
        <PresetCopy preset={data} />
      ) : (
        <EventForm event={null} onSaved={(e) => navigate(`/events/${e.id}`)} />
      )}
    </>
  )
}

/** Creating from a preset copies it (server side, with its agreements and form) and opens the copy's editor. */
function PresetCopy({ preset }: { preset: EventFull }) {
  const [, navigate] = useLocation()
  const [name, setName] = useState(preset.displayName)
  const [busy, setBusy] = useState(false)
  const [err, setErr] = useState<string | null>(null)
  return (
    <Card>
      {err && <Alert tone="error">{err}</Alert>}
      <div class="field field-full">
        <label for="preset-name">{t('events.field.displayName')}</label>
        <input id="preset-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </div>
      <div class="form-actions">
        <Button
          busy={busy}
          onClick={async () => {
            setBusy(true)
            try {
              const e = await post<EventFull>(`/proxy/api/events/${preset.id}/copy`, { displayName: name, status: 'OK' })
              navigate(`/events/${e.id}/edit`)
            } catch (e) {
              setErr(errorText(e))
            } finally {
              setBusy(false)
            }
          }}
        >
          {t('events.createFromPreset')}
        </Button>
      </div>
    </Card>
  )
}
