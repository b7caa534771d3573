// The field error dialog of the spec: FIELD_ERROR (not saved) and FIELD_ERROR_WARN_BUT_SAVED.
import { ApiError } from '../api/client'
import { fieldMessage, t } from '../i18n'
import { Dialog } from './dialog'

export function FieldErrorDialog({ error, labels, onClose }: { error: ApiError; labels: Record<string, string>; onClose(): void }) {
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
      <p>{t(error.errorType === 'FIELD_ERROR_WARN_BUT_SAVED' ? 'errors.FIELD_ERROR_WARN_BUT_SAVED' : 'errors.FIELD_ERROR')}</p>
      <ul class="error-list">
        {error.errorFields.map((f) => (
          <li key={f.field}>
            <strong>{labels[f.field] ?? f.field}</strong>: {fieldMessage(f.errorType)}
          </li>
        ))}
      </ul>
    </Dialog>
  )
}
