// /agency/mail (AGENCY.MANAGE): the agency's mail settings (own SMTP server, own domain with the DNS
// records to publish), each checked for real, and the agency's mail sender (docs/mail.md).
import { useState } from 'preact/hooks'
import { ApiError, del, errorText, post, put } from '../../../api/client'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { Dialog } from '../../../components/dialog'
import { toast } from '../../../components/overlay'
import { Alert, Badge, Button, Card, EmptyState, PageHeader, Spinner } from '../../../components/ui'
import { useUser } from '../../../components/navigation-auth'
import { formatDateTime } from '../../../../server/i18n/format'
import { fieldMessage, t } from '../../../i18n'
import { hasFeature, usePostResource } from '../common'
import { SenderWidget } from './sender-widget'

interface MailSettings {
  id: number
  type: 'SMTP' | 'DOMAIN'
  displayName: string
  mailSettingsStatus: 'OK' | 'INVALID'
  statusCode: string | null
  statusMessage: string | null
  checkedAt: string | null
  host?: string
  port?: number
  tlsMode?: 'NONE' | 'STARTTLS' | 'TLS'
  user?: string | null
  passwordSet?: boolean
  smtpDomains?: Array<{ name: string; prefix: string | null }>
  domainName?: string
  prefix?: string | null
  dnsRecords?: Array<{ type: string; name: string; value: string; purpose: string }>
}

export function MailSettingsPage() {
  const user = useUser()
  const allowed = hasFeature(user.features, 'MAIL_CUSTOM')
  const { data, error, reload } = usePostResource<{ items: MailSettings[] }>('/proxy/api/mailSettings/search', { paging: { page: 0, perPage: 100000 } })
  const [editing, setEditing] = useState<MailSettings | 'SMTP' | 'DOMAIN' | null>(null)
  const [deleting, setDeleting] = useState<MailSettings | null>(null)
  const [checking, setChecking] = useState<number | null>(null)
  const [senderKey, setSenderKey] = useState(0)
  const check = async (s: MailSettings) => {
    setChecking(s.id)
    try {
      const r = await post<MailSettings>(`/proxy/api/mailSettings/${s.id}/check`, {})
      toast(r.mailSettingsStatus === 'OK' ? t('mail.settings.checkOk') : t('mail.settings.checkFailed'), r.mailSettingsStatus === 'OK' ? 'ok' : 'error', 5000)
      await reload()
      setSenderKey((k) => k + 1)
    } catch (e) {
      toast(errorText(e), 'error')
    } finally {
      setChecking(null)
    }
  }
  return (
    <>
      <PageHeader
        title={t('mail.settings.title')}
        subtitle={t('mail.settings.intro')}
        actions={
          allowed && (
            <>
              <Button variant="secondary" onClick={() => setEditing('SMTP')}>
                {t('mail.settings.type.SMTP')} +
              </Button>
              <Button variant="secondary" onClick={() => setEditing('DOMAIN')}>
                {t('mail.settings.type.DOMAIN')} +
              </Button>
            </>
          )
        }
      />
      {!allowed && <Alert tone="info">{t('mail.settings.featureMissing')}</Alert>}
      {error && <Alert tone="error">{errorText(error)}</Alert>}
      {!data && !error && <Spinner />}
      {data && !data.items.length && allowed && <EmptyState>{t('mail.settings.empty')}</EmptyState>}
      {data?.items.map((s) => (
        <Card key={s.id} class="mail-settings-item" data-id={s.id}>
          <div class="card-head">
            <h2>
              {s.displayName} <small>{t(`mail.settings.type.${s.type}`)}</small>
            </h2>
            <Badge tone={s.mailSettingsStatus === 'OK' ? 'ok' : 'error'}>{t(`mail.settings.status.${s.mailSettingsStatus}`)}</Badge>
          </div>
          {s.type === 'SMTP' ? (
            <p>
              {s.host}:{s.port} · {t(`mail.settings.tls.${s.tlsMode}`)}
              {s.user ? ` · ${s.user}` : ''} · {s.smtpDomains!.map((d) => `@${d.name}${d.prefix ? ` (${d.prefix})` : ''}`).join(', ')}
            </p>
          ) : (
            <>
              <p>
                @{s.domainName}
                {s.prefix ? ` (${s.prefix})` : ''}
              </p>
              <p class="hint">{t('mail.settings.checkHintDomain')}</p>
              <div class="table-wrap">
                <table class="table dns-records">
                  <thead>
                    <tr>
                      <th>{t('mail.dns.type')}</th>
                      <th>{t('mail.dns.name')}</th>
                      <th>{t('mail.dns.value')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.dnsRecords!.map((r) => (
                      <tr key={r.name}>
                        <td>{r.type}</td>
                        <td>
                          <code>{r.name}</code>
                        </td>
                        <td>
                          <code class="dns-value">{r.value}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
          {s.statusCode && (
            <Alert tone="error">
              {t(`mail.check.${s.statusCode}`)}
              {s.statusMessage && (
                <>
                  {' '}
                  <code class="server-answer">{s.statusMessage}</code>
                </>
              )}
            </Alert>
          )}
          {s.checkedAt && <p class="hint">{t('mail.settings.checkedAt', { date: formatDateTime(s.checkedAt) })}</p>}
          {s.type === 'SMTP' && <p class="hint">{t('mail.settings.checkHintSmtp')}</p>}
          <div class="actions">
            <Button busy={checking === s.id} disabled={!allowed} onClick={() => void check(s)}>
              {t('mail.settings.check')}
            </Button>
            <Button variant="secondary" disabled={!allowed} onClick={() => setEditing(s)}>
              {t('mail.settings.edit')}
            </Button>
            <Button variant="danger" onClick={() => setDeleting(s)}>
              {t('mail.settings.delete')}
            </Button>
          </div>
        </Card>
      ))}
      <SenderWidget key={senderKey} level="agency" path="/proxy/api/agency/mailSender" />
      {editing && (
        <SettingsDialog
          initial={typeof editing === 'string' ? null : editing}
          type={typeof editing === 'string' ? editing : editing.type}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null)
            toast(t('mail.settings.saved'), 'ok', 5000)
            await reload()
            setSenderKey((k) => k + 1)
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('mail.settings.delete')}
          confirmLabel={t('mail.settings.delete')}
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await del(`/proxy/api/mailSettings/${deleting.id}`)
            setDeleting(null)
            await reload()
            setSenderKey((k) => k + 1)
          }}
        >
          {t('mail.settings.deleteConfirm', { name: deleting.displayName })}
        </ConfirmDialog>
      )}
    </>
  )
}

function SettingsDialog({ initial, type, onClose, onSaved }: { initial: MailSettings | null; type: 'SMTP' | 'DOMAIN'; onClose(): void; onSaved(): Promise<void> }) {
  const [v, setV] = useState({
    displayName: initial?.displayName ?? '',
    host: initial?.host ?? '',
    port: String(initial?.port ?? 587),
    tlsMode: initial?.tlsMode ?? 'STARTTLS',
    user: initial?.user ?? '',
    password: '',
    smtpDomains: initial?.smtpDomains?.map((d) => ({ name: d.name, prefix: d.prefix ?? '' })) ?? [{ name: '', prefix: '' }],
    domainName: initial?.domainName ?? '',
    prefix: initial?.prefix ?? '',
  })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const set = (p: Partial<typeof v>) => setV({ ...v, ...p })
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setFailure(null)
    const body =
      type === 'SMTP'
        ? { type, displayName: v.displayName, host: v.host, port: Number(v.port), tlsMode: v.tlsMode, user: v.user || null, ...(v.password || !initial ? { password: v.password || null } : {}), smtpDomains: v.smtpDomains.map((d) => ({ name: d.name, prefix: d.prefix || null })) }
        : { type, displayName: v.displayName, domainName: v.domainName, prefix: v.prefix || null }
    try {
      if (initial) await put(`/proxy/api/mailSettings/${initial.id}`, body)
      else await post('/proxy/api/mailSettings', body)
      await onSaved()
    } catch (err) {
      if (err instanceof ApiError && err.errorFields.length) setErrors(Object.fromEntries(err.errorFields.map((f) => [f.field, f.errorType])))
      else setFailure(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  const input = (name: string, label: string, value: string, onInput: (s: string) => void, extra: Record<string, unknown> = {}) => (
    <div class={`field field-${extra.size ?? 'full'} ${errors[name] ? 'has-error' : ''}`}>
      <label for={`mset-${name}`}>{label}</label>
      <input id={`mset-${name}`} value={value} aria-invalid={!!errors[name]} onInput={(e) => onInput((e.target as HTMLInputElement).value)} {...extra} size={undefined} />
      {extra.hint ? <small class="hint">{extra.hint as string}</small> : null}
      {errors[name] && <small class="field-error" role="alert">{fieldMessage(errors[name])}</small>}
    </div>
  )
  return (
    <Dialog
      title={initial ? t('mail.settings.edit') : `${t('mail.settings.add')}: ${t(`mail.settings.type.${type}`)}`}
      onClose={onClose}
      wide
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} onClick={() => (document.getElementById('mail-settings-form') as HTMLFormElement | null)?.requestSubmit()}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <form id="mail-settings-form" class="form-grid" onSubmit={submit} noValidate>
        {failure && <Alert tone="error">{failure}</Alert>}
        {input('displayName', t('mail.settings.displayName'), v.displayName, (s) => set({ displayName: s }), { maxLength: 120 })}
        {type === 'SMTP' ? (
          <>
            {input('host', t('mail.settings.host'), v.host, (s) => set({ host: s }), { size: 'half', autocomplete: 'off' })}
            {input('port', t('mail.settings.port'), v.port, (s) => set({ port: s }), { size: 'half', inputMode: 'numeric' })}
            <div class="field field-half">
              <label for="mset-tlsMode">{t('mail.settings.tlsMode')}</label>
              <select id="mset-tlsMode" value={v.tlsMode} onChange={(e) => set({ tlsMode: (e.target as HTMLSelectElement).value as typeof v.tlsMode })}>
                {(['NONE', 'STARTTLS', 'TLS'] as const).map((m) => (
                  <option key={m} value={m}>
                    {t(`mail.settings.tls.${m}`)}
                  </option>
                ))}
              </select>
            </div>
            {input('user', t('mail.settings.user'), v.user, (s) => set({ user: s }), { size: 'half', autocomplete: 'off' })}
            {input('password', t('mail.settings.password'), v.password, (s) => set({ password: s }), { size: 'half', type: 'password', autocomplete: 'new-password', hint: initial?.passwordSet ? t('mail.settings.passwordKept') : undefined })}
            <fieldset class="field field-full">
              <legend>{t('mail.settings.smtpDomains')}</legend>
              {v.smtpDomains.map((d, i) => (
                <div class="form-grid smtp-domain" key={i}>
                  {input(`smtpDomains.${i}.name`, t('mail.settings.smtpDomain'), d.name, (s) => set({ smtpDomains: v.smtpDomains.map((x, j) => (j === i ? { ...x, name: s } : x)) }), { size: 'half' })}
                  {input(`smtpDomains.${i}.prefix`, t('mail.settings.prefix'), d.prefix, (s) => set({ smtpDomains: v.smtpDomains.map((x, j) => (j === i ? { ...x, prefix: s } : x)) }), { size: 'half', hint: t('mail.settings.prefixHint') })}
                  {v.smtpDomains.length > 1 && (
                    <Button variant="secondary" onClick={() => set({ smtpDomains: v.smtpDomains.filter((_, j) => j !== i) })}>
                      {t('mail.settings.removeDomain')}
                    </Button>
                  )}
                </div>
              ))}
              {errors.smtpDomains && <small class="field-error" role="alert">{fieldMessage(errors.smtpDomains)}</small>}
              <Button variant="secondary" onClick={() => set({ smtpDomains: [...v.smtpDomains, { name: '', prefix: '' }] })}>
                {t('mail.settings.addDomain')}
              </Button>
            </fieldset>
          </>
        ) : (
          <>
            {input('domainName', t('mail.settings.domainName'), v.domainName, (s) => set({ domainName: s }), { size: 'half', placeholder: 'agentur.de' })}
            {input('prefix', t('mail.settings.prefix'), v.prefix, (s) => set({ prefix: s }), { size: 'half', hint: t('mail.settings.prefixHint') })}
          </>
        )}
      </form>
    </Dialog>
  )
}
