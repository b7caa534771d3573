// Settings page (agency-side 2.4): language, design, personal notifications and, for users with
// organiser accounts, notifications per agency (yes / no / parent setting).
import { useEffect, useState } from 'preact/hooks'
import { errorText, get, patch } from '../../api/client'
import { useResource } from '../../components/hooks'
import { useAuth, useUnsavedChanges } from '../../components/navigation-auth'
import { ACCOUNTS_PAGE, FILTER_ABOVE } from '../../components/navigation-rules'
import { toast } from '../../components/overlay'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { offeredLanguages, setLanguage, t } from '../../i18n'
import { can, isGuestRole } from '../../../server/modules/identity/roles'
import { DocumentSettingsCard } from './document-settings'
import { AgencyLogoCard } from './agency-logo'
import type { AccountDto } from './profile'

interface Setting {
  code: string
  enabled: boolean | null
}

export function SettingsPage() {
  const { details, view } = useAuth()
  return (
    <>
      <LanguageCard />
      <DesignCard />
      <PersonalNotifications />
      {details.user.isAccount && <AgencyNotifications />}
      {view === 'admin' && details.user.currentAccount && can(details.user.currentAccount.userRole, 'AGENCY.MANAGE') && (
        <>
          <AgencyLogoCard />
          <DocumentSettingsCard />
        </>
      )}
    </>
  )
}

/** A card's save button: busy while `work` runs, then the saved text or the error as a toast. */
function useSave(work: () => Promise<unknown>, savedKey: string) {
  const [busy, setBusy] = useState(false)
  const save = async () => {
    setBusy(true)
    try {
      await work()
      toast(t(savedKey))
    } catch (e) {
      toast(errorText(e), 'error')
    } finally {
      setBusy(false)
    }
  }
  return { busy, save }
}

function LanguageCard() {
  const auth = useAuth()
  const { data: all } = useResource<Array<{ code: string; displayName: string; ownTexts?: boolean }>>('/proxy/api/public/translations/languages')
  // plain German is left out until it has texts of its own (unless it is the stored choice)
  const data = all?.filter((l) => offeredLanguages([l]).length > 0 || l.code === auth.details.user.language.code)
  const [value, setValue] = useState(auth.details.user.language.code)
  useUnsavedChanges(value !== auth.details.user.language.code)
  const { busy, save } = useSave(async () => {
    await patch(`/proxy/api/user/${auth.details.user.id}`, { language: value })
    await setLanguage(value)
    await auth.reload()
  }, 'settings.language.saved')
  return (
    <Card>
      <h2>{t('settings.language')}</h2>
      <div class="inline-form">
        <label class="sr-only" for="settings-language">
          {t('settings.language')}
        </label>
        <select id="settings-language" value={value} onChange={(e) => setValue((e.target as HTMLSelectElement).value)}>
          {(data ?? [{ code: value, displayName: value }]).map((l) => (
            <option key={l.code} value={l.code}>
              {l.displayName}
            </option>
          ))}
        </select>
        <Button busy={busy} onClick={save}>
          {t('common.save')}
        </Button>
      </div>
    </Card>
  )
}

function DesignCard() {
  const auth = useAuth()
  const current = auth.details.user.design ?? null
  const [value, setValue] = useState<string | null>(current)
  useUnsavedChanges(value !== current)
  const { busy, save } = useSave(async () => {
    await patch(`/proxy/api/user/${auth.details.user.id}`, { design: value })
    await auth.reload()
  }, 'settings.design.saved')
  return (
    <Card>
      <h2 id="design-title">{t('settings.design')}</h2>
      <div class="account-choices" role="radiogroup" aria-labelledby="design-title">
        {[null, 'design_202401'].map((d) => (
          <label key={String(d)} class={`account-choice ${value === d ? 'active' : ''}`}>
            <input type="radio" name="design" checked={value === d} onChange={() => setValue(d)} />
            <span>{t(`settings.design.${d ?? 'standard'}`)}</span>
          </label>
        ))}
      </div>
      <div class="form-actions">
        <Button busy={busy} onClick={save}>
          {t('common.save')}
        </Button>
      </div>
    </Card>
  )
}

/** One row per code: yes/no, plus "parent setting" (null) on the agency level. */
function SettingsList({ list, onChange, inherit, name }: { list: Setting[]; onChange(code: string, v: boolean | null): void; inherit: boolean; name: string }) {
  const options: Array<[boolean | null, string]> = [
    [true, t('settings.yes')],
    [false, t('settings.no')],
    ...(inherit ? ([[null, t('settings.inherit')]] as Array<[null, string]>) : []),
  ]
  return (
    <ul class="notification-list">
      {list.map((s) => (
        <li key={s.code}>
          <span id={`${name}-${s.code}`}>{t(`notifications.code.${s.code}`)}</span>
          <div class="segmented" role="radiogroup" aria-labelledby={`${name}-${s.code}`}>
            {options.map(([v, label]) => (
              <label key={String(v)} class={s.enabled === v ? 'active' : ''}>
                <input type="radio" name={`${name}-${s.code}`} checked={s.enabled === v} onChange={() => onChange(s.code, v)} />
                {label}
              </label>
            ))}
          </div>
        </li>
      ))}
    </ul>
  )
}

function useSettings(path: string | null) {
  const [saved, setSaved] = useState<Setting[] | null>(null)
  const [list, setList] = useState<Setting[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setSaved(null)
    setList(null)
    if (!path) return
    get<Setting[]>(path)
      .then((d) => {
        setSaved(d)
        setList(d)
      })
      .catch((e) => setError(errorText(e)))
  }, [path])
  const dirty = JSON.stringify(saved) !== JSON.stringify(list)
  useUnsavedChanges(dirty)
  /** saves the list; the answer becomes the saved and the shown list */
  const store = async (to: string) => {
    const d = await patch<Setting[]>(to, { notifications: list })
    setSaved(d)
    setList(d)
  }
  return { list, setList, error, dirty, store }
}

function PersonalNotifications() {
  const s = useSettings('/proxy/api/notifications/user')
  const { busy, save } = useSave(() => s.store('/proxy/api/notifications?user=true'), 'settings.notifications.saved')
  return (
    <Card>
      <h2>{t('settings.notifications')}</h2>
      {s.error && <Alert tone="error">{s.error}</Alert>}
      {!s.list && !s.error && <Spinner />}
      {s.list && s.list.length === 0 && <p class="muted">{t('settings.notifications.none')}</p>}
      {s.list && s.list.length > 0 && (
        <>
          <SettingsList name="personal" list={s.list} inherit={false} onChange={(code, v) => s.setList(s.list!.map((x) => (x.code === code ? { ...x, enabled: v } : x)))} />
          <div class="form-actions">
            <Button busy={busy} onClick={save} disabled={!s.dirty}>
              {t('common.save')}
            </Button>
          </div>
        </>
      )}
    </Card>
  )
}

/** Per-agency notifications; the guest variant lists agencies with a name filter and load more. */
function AgencyNotifications() {
  const { view } = useAuth()
  const { data: accounts } = useResource<AccountDto[]>('/proxy/api/user/accounts')
  // guest-role accounts are excluded: they have no agency-level settings
  const choices = (accounts ?? []).filter((a) => !isGuestRole(a.userRole) && a.status === 'OK')
  const [accountId, setAccountId] = useState<number | null>(null)
  const [filter, setFilter] = useState('')
  const [shown, setShown] = useState(ACCOUNTS_PAGE)
  const chosen = choices.find((a) => a.id === accountId) ?? (view === 'admin' ? choices[0] : null) ?? null
  const s = useSettings(chosen ? `/proxy/api/notifications/account/${chosen.id}` : null)
  const { busy, save } = useSave(() => s.store(`/proxy/api/notifications?accountId=${chosen!.id}`), 'settings.notifications.saved')
  if (!accounts) return <Spinner />
  if (choices.length === 0) return null
  const label = (a: AccountDto) => `${a.agency.internalName || a.agency.displayName} / ${t(`role.${a.userRole}`)}`
  const q = filter.trim().toLowerCase()
  const filtered = q ? choices.filter((a) => label(a).toLowerCase().includes(q)) : choices
  return (
    <Card>
      <h2>{t('settings.agencyNotifications')}</h2>
      <p class="muted">{t('settings.agencyNotifications.intro')}</p>
      {view === 'admin' ? (
        <div class="field">
          <label for="agency-notifications">{t('settings.agencyNotifications.agency')}</label>
          <select id="agency-notifications" value={chosen?.id ?? ''} onChange={(e) => setAccountId(Number((e.target as HTMLSelectElement).value))}>
            {choices.map((a) => (
              <option key={a.id} value={a.id}>
                {label(a)}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <div class="agency-picker">
          {choices.length > FILTER_ABOVE && <input type="search" aria-label={t('settings.agencyNotifications.filter')} placeholder={t('settings.agencyNotifications.filter')} value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />}
          <ul class="account-list">
            {filtered.slice(0, shown).map((a) => (
              <li key={a.id}>
                <button type="button" class={`account-entry ${chosen?.id === a.id ? 'active' : ''}`} aria-pressed={chosen?.id === a.id} onClick={() => setAccountId(a.id)}>
                  {label(a)}
                </button>
              </li>
            ))}
          </ul>
          {filtered.length > shown && (
            <Button variant="secondary" onClick={() => setShown(shown + ACCOUNTS_PAGE)}>
              {t('auth.chooseAccount.more')}
            </Button>
          )}
        </div>
      )}
      {s.error && <Alert tone="error">{s.error}</Alert>}
      {chosen && !s.list && !s.error && <Spinner />}
      {chosen && s.list && (
        <>
          <SettingsList name={`agency-${chosen.id}`} list={s.list} inherit onChange={(code, v) => s.setList(s.list!.map((x) => (x.code === code ? { ...x, enabled: v } : x)))} />
          <div class="form-actions">
            <Button busy={busy} onClick={save} disabled={!s.dirty}>
              {t('common.save')}
            </Button>
          </div>
        </>
      )}
    </Card>
  )
}
