// /events/:id/form — the form builder: fields in order with add, edit, move and remove, the escort
// settings, the waiting list, the embed code, and a live preview rendered by the same engine.
import { useEffect, useMemo, useState } from 'preact/hooks'
import { Link } from 'wouter'
import { embedCode } from '../../../../server/modules/events/embed'
import { APPEARANCES, CUSTOM_FIELD_TYPES, DEFAULT_FIELD_CODES, type FieldDef, type FieldType, isEscortCode } from '../../../../server/modules/forms/definitions'
import { can } from '../../../../server/modules/identity/roles'
import { ApiError, del, errorText, get, put } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { FormEngine } from '../../../components/form-engine'
import { toast } from '../../../components/overlay'
import { Alert, Badge, Button, Card, PageHeader, Spinner } from '../../../components/ui'
import { germanText, t } from '../../../i18n'
import { useUser } from '../user'
import { FieldEditor, newDraft } from './field-editor'

interface Builder {
  formVersion: number
  waitingList: boolean
  isPayedEvent: boolean
  fields: FieldDef[]
}

export interface OrganiserEvent {
  id: number
  displayName: string
  startDate: string
  defaultPhoneLocale: string
  disabledCovidStates: string[]
  maxVisitorPerSubscription: number
  url: string
}

/** Default fields an organiser may add from the palette (the default form's own are always there). */
const PALETTE_DEFAULTS = DEFAULT_FIELD_CODES.filter((c) => !isEscortCode(c) && !['SALUTATION', 'TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL'].includes(c))

export function FormBuilder({ id }: { id: number }) {
  const user = useUser()
  const [event, setEvent] = useState<OrganiserEvent | null>(null)
  const [data, setData] = useState<Builder | null>(null)
  const [error, setError] = useState<ApiError | null>(null)
  const [editing, setEditing] = useState<ReturnType<typeof newDraft> | null>(null)
  const [removing, setRemoving] = useState<FieldDef | null>(null)
  const [adding, setAdding] = useState('TEXT')
  const load = async () => {
    try {
      const [e, b] = await Promise.all([get<OrganiserEvent>(`/proxy/api/events/${id}`), get<Builder>(`/proxy/api/events/${id}/fields`)])
      setEvent(e)
      setData(b)
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'INTERNAL_ERROR', String(e)))
    }
  }
  useEffect(() => void load(), [id])
  const role = user.user.currentAccount?.userRole ?? ''
  const mayEdit = can(role, 'EVENT.EDIT')
  const mayEmbed = can(role, 'EVENT.GUEST.MANAGE')
  const formFields = useMemo(() => (data?.fields ?? []).filter((f) => !isEscortCode(f.defaultField)), [data])
  const escortFields = useMemo(() => (data?.fields ?? []).filter((f) => isEscortCode(f.defaultField)), [data])
  if (error) return <Alert tone="error">{errorText(error)}</Alert>
  if (!event || !data) return <Spinner />

  const present = new Set(data.fields.map((f) => f.defaultField).filter(Boolean))
  const paletteDefaults = PALETTE_DEFAULTS.filter((c) => !present.has(c))
  const move = async (i: number, d: -1 | 1) => {
    const ids = data.fields.map((f) => f.id)
    const list = formFields.map((f) => f.id)
    const a = list[i]
    const b = list[i + d]
    if (b === undefined) return
    const ia = ids.indexOf(a)
    const ib = ids.indexOf(b)
    ;[ids[ia], ids[ib]] = [ids[ib], ids[ia]]
    try {
      const r = await put<{ fields: FieldDef[] }>(`/proxy/api/events/${id}/fields/order`, { ids })
      setData({ ...data, fields: r.fields })
    } catch (e) {
      toast(errorText(e), 'error')
    }
  }
  const remove = async (f: FieldDef) => {
    try {
      await del(`/proxy/api/events/${id}/fields/${f.id}`)
      toast(t('formBuilder.removed'))
      setRemoving(null)
      await load()
    } catch (e) {
      toast(errorText(e), 'error', 5000)
      setRemoving(null)
    }
  }
  const saveEscort = async (f: FieldDef, appearance: FieldDef['appearance']) => {
    try {
      const saved = await put<FieldDef>(`/proxy/api/events/${id}/fields/${f.id}`, { ...f, appearance })
      setData({ ...data, fields: data.fields.map((x) => (x.id === f.id ? saved : x)) })
    } catch (e) {
      toast(errorText(e), 'error')
    }
  }
  const startAdd = () => {
    if (adding.startsWith('default:')) {
      const code = adding.slice(8) as FieldDef['defaultField']
      // named in German like the server's default form: the display name is the form's base language
      setEditing(newDraft('DYNAMIC_DEFAULT_FIELD', code, germanText(`defaultField.${code}`)))
    } else setEditing(newDraft(adding as FieldType))
  }
  // the same code as the "Einbetten" dialog (server/modules/events/embed.ts)
  const embed = embedCode({ eventId: id, frameUrl: `${event.url}/frame`, origin: new URL(event.url).origin, title: event.displayName })

  return (
    <>
      <PageHeader
        title={t('formBuilder.title')}
        subtitle={event.displayName}
        actions={
          <>
            <Link class="btn btn-secondary" href={`/events/${id}`}>
              {t('common.back')}
            </Link>
            {mayEmbed && (
              <Link class="btn btn-primary" href={`/events/${id}/register`}>
                {t('formBuilder.registerGuest')}
              </Link>
            )}
          </>
        }
      />
      <div class="builder">
        <div>
          <Card>
            <div class="card-head">
              <h2>{t('formBuilder.fields')}</h2>
            </div>
            <ol class="builder-list" aria-label={t('formBuilder.fields')}>
              {formFields.map((f, i) => (
                <li key={f.id} class={`builder-item ${f.appearance === 'HIDDEN' ? 'hidden-field' : ''}`}>
                  <span class="name">
                    <strong>{f.displayName}</strong>
                    <span class="meta">
                      <span>{f.defaultField ? t('fieldType.DYNAMIC_DEFAULT_FIELD') : t(`fieldType.${f.type}`)}</span>
                      <Badge tone={f.appearance === 'REQUIRED' ? 'info' : f.appearance === 'HIDDEN' ? 'neutral' : 'ok'}>{t(`appearance.${f.appearance}`)}</Badge>
                      {f.conditions.length > 0 && <Badge tone="warn">{t('formBuilder.conditional')}</Badge>}
                    </span>
                  </span>
                  {mayEdit && (
                    <span class="actions">
                      <button type="button" class="icon-btn small" aria-label={t('formBuilder.moveUp', { name: f.displayName })} disabled={i === 0} onClick={() => void move(i, -1)}>
                        ↑
                      </button>
                      <button type="button" class="icon-btn small" aria-label={t('formBuilder.moveDown', { name: f.displayName })} disabled={i === formFields.length - 1} onClick={() => void move(i, 1)}>
                        ↓
                      </button>
                      <Button variant="ghost" aria-label={`${t('common.edit')}: ${f.displayName}`} onClick={() => setEditing({ ...f })}>
                        {t('common.edit')}
                      </Button>
                      {!f.locked && !['SALUTATION', 'TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL'].includes(f.defaultField ?? '') && (
                        <Button variant="ghost" aria-label={`${t('formBuilder.removeField')}: ${f.displayName}`} onClick={() => setRemoving(f)}>
                          ×
                        </Button>
                      )}
                    </span>
                  )}
                </li>
              ))}
            </ol>
            {mayEdit && (
              <div class="builder-toolbar">
                <div class="field">
                  <label for="add-type">{t('formBuilder.type')}</label>
                  <select id="add-type" value={adding} onChange={(e) => setAdding((e.currentTarget as HTMLSelectElement).value)}>
                    <optgroup label={t('formBuilder.addField')}>
                      {CUSTOM_FIELD_TYPES.map((ty) => (
                        <option key={ty} value={ty}>
                          {t(`fieldType.${ty}`)}
                        </option>
                      ))}
                    </optgroup>
                    {paletteDefaults.length > 0 && (
                      <optgroup label={t('formBuilder.addDefaultField')}>
                        {paletteDefaults.map((c) => (
                          <option key={c} value={`default:${c}`}>
                            {t(`defaultField.${c}`)}
                          </option>
                        ))}
                      </optgroup>
                    )}
                  </select>
                </div>
                <Button onClick={startAdd}>{t('formBuilder.addField')}</Button>
              </div>
            )}
          </Card>
          <Card>
            <h2>{t('formBuilder.escorts')}</h2>
            <p class="hint">{t('formBuilder.escortsHint')}</p>
            <div class="escort-settings">
              {escortFields.map((f) => (
                <div key={f.id} class="field">
                  <label for={`esc-${f.id}`}>{f.displayName}</label>
                  <select id={`esc-${f.id}`} value={f.appearance} disabled={!mayEdit} onChange={(e) => void saveEscort(f, (e.currentTarget as HTMLSelectElement).value as FieldDef['appearance'])}>
                    {APPEARANCES.map((a) => (
                      <option key={a} value={a}>
                        {t(`appearance.${a}`)}
                      </option>
                    ))}
                  </select>
                </div>
              ))}
            </div>
          </Card>
          <Card>
            <div class="field field-full field-check">
              <input
                type="checkbox"
                id="waiting-list"
                checked={data.waitingList}
                disabled={!mayEdit}
                onChange={async (e) => {
                  try {
                    const r = await put<Builder>(`/proxy/api/events/${id}/form-settings`, { waitingList: (e.currentTarget as HTMLInputElement).checked })
                    setData(r)
                    toast(t('common.saved'))
                  } catch (err) {
                    toast(errorText(err), 'error')
                  }
                }}
                aria-describedby="waiting-list-hint"
              />
              <label for="waiting-list">{t('formBuilder.waitingList')}</label>
            </div>
            <p id="waiting-list-hint" class="hint">
              {t('formBuilder.waitingListHint')}
            </p>
            {mayEmbed && (
              <div class="field field-full">
                <label for="embed-code">{t('formBuilder.embedCode')}</label>
                <textarea id="embed-code" class="embed-code" readOnly value={embed} onFocus={(e) => (e.currentTarget as HTMLTextAreaElement).select()} />
              </div>
            )}
          </Card>
        </div>
        <Card class="preview-card" aria-labelledby="preview-title">
          <h2 id="preview-title">{t('formBuilder.preview')}</h2>
          <p class="hint">{t('formBuilder.previewHint')}</p>
          <FormEngine key={data.formVersion} event={event} defs={data.fields} mode="preview" identification="preview-only" submitLabel={t('registration.submit')} />
        </Card>
      </div>
      {editing && (
        <FieldEditor
          eventId={id}
          initial={editing}
          others={data.fields}
          paid={data.isPayedEvent}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            toast(t('formBuilder.saved'))
            void load()
          }}
        />
      )}
      {removing && (
        <Dialog
          title={t('formBuilder.removeField')}
          onClose={() => setRemoving(null)}
          actions={
            <>
              <Button variant="secondary" onClick={() => setRemoving(null)}>
                {t('common.cancel')}
              </Button>
              <Button variant="danger" onClick={() => void remove(removing)}>
                {t('formBuilder.remove')}
              </Button>
            </>
          }
        >
          <p>{t('formBuilder.removeConfirm', { name: removing.displayName })}</p>
        </Dialog>
      )}
    </>
  )
}

