// The agency's company login (OpenID Connect) settings, AGENCY.MANAGE (docs/identity.md): issuer,
// client id and secret (never shown again once stored), allowed e-mail domains, and whether unknown
// staff get an account with a role at their first login. Saving checks the provider's discovery.
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { ApiError, errorText, put } from '../../api/client'
import { CheckboxField, Field, SelectField, TextField } from '../../components/form'
import { useResource } from '../../components/hooks'
import { Alert, Button, Card, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { ORGANISER_ROLES } from '../../../server/modules/identity/roles'

interface SsoSettings {
  enabled: boolean
  issuer: string
  clientId: string
  clientSecretSet: boolean
  allowedDomains: string[]
  newUserRole: string | null
  redirectUri: string
}

interface FormValues {
  enabled: boolean
  issuer: string
  clientId: string
  clientSecret: string
  allowedDomains: string
  newUserRole: string
}

const toForm = (s: SsoSettings): FormValues => ({ enabled: s.enabled, issuer: s.issuer, clientId: s.clientId, clientSecret: '', allowedDomains: s.allowedDomains.join('\n'), newUserRole: s.newUserRole ?? '' })

export function SsoSettingsPage() {
  const { data, error, reload } = useResource<SsoSettings>('/proxy/api/agency/sso')
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const { register, handleSubmit, formState, reset, setError } = useForm<FormValues>({ defaultValues: { enabled: false, issuer: '', clientId: '', clientSecret: '', allowedDomains: '', newUserRole: '' } })
  useEffect(() => {
    if (data) reset(toForm(data))
  }, [data])
  if (error) return <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>
  if (!data) return <Spinner />
  const submit = handleSubmit(async (v) => {
    setMessage(null)
    try {
      const domains = v.allowedDomains
        .split(/[\s,;]+/)
        .map((d) => d.trim())
        .filter(Boolean)
      const saved = await put<SsoSettings>('/proxy/api/agency/sso', { enabled: v.enabled, issuer: v.issuer, clientId: v.clientId, clientSecret: v.clientSecret || null, allowedDomains: domains, newUserRole: v.newUserRole || null })
      reset(toForm(saved))
      setMessage({ tone: 'ok', text: t('sso.settings.saved') })
      void reload()
    } catch (e) {
      if (e instanceof ApiError) for (const f of e.errorFields) setError(f.field.split('.')[0] as keyof FormValues, { type: 'server', message: f.errorType })
      setMessage({ tone: 'error', text: errorText(e) })
    }
  })
  return (
    <>
      <PageHeader title={t('sso.settings.title')} />
      <Card class="sso-settings">
        <p class="muted">{t('sso.settings.intro')}</p>
        <p>
          {t('sso.settings.redirectUri')} <code data-testid="sso-redirect-uri">{data.redirectUri}</code>
        </p>
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
        <form onSubmit={submit} noValidate class="form-grid">
          <CheckboxField label={t('sso.settings.enabled')} reg={register('enabled')} errors={formState.errors} />
          <TextField label={t('sso.settings.issuer')} reg={register('issuer')} errors={formState.errors} required type="url" placeholder="https://login.firma.de/realms/mitarbeitende" />
          <TextField label={t('sso.settings.clientId')} reg={register('clientId')} errors={formState.errors} required size="half" />
          <TextField
            label={t('sso.settings.clientSecret')}
            reg={register('clientSecret')}
            errors={formState.errors}
            required={!data.clientSecretSet}
            size="half"
            type="password"
            autocomplete="new-password"
            hint={data.clientSecretSet ? t('sso.settings.clientSecretSet') : undefined}
          />
          <Field label={t('sso.settings.allowedDomains')} name="allowedDomains" errors={formState.errors} required>
            {(a) => <textarea rows={3} {...a} {...register('allowedDomains')} placeholder="firma.de" />}
          </Field>
          <SelectField
            label={t('sso.settings.newUsers')}
            reg={register('newUserRole')}
            errors={formState.errors}
            options={[{ value: '', label: t('sso.settings.newUsersNone') }, ...ORGANISER_ROLES.map((r) => ({ value: r, label: t('sso.settings.newUsersRole', { role: t(`role.${r}`) }) }))]}
          />
          <div class="form-actions">
            <Button type="submit" busy={formState.isSubmitting}>
              {t('sso.settings.save')}
            </Button>
          </div>
        </form>
      </Card>
    </>
  )
}
