// The download dialog (agency-side.md, shared widgets): a pending state while the file is prepared,
// then a download button. Inside the native iOS app the button hands the file's address to the
// app's print handler; everywhere else it opens the file. Used by the guest dashboard (invitation
// PDF) and the organiser's guest detail.
import { useEffect, useState } from 'preact/hooks'
import { errorText } from '../api/client'
import { t } from '../i18n'
import { Dialog } from './dialog'
import { Alert, Button, Spinner } from './ui'

/** The native iOS app's print handler, when the page runs inside it. */
function nativePrint(): { postMessage(url: string): void } | null {
  const w = typeof window !== 'undefined' ? (window as unknown as { webkit?: { messageHandlers?: { print?: { postMessage(url: string): void } } } }) : null
  return w?.webkit?.messageHandlers?.print ?? null
}

export function DownloadDialog({ title, prepare, onClose }: { title: string; prepare: () => Promise<{ downloadLink: string }>; onClose(): void }) {
  const [link, setLink] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    prepare().then(
      (r) => setLink(r.downloadLink),
      (e) => setError(errorText(e)),
    )
  }, [])
  const native = nativePrint()
  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
          {link &&
            (native ? (
              <Button onClick={() => native.postMessage(new URL(link, location.href).href)}>{t('guestPortal.download.button')}</Button>
            ) : (
              <a class="btn btn-primary" href={link} download="">
                {t('guestPortal.download.button')}
              </a>
            ))}
        </>
      }
    >
      {!link && !error && <Spinner label={t('guestPortal.download.pending')} />}
      {link && <p role="status">{t('guestPortal.download.ready')}</p>}
      {error && <Alert tone="error">{error}</Alert>}
    </Dialog>
  )
}
