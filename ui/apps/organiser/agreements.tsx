// Agreements: the event's agreements (its own plus the agency's global ones), the agency's global
// defaults (/agreements), and who signed what and when with the agreement filter.
import { useState } from 'preact/hooks'
import { formatDateTime } from '../../../server/i18n/format'
import { errorText, post, put, del } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, CancelSave, Card, EmptyState, PageHeader, Spinner } from '../../components/ui'
import { fieldMessage, t } from '../../i18n'
import { Pager, usePermission, usePostResource } from './common'
import type { EventFull } from './event-model'
import { RichText } from './rich-text'
import { type TranslatedField, TranslationsEditor } from './event-translations'

interface Agreement {
  id: number
  displayName: string
  description: string
  appearance: 'VISIBLE' | 'REQUIRED'
  validity: 'GLOBAL' | 'EVENT'
  eventId: number | null
  active: boolean
}
interface Signature {
  id: number
  agreementName: string
  validity: string
  eventName: string
  firstName: string | null
  lastName: string | null
  email: string | null
  status: string
  decidedAt: string
  origin: string
  signatureId: number | null
}

function AgreementDialog({ agreement, eventId, onClose, onSaved }: { agreement: Agreement | null; eventId: number | null; onClose(): void; onSaved(): void }) {
  const [name, setName] = useState(agreement?.displayName ?? '')
  const [description, setDescription] = useState(agreement?.description ?? '')
  const [appearance, setAppearance] = useState<'VISIBLE' | 'REQUIRED'>(agreement?.appearance ?? 'REQUIRED')
  const [err, setErr] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const save = async () => {
    setBusy(true)
    setErr(null)
    const body = { displayName: name, description, appearance, validity: eventId ? 'EVENT' : 'GLOBAL', eventId }
    try {
      if (agreement) await put(`/proxy/api/agreements/${agreement.id}`, body)
      else await post('/proxy/api/agreements', body)
      toast(t('common.saved'))
      onSaved()
      onClose()
    } catch (e) {
      setErr(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      wide
      title={agreement ? t('agreements.edit') : t('agreements.new')}
      onClose={onClose}
      actions={
        <CancelSave onCancel={onClose} onSave={() => void save()} busy={busy} />
      }
    >
      {err && <Alert tone="error">{err}</Alert>}
      <div class="form-grid">
        <div class="field field-full">
          <label for="ag-name">
            {t('agreements.field.name')}
            <span class="req" aria-hidden="true"> *</span>
          </label>
          <input id="ag-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          {!name.trim() && err && <small class="field-error">{fieldMessage('REQUIRED')}</small>}
        </div>
        <div class="field field-full">
          <label for="ag-appearance">{t('agreements.field.appearance')}</label>
          <select id="ag-appearance" value={appearance} onChange={(e) => setAppearance((e.target as HTMLSelectElement).value as 'VISIBLE' | 'REQUIRED')}>
            <option value="REQUIRED">{t('agreements.appearance.REQUIRED')}</option>
            <option value="VISIBLE">{t('agreements.appearance.VISIBLE')}</option>
          </select>
        </div>
        <RichText id="ag-description" label={t('agreements.field.description')} value={description} onChange={setDescription} />
      </div>
    </Dialog>
  )
}

const AGREEMENT_FIELDS: TranslatedField[] = [
  { key: 'displayName', label: 'agreements.field.name', max: 200 },
  { key: 'description', label: 'agreements.field.description', max: 100_000, rich: true },
]

/** The agreement's name and text in other languages (docs/languages.md, "Organiser texts"). */
function AgreementTranslations({ agreement, onClose }: { agreement: Agreement; onClose(): void }) {
  return (
    <Dialog wide title={`${t('events.tab.translations')}: ${agreement.displayName}`} onClose={onClose}>
      <TranslationsEditor path={`/proxy/api/agreements/${agreement.id}/translations`} fields={AGREEMENT_FIELDS} />
    </Dialog>
  )
}

function AgreementList({ eventId, title }: { eventId: number | null; title: string }) {
  const canManage = usePermission('AGREEMENT.MANAGE')
  const [edit, setEdit] = useState<Agreement | 'new' | null>(null)
  const [translate, setTranslate] = useState<Agreement | null>(null)
  const { data, error, reload } = usePostResource<Agreement[]>('/proxy/api/agreements/search', eventId ? { eventId } : { validity: 'GLOBAL' })
  return (
    <Card>
      <div class="card-head">
        <h2>{title}</h2>
        {canManage && <Button onClick={() => setEdit('new')}>{t('agreements.new')}</Button>}
      </div>
      {error && <Alert tone="error">{errorText(error)}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.length === 0 && <EmptyState>{t('agreements.empty')}</EmptyState>}
      {data && data.length > 0 && (
        <ul class="agreement-list">
          {data.map((a) => (
            <li key={a.id} class="agreement-item">
              <div>
                <strong>{a.displayName}</strong> <Badge tone={a.appearance === 'REQUIRED' ? 'warn' : 'neutral'}>{t(`agreements.appearance.${a.appearance}`)}</Badge>{' '}
                {a.validity === 'GLOBAL' && <Badge tone="info">{t('agreements.global')}</Badge>}
                <div class="agreement-text" dangerouslySetInnerHTML={{ __html: a.description }} />
              </div>
              {canManage && (eventId === null || a.validity === 'EVENT') && (
                <div class="button-row">
                  <Button variant="secondary" onClick={() => setEdit(a)}>
                    {t('common.edit')}
                  </Button>
                  <Button variant="secondary" onClick={() => setTranslate(a)}>
                    {t('events.tab.translations')}
                  </Button>
                  <Button
                    variant="ghost"
                    onClick={async () => {
                      try {
                        await del(`/proxy/api/agreements/${a.id}`)
                        toast(t('agreements.withdrawn'))
                        void reload()
                      } catch (e) {
                        toast(errorText(e), 'error')
                      }
                    }}
                  >
                    {t('agreements.withdraw')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {edit && <AgreementDialog agreement={edit === 'new' ? null : edit} eventId={eventId} onClose={() => setEdit(null)} onSaved={() => void reload()} />}
      {translate && <AgreementTranslations agreement={translate} onClose={() => setTranslate(null)} />}
    </Card>
  )
}

function Signatures({ eventId }: { eventId: number | null }) {
  const [startDate, setStart] = useState('')
  const [endDate, setEnd] = useState('')
  const [validity, setValidity] = useState('')
  const [page, setPage] = useState(0)
  const bad = Boolean(startDate && endDate && endDate < startDate)
  const body = { filter: { startDate: startDate || null, endDate: endDate || null, validity: validity || null }, eventId: eventId ?? undefined, page, perPage: 25 }
  const { data, error } = usePostResource<{ items: Signature[]; total: number }>(bad ? null : '/proxy/api/agreements/signatures/search', body)
  return (
    <Card>
      <h2>{t('agreements.signatures')}</h2>
      <div class="form-grid">
        <div class="field field-half">
          <label for="sig-start">{t('events.filter.startDate')}</label>
          <input id="sig-start" type="date" value={startDate} onInput={(e) => (setStart((e.target as HTMLInputElement).value), setPage(0))} />
        </div>
        <div class={`field field-half ${bad ? 'has-error' : ''}`}>
          <label for="sig-end">{t('events.filter.endDate')}</label>
          <input id="sig-end" type="date" value={endDate} onInput={(e) => (setEnd((e.target as HTMLInputElement).value), setPage(0))} />
          {bad && <small class="field-error">{fieldMessage('END_BEFORE_START')}</small>}
        </div>
        <div class="field field-half">
          <label for="sig-validity">{t('agreements.validity')}</label>
          <select id="sig-validity" value={validity} onChange={(e) => (setValidity((e.target as HTMLSelectElement).value), setPage(0))}>
            <option value="">{t('agreements.validity.ALL')}</option>
            <option value="GLOBAL">{t('agreements.validity.GLOBAL')}</option>
            <option value="EVENT">{t('agreements.validity.EVENT')}</option>
          </select>
        </div>
      </div>
      {error && <Alert tone="error">{errorText(error)}</Alert>}
      {data && data.items.length === 0 && <EmptyState>{t('agreements.noSignatures')}</EmptyState>}
      {data && data.items.length > 0 && (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th>{t('agreements.guest')}</th>
                <th>{t('agreements.agreement')}</th>
                {!eventId && <th>{t('agreements.event')}</th>}
                <th>{t('agreements.decision')}</th>
                <th>{t('agreements.date')}</th>
                <th>{t('agreements.signature')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((s) => (
                <tr key={s.id}>
                  <td>
                    {[s.firstName, s.lastName].filter(Boolean).join(' ')}
                    <br />
                    <span class="muted">{s.email}</span>
                  </td>
                  <td>{s.agreementName}</td>
                  {!eventId && <td>{s.eventName}</td>}
                  <td>
                    <Badge tone={s.status === 'CONFIRMED' ? 'ok' : 'error'}>{t(`status.agreement.${s.status}`)}</Badge>
                  </td>
                  <td>{formatDateTime(s.decidedAt)}</td>
                  <td>{s.signatureId ? <img class="signature-thumb" alt={t('agreements.signatureOf', { name: [s.firstName, s.lastName].join(' ') })} src={`/proxy/api/agreements/signatures/${s.signatureId}/signature`} /> : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={page} perPage={25} total={data.total} onPage={setPage} />}
    </Card>
  )
}

export function AgreementsTab({ event }: { event: EventFull }) {
  return (
    <>
      <AgreementList eventId={event.id} title={t('agreements.ofEvent')} />
      <Signatures eventId={event.id} />
    </>
  )
}

export function AgreementsPage() {
  return (
    <>
      <PageHeader title={t('agreements.title')} subtitle={t('agreements.globalHint')} />
      <AgreementList eventId={null} title={t('agreements.globalTitle')} />
      <Signatures eventId={null} />
    </>
  )
}
