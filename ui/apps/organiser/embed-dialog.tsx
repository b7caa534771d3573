// Embed dialog (needs EVENT.GUEST.MANAGE): public page link, frame link and iframe code with the
// options hideCookieinfo and scrollId; default height 450 px.
import { useState } from 'preact/hooks'
import { Dialog } from '../../components/dialog'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Alert, Button, Spinner } from '../../components/ui'
import { errorText } from '../../api/client'
import { t } from '../../i18n'
import type { EventFull } from './event-model'

interface Embed {
  publicUrl: string
  frameUrl: string
  iframeCode: string
  height: number
}

function CopyRow({ id, label, value, multiline }: { id: string; label: string; value: string; multiline?: boolean }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      toast(t('common.copied'))
    } catch {
      ;(document.getElementById(id) as HTMLInputElement | null)?.select()
    }
  }
  return (
    <div class="field field-full">
      <label for={id}>{label}</label>
      <div class="copy-row">
        {multiline ? <textarea id={id} readOnly rows={4} value={value} /> : <input id={id} readOnly value={value} />}
        <Button variant="secondary" onClick={() => void copy()}>
          {t('events.embed.copy')}
        </Button>
      </div>
    </div>
  )
}

export function EmbedDialog({ event, onClose }: { event: EventFull; onClose(): void }) {
  const [hideCookieinfo, setHide] = useState(false)
  const [scrollId, setScrollId] = useState('')
  const [height, setHeight] = useState('450')
  const qs = new URLSearchParams({ hideCookieinfo: String(hideCookieinfo), height: /^\d{3,4}$/.test(height) ? height : '450' })
  if (/^[A-Za-z0-9_-]+$/.test(scrollId)) qs.set('scrollId', scrollId)
  const { data, error } = useResource<Embed>(`/proxy/api/events/${event.id}/embed?${qs}`)
  return (
    <Dialog title={t('events.embed')} onClose={onClose} wide actions={<Button onClick={onClose}>{t('common.close')}</Button>}>
      {error && <Alert tone="error">{errorText(error)}</Alert>}
      <div class="form-grid">
        <div class="field field-full field-check">
          <input id="embed-hide" type="checkbox" checked={hideCookieinfo} onChange={(e) => setHide((e.target as HTMLInputElement).checked)} />
          <label for="embed-hide">{t('events.embed.hideCookieinfo')}</label>
        </div>
        <div class="field field-half">
          <label for="embed-scroll">{t('events.embed.scrollId')}</label>
          <input id="embed-scroll" value={scrollId} onInput={(e) => setScrollId((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field field-half">
          <label for="embed-height">{t('events.embed.height')}</label>
          <input id="embed-height" type="number" min={100} value={height} onInput={(e) => setHeight((e.target as HTMLInputElement).value)} />
        </div>
      </div>
      {!data && !error && <Spinner />}
      {data && (
        <>
          <CopyRow id="embed-public" label={t('events.embed.publicUrl')} value={data.publicUrl} />
          <CopyRow id="embed-frame" label={t('events.embed.frameUrl')} value={data.frameUrl} />
          <CopyRow id="embed-code" label={t('events.embed.iframeCode')} value={data.iframeCode} multiline />
        </>
      )}
    </Dialog>
  )
}
