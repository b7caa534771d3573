// A question before an action, in the product's own dialog (never the browser's confirm()): the
// action runs on "yes", its error is shown in the dialog, which closes once it succeeded.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { errorText } from '../api/client'
import { t } from '../i18n'
import { Dialog } from './dialog'
import { Alert, Button } from './ui'

/** A question before an action; its error is shown in the dialog. `cancelLabel`: when "Abbrechen" could be read as the action (cancelling an order). */
export function ConfirmDialog({ title, children, confirmLabel, cancelLabel, danger, onConfirm, onClose }: { title: string; children: ComponentChildren; confirmLabel: string; cancelLabel?: string; danger?: boolean; onConfirm(): Promise<void> | void; onClose(): void }) {
  const [busy, setBusy] = useState(false)
  const [err, setErr] = useState<string | null>(null)
  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button
            variant={danger ? 'danger' : 'primary'}
            busy={busy}
            onClick={async () => {
              setBusy(true)
              setErr(null)
              try {
                await onConfirm()
                onClose()
              } catch (e) {
                setErr(errorText(e))
              } finally {
                setBusy(false)
              }
            }}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {err && <Alert tone="error">{err}</Alert>}
      {children}
    </Dialog>
  )
}
