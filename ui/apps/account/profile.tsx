// Profile page (agency-side 2.2): account selector, agency contact, the profile form with
// Edit/Save/Cancel where the edit check allows it, deletion notices and the deletion dialogs.
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'preact/hooks'
import { useForm } from 'react-hook-form'
import { formatDate } from '../../../server/i18n/format'
import { AccountProfileBody, DELETE_WORD, DeleteConfirmBody, GENDERS } from '../../../server/modules/identity/model'
import { ApiError, del, errorText, get, patch, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { CountryField, SelectField, TextField, applyServerErrors } from '../../components/form'
import { useResource } from '../../components/hooks'
import { useAuth, useUnsavedChanges } from '../../components/navigation-auth'
import { toast } from '../../components/overlay'
import { sharedResolver } from '../../components/resolver'
import { registerWithLimits } from '../../components/schema-limits'
import { Alert, Badge, Button, CancelSave, Card, Spinner } from '../../components/ui'
import { t } from '../../i18n'

export interface AccountDto {
  id: number
  agency: { id: number; displayName: string; internalName: string | null; contactGuest: string | null; contactGuestPhone: string | null; contactGuestMail: string | null }
  userRole: string
  status: string
  accountStatus: string
  isAdmin: boolean
  image: { id: number; defaultImagePath: string; originalFileName: string } | null
  salutation: string | null
  title: string | null
  firstName: string | null
  lastName: string | null
  company: string | null
  position: string | null
  address: { street: string | null; streetNumber: string | null; postCode: string | null; city: string | null; country: string | null }
  birthday: string | null
  gender: string | null
  phoneNumber: string | null
  mobilePhoneNumber: string | null
  deletionInProgress: boolean
  deleteLink: string | null
  requireDeletion: boolean
  finalDeletionDate: string | null
  canEditAccount: boolean
}

interface ProfileForm {
  salutation: string
  title: string
  firstName: string
  lastName: string
  company: string
  position: string
  address: { street: string; streetNumber: string; postCode: string; city: string; country: string }
  birthday: string
  gender: string
  phoneNumber: string
  mobilePhoneNumber: string
}

const isoToDotted = (iso: string | null) => (iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}` : (iso ?? ''))

function formOf(a: AccountDto): ProfileForm {
  return {
    salutation: a.salutation ?? '',
    title: a.title ?? '',
    firstName: a.firstName ?? '',
    lastName: a.lastName ?? '',
    company: a.company ?? '',
    position: a.position ?? '',
    address: { street: a.address.street ?? '', streetNumber: a.address.streetNumber ?? '', postCode: a.address.postCode ?? '', city: a.address.city ?? '', country: a.address.country ?? '' },
    birthday: isoToDotted(a.birthday),
    gender: a.gender ?? '',
    phoneNumber: a.phoneNumber ?? '',
    mobilePhoneNumber: a.mobilePhoneNumber ?? '',
  }
}

const toInput = (f: ProfileForm) => ({ ...f, gender: f.gender || null })

export function accountLabel(a: Pick<AccountDto, 'agency' | 'userRole' | 'status'>) {
  const name = a.agency.internalName || a.agency.displayName
  return `${name} / ${t(`role.${a.userRole}`)}${a.status !== 'OK' ? ` (${t('account.notActivated')})` : ''}`
}

export function ProfilePage() {
  const auth = useAuth()
  const user = auth.details.user
  const { data: accounts, error, reload } = useResource<AccountDto[]>('/proxy/api/user/accounts')
  const [selectedId, setSelectedId] = useState<number | null>(null)
  const [deleting, setDeleting] = useState<'accounts' | 'user' | null>(null)
  const own = accounts ?? []
  const selected = own.find((a) => a.id === selectedId) ?? own.find((a) => a.id === user.currentAccount?.id) ?? own[0] ?? null

  if (user.userStatus === 'PENDING_ACTIVATION') return <Alert tone="warn">{t('account.userNotActivated')}</Alert>
  if (error) return <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>
  if (!accounts) return <Spinner />

  const revoke = async (accountId: number | null) => {
    try {
      await get(accountId == null ? '/proxy/api/user/revokeDeletion' : `/proxy/api/user/accounts/${accountId}/revokeDeletion`)
      toast(t('account.revoked'))
      await Promise.all([reload(), auth.reload()])
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    }
  }

  return (
    <>
      <DeletionNotices accounts={own} onRevoke={revoke} />
      {own.length > 1 && (
        <AccountSelector accounts={own} value={selected?.id ?? null} onChange={setSelectedId} key={selected?.id} />
      )}
      {!selected && <Alert tone="info">{t('account.noAccount')}</Alert>}
      {selected && <ProfileCard key={selected.id} account={selected} onSaved={reload} selectorLocked={own.length > 1} />}
      <Card class="account-danger">
        <div class="card-head">
          <h2>{t('account.delete.title')}</h2>
        </div>
        <p class="muted">{t('account.delete.intro')}</p>
        <div class="page-actions">
          {own.length > 0 && (
            <Button variant="secondary" onClick={() => setDeleting('accounts')}>
              {t('account.delete.open')}
            </Button>
          )}
          <Button variant="danger" onClick={() => setDeleting('user')}>
            {t('account.delete.user')}
          </Button>
        </div>
      </Card>
      {deleting === 'accounts' && (
        <DeleteAccountsDialog
          onClose={() => setDeleting(null)}
          onDone={async () => {
            setDeleting(null)
            await Promise.all([reload(), auth.reload()])
          }}
        />
      )}
      {deleting === 'user' && (
        <DeleteUserDialog
          userId={user.id}
          onClose={() => setDeleting(null)}
          onDone={async () => {
            setDeleting(null)
            await Promise.all([reload(), auth.reload()])
          }}
        />
      )}
    </>
  )
}

/** The editing state is shared so the selector can be disabled while a form is being edited. */
let editingNow = false
const editingListeners = new Set<(v: boolean) => void>()
function setEditingNow(v: boolean) {
  editingNow = v
  for (const l of editingListeners) l(v)
}
function useEditingNow() {
  const [v, setV] = useState(editingNow)
  useEffect(() => {
    editingListeners.add(setV)
    return () => void editingListeners.delete(setV)
  }, [])
  return v
}

function AccountSelector({ accounts, value, onChange }: { accounts: AccountDto[]; value: number | null; onChange(id: number): void }) {
  const editing = useEditingNow()
  return (
    <div class="field account-selector">
      <label for="account-selector">{t('account.selector')}</label>
      <select id="account-selector" value={value ?? ''} disabled={editing} onChange={(e) => onChange(Number((e.target as HTMLSelectElement).value))}>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {accountLabel(a)}
          </option>
        ))}
      </select>
    </div>
  )
}

function ProfileCard({ account, onSaved }: { account: AccountDto; onSaved(): Promise<void>; selectorLocked: boolean }) {
  const { details } = useAuth()
  const [editing, setEditing] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const form = useForm<ProfileForm>({ resolver: sharedResolver(AccountProfileBody, toInput), defaultValues: formOf(account), mode: 'onTouched' })
  const { handleSubmit, formState, reset, setError: setFieldError } = form
  // inputs carry the schema's maxlength
  const register = registerWithLimits(form.register, AccountProfileBody)
  const entryPass = details.features.includes('SYSTEM_COVIDOO')
  // spec 2.2: editing needs a loaded account, the entry-pass variant off, and for guest roles canEditAccount
  const canEdit = account.canEditAccount && !entryPass && account.status === 'OK'
  useUnsavedChanges(editing && formState.isDirty)
  useEffect(() => {
    setEditingNow(editing)
    return () => setEditingNow(false)
  }, [editing])

  const cancel = () => {
    reset(formOf(account))
    setEditing(false)
    setError(null)
  }
  const submit = handleSubmit(async (values) => {
    setError(null)
    try {
      const saved = await patch<AccountDto>(`/proxy/api/user/accounts/${account.id}`, AccountProfileBody.parse(toInput(values)))
      reset(formOf(saved))
      setEditing(false)
      toast(t('account.saved'))
      await onSaved()
    } catch (e) {
      if (!applyServerErrors(e, setFieldError)) setError(errorText(e))
    }
  })
  const e = formState.errors
  const ro = !editing
  const agency = account.agency
  return (
    <Card>
      <div class="card-head">
        <div>
          <h2>{agency.displayName}</h2>
          <p class="muted">
            {t(`role.${account.userRole}`)} {account.status !== 'OK' && <Badge tone="warn">{t('account.notActivated')}</Badge>}
          </p>
        </div>
        {canEdit && !editing && (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('common.edit')}
          </Button>
        )}
      </div>
      {(agency.contactGuest || agency.contactGuestPhone || agency.contactGuestMail) && (
        <div class="agency-contact">
          <h3>{t('account.contact')}</h3>
          <p>
            {agency.contactGuest && <span>{agency.contactGuest}</span>}
            {agency.contactGuestPhone && (
              <span>
                {' '}
                · <a href={`tel:${agency.contactGuestPhone.replace(/\s+/g, '')}`}>{agency.contactGuestPhone}</a>
              </span>
            )}
            {agency.contactGuestMail && (
              <span>
                {' '}
                · <a href={`mailto:${agency.contactGuestMail}`}>{agency.contactGuestMail}</a>
              </span>
            )}
          </p>
        </div>
      )}
      {!canEdit && <p class="muted">{t('account.readOnly')}</p>}
      {error && <Alert tone="error">{error}</Alert>}
      <ProfileImage account={account} editable={editing} onChanged={onSaved} />
      <form onSubmit={submit} noValidate class="form-grid profile-form">
        <fieldset class="plain" disabled={ro}>
          <div class="form-grid">
            <SelectField label={t('account.field.salutation')} reg={register('salutation')} errors={e} size="half" placeholder={t('account.choose')} options={['Herr', 'Frau', 'Divers'].map((v) => ({ value: v, label: v }))} />
            <TextField label={t('account.field.title')} reg={register('title')} errors={e} size="half" autocomplete="honorific-prefix" />
            <TextField label={t('account.field.firstName')} reg={register('firstName')} errors={e} size="half" autocomplete="given-name" />
            <TextField label={t('account.field.lastName')} reg={register('lastName')} errors={e} size="half" autocomplete="family-name" />
            <TextField label={t('account.field.company')} reg={register('company')} errors={e} size="half" autocomplete="organization" />
            <TextField label={t('account.field.position')} reg={register('position')} errors={e} size="half" autocomplete="organization-title" />
            <TextField label={t('account.field.street')} reg={register('address.street')} errors={e} size="half" autocomplete="address-line1" />
            <TextField label={t('account.field.streetNumber')} reg={register('address.streetNumber')} errors={e} size="half" />
            <TextField label={t('account.field.postCode')} reg={register('address.postCode')} errors={e} size="half" autocomplete="postal-code" />
            <TextField label={t('account.field.city')} reg={register('address.city')} errors={e} size="half" autocomplete="address-level2" />
            <CountryField label={t('account.field.country')} reg={register('address.country')} errors={e} placeholder={t('account.choose')} />
            <TextField label={t('account.field.birthday')} reg={register('birthday')} errors={e} size="half" placeholder={t('account.field.birthday.hint')} hint={t('account.field.birthday.hint')} inputMode="numeric" />
            <SelectField label={t('account.field.gender')} reg={register('gender')} errors={e} size="half" placeholder={t('account.choose')} options={GENDERS.map((g) => ({ value: g, label: t(`account.gender.${g}`) }))} />
            <TextField label={t('account.field.phoneNumber')} reg={register('phoneNumber')} errors={e} size="half" type="tel" autocomplete="tel" hint={t('account.field.phone.hint')} />
            <TextField label={t('account.field.mobilePhoneNumber')} reg={register('mobilePhoneNumber')} errors={e} size="half" type="tel" autocomplete="tel" />
          </div>
        </fieldset>
        {editing && (
          <div class="form-actions">
            <CancelSave onCancel={cancel} busy={formState.isSubmitting} />
          </div>
        )}
      </form>
      {account.deleteLink && (
        <p>
          <a href={account.deleteLink}>{t('account.dataDeletion')}</a>
        </p>
      )}
    </Card>
  )
}

/** The profile picture: shown always, uploaded or removed while editing (type USER, images only). */
function ProfileImage({ account, editable, onChanged }: { account: AccountDto; editable: boolean; onChanged(): Promise<void> }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const upload = async (file: File | undefined) => {
    if (!file) return
    setBusy(true)
    setError(null)
    try {
      const form = new FormData()
      form.append('file', file)
      await post(`/proxy/api/user/accounts/${account.id}/image`, form)
      await onChanged()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const remove = async () => {
    setBusy(true)
    try {
      await patch(`/proxy/api/user/accounts/${account.id}`, { imageId: null })
      await onChanged()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const initials = [account.firstName, account.lastName].filter(Boolean).map((x) => x![0]!.toUpperCase()).join('') || '?'
  return (
    <div class="profile-image-row">
      {account.image ? <img class="profile-image" src={account.image.defaultImagePath} alt={t('account.image')} width="96" height="96" /> : <span class="profile-image placeholder" aria-hidden="true">{initials}</span>}
      {editable && (
        <div class="profile-image-actions">
          <label class={`btn btn-secondary ${busy ? 'disabled' : ''}`}>
            {t('account.image.upload')}
            <input type="file" accept="image/*" class="sr-only" disabled={busy} onChange={(e) => upload((e.target as HTMLInputElement).files?.[0])} />
          </label>
          {account.image && (
            <Button variant="ghost" busy={busy} onClick={remove}>
              {t('account.image.remove')}
            </Button>
          )}
          {error && <small class="field-error">{error}</small>}
        </div>
      )}
    </div>
  )
}

function DeletionNotices({ accounts, onRevoke }: { accounts: AccountDto[]; onRevoke(accountId: number | null): Promise<void> }) {
  const { details } = useAuth()
  const user = details.user as typeof details.user & { requireDeletion?: boolean; finalDeletionDate?: string | null }
  if (!user.deletionInProgress) return null
  const marked = accounts.filter((a) => a.deletionInProgress || a.requireDeletion)
  const userMarked = user.requireDeletion || (marked.length === accounts.length && accounts.length > 0 && marked.every((a) => a.deletionInProgress))
  return (
    <Alert tone="warn" class="deletion-notice">
      <strong>{t('account.deletionNotice')}</strong>
      <ul>
        {user.requireDeletion && user.finalDeletionDate ? (
          <li>
            {t('account.userDeletionScheduled', { date: formatDate(user.finalDeletionDate) })}{' '}
            <Button variant="secondary" onClick={() => onRevoke(null)}>
              {t('account.revoke')}
            </Button>
          </li>
        ) : null}
        {!user.requireDeletion &&
          marked.map((a) => (
            <li key={a.id}>
              {a.requireDeletion && a.finalDeletionDate ? t('account.deletionScheduled', { agency: a.agency.displayName, date: formatDate(a.finalDeletionDate) }) : t('account.deletionRequested', { agency: a.agency.displayName })}{' '}
              <Button variant="secondary" onClick={() => onRevoke(a.id)}>
                {t('account.revoke')}
              </Button>
            </li>
          ))}
        {!userMarked && marked.length === 0 && (
          <li>
            {t('account.userDeletionRequested')}{' '}
            <Button variant="secondary" onClick={() => onRevoke(null)}>
              {t('account.revoke')}
            </Button>
          </li>
        )}
      </ul>
    </Alert>
  )
}

interface DeletionState {
  id: number
  agency: { id: number; displayName: string; internalName: string | null }
  userRole: string
  deletionInProgress: boolean
  requireDeletion: boolean
  finalDeletionDate: string | null
  isAdmin: boolean
  lastAdmin: boolean
}

/** Lists the accounts to mark or un-mark; scheduled ones (requireDeletion) cannot be toggled. */
function DeleteAccountsDialog({ onClose, onDone }: { onClose(): void; onDone(): Promise<void> }) {
  const { data } = useResource<DeletionState[]>('/proxy/api/user/deletion')
  const [chosen, setChosen] = useState<Set<number> | null>(null)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (data && !chosen) setChosen(new Set(data.filter((a) => a.deletionInProgress && !a.requireDeletion).map((a) => a.id)))
  }, [data])
  const toggle = (id: number) => {
    const next = new Set(chosen)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    setChosen(next)
  }
  const submit = async () => {
    setBusy(true)
    setError(null)
    try {
      const r = await post<{ mailed: boolean }>('/proxy/api/user/deleteAccounts', { accounts: [...(chosen ?? [])], reason: reason || null })
      toast(t(r.mailed ? 'account.delete.marked' : 'account.delete.unchanged'), 'ok', 5000)
      await onDone()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      title={t('account.delete.title')}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" busy={busy} onClick={submit} disabled={!data}>
            {t('account.delete.submit')}
          </Button>
        </>
      }
    >
      <p>{t('account.delete.intro')}</p>
      {error && <Alert tone="error">{error}</Alert>}
      {!data && <Spinner />}
      {data && (
        <ul class="deletion-list">
          {data.map((a) => (
            <li key={a.id} class={a.requireDeletion ? 'locked' : ''}>
              <label>
                <input type="checkbox" checked={a.requireDeletion || Boolean(chosen?.has(a.id))} disabled={a.requireDeletion} onChange={() => toggle(a.id)} />
                <span>
                  <strong>{a.agency.internalName || a.agency.displayName}</strong> / {t(`role.${a.userRole}`)}
                  {a.isAdmin && (
                    <>
                      {' '}
                      <Badge tone="warn">{t('account.delete.admin')}</Badge>
                    </>
                  )}
                  {a.lastAdmin && (
                    <>
                      {' '}
                      <Badge tone="error">{t('account.delete.lastAdmin')}</Badge>
                    </>
                  )}
                  {a.requireDeletion && a.finalDeletionDate && <small class="muted block">{t('account.delete.scheduled', { date: formatDate(a.finalDeletionDate) })}</small>}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div class="field">
        <label for="deletion-reason">{t('account.delete.reason')}</label>
        <textarea id="deletion-reason" rows={2} maxLength={1000} value={reason} onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)} />
      </div>
    </Dialog>
  )
}

/** Deleting the whole user: the typed word must be DELETE. */
function DeleteUserDialog({ userId, onClose, onDone }: { userId: number; onClose(): void; onDone(): Promise<void> }) {
  const [error, setError] = useState<string | null>(null)
  const { register, handleSubmit, formState } = useForm<{ confirm: string }>({ resolver: zodResolver(DeleteConfirmBody), mode: 'onTouched' })
  const submit = handleSubmit(async () => {
    setError(null)
    try {
      await del(`/proxy/api/user/${userId}`, {})
      toast(t('account.delete.userMarked'), 'ok', 5000)
      await onDone()
    } catch (e) {
      setError(e instanceof ApiError ? (e.errorTranslation ?? e.errorMessage) : t('tfa.failed'))
    }
  })
  return (
    <Dialog title={t('account.delete.userTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate class="form-grid">
        <p class="form-title">{t('account.delete.userIntro')}</p>
        {error && (
          <Alert tone="error" class="form-title">
            {error}
          </Alert>
        )}
        <TextField label={t('account.delete.confirmWord')} reg={register('confirm')} errors={formState.errors} placeholder={DELETE_WORD} autocomplete="off" required />
        <div class="form-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="danger" busy={formState.isSubmitting}>
            {t('account.delete.userSubmit')}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
