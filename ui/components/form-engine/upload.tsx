// IMAGE and FILE fields: upload at once (type EVENT_GUEST / DYNAMIC_FILE, encrypted), show a preview
// from the local file, allow removal. Errors: UPLOAD_LIMIT_REACHED's text or the server's message, 5 s.
import { useEffect, useState } from 'preact/hooks'
import type { AssetValue } from '../../../server/modules/forms/definitions'
import { ApiError, api, errorText } from '../../api/client'
import { t } from '../../i18n'
import { toast } from '../overlay'
import { type FieldChrome, Group } from './fields'

export interface UploadContext {
  eventId: number
  identification: string
  /** organiser (admin mode): uploads through the session, not as an anonymous guest */
  admin: boolean
}

export function UploadField({ c, image, value, onChange, ctx }: { c: FieldChrome; image: boolean; value: unknown; onChange(v: AssetValue | null): void; ctx: UploadContext | null }) {
  const v = value && typeof value === 'object' ? (value as AssetValue) : null
  const [busy, setBusy] = useState(false)
  const [preview, setPreview] = useState<string | null>(null)
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])
  const pick = async (file: File | undefined) => {
    if (!file || !ctx) return
    const form = new FormData()
    form.append('file', file)
    form.append('fileName', file.name)
    form.append('type', image ? 'EVENT_GUEST' : 'DYNAMIC_FILE')
    form.append('secure', 'true')
    if (!ctx.admin) form.append('event', String(ctx.eventId))
    setBusy(true)
    try {
      const asset = await api<{ id: number; originalFileName: string }>('POST', '/proxy/api/asset', form, { headers: { 'x-guest-identification': ctx.identification } })
      if (image) setPreview(URL.createObjectURL(file))
      onChange({ assetId: asset.id, fileName: asset.originalFileName })
    } catch (e) {
      toast(e instanceof ApiError && e.errorType === 'UPLOAD_LIMIT_REACHED' ? t('errors.UPLOAD_LIMIT_REACHED') : errorText(e), 'error', 5000)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Group c={c} class="upload">
      {v ? (
        <div class="upload-done">
          {image && preview && <img src={preview} alt="" class="upload-preview" />}
          <span class="upload-name">{v.fileName}</span>
          <button type="button" class="btn btn-ghost" onClick={() => (setPreview(null), onChange(null))} disabled={c.locked}>
            {t('form.removeFile')}
          </button>
        </div>
      ) : (
        <label class={`upload-drop ${busy ? 'busy' : ''}`}>
          <input
            type="file"
            class="upload-input"
            accept={image ? 'image/jpeg,image/png,image/webp,image/gif' : undefined}
            disabled={busy || !ctx || c.locked}
            aria-describedby={`${c.id}-legend`}
            onChange={(e) => void pick((e.currentTarget as HTMLInputElement).files?.[0])}
          />
          <span class="btn btn-secondary" aria-hidden="true">
            {busy && <span class="spinner spinner-dark" />}
            {busy ? t('form.uploading') : t(image ? 'form.uploadImage' : 'form.upload')}
          </span>
          <span class="sr-only">{c.label}</span>
        </label>
      )}
      <small id={`${c.id}-legend`} class="hint">
        {image ? `${t('form.imageLegend')} ${t('form.uploadLimits')}` : t('form.uploadLimits')}
      </small>
    </Group>
  )
}
