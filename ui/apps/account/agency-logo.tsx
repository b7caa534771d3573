// The agency's logo (administrators, under Settings): shown in the header of the guest pages and on
// the public event page (server/modules/agency/branding.ts). Uploaded as any image of the agency
// through the upload queue (ui/shared/upload: checks, shrink, progress), then chosen with PUT /proxy/api/agency/logo.
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, put } from '../../api/client'
import { toast } from '../../components/overlay'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { UploadPanel } from '../../shared/upload/upload-panel'

interface Logo {
  logoAssetId: number | null
  logoPath: string | null
}

export function AgencyLogoCard() {
  const [logo, setLogo] = useState<Logo | null>(null)
  const [error, setError] = useState<string | null>(null)
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
  const remove = async () => {
    setBusy(true)
    try {
      await choose(null)
    } catch (e) {
      toast(errorText(e), 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card class="agency-logo-settings">
      <h2>{t('settings.agencyLogo.title')}</h2>
      <p class="muted">{t('settings.agencyLogo.intro')}</p>
      <div class="field">
        {logo.logoPath && (
          <div class="doc-settings-logo">
            <img src={logo.logoPath} alt={t('settings.agencyLogo.current')} height={48} />
            {logo.logoAssetId && (
              <Button variant="ghost" busy={busy} onClick={() => void remove()}>
                {t('settings.agencyLogo.remove')}
              </Button>
            )}
          </div>
        )}
        <UploadPanel inputId="agency-logo-file" label={t('settings.agencyLogo.file')} uploadType="LOGO" crypted={false} multiple={false} compact onUploaded={(a) => choose(a.id)} />
      </div>
    </Card>
  )
}
