// The registration details dialog (guest-side.md 2): name, event, status, registered persons against
// checked-in persons, escort persons (editable until the registration has expired: delete with a
// confirmation, reset, save → 'escort persons saved'), master data and event fields.
import { useEffect, useState } from 'preact/hooks'
import { formatTime } from '../../../server/i18n/format'
import { formatDateIn } from '../../../server/i18n/locale-format'
import type { EscortData } from '../../../server/modules/forms/definitions'
import { ApiError, get, patch } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { FieldErrorDialog } from '../../components/field-error-dialog'
import { OverlayMessage } from '../../components/overlay'
import { Alert, Button, Spinner } from '../../components/ui'
import { errorText } from '../../api/client'
import { fieldMessage, t, currentLanguage } from '../../i18n'
import { Confirm } from './options'
import { SignatureRecord } from './signature-record'

type Appearance = 'HIDDEN' | 'VISIBLE' | 'REQUIRED'
interface Escort extends Pick<EscortData, 'salutation' | 'title' | 'firstName' | 'lastName' | 'email' | 'company' | 'position' | 'phoneNumber'> {
  id?: number | null
  number?: number
  checkedIn?: boolean
}
interface Details {
  id: number
  name: string
  email: string | null
  status: string
  event: { id: number; displayName: string; startDate: string; timezone: string }
  visitorCount: number
  checkinCount: number
  registrationExpired: boolean
  canEditEscorts: boolean
  escortPersons: Escort[]
  escortFields: Record<'name' | 'salutation' | 'title' | 'email' | 'company' | 'position' | 'phoneNumber', Appearance>
  maxVisitorPerSubscription: number
  /** paid registrations: one ticket is one person (null when unpaid) */
  ticketPersons?: number | null
  defaultFields: Array<{ key: string; displayName: string; data: string | null }>
  visitorFields: Array<{ eventField: number; displayName: string; data: string | null }>
}

const EDITABLE: Array<{ key: keyof Escort; appearance: keyof Details['escortFields']; label: string; type?: string }> = [
  { key: 'salutation', appearance: 'salutation', label: 'defaultField.SALUTATION' },
  { key: 'title', appearance: 'title', label: 'defaultField.TITLE' },
  { key: 'firstName', appearance: 'name', label: 'defaultField.FIRST_NAME' },
  { key: 'lastName', appearance: 'name', label: 'defaultField.LAST_NAME' },
  { key: 'email', appearance: 'email', label: 'defaultField.EMAIL', type: 'email' },
  { key: 'company', appearance: 'company', label: 'defaultField.COMPANY' },
  { key: 'position', appearance: 'position', label: 'defaultField.POSITION' },
  { key: 'phoneNumber', appearance: 'phoneNumber', label: 'defaultField.PHONE_NUMBER', type: 'tel' },
]

const fullName = (e: Escort) => [e.firstName, e.lastName].filter(Boolean).join(' ')
const strip = (list: Escort[]) =>
  list.map(({ id, salutation, title, firstName, lastName, email, company, position, phoneNumber }) => ({ id: id ?? null, salutation, title, firstName, lastName, email, company, position, phoneNumber }))

export function DetailsDialog({ visitorId, onClose }: { visitorId: number; onClose(changed: boolean): void }) {
  const [d, setD] = useState<Details | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [escorts, setEscorts] = useState<Escort[]>([])
  const [ask, setAsk] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState(false)
  const [changed, setChanged] = useState(false)
  const [fieldErr, setFieldErr] = useState<ApiError | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const load = (x: Details) => {
    setD(x)
    setEscorts(x.escortPersons.map((e) => ({ ...e })))
    setErrors({})
  }
  useEffect(() => {
    get<Details>(`/proxy/api/guest/events/visitors/${visitorId}/details`).then(load, (e) => setLoadError(errorText(e)))
  }, [visitorId])
  const editable = !!d?.canEditEscorts
  const dirty = !!d && JSON.stringify(strip(escorts)) !== JSON.stringify(strip(d.escortPersons))
  const max = Math.min(d && d.maxVisitorPerSubscription > 0 ? d.maxVisitorPerSubscription - 1 : 10, d?.ticketPersons != null ? d.ticketPersons - 1 : Infinity)
  const save = async () => {
    setBusy(true)
    setError(null)
    try {
      load(await patch<Details>(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: strip(escorts) }))
      setChanged(true)
      setSaved(true)
    } catch (e) {
      if (e instanceof ApiError && e.errorType === 'FIELD_ERROR' && e.errorFields.length) {
        setErrors(Object.fromEntries(e.errorFields.map((f) => [f.field, fieldMessage(f.errorType)])))
        setFieldErr(e)
      } else setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const labels: Record<string, string> = {}
  escorts.forEach((_, i) => EDITABLE.forEach((f) => (labels[`escortPersons.${i}.${f.key}`] = `${t('guestPortal.details.escort', { n: i + 1 })}: ${t(f.label)}`)))
  const set = (i: number, k: keyof Escort, v: string) => {
    setEscorts(escorts.map((e, j) => (j === i ? { ...e, [k]: v } : e)))
    // a field the guest corrects loses the server's message
    const key = `escortPersons.${i}.${k}`
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest)
  }
  return (
    <Dialog
      title={t('guestPortal.details')}
      onClose={() => onClose(changed)}
      wide
      actions={
        editable ? (
          <>
            <Button variant="secondary" disabled={!dirty || busy} onClick={() => d && load(d)}>
              {t('guestPortal.details.reset')}
            </Button>
            <Button busy={busy} disabled={!dirty} onClick={() => void save()}>
              {t('common.save')}
            </Button>
          </>
        ) : (
          <Button variant="secondary" onClick={() => onClose(changed)}>
            {t('common.close')}
          </Button>
        )
      }
    >
      {loadError && <Alert tone="error">{loadError}</Alert>}
      {!d && !loadError && <Spinner />}
      {d && (
        <div class="guest-details">
          <dl class="guest-details-list">
            <dt>{t('guestPortal.details.name')}</dt>
            <dd data-testid="details-name">{d.name}</dd>
            <dt>{t('guestPortal.details.event')}</dt>
            <dd>
              {d.event.displayName} · {formatDateIn(currentLanguage(), d.event.startDate, d.event.timezone)}, {formatTime(d.event.startDate, d.event.timezone)}
            </dd>
            <dt>{t('guestPortal.details.status')}</dt>
            <dd>{t(`visitorStatus.${d.status}`)}</dd>
          </dl>
          <p class="guest-counts" data-testid="details-counts">
            {t('guestPortal.details.counts', { registered: d.visitorCount, checkedIn: d.checkinCount })}
          </p>
          <h3>{t('guestPortal.details.escorts')}</h3>
          {d.registrationExpired && <Alert tone="info">{t('guestPortal.details.expired')}</Alert>}
          {escorts.length === 0 && <p class="muted">{t('guestPortal.details.noEscorts')}</p>}
          {escorts.map((e, i) => (
            <fieldset key={e.id ?? `new-${i}`} class="guest-escort" data-testid={`escort-${i}`}>
              <legend>
                {t('guestPortal.details.escort', { n: i + 1 })}
                {e.checkedIn && <span class="muted"> · {t('guestPortal.details.checkedIn')}</span>}
              </legend>
              {editable ? (
                <div class="guest-escort-fields">
                  {EDITABLE.filter((f) => d.escortFields[f.appearance] !== 'HIDDEN').map((f) => {
                    const key = `escortPersons.${i}.${f.key}`
                    const id = `escort-${i}-${f.key}`
                    const required = f.appearance === 'name' || d.escortFields[f.appearance] === 'REQUIRED'
                    return (
                      <div key={f.key} class={`field ${errors[key] ? 'has-error' : ''}`}>
                        <label for={id}>
                          {t(f.label)}
                          {required && ' *'}
                        </label>
                        {f.key === 'salutation' ? (
                          <select id={id} value={(e.salutation as string) ?? ''} onChange={(ev) => set(i, 'salutation', (ev.target as HTMLSelectElement).value)}>
                            <option value="" />
                            {['Herr', 'Frau', 'Divers'].map((s) => (
                              <option key={s} value={s}>
                                {s}
                              </option>
                            ))}
                          </select>
                        ) : (
                          <input id={id} type={(f.type ?? 'text') as 'text'} value={(e[f.key] as string) ?? ''} aria-invalid={!!errors[key]} onInput={(ev) => set(i, f.key, (ev.target as HTMLInputElement).value)} />
                        )}
                        {errors[key] && <p class="field-error">{errors[key]}</p>}
                      </div>
                    )
                  })}
                  {!e.checkedIn && (
                    <Button variant="ghost" class="guest-btn guest-escort-delete" onClick={() => setAsk(i)}>
                      {t('guestPortal.details.deleteEscort')}
                    </Button>
                  )}
                </div>
              ) : (
                <p>{[e.salutation, e.title, fullName(e)].filter(Boolean).join(' ')}</p>
              )}
            </fieldset>
          ))}
          {editable && escorts.length < max && (
            <Button variant="secondary" class="guest-btn" onClick={() => setEscorts([...escorts, { firstName: '', lastName: '' }])}>
              {t('guestPortal.details.addEscort')}
            </Button>
          )}
          {error && <p class="field-error">{error}</p>}
          {d.defaultFields.length > 0 && (
            <>
              <h3>{t('guestPortal.details.masterData')}</h3>
              <dl class="guest-details-list">
                {d.defaultFields.map((f) => (
                  <>
                    <dt key={`t${f.key}`}>{f.displayName}</dt>
                    <dd key={`d${f.key}`}>{f.data ?? '–'}</dd>
                  </>
                ))}
              </dl>
            </>
          )}
          {d.visitorFields.length > 0 && (
            <>
              <h3>{t('guestPortal.details.eventFields')}</h3>
              <dl class="guest-details-list">
                {d.visitorFields.map((f) => (
                  <>
                    <dt key={`t${f.eventField}`}>{f.displayName}</dt>
                    <dd key={`d${f.eventField}`}>{f.data ?? '–'}</dd>
                  </>
                ))}
              </dl>
            </>
          )}
          <SignatureRecord visitorId={visitorId} timezone={d.event.timezone} />
        </div>
      )}
      {ask !== null && (
        <Confirm
          title={t('guestPortal.details.deleteEscort')}
          text={t('guestPortal.details.deleteEscort.confirm', { name: fullName(escorts[ask]!) || t('guestPortal.details.escort', { n: ask + 1 }) })}
          confirmLabel={t('common.delete')}
          onCancel={() => setAsk(null)}
          onConfirm={() => {
            setEscorts(escorts.filter((_, j) => j !== ask))
            setAsk(null)
          }}
        />
      )}
      {fieldErr && <FieldErrorDialog error={fieldErr} labels={labels} onClose={() => setFieldErr(null)} />}
      {saved && <OverlayMessage tone="ok" messages={[t('guestPortal.toast.escortsSaved')]} onClose={() => setSaved(false)} />}
    </Dialog>
  )
}
