// The field error dialog of the spec: FIELD_ERROR (not saved) and FIELD_ERROR_WARN_BUT_SAVED. Each
// line names the field by the label the person saw (never its key) and says what is wrong with it.
import type { FieldDef } from '../../server/modules/forms/definitions'
import { ApiError } from '../api/client'
import { currentLanguage, fieldMessage, t } from '../i18n'
import { Dialog } from './dialog'
import { fieldLabel } from './form-engine/labels'

const MISSING = /REQUIRED$/

export function FieldErrorDialog({ error, labels, defs = [], onClose }: { error: ApiError; labels: Record<string, string>; defs?: readonly FieldDef[]; onClose(): void }) {
  const language = currentLanguage()
  const saved = error.errorType === 'FIELD_ERROR_WARN_BUT_SAVED'
  // "Bitte füllen Sie alle Pflichtfelder aus." only when something is missing, not for a value too long
  const onlyMissing = error.errorFields.every((f) => MISSING.test(f.errorType))
  return (
    <Dialog
      title={t('errors.title')}
      onClose={onClose}
      actions={
        <button class="btn btn-primary" type="button" onClick={onClose}>
          {t('common.understood')}
        </button>
      }
    >
      <p>{saved ? t('errors.FIELD_ERROR_WARN_BUT_SAVED') : onlyMissing ? t('errors.FIELD_ERROR') : t('common.fieldErrorCheck')}</p>
      <ul class="error-list">
        {error.errorFields.map((f) => (
          <li key={f.field}>
            <strong>{labels[f.field] ?? fieldLabel(f.field, defs, language) ?? t('common.fieldUnnamed')}</strong>: {fieldMessage(f.errorType)}
          </li>
        ))}
      </ul>
    </Dialog>
  )
}
