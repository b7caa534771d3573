// The field editor of the form builder: every property of a field, validated with the server's
// FieldInput schema before it is sent.
import { useState } from 'preact/hooks'
import { APPEARANCES, type Condition, type FieldDef, type FieldType, SIZES, VIP_SOURCE, isDecoration, kindOf, operatorsFor } from '../../../../server/modules/forms/definitions'
import { FieldInput } from '../../../../server/modules/forms/model'
import { ApiError, errorText, post, put } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { Alert, Button, CancelSave } from '../../../components/ui'
import { useResource } from '../../../components/hooks'
import { currentLanguage, fieldMessage, t } from '../../../i18n'
import { DEFAULT_LANGUAGE, type LanguageOption } from '../../../../server/i18n/languages'

type Draft = Omit<FieldDef, 'id' | 'sortOrder' | 'locked'> & { id?: number; locked?: boolean }

/** Every language of the license but the form's own (German): translations of the label (spec 9.1). */
function useTranslationLanguages(): LanguageOption[] {
  const { data } = useResource<LanguageOption[]>('/proxy/api/public/translations/languages')
  return (data ?? []).filter((l) => l.code !== DEFAULT_LANGUAGE)
}
const languageName = (l: LanguageOption) => (currentLanguage().startsWith('de') ? l.fullName : l.displayName)

export function newDraft(type: FieldType, defaultField: FieldDef['defaultField'] = null, displayName = ''): Draft {
  return {
    type,
    defaultField,
    displayName: displayName || t(`fieldType.${type}`),
    translations: [],
    appearance: 'VISIBLE',
    size: 'DEFAULT',
    autocomplete: null,
    conditions: [],
    values: type === 'LIST' ? ['Option 1'] : [],
    customValue: false,
    multiple: false,
    amountSelection: false,
    maxPerGuest: -1,
    hideUnavailable: false,
    definedValues: type === 'SMARTLIST' ? [{ id: 0, displayName: 'Angebot 1', description: null, translations: [], group: null, freeValue: -1, capacity: -1, minPerGuest: 0, maxPerGuest: -1, sortOrder: 0 }] : [],
    definedGroups: [],
    hasDefinedGroups: false,
    showDefinedGroupsAsTabs: false,
    timeslots: type === 'TIMESLOT' ? [{ id: 0, displayName: '10:00 – 11:00', dateInfo: null, dateTimezoneInfo: null, freeSlots: -1, capacity: 20, groupId: null, sortOrder: 0 }] : [],
    settings: {},
  }
}

/** The request body: ids of new defined values/timeslots are left out. */
function toInput(d: Draft) {
  return {
    type: d.type,
    defaultField: d.defaultField,
    displayName: d.displayName,
    translations: d.translations.filter((x) => x.displayName.trim()),
    appearance: d.appearance,
    size: d.size,
    autocomplete: d.autocomplete,
    conditions: d.conditions,
    values: d.values.map((v) => v.trim()).filter(Boolean),
    customValue: d.customValue,
    multiple: d.multiple,
    amountSelection: d.amountSelection,
    maxPerGuest: d.maxPerGuest,
    hideUnavailable: d.hideUnavailable,
    hasDefinedGroups: d.hasDefinedGroups,
    showDefinedGroupsAsTabs: d.showDefinedGroupsAsTabs,
    definedGroups: d.definedGroups,
    definedValues: d.definedValues.map(({ id, displayName, description, translations, group, capacity, minPerGuest, maxPerGuest }) => ({ ...(id > 0 ? { id } : {}), displayName, description, translations, group, capacity, minPerGuest, maxPerGuest })),
    timeslots: d.timeslots.map(({ id, displayName, dateInfo, dateTimezoneInfo, groupId, capacity }) => ({ ...(id > 0 ? { id } : {}), displayName, dateInfo, dateTimezoneInfo, groupId, capacity })),
    settings: d.settings,
  }
}

const num = (e: Event) => Number((e.currentTarget as HTMLInputElement).value)
const val = (e: Event) => (e.currentTarget as HTMLInputElement).value
const checked = (e: Event) => (e.currentTarget as HTMLInputElement).checked

function Check({ label, value, onChange, id }: { label: string; value: boolean; onChange(v: boolean): void; id: string }) {
  return (
    <div class="field field-half field-check">
      <input type="checkbox" id={id} checked={value} onChange={(e) => onChange(checked(e))} />
      <label for={id}>{label}</label>
    </div>
  )
}

function Input({ id, label, value, onInput, type = 'text', size = 'half', min, error, lang }: { id: string; label: string; value: string | number | null | undefined; onInput(e: Event): void; type?: string; size?: 'half' | 'full' | 'narrow'; min?: number; error?: string; lang?: string }) {
  return (
    <div class={`field ${size === 'narrow' ? 'narrow' : `field-${size}`} ${error ? 'has-error' : ''}`}>
      <label for={id}>{label}</label>
      <input id={id} type={type as 'text'} lang={lang} value={value ?? ''} min={min} onInput={onInput} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-err` : undefined} />
      {error && (
        <small id={`${id}-err`} class="field-error">
          {fieldMessage(error)}
        </small>
      )}
    </div>
  )
}

export function FieldEditor({ eventId, initial, others, paid, onSaved, onClose }: { eventId: number; initial: Draft; others: FieldDef[]; paid: boolean; onSaved(f: FieldDef): void; onClose(): void }) {
  const [d, setD] = useState<Draft>(initial)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const languages = useTranslationLanguages()
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }))
  const kind = kindOf(d)
  const emailFixed = d.defaultField === 'EMAIL' && paid
  const appearanceLocked = !!d.locked || emailFixed
  const err = (k: string) => errors[k]

  const save = async () => {
    setFailure(null)
    const body = toInput(d)
    const local = FieldInput.safeParse(body)
    if (!local.success) {
      setErrors(Object.fromEntries(local.error.issues.map((i) => [i.path.join('.'), i.message])))
      return
    }
    setErrors({})
    setBusy(true)
    try {
      const saved = d.id ? await put<FieldDef>(`/proxy/api/events/${eventId}/fields/${d.id}`, body) : await post<FieldDef>(`/proxy/api/events/${eventId}/fields`, body)
      onSaved(saved)
    } catch (e) {
      if (e instanceof ApiError && e.errorFields.length) setErrors(Object.fromEntries(e.errorFields.map((f) => [f.field, f.errorType])))
      setFailure(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  // condition sources: every other field that holds a value, plus the VIP pseudo-field
  const sources = others.filter((f) => f.id !== d.id && !isDecoration(f) && operatorsFor(f).length > 0 && !f.defaultField?.startsWith('ESCORT_'))
  const sourceOf = (c: Condition) => (c.fieldId === VIP_SOURCE ? VIP_SOURCE : others.find((f) => f.id === c.fieldId))
  const setCond = (i: number, patch: Partial<Condition>) => set({ conditions: d.conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)) })

  const groupSelect = (id: string, value: string | null, onChange: (v: string | null) => void) => (
    <div class="field narrow">
      <label for={id}>{t('formBuilder.group')}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value || null)}>
        <option value="">{t('formBuilder.noGroup')}</option>
        {d.definedGroups.map((g) => (
          <option key={g.id} value={g.id}>
            {g.displayName}
          </option>
        ))}
      </select>
    </div>
  )

  const choiceOptions = (kind === 'SMARTLIST' || kind === 'TIMESLOT') && (
    <>
      <Check id="fe-multiple" label={t('formBuilder.multiple')} value={d.multiple} onChange={(v) => set({ multiple: v })} />
      <Check id="fe-amount" label={t('formBuilder.amountSelection')} value={d.amountSelection} onChange={(v) => set({ amountSelection: v })} />
      <Input id="fe-max" label={t('formBuilder.maxPerGuest')} type="number" value={d.maxPerGuest} min={-1} onInput={(e) => set({ maxPerGuest: num(e) })} error={err('maxPerGuest')} />
      <Check id="fe-hideUnavailable" label={t('formBuilder.hideUnavailable')} value={d.hideUnavailable} onChange={(v) => set({ hideUnavailable: v })} />
      <Check id="fe-groups" label={t('formBuilder.hasGroups')} value={d.hasDefinedGroups} onChange={(v) => set({ hasDefinedGroups: v })} />
      {d.hasDefinedGroups && (
        <>
          <Check id="fe-tabs" label={t('formBuilder.groupsAsTabs')} value={d.showDefinedGroupsAsTabs} onChange={(v) => set({ showDefinedGroupsAsTabs: v })} />
          <fieldset class="field-full">
            <legend>{t('formBuilder.groups')}</legend>
            <div class="builder-rows">
              {d.definedGroups.map((g, i) => (
                <div key={i} class="builder-row">
                  <Input id={`fe-group-${i}`} label={t('formBuilder.displayName')} value={g.displayName} onInput={(e) => set({ definedGroups: d.definedGroups.map((x, j) => (j === i ? { ...x, displayName: val(e) } : x)) })} />
                  <Button variant="ghost" onClick={() => set({ definedGroups: d.definedGroups.filter((_, j) => j !== i) })}>
                    {t('formBuilder.remove')}
                  </Button>
                </div>
              ))}
            </div>
            <Button variant="secondary" onClick={() => set({ definedGroups: [...d.definedGroups, { id: `g${Date.now().toString(36)}`, displayName: `${t('formBuilder.group')} ${d.definedGroups.length + 1}` }] })}>
              {t('formBuilder.addGroup')}
            </Button>
          </fieldset>
        </>
      )}
    </>
  )

  return (
    <Dialog
      wide
      title={d.id ? t('formBuilder.editField') : t('formBuilder.newField')}
      onClose={onClose}
      actions={
        <CancelSave onCancel={onClose} onSave={() => void save()} busy={busy} />
      }
    >
      <div class="form-grid field-editor">
        {failure && (
          <Alert tone="error" class="field-full">
            {failure}
          </Alert>
        )}
        <p class="field-full muted">
          {t('formBuilder.type')}: <strong>{d.defaultField ? d.displayName : t(`fieldType.${d.type}`)}</strong>
        </p>
        <Input id="fe-name" label={t('formBuilder.displayName')} value={d.displayName} onInput={(e) => set({ displayName: val(e) })} error={err('displayName')} />
        <div class={`field field-half ${err('appearance') ? 'has-error' : ''}`}>
          <label for="fe-appearance">{t('formBuilder.appearance')}</label>
          <select id="fe-appearance" value={d.appearance} disabled={appearanceLocked} onChange={(e) => set({ appearance: (e.currentTarget as HTMLSelectElement).value as Draft['appearance'] })} aria-describedby="fe-appearance-hint">
            {APPEARANCES.filter((a) => a !== 'REQUIRED' || !isDecoration(d)).map((a) => (
              <option key={a} value={a}>
                {t(`appearance.${a}`)}
              </option>
            ))}
          </select>
          {(appearanceLocked || err('appearance')) && (
            <small id="fe-appearance-hint" class={err('appearance') ? 'field-error' : 'hint'}>
              {err('appearance') ? fieldMessage(err('appearance')) : emailFixed ? t('formBuilder.emailFixed') : t('formBuilder.lockedField')}
            </small>
          )}
        </div>
        <div class="field field-half">
          <label for="fe-size">{t('formBuilder.size')}</label>
          <select id="fe-size" value={d.size} onChange={(e) => set({ size: (e.currentTarget as HTMLSelectElement).value as Draft['size'] })}>
            {SIZES.map((s) => (
              <option key={s} value={s}>
                {t(`size.${s}`)}
              </option>
            ))}
          </select>
        </div>
        {!isDecoration(d) && <Input id="fe-hint" label={t('formBuilder.hint')} value={d.settings.hint} onInput={(e) => set({ settings: { ...d.settings, hint: val(e) || null } })} />}

        {kind === 'EXPLANATION' && (
          <div class="field field-full">
            <label for="fe-text">{t('formBuilder.text')}</label>
            <textarea id="fe-text" rows={4} value={d.settings.text ?? ''} onInput={(e) => set({ settings: { ...d.settings, text: (e.currentTarget as HTMLTextAreaElement).value } })} />
          </div>
        )}
        {kind === 'NUMBER' && <Input id="fe-numMax" label={t('formBuilder.max')} type="number" min={0} value={d.settings.max} onInput={(e) => set({ settings: { ...d.settings, max: val(e) === '' ? null : num(e) } })} />}
        {kind === 'DATE' && (
          <>
            {d.defaultField !== 'BIRTHDAY' && <Check id="fe-birthday" label={t('formBuilder.birthday')} value={!!d.settings.birthday} onChange={(v) => set({ settings: { ...d.settings, birthday: v } })} />}
            {(d.settings.birthday || d.defaultField === 'BIRTHDAY') && (
              <>
                <Input id="fe-minAge" label={t('formBuilder.minAge')} type="number" min={0} value={d.settings.minAge} onInput={(e) => set({ settings: { ...d.settings, minAge: val(e) === '' ? null : num(e) } })} />
                <Input id="fe-maxAge" label={t('formBuilder.maxAge')} type="number" min={0} value={d.settings.maxAge} onInput={(e) => set({ settings: { ...d.settings, maxAge: val(e) === '' ? null : num(e) } })} error={err('settings.maxAge')} />
              </>
            )}
          </>
        )}
        {kind === 'LIST' && (
          <>
            <div class={`field field-full ${err('values') ? 'has-error' : ''}`}>
              <label for="fe-values">{t('formBuilder.values')}</label>
              <textarea id="fe-values" rows={4} value={d.values.join('\n')} onInput={(e) => set({ values: (e.currentTarget as HTMLTextAreaElement).value.split('\n') })} aria-describedby="fe-values-hint" />
              <small id="fe-values-hint" class={err('values') ? 'field-error' : 'hint'}>
                {err('values') ? fieldMessage(err('values')) : t('formBuilder.valuesHint')}
              </small>
            </div>
            <Check id="fe-custom" label={t('formBuilder.customValue')} value={d.customValue} onChange={(v) => set({ customValue: v })} />
            <Check id="fe-multi" label={t('formBuilder.multiple')} value={d.multiple} onChange={(v) => set({ multiple: v })} />
          </>
        )}
        {choiceOptions}
        {kind === 'SMARTLIST' && (
          <fieldset class="field-full">
            <legend>{t('formBuilder.definedValues')}</legend>
            <div class="builder-rows">
              {d.definedValues.map((v, i) => {
                const up = (patch: Partial<typeof v>) => set({ definedValues: d.definedValues.map((x, j) => (j === i ? { ...x, ...patch } : x)) })
                return (
                  <div key={i} class="builder-row">
                    <Input id={`fe-dv-${i}-name`} label={t('formBuilder.displayName')} value={v.displayName} onInput={(e) => up({ displayName: val(e) })} error={err(`definedValues.${i}.displayName`)} />
                    <Input id={`fe-dv-${i}-desc`} label={t('formBuilder.description')} value={v.description} onInput={(e) => up({ description: val(e) || null })} />
                    {d.hasDefinedGroups && groupSelect(`fe-dv-${i}-group`, v.group, (g) => up({ group: g }))}
                    <Input id={`fe-dv-${i}-cap`} size="narrow" label={t('formBuilder.capacity')} type="number" min={-1} value={v.capacity} onInput={(e) => up({ capacity: num(e) })} error={err(`definedValues.${i}.capacity`)} />
                    <Input id={`fe-dv-${i}-min`} size="narrow" label={t('formBuilder.minPerGuest')} type="number" min={0} value={v.minPerGuest} onInput={(e) => up({ minPerGuest: num(e) })} />
                    <Input id={`fe-dv-${i}-max`} size="narrow" label={t('formBuilder.maxPerGuest')} type="number" min={-1} value={v.maxPerGuest} onInput={(e) => up({ maxPerGuest: num(e) })} error={err(`definedValues.${i}.maxPerGuest`)} />
                    <Button variant="ghost" onClick={() => set({ definedValues: d.definedValues.filter((_, j) => j !== i) })}>
                      {t('formBuilder.remove')}
                    </Button>
                  </div>
                )
              })}
            </div>
            <Button variant="secondary" onClick={() => set({ definedValues: [...d.definedValues, { id: 0, displayName: '', description: null, translations: [], group: null, freeValue: -1, capacity: -1, minPerGuest: 0, maxPerGuest: -1, sortOrder: 0 }] })}>
              {t('formBuilder.addDefinedValue')}
            </Button>
          </fieldset>
        )}
        {kind === 'TIMESLOT' && (
          <fieldset class="field-full">
            <legend>{t('formBuilder.timeslots')}</legend>
            <div class="builder-rows">
              {d.timeslots.map((s, i) => {
                const up = (patch: Partial<typeof s>) => set({ timeslots: d.timeslots.map((x, j) => (j === i ? { ...x, ...patch } : x)) })
                return (
                  <div key={i} class="builder-row">
                    <Input id={`fe-ts-${i}-name`} label={t('formBuilder.displayName')} value={s.displayName} onInput={(e) => up({ displayName: val(e) })} error={err(`timeslots.${i}.displayName`)} />
                    <Input id={`fe-ts-${i}-date`} label={t('formBuilder.dateInfo')} value={s.dateInfo} onInput={(e) => up({ dateInfo: val(e) || null })} />
                    <Input id={`fe-ts-${i}-tz`} size="narrow" label={t('formBuilder.timezoneInfo')} value={s.dateTimezoneInfo} onInput={(e) => up({ dateTimezoneInfo: val(e) || null })} />
                    {d.hasDefinedGroups && groupSelect(`fe-ts-${i}-group`, s.groupId, (g) => up({ groupId: g }))}
                    <Input id={`fe-ts-${i}-cap`} size="narrow" label={t('formBuilder.capacity')} type="number" min={-1} value={s.capacity} onInput={(e) => up({ capacity: num(e) })} error={err(`timeslots.${i}.capacity`)} />
                    <Button variant="ghost" onClick={() => set({ timeslots: d.timeslots.filter((_, j) => j !== i) })}>
                      {t('formBuilder.remove')}
                    </Button>
                  </div>
                )
              })}
            </div>
            <Button variant="secondary" onClick={() => set({ timeslots: [...d.timeslots, { id: 0, displayName: '', dateInfo: null, dateTimezoneInfo: null, freeSlots: -1, capacity: 20, groupId: null, sortOrder: 0 }] })}>
              {t('formBuilder.addTimeslot')}
            </Button>
          </fieldset>
        )}

        <fieldset class="field-full">
          <legend>{t('formBuilder.conditions')}</legend>
          <p class="hint">{t('formBuilder.conditionsHint')}</p>
          <div class="builder-rows">
            {d.conditions.map((c, i) => {
              const src = sourceOf(c)
              const ops = src ? operatorsFor(src) : []
              const needsValue = !['IS_EMPTY', 'IS_NOT_EMPTY', 'IS_TRUE', 'IS_FALSE'].includes(c.operator)
              const srcDef = src && src !== VIP_SOURCE ? src : null
              const choices = srcDef?.type === 'LIST' ? srcDef.values.map((v) => ({ value: v, label: v })) : srcDef?.type === 'TIMESLOT' ? srcDef.timeslots.map((s) => ({ value: String(s.id), label: s.displayName })) : srcDef?.type === 'SMARTLIST' ? srcDef.definedValues.map((s) => ({ value: String(s.id), label: s.displayName })) : null
              return (
                <div key={i} class="builder-row">
                  <div class={`field ${err(`conditions.${i}.fieldId`) ? 'has-error' : ''}`}>
                    <label for={`fe-c-${i}-field`}>{t('formBuilder.conditionField')}</label>
                    <select
                      id={`fe-c-${i}-field`}
                      value={String(c.fieldId)}
                      onChange={(e) => {
                        const raw = (e.currentTarget as HTMLSelectElement).value
                        const fieldId = raw === VIP_SOURCE ? VIP_SOURCE : Number(raw)
                        const s = fieldId === VIP_SOURCE ? VIP_SOURCE : others.find((f) => f.id === fieldId)
                        setCond(i, { fieldId, operator: s ? operatorsFor(s)[0] : 'IS_NOT_EMPTY', value: null })
                      }}
                    >
                      <option value={VIP_SOURCE}>VIP</option>
                      {sources.map((f) => (
                        <option key={f.id} value={String(f.id)}>
                          {f.displayName}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div class="field">
                    <label for={`fe-c-${i}-op`}>{t('formBuilder.conditionOperator')}</label>
                    <select id={`fe-c-${i}-op`} value={c.operator} onChange={(e) => setCond(i, { operator: (e.currentTarget as HTMLSelectElement).value as Condition['operator'] })}>
                      {ops.map((o) => (
                        <option key={o} value={o}>
                          {t(`operator.${o}`)}
                        </option>
                      ))}
                    </select>
                  </div>
                  {needsValue &&
                    (choices ? (
                      <div class="field">
                        <label for={`fe-c-${i}-value`}>{t('formBuilder.conditionValue')}</label>
                        <select id={`fe-c-${i}-value`} value={c.value == null ? '' : String(c.value)} onChange={(e) => setCond(i, { value: (e.currentTarget as HTMLSelectElement).value })}>
                          <option value="">{t('form.choose')}</option>
                          {choices.map((o) => (
                            <option key={o.value} value={o.value}>
                              {o.label}
                            </option>
                          ))}
                        </select>
                      </div>
                    ) : (
                      <Input id={`fe-c-${i}-value`} label={t('formBuilder.conditionValue')} value={c.value == null ? '' : String(c.value)} type={srcDef && kindOf(srcDef) === 'NUMBER' ? 'number' : 'text'} onInput={(e) => setCond(i, { value: val(e) })} />
                    ))}
                  <Button variant="ghost" onClick={() => set({ conditions: d.conditions.filter((_, j) => j !== i) })}>
                    {t('formBuilder.removeCondition')}
                  </Button>
                </div>
              )
            })}
          </div>
          <Button
            variant="secondary"
            onClick={() => {
              const first = sources[0]
              set({ conditions: [...d.conditions, first ? { fieldId: first.id, operator: operatorsFor(first)[0], value: null } : { fieldId: VIP_SOURCE, operator: 'IS_TRUE', value: null }] })
            }}
          >
            {t('formBuilder.addCondition')}
          </Button>
        </fieldset>

        <fieldset class="field-full">
          <legend>{t('formBuilder.translations')}</legend>
          <div class="form-grid">
            {languages.map(({ code, ...l }) => (
              <Input
                key={code}
                id={`fe-tr-${code}`}
                lang={code}
                label={t('formBuilder.translationFor', { language: languageName({ code, ...l }) })}
                value={d.translations.find((x) => x.language === code)?.displayName ?? ''}
                onInput={(e) => set({ translations: [...d.translations.filter((x) => x.language !== code), { language: code, displayName: val(e) }] })}
              />
            ))}
          </div>
        </fieldset>
      </div>
    </Dialog>
  )
}
