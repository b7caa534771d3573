// The upload dialog's body and its queue (agency-side.md 2.9; docs/media.md): a file input (several
// files at once), the legend on shrinking, and one row per file with its progress 0–100, its result
// and an abort button while it waits or uploads. Failures also show as a toast for 5 s
// (UPLOAD_LIMIT_REACHED with its own text, else the server's message).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { Dialog } from '../../components/dialog'
import { toast } from '../../components/overlay'
import { Button } from '../../components/ui'
import { t } from '../../i18n'
import { IMAGE_EXTENSIONS, IMAGE_ONLY_TYPES } from './checks'
import { type QueueEntry, UploadQueue, type UploadType } from './queue'
import { sendFile, type UploadedAsset, UploadError } from './send'

export interface UploadPanelProps {
  label: string
  uploadType: UploadType
  /** stored access-checked and encrypted (default true; public images pass false) */
  crypted?: boolean
  multiple?: boolean
  inputId?: string
  /** the upload's target registers it (gallery entry, event image …); an error here marks the entry failed */
  onUploaded?(asset: UploadedAsset, file: File): void | Promise<void>
  /** hide the rows of finished entries after this many ms (single-image fields) */
  compact?: boolean
}

export function UploadPanel({ label, uploadType, crypted = true, multiple = true, inputId, onUploaded, compact }: UploadPanelProps) {
  const [entries, setEntries] = useState<ReadonlyArray<QueueEntry<UploadedAsset>>>([])
  const onUploadedRef = useRef(onUploaded)
  onUploadedRef.current = onUploaded
  const id = useMemo(() => inputId ?? `upload-${Math.random().toString(36).slice(2, 8)}`, [inputId])
  const queue = useMemo(
    () =>
      new UploadQueue<UploadedAsset>({
        send: sendFile,
        uploadType,
        crypted,
        onChange: setEntries,
        onDone: async (e) => {
          try {
            await onUploadedRef.current?.(e.result!, e.file)
          } catch (err) {
            const text = err instanceof Error && err.message ? err.message : t('common.tryAgainOrSupport')
            toast(text, 'error', 5000)
          }
        },
        onError: (_e, err) => {
          if (err instanceof UploadError && err.errorType === 'ABORTED') return
          toast(err instanceof Error ? err.message : String(err), 'error', 5000)
        },
      }),
    [uploadType, crypted],
  )
  useEffect(() => () => queue.entries.forEach((e) => queue.abort(e.id)), [queue])
  const imagesOnly = IMAGE_ONLY_TYPES.includes(uploadType)
  const shown = compact ? entries.filter((e) => e.status !== 'done') : entries
  return (
    <div class="upload-panel">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="file"
        multiple={multiple}
        accept={imagesOnly ? IMAGE_EXTENSIONS.map((x) => `.${x}`).join(',') : undefined}
        onChange={(e) => {
          const input = e.target as HTMLInputElement
          queue.add(Array.from(input.files ?? []))
          input.value = ''
        }}
      />
      {imagesOnly && <small class="hint">{t('upload.legend')}</small>}
      {shown.length > 0 && (
        <ul class="upload-queue" aria-label={t('upload.title')}>
          {shown.map((e) => (
            <li key={e.id} class={`upload-entry upload-entry-${e.status}`} data-status={e.status}>
              <span class="upload-entry-name">{e.file.name}</span>
              <progress max={100} value={e.progress} aria-label={e.file.name} />
              <span class="upload-result" role={e.status === 'error' ? 'alert' : undefined}>
                {e.status === 'waiting' && t('upload.waiting')}
                {e.status === 'uploading' && `${e.progress} %`}
                {e.status === 'done' && t('upload.done')}
                {e.status === 'aborted' && t('upload.aborted')}
                {e.status === 'error' && e.error}
              </span>
              {(e.status === 'waiting' || e.status === 'uploading') && (
                <Button variant="ghost" onClick={() => queue.abort(e.id)}>
                  {t('upload.abort')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The file-upload dialog: the panel in a dialog (closing it aborts what is still running). */
export function UploadDialog({ onClose, ...panel }: Omit<UploadPanelProps, 'label'> & { onClose(): void }) {
  return (
    <Dialog title={t('upload.title')} onClose={onClose} actions={<Button variant="secondary" onClick={onClose}>{t('common.close')}</Button>}>
      <UploadPanel label={t('upload.choose')} {...panel} />
    </Dialog>
  )
}
