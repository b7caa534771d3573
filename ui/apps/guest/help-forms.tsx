// The help centre's forms (help.tsx loads them when opened): the support form of the panel's support
// tab and the feedback dialog (guest-side.md 2 "Help centre and feedback").
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { ApiError, get, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { Field, SelectField, TextField, applyServerErrors } from '../../components/form'
import { Alert, Button } from '../../components/ui'
import { t } from '../../i18n'

type GuestEvents = Record<string, Array<{ event: { id: number; displayName: string } }> | undefined>

/**
 * The guest's events for "Betrifft": a question or feedback about one goes to its organiser, the
 * rest to the server's support (help/service.ts). The first event is chosen: guests mostly write
 * about the event they came for.
 */
function useAboutEvents(onLoaded: (first: string) => void) {
  const [events, setEvents] = useState<Array<{ id: number; displayName: string }>>([])
  useEffect(() => {
    get<GuestEvents>('/proxy/api/guest/events')
      .then((lists) => {
        const seen = new Map<number, string>()
        for (const k of ['pendingEvents', 'confirmedEvents', 'invitedEvents', 'openEvents', 'declinedEvents']) for (const e of lists[k] ?? []) if (e?.event && !seen.has(e.event.id)) seen.set(e.event.id, e.event.displayName)
        const list = [...seen].map(([id, displayName]) => ({ id, displayName }))
        setEvents(list)
        if (list.length) onLoaded(String(list[0].id))
      })
      .catch(() => setEvents([]))
  }, [])
  return events
}

function AboutField({ events, reg, errors }: { events: Array<{ id: number; displayName: string }>; reg: any; errors: any }) {
  if (!events.length) return null
  return <SelectField label={t('help.about')} reg={reg} errors={errors} options={[...events.map((e) => ({ value: String(e.id), label: e.displayName })), { value: '', label: t('help.about.other') }]} />
}

const eventIdOf = (v: string) => (v ? Number(v) : null)

export function SupportForm() {
  const form = useForm<{ subject: string; content: string; about: string }>({ defaultValues: { subject: '', content: '', about: '' } })
  const events = useAboutEvents((first) => form.setValue('about', first))
  const [result, setResult] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const errors = form.formState.errors
  const send = form.handleSubmit(async ({ about, ...v }) => {
    setResult(null)
    try {
      await post('/proxy/api/public/report/support', { ...v, originUrl: location.href, state: location.pathname, dialog: 'help', additionalData: { language: document.documentElement.lang || 'de' }, eventName: null, eventId: eventIdOf(about) })
      form.reset({ subject: '', content: '', about })
      setResult({ tone: 'ok', text: t('help.support.sent') })
    } catch (e) {
      applyServerErrors(e, form.setError)
      setResult({ tone: 'error', text: e instanceof ApiError ? e.errorTranslation || e.errorMessage : t('report.failure') })
    }
  })
  return (
    <form onSubmit={(e) => (e.preventDefault(), void send())} noValidate class="help-support">
      <p class="muted">{t('help.support.intro')}</p>
      {result && (
        <Alert tone={result.tone} role="status">
          {result.text}
        </Alert>
      )}
      <AboutField events={events} reg={form.register('about')} errors={errors} />
      <TextField label={t('help.support.subject')} reg={form.register('subject', { required: 'REQUIRED' })} errors={errors} required />
      <Field label={t('help.support.content')} name="content" errors={errors} required>
        {(a) => <textarea {...a} {...form.register('content', { required: 'REQUIRED' })} rows={5} aria-required="true" />}
      </Field>
      <Button type="submit" busy={form.formState.isSubmitting}>
        {t('help.support.send')}
      </Button>
    </form>
  )
}

export function FeedbackDialog({ onClose }: { onClose(): void }) {
  const form = useForm<{ name: string; email: string; message: string; about: string }>({ defaultValues: { name: '', email: '', message: '', about: '' } })
  const events = useAboutEvents((first) => form.setValue('about', first))
  const [result, setResult] = useState<'ok' | 'error' | null>(null)
  const errors = form.formState.errors
  const send = form.handleSubmit(async ({ about, ...v }) => {
    setResult(null)
    try {
      await post('/proxy/api/public/feedback', { ...v, page: location.pathname, eventId: eventIdOf(about) })
      setResult('ok')
    } catch (e) {
      applyServerErrors(e, form.setError)
      setResult('error')
    }
  })
  return (
    <div class="help-feedback">
      <Dialog
        title={t('help.feedback.title')}
        onClose={onClose}
        actions={
          result === 'ok' ? (
            <Button onClick={onClose}>{t('report.close')}</Button>
          ) : (
            <>
              <Button variant="secondary" onClick={onClose}>
                {t('report.close')}
              </Button>
              <Button busy={form.formState.isSubmitting} onClick={() => void send()}>
                {t('help.feedback.send')}
              </Button>
            </>
          )
        }
      >
        {result === 'ok' ? (
          <Alert tone="ok" role="status">
            {t('help.feedback.success')}
          </Alert>
        ) : (
          <form onSubmit={(e) => (e.preventDefault(), void send())} noValidate>
            <p class="muted">{t('help.feedback.intro')}</p>
            {result === 'error' && (
              <Alert tone="error" role="alert">
                {t('help.feedback.failure')}
              </Alert>
            )}
            <AboutField events={events} reg={form.register('about')} errors={errors} />
            <TextField label={t('help.feedback.name')} reg={form.register('name')} errors={errors} autocomplete="name" />
            <TextField label={t('help.feedback.email')} reg={form.register('email')} errors={errors} type="email" autocomplete="email" />
            <Field label={t('help.feedback.message')} name="message" errors={errors} required>
              {(a) => <textarea {...a} {...form.register('message', { required: 'REQUIRED' })} rows={4} aria-required="true" />}
            </Field>
          </form>
        )}
      </Dialog>
    </div>
  )
}
