// The mail sender widget (agency-side.md §2.10, §4, §5) at agency, event and guest level: sender
// name, local part, domain choice (SYSTEM, AGENCY or a mail settings domain) with its prefixes. Each
// change is saved after a 500 ms pause (at once on leaving a field); switching the domain resets the
// address; at event and guest level the inputs show only once the override is switched on.
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, errorText, get, put } from '../../../api/client'
import { useResource } from '../../../components/hooks'
import { Alert, Card, Spinner } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'
import { fullAddress, senderFieldErrors } from '../../../../server/modules/mail/sender-rules'

export interface SenderOptions {
  systemName: string
  systemAddress: string
  systemDomain: string
  customName: boolean
  customAddress: boolean
  domains: Array<{ mailSettingsId: number; domain: string; prefixes: string[]; displayName: string; mailSettingsStatus: 'OK' | 'INVALID' }>
}

interface Value {
  override: boolean
  name: string
  addressName: string
  /** SYSTEM, AGENCY or "<settings id>|<domain>" */
  choice: string
}

type Level = 'agency' | 'event' | 'guest'
const DEBOUNCE_MS = 500

const keysOf = (level: Level) =>
  level === 'agency'
    ? { name: 'mailCustomSenderName', address: 'mailCustomSenderAddressName', domain: 'mailCustomSenderAddressDomain' }
    : { name: 'mailSender', address: 'mailSenderAddressName', domain: 'mailSenderAddressDomain' }

function fromAnswer(level: Level, a: Record<string, any>): Value {
  const k = keysOf(level)
  const domain = a[k.domain] ?? 'SYSTEM'
  return { override: level === 'agency' ? true : !!a.override, name: a[k.name] ?? '', addressName: a[k.address] ?? '', choice: a.mailSettingsId ? `${a.mailSettingsId}|${domain}` : domain }
}

function toBody(level: Level, v: Value) {
  const k = keysOf(level)
  const [id, domain] = v.choice.includes('|') ? [Number(v.choice.split('|')[0]), v.choice.split('|')[1]] : [null, v.choice]
  const body = { [k.name]: v.name.trim() || null, [k.address]: domain === 'SYSTEM' ? null : v.addressName.trim() || null, [k.domain]: domain, mailSettingsId: id }
  return level === 'agency' ? body : { override: v.override, ...body }
}

export function SenderWidget({ level, path }: { level: Level; path: string }) {
  const opts = useResource<SenderOptions>('/proxy/api/mailSender/options')
  const [value, setValue] = useState<Value | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle')
  const [failure, setFailure] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const latest = useRef<Value | null>(null)
  const k = keysOf(level)

  useEffect(() => {
    let live = true
    get<Record<string, any>>(path).then((a) => live && setValue(fromAnswer(level, a)))
    return () => {
      live = false
      if (timer.current) clearTimeout(timer.current)
    }
  }, [path])

  const save = async () => {
    timer.current = null
    const v = latest.current
    if (!v || !opts.data) return
    // the rules are checked here as the server checks them; the server still decides
    const [id, domain] = v.choice.includes('|') ? [Number(v.choice.split('|')[0]), v.choice.split('|')[1]!] : [null, v.choice]
    const local = senderFieldErrors(
      { senderName: v.name.trim() || null, addressName: domain === 'SYSTEM' ? null : v.addressName.trim() || null, addressDomain: domain, mailSettingsId: id },
      { systemDomain: opts.data.systemDomain, options: opts.data.domains, customName: opts.data.customName },
      k,
    )
    if (v.override && local.length) {
      setErrors(Object.fromEntries(local.map((e) => [e.field, e.errorType])))
      setState('error')
      return
    }
    setState('saving')
    try {
      await put(path, toBody(level, v))
      setErrors({})
      setFailure(null)
      setState('saved')
    } catch (e) {
      if (e instanceof ApiError && e.errorFields.length) setErrors(Object.fromEntries(e.errorFields.map((f) => [f.field, f.errorType])))
      else setFailure(errorText(e))
      setState('error')
    }
  }
  const change = (patch: Partial<Value>, now = false) => {
    const next = { ...(latest.current ?? value!), ...patch }
    // a new domain choice starts the address over (§4)
    if (patch.choice !== undefined && patch.choice !== (latest.current ?? value!).choice) next.addressName = ''
    latest.current = next
    setValue(next)
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => void save(), now ? 0 : DEBOUNCE_MS)
  }
  const flush = () => {
    if (timer.current) {
      clearTimeout(timer.current)
      void save()
    }
  }

  if (!value || !opts.data) return <Card class="mail-sender"><Spinner /></Card>
  const o = opts.data
  const [id, domain] = value.choice.includes('|') ? [Number(value.choice.split('|')[0]), value.choice.split('|')[1]!] : [null, value.choice]
  const option = id != null ? o.domains.find((d) => d.mailSettingsId === id && d.domain === domain) : null
  const address = domain === 'SYSTEM' ? o.systemAddress : (fullAddress({ senderName: null, addressName: value.addressName || '…', addressDomain: domain, mailSettingsId: id }, o.systemDomain) ?? o.systemAddress)
  const preview = `${value.name.trim() || o.systemName} <${address}>`
  const err = (field: string) => errors[field] && <small class="field-error" role="alert" id={`ms-${level}-${field}-error`}>{fieldMessage(errors[field])}</small>
  return (
    <Card class="mail-sender">
      <div class="card-head">
        <h2>{t('mail.sender.title')}</h2>
        <span class="mail-sender-state" aria-live="polite">{state === 'saving' ? <Spinner /> : state === 'saved' ? t('mail.sender.saved') : ''}</span>
      </div>
      <p class="hint">{t('mail.sender.intro')}</p>
      {failure && <Alert tone="error">{failure}</Alert>}
      {level !== 'agency' && (
        <label class="check">
          <input type="checkbox" checked={value.override} onChange={(e) => change({ override: (e.target as HTMLInputElement).checked }, true)} />
          <span>{t('mail.sender.override')}</span>
        </label>
      )}
      {value.override && (
        <div class="form-grid">
          <div class={`field field-half ${errors[k.name] ? 'has-error' : ''}`}>
            <label for={`ms-${level}-name`}>{t('mail.sender.name')}</label>
            <input id={`ms-${level}-name`} value={value.name} maxLength={120} disabled={!o.customName} placeholder={t('mail.sender.namePlaceholder', { name: o.systemName })} aria-invalid={!!errors[k.name]} onInput={(e) => change({ name: (e.target as HTMLInputElement).value })} onBlur={flush} />
            {!o.customName && <small class="hint">{t('mail.sender.nameNeedsFeature')}</small>}
            {err(k.name)}
          </div>
          <div class={`field field-half ${errors[k.domain] ? 'has-error' : ''}`}>
            <label for={`ms-${level}-domain`}>{t('mail.sender.domain')}</label>
            <select id={`ms-${level}-domain`} value={value.choice} onChange={(e) => change({ choice: (e.target as HTMLSelectElement).value }, true)}>
              <option value="SYSTEM">{t('mail.sender.domain.SYSTEM', { address: o.systemAddress })}</option>
              {o.customAddress && <option value="AGENCY">{t('mail.sender.domain.AGENCY', { domain: o.systemDomain })}</option>}
              {o.customAddress &&
                o.domains.map((d) => (
                  <option key={`${d.mailSettingsId}|${d.domain}`} value={`${d.mailSettingsId}|${d.domain}`}>
                    @{d.domain} – {d.displayName} {d.mailSettingsStatus !== 'OK' ? t('mail.sender.invalidMarker') : ''}
                  </option>
                ))}
            </select>
            {!o.customAddress && <small class="hint">{t('mail.sender.addressNeedsFeature')}</small>}
            {err(k.domain)}
          </div>
          {domain !== 'SYSTEM' && (
            <div class={`field field-half ${errors[k.address] ? 'has-error' : ''}`}>
              <label for={`ms-${level}-address`}>{t('mail.sender.addressName')}</label>
              <div class="input-suffix">
                <input id={`ms-${level}-address`} value={value.addressName} maxLength={64} aria-invalid={!!errors[k.address]} placeholder={option?.prefixes[0] ?? ''} onInput={(e) => change({ addressName: (e.target as HTMLInputElement).value })} onBlur={flush} />
                <span>@{id != null ? domain : o.systemDomain}</span>
              </div>
              {!!option?.prefixes.length && <small class="hint">{t('mail.sender.prefixes', { prefixes: option.prefixes.join(', ') })}</small>}
              {err(k.address)}
            </div>
          )}
        </div>
      )}
      <p class="mail-sender-preview">{value.override ? t('mail.sender.preview', { from: preview }) : t('mail.sender.inherited', { level: t(level === 'guest' ? 'mail.sender.level.event' : 'mail.sender.level.agency') })}</p>
    </Card>
  )
}
