// CSV import: choose a file, map its columns, check it (dry run with a report of bad rows), import.
// Both runs are background tasks shown with the spec's progress widget.
import { useState } from 'preact/hooks'
import { IMPORT_FIELDS, type ImportField } from '../../../server/modules/imports/model'
import { api, errorText, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { Alert, Button } from '../../components/ui'
import { fieldMessage, t } from '../../i18n'
import { type TaskDto, TaskProgress } from './common'
import type { EventFull } from './event-model'

interface Upload {
  id: number
  fileName: string
  headers: string[]
  sample: string[][]
  rowCount: number
  suggestedMapping: Partial<Record<ImportField, number>>
}
interface Report {
  dryRun: boolean
  rows: number
  valid: number
  invalid: number
  imported: number
  errors: Array<{ line: number; field: string; errorType: string }>
}

const fieldLabel = (f: string) => {
  const m = /^escort(\d)(FirstName|LastName)$/.exec(f)
  if (m) return t(`guests.import.field.escort${m[2]}`, { n: m[1] })
  return t(`guests.import.field.${f}`)
}

export function ImportDialog({ event, onClose, onImported }: { event: EventFull; onClose(): void; onImported(): void }) {
  const [file, setFile] = useState<File | null>(null)
  const [upload, setUpload] = useState<Upload | null>(null)
  const [columns, setColumns] = useState<string[]>([])
  const [defaultStatus, setDefaultStatus] = useState<'ADDED' | 'CONFIRMED'>('ADDED')
  const [skipInvalid, setSkipInvalid] = useState(false)
  const [task, setTask] = useState<{ id: number; dryRun: boolean } | null>(null)
  const [report, setReport] = useState<Report | null>(null)
  const [done, setDone] = useState(false)
  const [err, setErr] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const mapping = () => {
    const m: Record<string, number> = {}
    columns.forEach((f, i) => {
      if (f) m[f] = i
    })
    return m
  }
  const doUpload = async () => {
    if (!file) return
    setBusy(true)
    setErr(null)
    try {
      const form = new FormData()
      form.append('file', file)
      const u = await api<Upload>('POST', `/proxy/api/events/${event.id}/imports`, form)
      setUpload(u)
      setColumns(u.headers.map((_, i) => (Object.entries(u.suggestedMapping).find(([, c]) => c === i)?.[0] as string) ?? ''))
    } catch (e) {
      setErr(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const start = async (dryRun: boolean) => {
    if (!upload) return
    setBusy(true)
    setErr(null)
    setReport(null)
    try {
      const tk = await post<TaskDto>(`/proxy/api/events/${event.id}/imports/${upload.id}/${dryRun ? 'dry-run' : 'run'}`, { mapping: mapping(), defaultStatus, skipInvalid })
      setTask({ id: tk.id, dryRun })
    } catch (e) {
      setErr(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const mapped = new Set(columns.filter(Boolean))
  const canRun = mapped.has('firstName') && mapped.has('lastName')
  return (
    <Dialog
      wide
      title={t('guests.import.title')}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {done ? t('common.close') : t('common.cancel')}
          </Button>
          {!upload && (
            <Button busy={busy} disabled={!file} onClick={() => void doUpload()}>
              {t('guests.import.upload')}
            </Button>
          )}
          {upload && !done && (
            <>
              <Button variant="secondary" busy={busy} disabled={!canRun || Boolean(task && !report)} onClick={() => void start(true)}>
                {t('guests.import.check')}
              </Button>
              <Button busy={busy} disabled={!canRun || !report || !report.dryRun || (report.invalid > 0 && !skipInvalid) || report.valid === 0} onClick={() => void start(false)}>
                {t('guests.import.run')}
              </Button>
            </>
          )}
        </>
      }
    >
      {err && <Alert tone="error">{err}</Alert>}
      {!upload && (
        <div class="field field-full">
          <label for="import-file">{t('guests.import.file')}</label>
          <input id="import-file" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
          <small class="hint">{t('guests.import.fileHint')}</small>
        </div>
      )}
      {upload && (
        <>
          <p>{t('guests.import.summary', { file: upload.fileName, n: upload.rowCount })}</p>
          <div class="table-wrap">
            <table class="table mapping-table">
              <thead>
                <tr>
                  <th>{t('guests.import.column')}</th>
                  <th>{t('guests.import.example')}</th>
                  <th>{t('guests.import.target')}</th>
                </tr>
              </thead>
              <tbody>
                {upload.headers.map((h, i) => (
                  <tr key={i}>
                    <td>{h}</td>
                    <td class="muted">{upload.sample[0]?.[i] ?? ''}</td>
                    <td>
                      <select
                        aria-label={t('guests.import.targetFor', { column: h })}
                        value={columns[i]}
                        disabled={Boolean(task && !report) || done}
                        onChange={(e) => {
                          const next = [...columns]
                          next[i] = (e.target as HTMLSelectElement).value
                          setColumns(next)
                          setReport(null)
                        }}
                      >
                        <option value="">{t('guests.import.ignore')}</option>
                        {IMPORT_FIELDS.map((f) => (
                          <option key={f} value={f} disabled={mapped.has(f) && columns[i] !== f}>
                            {fieldLabel(f)}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {!canRun && <Alert tone="warn">{t('guests.import.needNames')}</Alert>}
          <div class="form-grid">
            <div class="field field-half">
              <label for="import-status">{t('guests.import.defaultStatus')}</label>
              <select id="import-status" value={defaultStatus} onChange={(e) => (setDefaultStatus((e.target as HTMLSelectElement).value as 'ADDED' | 'CONFIRMED'), setReport(null))}>
                <option value="ADDED">{t('status.visitor.ADDED')}</option>
                <option value="CONFIRMED">{t('status.visitor.CONFIRMED')}</option>
              </select>
            </div>
          </div>
        </>
      )}
      {task && (
        <TaskProgress
          key={task.id}
          taskId={task.id}
          stayOnError
          onReload={(tk) => {
            if (tk.result) setReport(tk.result as Report)
            if (!task.dryRun && tk.status === 'FINISHED') {
              setDone(true)
              onImported()
            }
          }}
        />
      )}
      {report && report.dryRun && (
        <div class="import-report">
          <p>
            <strong>{t('guests.import.reportValid', { n: report.valid })}</strong> · {t('guests.import.reportInvalid', { n: report.invalid })}
          </p>
          {report.errors.length > 0 && (
            <>
              <div class="table-wrap">
                <table class="table">
                  <thead>
                    <tr>
                      <th>{t('guests.import.line')}</th>
                      <th>{t('guests.import.target')}</th>
                      <th>{t('guests.import.problem')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.errors.map((e, i) => (
                      <tr key={i}>
                        <td>{e.line}</td>
                        <td>{fieldLabel(e.field)}</td>
                        <td>{fieldMessage(e.errorType)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <label class="inline-check">
                <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid((e.target as HTMLInputElement).checked)} />
                {t('guests.import.skipInvalid')}
              </label>
            </>
          )}
        </div>
      )}
    </Dialog>
  )
}
