// Agency users (AGENCY.USERS): colleagues with role and status, invitations by e-mail, role
// changes and removal; the license's agencyUsers limit is shown and enforced by the server.
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { formatDate } from '../../../../server/i18n/format'
import { InviteBody } from '../../../../server/modules/agency-users/model'
import { ORGANISER_ROLES } from '../../../../server/modules/identity/roles'
import { del, errorText, patch, post } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { SelectField, TextField, applyServerErrors } from '../../../components/form'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Alert, Badge, Button, PageHeader, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'

interface Member {
  id: number
  email: string
  firstName: string | null
  lastName: string | null
  userRole: string
  status: string
  userStatus: string
  invitedAt: string | null
  self: boolean
}
interface Members {
  items: Member[]
  allowedAgencyUsers: number
  usedAgencyUsers: number
}

const roleOptions = () => ORGANISER_ROLES.map((r) => ({ value: r, label: t(`role.${r}`) }))

export function UsersPage() {
  const { data, error, reload } = useResource<Members>('/proxy/api/agency/users')
  const [inviting, setInviting] = useState(false)
  const [removing, setRemoving] = useState<Member | null>(null)
  const full = data != null && data.allowedAgencyUsers >= 0 && data.usedAgencyUsers >= data.allowedAgencyUsers
  const changeRole = async (m: Member, role: string) => {
    try {
      await patch(`/proxy/api/agency/users/${m.id}`, { userRole: role })
      toast(t('users.roleChanged'))
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    }
    await reload()
  }
  const resend = async (m: Member) => {
    try {
      await post(`/proxy/api/agency/users/${m.id}/resendInvitation`)
      toast(t('users.resent'))
      await reload()
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    }
  }
  return (
    <>
      <PageHeader
        title={t('users.title')}
        subtitle={t('users.intro')}
        actions={
          <Button onClick={() => setInviting(true)} disabled={!data || full}>
            {t('users.invite')}
          </Button>
        }
      />
      {error && <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>}
      {!data && !error && <Spinner />}
      {data && (
        <>
          <p class="muted users-limit">
            {data.allowedAgencyUsers < 0 ? t('users.limitUnlimited', { used: data.usedAgencyUsers }) : t('users.limit', { used: data.usedAgencyUsers, allowed: data.allowedAgencyUsers })}
            {full && (
              <>
                {' '}
                <Badge tone="warn">{t('users.limitReached')}</Badge>
              </>
            )}
          </p>
          <div class="table-wrap card">
            <table class="table users-table">
              <thead>
                <tr>
                  <th scope="col">{t('users.name')}</th>
                  <th scope="col">{t('users.email')}</th>
                  <th scope="col">{t('users.role')}</th>
                  <th scope="col">{t('users.status')}</th>
                  <th scope="col">
                    <span class="sr-only">{t('users.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((m) => {
                  const name = [m.firstName, m.lastName].filter(Boolean).join(' ') || '—'
                  return (
                    <tr key={m.id}>
                      <td>
                        {name} {m.self && <Badge tone="info">{t('users.you')}</Badge>}
                      </td>
                      <td>{m.email}</td>
                      <td>
                        <label class="sr-only" for={`role-${m.id}`}>
                          {t('users.changeRole')}: {m.email}
                        </label>
                        <select id={`role-${m.id}`} value={m.userRole} onChange={(e) => changeRole(m, (e.target as HTMLSelectElement).value)}>
                          {roleOptions().map((o) => (
                            <option key={o.value} value={o.value}>
                              {o.label}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td>
                        <Badge tone={m.status === 'OK' ? 'ok' : 'warn'}>{t(`users.status.${m.status === 'OK' ? 'OK' : 'PENDING_ACTIVATION'}`)}</Badge>
                        {m.status !== 'OK' && m.invitedAt && <small class="muted block">{t('users.invitedAt', { date: formatDate(m.invitedAt) })}</small>}
                      </td>
                      <td class="row-actions">
                        {m.status !== 'OK' && (
                          <Button variant="ghost" onClick={() => resend(m)}>
                            {t('users.resend')}
                          </Button>
                        )}
                        <Button variant="ghost" onClick={() => setRemoving(m)} aria-label={`${t('users.remove')}: ${m.email}`}>
                          {t('users.remove')}
                        </Button>
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
          <p class="muted">
            <small>{t('users.roles.help')}</small>
          </p>
        </>
      )}
      {inviting && (
        <InviteDialog
          onClose={() => setInviting(false)}
          onDone={async (email) => {
            setInviting(false)
            toast(t('users.invite.sent', { email }))
            await reload()
          }}
        />
      )}
      {removing && (
        <Dialog
          title={t('users.remove.title')}
          onClose={() => setRemoving(null)}
          actions={
            <>
              <Button variant="secondary" onClick={() => setRemoving(null)}>
                {t('common.cancel')}
              </Button>
              <Button
                variant="danger"
                onClick={async () => {
                  const m = removing
                  setRemoving(null)
                  try {
                    await del(`/proxy/api/agency/users/${m.id}`)
                    toast(t('users.removed'))
                  } catch (e) {
                    toast(errorText(e), 'error', 5000)
                  }
                  await reload()
                }}
              >
                {t('users.remove')}
              </Button>
            </>
          }
        >
          <p>{t('users.remove.confirm', { email: removing.email })}</p>
        </Dialog>
      )}
    </>
  )
}

type InviteForm = { email: string; userRole: string; firstName: string; lastName: string }

function InviteDialog({ onClose, onDone }: { onClose(): void; onDone(email: string): Promise<void> }) {
  const [error, setError] = useState<string | null>(null)
  const { register, handleSubmit, formState, setError: setFieldError } = useForm<InviteForm>({
    resolver: zodResolver(InviteBody as any),
    defaultValues: { email: '', userRole: 'AGENCY_EDITOR', firstName: '', lastName: '' },
    mode: 'onTouched',
  })
  const submit = handleSubmit(async (v) => {
    setError(null)
    try {
      await post('/proxy/api/agency/users', v)
      await onDone(v.email)
    } catch (e) {
      if (!applyServerErrors(e, setFieldError)) setError(errorText(e))
    }
  })
  return (
    <Dialog title={t('users.invite.title')} onClose={onClose}>
      <form onSubmit={submit} noValidate class="form-grid">
        {error && (
          <Alert tone="error" class="form-title">
            {error}
          </Alert>
        )}
        <TextField label={t('users.email')} reg={register('email')} errors={formState.errors} type="email" autocomplete="off" required />
        <SelectField label={t('users.role')} reg={register('userRole')} errors={formState.errors} options={roleOptions()} required />
        <TextField label={t('users.firstName')} reg={register('firstName')} errors={formState.errors} size="half" />
        <TextField label={t('users.lastName')} reg={register('lastName')} errors={formState.errors} size="half" />
        <div class="form-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" busy={formState.isSubmitting}>
            {t('users.invite.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
