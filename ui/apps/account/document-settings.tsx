// The organiser's document settings card (admin only, under Settings): the logo on tickets and the
// Apple / Google Wallet credentials. Keys are write-only: the server says whether one is stored and
// an empty field keeps it. docs/guest-portal.md "Documents".
import { useEffect, useState } from 'preact/hooks'
import { ApiError, errorText, get, put, uploadPublicAsset } from '../../api/client'
import { useUnsavedChanges } from '../../components/navigation-auth'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, Card, Spinner } from '../../components/ui'
import { t } from '../../i18n'

interface Stored {
  logoAssetId: number | null
  apple: { passTypeId: string; teamId: string; certificate: string; wwdr: string; keyStored: boolean; passphraseStored: boolean } | null
  google: { issuerId: string; serviceAccount: string; keyStored: boolean } | null
  appleConfigured: boolean
  googleConfigured: boolean
}

interface Form {
  logoAssetId: number | null
  appleOn: boolean
  passTypeId: string
  teamId: string
  certificate: string
  key: string
  keyPassphrase: string
  wwdr: string
  googleOn: boolean
  issuerId: string
  serviceAccount: string
  googleKey: string
}

const formOf = (s: Stored): Form => ({
  logoAssetId: s.logoAssetId,
  appleOn: Boolean(s.apple),
  passTypeId: s.apple?.passTypeId ?? '',
  teamId: s.apple?.teamId ?? '',
  certificate: s.apple?.certificate ?? '',
  key: '',
  keyPassphrase: '',
  wwdr: s.apple?.wwdr ?? '',
  googleOn: Boolean(s.google),
  issuerId: s.google?.issuerId ?? '',
  serviceAccount: s.google?.serviceAccount ?? '',
  googleKey: '',
})

export function DocumentSettingsCard() {
  const [stored, setStored] = useState<Stored | null>(null)
  const [form, setForm] = useState<Form | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [uploading, setUploading] = useState(false)
  useEffect(() => {
    get<Stored>('/proxy/api/agency/documentSettings')
      .then((s) => {
        setStored(s)
        setForm(formOf(s))
      })
      .catch((e) => setError(errorText(e)))
  }, [])
  useUnsavedChanges(Boolean(stored && form && JSON.stringify(formOf(stored)) !== JSON.stringify(form)))
  if (error) return <Card>{<Alert tone="error">{error}</Alert>}</Card>
  if (!form || !stored) return <Spinner />
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch })
  const save = async () => {
    setBusy(true)
    setFieldErrors({})
    try {
      const s = await put<Stored>('/proxy/api/agency/documentSettings', {
        logoAssetId: form.logoAssetId,
        apple: form.appleOn ? { passTypeId: form.passTypeId, teamId: form.teamId, certificate: form.certificate, key: form.key || undefined, keyPassphrase: form.keyPassphrase || undefined, wwdr: form.wwdr } : null,
        google: form.googleOn ? { issuerId: form.issuerId, serviceAccount: form.serviceAccount, key: form.googleKey || undefined } : null,
      })
      setStored(s)
      setForm(formOf(s))
      toast(t('documents.settings.saved'))
    } catch (e) {
      if (e instanceof ApiError && e.errorFields.length) setFieldErrors(Object.fromEntries(e.errorFields.map((f) => [f.field, t(`field.${f.errorType}`)])))
      toast(errorText(e), 'error')
    } finally {
      setBusy(false)
    }
  }
  const upload = async (file: File) => {
    setUploading(true)
    try {
      const a = await uploadPublicAsset(file, 'LOGO')
      set({ logoAssetId: a.id })
    } catch (e) {
      setFieldErrors({ logoAssetId: errorText(e) })
    } finally {
      setUploading(false)
    }
  }
  const field = (name: keyof Form, apiName: string, label: string, opts: { area?: boolean; type?: 'text' | 'email' | 'password'; placeholder?: string; autocomplete?: string } = {}) => {
    const id = `doc-${name}`
    const err = fieldErrors[apiName]
    const props = {
      id,
      value: form[name] as string,
      placeholder: opts.placeholder,
      'aria-invalid': err ? true : undefined,
      'aria-describedby': err ? `${id}-error` : undefined,
      onInput: (e: Event) => set({ [name]: (e.target as HTMLInputElement).value } as Partial<Form>),
    }
    return (
      <div class={`field ${err ? 'has-error' : ''}`}>
        <label for={id}>{label}</label>
        {opts.area ? <textarea rows={4} spellcheck={false} class="doc-settings-pem" {...props} /> : <input {...({ ...props, type: opts.type ?? 'text', autocomplete: opts.autocomplete ?? 'off' } as Record<string, unknown>)} />}
        {err && (
          <small class="field-error" id={`${id}-error`}>
            {err}
          </small>
        )}
      </div>
    )
  }
  const status = (on: boolean) => <Badge tone={on ? 'ok' : 'neutral'}>{t(on ? 'documents.settings.configured' : 'documents.settings.notConfigured')}</Badge>
  return (
    <Card class="doc-settings">
      <h2>{t('documents.settings.title')}</h2>
      <p class="muted">{t('documents.settings.intro')}</p>
      <div class={`field ${fieldErrors.logoAssetId ? 'has-error' : ''}`}>
        <label for="doc-logo">{t('documents.settings.logo')}</label>
        <div class="doc-settings-logo">
          {form.logoAssetId && <img src={`/proxy/api/asset/${form.logoAssetId}?dimension=Regular_400`} alt="" height={48} />}
          <input id="doc-logo" type="file" accept="image/png,image/jpeg" disabled={uploading} onChange={(e) => (e.target as HTMLInputElement).files?.[0] && upload((e.target as HTMLInputElement).files![0])} />
          {form.logoAssetId && (
            <Button variant="ghost" onClick={() => set({ logoAssetId: null })}>
              {t('documents.settings.remove')}
            </Button>
          )}
        </div>
        {fieldErrors.logoAssetId && <small class="field-error">{fieldErrors.logoAssetId}</small>}
      </div>
      <fieldset class="doc-settings-group">
        <legend>
          {t('documents.settings.apple')} {status(stored.appleConfigured)}
        </legend>
        <label class="field field-check">
          <input type="checkbox" checked={form.appleOn} onChange={(e) => set({ appleOn: (e.target as HTMLInputElement).checked })} />
          {t('documents.settings.appleOn')}
        </label>
        {form.appleOn && (
          <>
            {field('passTypeId', 'apple.passTypeId', t('documents.settings.applePassTypeId'), { placeholder: 'pass.org.example.tickets' })}
            {field('teamId', 'apple.teamId', t('documents.settings.appleTeamId'))}
            {field('certificate', 'apple.certificate', t('documents.settings.appleCertificate'), { area: true, placeholder: '-----BEGIN CERTIFICATE-----' })}
            {field('key', 'apple.key', t('documents.settings.appleKey'), { area: true, placeholder: stored.apple?.keyStored ? t('documents.settings.keyStored') : '-----BEGIN PRIVATE KEY-----' })}
            {field('keyPassphrase', 'apple.keyPassphrase', t('documents.settings.appleKeyPassphrase'), { type: 'password', autocomplete: 'new-password', placeholder: stored.apple?.passphraseStored ? t('documents.settings.keyStored') : '' })}
            {field('wwdr', 'apple.wwdr', t('documents.settings.appleWwdr'), { area: true, placeholder: '-----BEGIN CERTIFICATE-----' })}
          </>
        )}
      </fieldset>
      <fieldset class="doc-settings-group">
        <legend>
          {t('documents.settings.google')} {status(stored.googleConfigured)}
        </legend>
        <label class="field field-check">
          <input type="checkbox" checked={form.googleOn} onChange={(e) => set({ googleOn: (e.target as HTMLInputElement).checked })} />
          {t('documents.settings.googleOn')}
        </label>
        {form.googleOn && (
          <>
            {field('issuerId', 'google.issuerId', t('documents.settings.googleIssuerId'))}
            {field('serviceAccount', 'google.serviceAccount', t('documents.settings.googleServiceAccount'), { type: 'email' })}
            {field('googleKey', 'google.key', t('documents.settings.googleKey'), { area: true, placeholder: stored.google?.keyStored ? t('documents.settings.keyStored') : '-----BEGIN PRIVATE KEY-----' })}
          </>
        )}
      </fieldset>
      <div class="form-actions">
        <Button busy={busy} onClick={save}>
          {t('common.save')}
        </Button>
      </div>
    </Card>
  )
}
