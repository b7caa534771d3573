// The agency's guest-facing information (imprint, privacy notice, guest contact shown by the report
// dialog) and the reports guests sent about its events (administrators: AGENCY.MANAGE).
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { get, put } from '../../api/client'
import { TextField, applyServerErrors } from '../../components/form'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, Card, EmptyState, PageHeader, Spinner } from '../../components/ui'
import { formatDate, formatTime } from '../../../server/i18n/format'
import { t } from '../../i18n'
import { Pager } from './common'
import { RichText } from './rich-text'

interface GuestInfo {
  imprintText: string | null
  imprintUrl: string | null
  privacyText: string | null
  privacyUrl: string | null
  contactGuest: string | null
  contactGuestPhone: string | null
  contactGuestMail: string | null
}
type Form = { [K in keyof GuestInfo]: string }

export function GuestInfoPage() {
  const [loaded, setLoaded] = useState(false)
  const form = useForm<Form>()
  const [imprintText, setImprintText] = useState('')
  const [privacyText, setPrivacyText] = useState('')
  const errors = form.formState.errors
  useEffect(() => {
    get<GuestInfo>('/proxy/api/agency/imprint').then((d) => {
      form.reset({ imprintUrl: d.imprintUrl ?? '', privacyUrl: d.privacyUrl ?? '', contactGuest: d.contactGuest ?? '', contactGuestPhone: d.contactGuestPhone ?? '', contactGuestMail: d.contactGuestMail ?? '' } as Form)
      setImprintText(d.imprintText ?? '')
      setPrivacyText(d.privacyText ?? '')
      setLoaded(true)
    })
  }, [])
  const save = form.handleSubmit(async (v) => {
    try {
      await put('/proxy/api/agency/imprint', { ...v, imprintText, privacyText })
      toast(t('help.imprint.saved'))
    } catch (e) {
      if (!applyServerErrors(e, form.setError)) toast(String((e as Error).message), 'error')
    }
  })
  return (
    <>
      <PageHeader title={t('help.imprint.settings')} subtitle={t('help.imprint.settingsHint')} />
      {!loaded ? (
        <Spinner />
      ) : (
        <form onSubmit={(e) => (e.preventDefault(), void save())} noValidate>
          <Card>
            <h2>{t('help.imprint.imprint')}</h2>
            <RichText id="imprint-text" label={t('help.imprint.imprintText')} value={imprintText} onChange={setImprintText} />
            <TextField label={t('help.imprint.imprintUrl')} reg={form.register('imprintUrl')} errors={errors} type="url" placeholder="https://" />
            <h2>{t('help.imprint.privacy')}</h2>
            <RichText id="privacy-text" label={t('help.imprint.privacyText')} value={privacyText} onChange={setPrivacyText} />
            <TextField label={t('help.imprint.privacyUrl')} reg={form.register('privacyUrl')} errors={errors} type="url" placeholder="https://" />
            <h2>{t('help.contact.title')}</h2>
            <p class="muted">{t('help.contact.hint')}</p>
            <TextField label={t('help.contact.name')} reg={form.register('contactGuest')} errors={errors} />
            <TextField label={t('help.contact.phone')} reg={form.register('contactGuestPhone')} errors={errors} type="tel" size="half" />
            <TextField label={t('help.contact.mail')} reg={form.register('contactGuestMail')} errors={errors} type="email" size="half" />
            <Button type="submit" busy={form.formState.isSubmitting}>
              {t('common.save')}
            </Button>
          </Card>
        </form>
      )}
    </>
  )
}

interface Report {
  kind: 'REPORT' | 'SUPPORT' | 'FEEDBACK'
  id: number
  reportType: string | null
  subject: string | null
  eventId: number | null
  eventName: string | null
  reason: string
  important: boolean
  sexualAbuse: boolean
  firstName: string | null
  lastName: string | null
  email: string | null
  createdAt: string
}

export function ReportsPage() {
  const [page, setPage] = useState(0)
  const perPage = 20
  const { data, error } = useResource<{ items: Report[]; total: number }>(`/proxy/api/agency/reports?page=${page}&perPage=${perPage}`)
  return (
    <>
      <PageHeader title={t('report.list.title')} subtitle={t('report.list.hint')} />
      {error && <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.total === 0 && <EmptyState>{t('report.list.empty')}</EmptyState>}
      {data && data.total > 0 && (
        <>
          <ul class="reports-list">
            {data.items.map((r) => {
              const who = [r.firstName, r.lastName].filter(Boolean).join(' ')
              return (
                <li key={`${r.kind}-${r.id}`} class="card">
                  <p class="muted">
                    {t(`report.kind.${r.kind}`)} #{r.id} · {formatDate(r.createdAt)}, {formatTime(r.createdAt)} {r.eventName && `· ${r.eventName}`}
                  </p>
                  <h2 class="reports-type">
                    {r.kind === 'REPORT' ? t(`report.type.${r.reportType}`) : r.kind === 'SUPPORT' ? r.subject : t('report.kind.FEEDBACK')} {r.important && <Badge tone="warn">{t('report.field.important')}</Badge>}
                  </h2>
                  <p class="reports-reason">{r.reason}</p>
                  <p class="muted">{r.email ? `${who ? `${who} ` : ''}<${r.email}>` : who || t('report.list.anonymous')}</p>
                </li>
              )
            })}
          </ul>
          <Pager page={page} perPage={perPage} total={data.total} onPage={setPage} />
        </>
      )}
    </>
  )
}
