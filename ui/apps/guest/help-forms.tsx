// The help centre's forms (help.tsx loads them when opened): the support form of the panel's support
// tab and the feedback dialog (guest-side.md 2 "Help centre and feedback").
import { useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { ApiError, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { Field, TextField, applyServerErrors } from '../../components/form'
import { Alert, Button } from '../../components/ui'
import { t } from '../../i18n'

export function SupportForm() {
  const form = useForm<{ subject: string; content: string }>({ defaultValues: { subject: '', content: '' } })
  const [result, setResult] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const errors = form.formState.errors
  const send = form.handleSubmit(async (v) => {
    setResult(null)
    try {
      await post('/proxy/api/public/report/support', { ...v, originUrl: location.href, state: location.pathname, dialog: 'help', additionalData: { language: document.documentElement.lang || 'de' }, eventName: null, eventId: null })
      form.reset()
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
  const form = useForm<{ name: string; email: string; message: string }>({ defaultValues: { name: '', email: '', message: '' } })
  const [result, setResult] = useState<'ok' | 'error' | null>(null)
  const errors = form.formState.errors
  const send = form.handleSubmit(async (v) => {
    setResult(null)
    try {
      await post('/proxy/api/public/feedback', { ...v, page: location.pathname })
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
