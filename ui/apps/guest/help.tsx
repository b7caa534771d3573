// Help centre (guest-side.md 2 "Help centre and feedback"): a panel with the tabs info and support
// (the guest application shows these two), the feedback dialog, the agency's imprint, and the open
// /support page. The info text and the documentation link follow the current page.
import { Suspense, lazy } from 'preact/compat'
import { useEffect, useState } from 'preact/hooks'
import { get } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { Alert, Button, Spinner } from '../../components/ui'
import { t, useLanguage } from '../../i18n'

// The support form and the feedback dialog (react-hook-form) load when the guest opens them: the
// help button is on every guest page, its forms are not needed to show one.
const SupportForm = lazy(() => import('./help-forms').then((m) => ({ default: m.SupportForm })))
const FeedbackDialog = lazy(() => import('./help-forms').then((m) => ({ default: m.FeedbackDialog })))

/** The help topic of a page: its info text and documentation anchor (default: getting started). */
export function helpTopic(path: string): { info: string; doc: string } {
  if (path.startsWith('/guest/notifications')) return { info: 'help.info.notifications', doc: 'notifications' }
  if (path.startsWith('/guest/checkin')) return { info: 'help.info.checkin', doc: 'self-checkin' }
  if (path.startsWith('/guest/account')) return { info: 'help.info.account', doc: 'account' }
  if (path.startsWith('/guest/dashboard') || path === '/guest') return { info: 'help.info.dashboard', doc: 'dashboard' }
  return { info: 'help.info.default', doc: 'getting-started' }
}

interface Imprint {
  agencyName: string
  imprintText: string | null
  imprintUrl: string | null
  privacyText: string | null
  privacyUrl: string | null
}

export function ImprintDialog({ agencyId, onClose }: { agencyId: number; onClose(): void }) {
  const [data, setData] = useState<Imprint | null>(null)
  const [error, setError] = useState(false)
  useEffect(() => {
    get<Imprint>(`/proxy/api/public/agency/${agencyId}/imprint`).then(setData, () => setError(true))
  }, [agencyId])
  const part = (title: string, text: string | null, url: string | null) => (
    <section class="help-imprint-part">
      <h3>{title}</h3>
      {/* sanitised on the server when the agency saved it */}
      {text && <div dangerouslySetInnerHTML={{ __html: text }} />}
      {url && (
        <p>
          <a href={url} target="_blank" rel="noopener noreferrer">
            {url}
          </a>
        </p>
      )}
      {!text && !url && <p class="muted">{t('help.imprint.none')}</p>}
    </section>
  )
  return (
    <Dialog title={t('help.imprint.title')} onClose={onClose} actions={<Button onClick={onClose}>{t('report.close')}</Button>}>
      {error && <Alert tone="error">{t('selfCheckin.error')}</Alert>}
      {!data && !error && <Spinner />}
      {data && (
        <>
          <p>
            <strong>{data.agencyName}</strong>
          </p>
          {part(t('help.imprint.imprint'), data.imprintText, data.imprintUrl)}
          {part(t('help.imprint.privacy'), data.privacyText, data.privacyUrl)}
        </>
      )}
    </Dialog>
  )
}

/** The help button and its panel, on every guest page. */
export function HelpCentre() {
  useLanguage()
  const [open, setOpen] = useState(false)
  const [tab, setTab] = useState<'info' | 'support'>('info')
  const [feedback, setFeedback] = useState(false)
  const topic = helpTopic(location.pathname)
  return (
    <>
      <div class="help-bar">
        <button type="button" class="help-fab" aria-haspopup="dialog" onClick={() => setOpen(true)}>
          ? <span>{t('help.open')}</span>
        </button>
      </div>
      {open && (
        <Dialog
          title={t('help.title')}
          onClose={() => setOpen(false)}
          actions={
            <Button variant="secondary" onClick={() => (setOpen(false), setFeedback(true))}>
              {t('help.feedback.open')}
            </Button>
          }
        >
          <div class="help-tabs" role="tablist">
            {(['info', 'support'] as const).map((k) => (
              <button key={k} type="button" role="tab" id={`help-tab-${k}`} aria-selected={tab === k} aria-controls={`help-panel-${k}`} class={`help-tab ${tab === k ? 'is-active' : ''}`} onClick={() => setTab(k)}>
                {t(`help.tab.${k}`)}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`help-panel-${tab}`} aria-labelledby={`help-tab-${tab}`} class="help-panel">
            {tab === 'info' ? (
              <>
                <p>{t(topic.info)}</p>
                <p>
                  <a href={`/support#${topic.doc}`}>{t('help.doc')}</a>
                </p>
              </>
            ) : (
              <Suspense fallback={<Spinner />}>
                <SupportForm />
              </Suspense>
            )}
          </div>
        </Dialog>
      )}
      {feedback && (
        <Suspense fallback={null}>
          <FeedbackDialog onClose={() => setFeedback(false)} />
        </Suspense>
      )}
    </>
  )
}

/** /support: open, no security; a placeholder with the support address (guest-side.md 2). */
export function SupportPage() {
  useLanguage()
  const [email, setEmail] = useState<string | null>(null)
  useEffect(() => {
    get<{ supportEmail?: string }>('/proxy/api/public/support')
      .then((r) => setEmail(r.supportEmail ?? null))
      .catch(() => setEmail(null))
  }, [])
  return (
    <main class="content narrow help-support-page" id="main">
      <h1 id="getting-started">{t('help.supportPage.title')}</h1>
      <p>{email ? t('help.supportPage.text', { email }) : t('help.info.default')}</p>
    </main>
  )
}
