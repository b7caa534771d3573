// Change of the registration data (event option CAN_EDIT_REGISTRATION_DATA): the registration form,
// rendered by the same form engine, prefilled with the stored answers; basic data stays locked and
// escorts are edited in the details dialog. New timeslots are reserved with registrationChange; the
// server moves the places in one transaction. FIELD_ERROR / FIELD_ERROR_WARN_BUT_SAVED open the
// field-error dialog.
// first: the form engine's German strings (gender, covid states …), as the public page has them
import '../../i18n/part-public'
import { useEffect, useMemo, useState } from 'preact/hooks'
import type { FieldDef, VisitorData } from '../../../server/modules/forms/definitions'
import { ApiError, errorText, get, put } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { FieldErrorDialog } from '../../components/field-error-dialog'
import { FormEngine } from '../../components/form-engine'
import { newIdentification } from '../../components/form-engine/reservations'
import { OverlayMessage } from '../../components/overlay'
import { Alert, Button, Spinner } from '../../components/ui'
import { currentLanguage, t } from '../../i18n'

interface DataForm {
  event: { id: number; startDate: string; defaultPhoneLocale: string; disabledCovidStates: string[]; maxVisitorPerSubscription: number }
  fields: FieldDef[]
  values: Partial<VisitorData>
  locked: string[]
}

export function DataDialog({ visitorId, onClose }: { visitorId: number; onClose(changed: boolean): void }) {
  const [form, setForm] = useState<DataForm | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<ApiError | null>(null)
  const [saved, setSaved] = useState(false)
  const identification = useMemo(() => newIdentification(), [])
  useEffect(() => {
    get<DataForm>(`/proxy/api/guest/events/visitors/${visitorId}/data`).then(setForm, (e) => setError(errorText(e)))
  }, [visitorId])
  const submit = async (data: VisitorData) => {
    setError(null)
    try {
      await put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { fields: data.fields, identification, language: currentLanguage() })
      setSaved(true)
    } catch (e) {
      const fields = e instanceof ApiError ? e.errorFields : []
      if (e instanceof ApiError && (e.errorType === 'FIELD_ERROR' || e.errorType === 'FIELD_ERROR_WARN_BUT_SAVED') && fields.length) setFieldError(e)
      else setError(errorText(e))
      return fields
    }
  }
  const labels = fieldError ? Object.fromEntries(((fieldError.body.missingFields as Array<{ field: string; displayName: string }>) ?? []).map((m) => [m.field, m.displayName])) : {}
  const basic = form && [[form.values.salutation, form.values.title, form.values.firstName, form.values.lastName].filter(Boolean).join(' '), form.values.email].filter(Boolean).join(' · ')
  // the form's fields a guest fills in (a form of only separators and explanations has none)
  const nothing = form && !form.fields.some((f) => f.type !== 'SEPARATOR' && f.type !== 'EXPLANATION')
  return (
    <Dialog
      title={t('guestPortal.data.title')}
      onClose={() => onClose(false)}
      wide
      actions={
        nothing ? (
          <Button variant="secondary" onClick={() => onClose(false)}>
            {t('common.close')}
          </Button>
        ) : undefined
      }
    >
      {error && <Alert tone="error">{error}</Alert>}
      {!form && !error && <Spinner />}
      {/* what the guest cannot change here, for reference: name and e-mail */}
      {basic && (
        <p class="guest-data-basic" data-testid="data-basic">
          <strong>{basic}</strong>
          <br />
          <small class="muted">{t('guestPortal.data.basic')}</small>
        </p>
      )}
      {nothing && <p>{t('guestPortal.data.nothing')}</p>}
      {form && !nothing && (
        <FormEngine
          // escorts are edited in the details dialog
          event={{ ...form.event, maxVisitorPerSubscription: 1 }}
          defs={form.fields}
          mode="public"
          registrationChange
          identification={identification}
          initial={form.values}
          locked={form.locked}
          submitLabel={t('guestPortal.data.submit')}
          onSubmit={submit}
        />
      )}
      {fieldError && <FieldErrorDialog error={fieldError} labels={labels} onClose={() => setFieldError(null)} />}
      {saved && <OverlayMessage tone="ok" messages={[t('guestPortal.toast.dataSaved')]} onClose={() => onClose(true)} />}
    </Dialog>
  )
}
