// The agency's logo (administrators, under Settings): shown in the header of the guest pages and on
// the public event page (server/modules/agency/branding.ts). Uploaded as any image of the agency
// (POST /proxy/api/asset, with the upload's image checks), then chosen with PUT /proxy/api/agency/logo.
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, put, uploadPublicAsset } from '../../api/client'
import { toast } from '../../components/overlay'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { t } from '../../i18n'

interface Logo {
  logoAssetId: number | null
  logoPath: string | null
}

export function AgencyLogoCard() {
  const [logo, setLogo] = useState<Logo | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    get<Logo>('/proxy/api/agency/logo')
      .then(setLogo)
      .catch((e) => setError(errorText(e)))
  }, [])
  if (error) return <Card>{<Alert tone="error">{error}</Alert>}</Card>
  if (!logo) return <Spinner />
  const choose = async (logoAssetId: number | null) => {
    setLogo(await put<Logo>('/proxy/api/agency/logo', { logoAssetId }))
    toast(t('settings.agencyLogo.saved'))
  }
  const upload = async (file: File) => {
    setBusy(true)
    setFieldError(null)
    try {
      const a = await uploadPublicAsset(file, 'LOGO')
      await choose(a.id)
    } catch (e) {
      setFieldError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card class="agency-logo-settings">
      <h2>{t('settings.agencyLogo.title')}</h2>
      <p class="muted">{t('settings.agencyLogo.intro')}</p>
      <div class={`field ${fieldError ? 'has-error' : ''}`}>
        <label for="agency-logo-file">{t('settings.agencyLogo.file')}</label>
        <div class="doc-settings-logo">
          {logo.logoPath && <img src={logo.logoPath} alt={t('settings.agencyLogo.current')} height={48} />}
          <input
            id="agency-logo-file"
            type="file"
            accept="image/png,image/jpeg"
            disabled={busy}
            aria-describedby={fieldError ? 'agency-logo-error' : undefined}
            onChange={(e) => {
              const f = (e.target as HTMLInputElement).files?.[0]
              if (f) void upload(f)
            }}
          />
          {logo.logoAssetId && (
            <Button variant="ghost" busy={busy} onClick={() => void choose(null).catch((e) => toast(errorText(e), 'error'))}>
              {t('settings.agencyLogo.remove')}
            </Button>
          )}
        </div>
        {fieldError && (
          <small class="field-error" id="agency-logo-error">
            {fieldError}
          </small>
        )}
      </div>
    </Card>
  )
}
