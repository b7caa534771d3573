// /events/:id/register — admin mode: an organiser registers a guest through the event's form.
// No reservations are made; incomplete data is saved with FIELD_ERROR_WARN_BUT_SAVED.
import { useEffect, useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter'
import type { FieldDef, VisitorData } from '../../../../server/modules/forms/definitions'
import { ApiError, errorText, get, post } from '../../../api/client'
import { FieldErrorDialog } from '../../../components/field-error-dialog'
import { FormEngine, type ServerFieldError } from '../../../components/form-engine'
import { newIdentification } from '../../../components/form-engine/reservations'
import { toast } from '../../../components/overlay'
import { Alert, Card, PageHeader, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import type { OrganiserEvent } from './builder'

interface Saved {
  visitorId: number
  errorType?: string
  errorMessage?: string
  errorTranslation?: string
  errorFields?: ServerFieldError[]
  missingFields?: Array<{ field: string; displayName: string }>
}

export function AdminRegistration({ id }: { id: number }) {
  const [, navigate] = useLocation()
  const [event, setEvent] = useState<OrganiserEvent | null>(null)
  const [fields, setFields] = useState<FieldDef[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [vip, setVip] = useState(false)
  const [sendMail, setSendMail] = useState(true)
  const [dialog, setDialog] = useState<{ error: ApiError; labels: Record<string, string>; then?: () => void } | null>(null)
  const [identification] = useState(newIdentification)
  useEffect(() => {
    Promise.all([get<OrganiserEvent>(`/proxy/api/events/${id}`), get<{ fields: FieldDef[] }>(`/proxy/api/events/${id}/fields`)])
      .then(([e, f]) => (setEvent(e), setFields(f.fields)))
      .catch((e) => setError(errorText(e)))
  }, [id])
  if (error) return <Alert tone="error">{error}</Alert>
  if (!event || !fields) return <Spinner />
  const labelsOf = (list?: Array<{ field: string; displayName: string }>) => Object.fromEntries((list ?? []).map((m) => [m.field, m.displayName]))
  const submit = async (data: VisitorData): Promise<ServerFieldError[] | void> => {
    try {
      const r = await post<Saved>(`/proxy/api/events/${id}/registrations`, { ...data, vip, sendMail })
      const done = () => navigate(`/events/${id}`)
      if (r.errorType === 'FIELD_ERROR_WARN_BUT_SAVED') {
        setDialog({ error: new ApiError(202, r.errorType, r.errorMessage ?? '', r.errorTranslation, r.errorFields ?? [], r as any), labels: labelsOf(r.missingFields), then: done })
        return
      }
      toast(t('formBuilder.registered'))
      done()
    } catch (e) {
      if (e instanceof ApiError && e.errorFields.length) {
        setDialog({ error: e, labels: labelsOf(e.body.missingFields as any) })
        return e.errorFields
      }
      toast(errorText(e), 'error', 5000)
    }
  }
  return (
    <>
      <PageHeader
        title={t('formBuilder.registerGuestTitle', { event: event.displayName })}
        actions={
          <Link class="btn btn-secondary" href={`/events/${id}/form`}>
            {t('formBuilder.openForm')}
          </Link>
        }
      />
      <Card class="admin-registration">
        <FormEngine event={event} defs={fields} mode="admin" identification={identification} vip={vip} submitLabel={t('formBuilder.registerGuest')} onSubmit={submit}>
          <div class="field field-half field-check">
            <input type="checkbox" id="admin-vip" checked={vip} onChange={(e) => setVip((e.currentTarget as HTMLInputElement).checked)} />
            <label for="admin-vip">{t('form.adminVip')}</label>
          </div>
          <div class="field field-half field-check">
            <input type="checkbox" id="admin-mail" checked={sendMail} onChange={(e) => setSendMail((e.currentTarget as HTMLInputElement).checked)} />
            <label for="admin-mail">{t('form.sendMail')}</label>
          </div>
        </FormEngine>
      </Card>
      {dialog && (
        <FieldErrorDialog
          error={dialog.error}
          labels={dialog.labels}
          defs={fields}
          onClose={() => {
            const then = dialog.then
            setDialog(null)
            then?.()
          }}
        />
      )}
    </>
  )
}
