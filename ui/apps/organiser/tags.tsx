// Tags, campaigns and short links of the agency.
import { useState } from 'preact/hooks'
import { errorText, get, patch, post, del } from '../../api/client'
import { useResource } from '../../components/hooks'
import { toast } from '../../components/overlay'
import { Alert, Badge, Button, Card, EmptyState, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { type Label, LabelPicker, usePermission, usePostResource } from './common'

function LabelSection({ kind }: { kind: 'tags' | 'campaigns' }) {
  const canManage = usePermission('TAG.MANAGE')
  const [name, setName] = useState('')
  const [type, setType] = useState('DEFAULT')
  const [filterType, setFilterType] = useState('')
  const { data, error, reload } = usePostResource<{ items: Label[] }>(kind === 'tags' ? '/proxy/api/tags/search' : '/proxy/api/campaigns/search', kind === 'tags' ? { type: filterType || undefined, paging: { perPage: 9999 } } : { paging: { perPage: 9999 } })
  const add = async () => {
    if (!name.trim()) return
    try {
      const r = await post<Label>(kind === 'tags' ? '/proxy/api/tags' : '/proxy/api/campaigns', { displayName: name, ...(kind === 'tags' ? { type } : {}) })
      toast(data?.items.some((x) => x.id === r.id) ? t('tags.exists', { name: r.displayName }) : t('tags.created', { name: r.displayName }))
      setName('')
      void reload()
    } catch (e) {
      toast(errorText(e), 'error')
    }
  }
  return (
    <Card>
      <div class="card-head">
        <h2>{t(`tags.${kind}`)}</h2>
        {kind === 'tags' && (
          <label class="inline-select">
            <span>{t('tags.type')}</span>
            <select value={filterType} onChange={(e) => setFilterType((e.target as HTMLSelectElement).value)}>
              <option value="">{t('tags.type.ALL')}</option>
              <option value="DEFAULT">{t('tags.type.DEFAULT')}</option>
              <option value="LOCATION">{t('tags.type.LOCATION')}</option>
            </select>
          </label>
        )}
      </div>
      {canManage && (
        <form
          class="toolbar"
          onSubmit={(e) => {
            e.preventDefault()
            void add()
          }}
        >
          <label class="search">
            <span class="sr-only">{t(`tags.new.${kind}`)}</span>
            <input value={name} placeholder={t(`tags.new.${kind}`)} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          {kind === 'tags' && (
            <select aria-label={t('tags.type')} value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
              <option value="DEFAULT">{t('tags.type.DEFAULT')}</option>
              <option value="LOCATION">{t('tags.type.LOCATION')}</option>
            </select>
          )}
          <Button type="submit">{t('tags.add')}</Button>
        </form>
      )}
      <p class="muted">{t('tags.groupHint')}</p>
      {error && <Alert tone="error">{errorText(error)}</Alert>}
      {!data && !error && <Spinner />}
      {data && data.items.length === 0 && <EmptyState>{t('tags.empty')}</EmptyState>}
      {data && data.items.length > 0 && (
        <ul class="label-list">
          {data.items.map((l) => (
            <li key={l.id}>
              <span class="chip">
                {l.group && <span class="chip-group">{l.group}</span>}
                {l.name}
              </span>
              {l.type === 'LOCATION' && <Badge tone="info">{t('tags.type.LOCATION')}</Badge>}
              {canManage && (
                <span class="button-row">
                  <Button
                    variant="ghost"
                    onClick={async () => {
                      const n = prompt(t('tags.rename'), l.displayName)
                      if (!n || n === l.displayName) return
                      try {
                        await patch(`/proxy/api/${kind}/${l.id}`, { displayName: n })
                        void reload()
                      } catch (e) {
                        toast(errorText(e), 'error')
                      }
                    }}
                  >
                    {t('tags.rename')}
                  </Button>
                  <Button
                    variant="ghost"
                    onClick={async () => {
                      try {
                        await del(`/proxy/api/${kind}/${l.id}`)
                        void reload()
                      } catch (e) {
                        toast(errorText(e), 'error')
                      }
                    }}
                  >
                    {t('common.delete')}
                  </Button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

interface ShortLink {
  id: number
  code: string
  url: string
  eventId: number
  eventName: string | null
  tagIds: number[]
  campaignId: number | null
  clicks: number
}

function ShortLinks() {
  const canManage = usePermission('TAG.MANAGE')
  const { data: events } = useResource<Array<{ id: number; displayName: string }>>('/proxy/api/events/autoCompleteList')
  const [eventId, setEventId] = useState('')
  const [code, setCode] = useState('')
  // what registrations through the link get (docs/organiser.md, short links)
  const [tagIds, setTagIds] = useState<number[]>([])
  const [campaignId, setCampaignId] = useState('')
  const { data: tags } = usePostResource<{ items: Label[] }>('/proxy/api/tags/search', { paging: { perPage: 9999 } })
  const { data: campaigns } = useResource<Label[]>('/proxy/api/campaigns')
  const [remove, setRemove] = useState<ShortLink | null>(null)
  const [typed, setTyped] = useState('')
  const [list, setList] = useState<ShortLink[] | null>(null)
  const load = () => post<ShortLink[]>('/proxy/api/tags/shortLinks', {}).then(setList, () => setList([]))
  if (list === null) void load()
  void get
  return (
    <Card>
      <h2>{t('tags.shortLinks')}</h2>
      {canManage && (
        <form
          class="short-link-form"
          onSubmit={async (e) => {
            e.preventDefault()
            if (!eventId) return
            try {
              await post('/proxy/api/shortLinks', { eventId: Number(eventId), code: code || null, tagIds, campaignId: campaignId ? Number(campaignId) : null })
              setCode('')
              setTagIds([])
              setCampaignId('')
              void load()
            } catch (err) {
              toast(errorText(err), 'error')
            }
          }}
        >
          <div class="toolbar">
          <select aria-label={t('tags.shortLinkEvent')} value={eventId} onChange={(e) => setEventId((e.target as HTMLSelectElement).value)}>
            <option value="">{t('tags.shortLinkEvent')}</option>
            {events?.map((ev) => (
              <option key={ev.id} value={ev.id}>
                {ev.displayName}
              </option>
            ))}
          </select>
          <label class="search">
            <span class="sr-only">{t('tags.shortLinkCode')}</span>
            <input value={code} placeholder={t('tags.shortLinkCode')} onInput={(e) => setCode((e.target as HTMLInputElement).value)} />
          </label>
          <select aria-label={t('tags.shortLinkCampaign')} value={campaignId} onChange={(e) => setCampaignId((e.target as HTMLSelectElement).value)}>
            <option value="">{t('tags.shortLinkNoCampaign')}</option>
            {campaigns?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.displayName}
              </option>
            ))}
          </select>
          </div>
          <LabelPicker id="sl-tags" kind="tags" label={t('tags.shortLinkTags')} value={tagIds} onChange={setTagIds} />
          <p class="muted">{t('tags.shortLinkHint')}</p>
          <Button type="submit" disabled={!eventId}>
            {t('tags.shortLinkCreate')}
          </Button>
        </form>
      )}
      {list && list.length === 0 && <EmptyState>{t('tags.noShortLinks')}</EmptyState>}
      {list && list.length > 0 && (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th>{t('tags.shortLink')}</th>
                <th>{t('tags.shortLinkEvent')}</th>
                <th>{t('tags.shortLinkLabels')}</th>
                <th>{t('tags.clicks')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id}>
                  <td>
                    <a href={s.url} target="_blank" rel="noopener">
                      {s.url}
                    </a>
                  </td>
                  <td>{s.eventName}</td>
                  <td>
                    <span class="chips">
                      {s.tagIds.map((id) => tags?.items.find((x) => x.id === id)).filter((x): x is Label => !!x).map((x) => (
                        <span key={x.id} class="chip chip-small">
                          {x.displayName}
                        </span>
                      ))}
                      {s.campaignId && campaigns?.find((c) => c.id === s.campaignId) && <span class="chip chip-small chip-campaign">{campaigns.find((c) => c.id === s.campaignId)!.displayName}</span>}
                    </span>
                  </td>
                  <td>{s.clicks}</td>
                  <td>
                    {canManage && (
                      <Button variant="ghost" onClick={() => (setRemove(s), setTyped(''))}>
                        {t('common.delete')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {remove && (
        <ConfirmDialog
          title={t('tags.shortLinkDelete')}
          confirmLabel={t('common.delete')}
          danger
          onClose={() => setRemove(null)}
          onConfirm={async () => {
            await del(`/proxy/api/shortLinks/${remove.id}`, { code: typed })
            void load()
          }}
        >
          <p>{t('tags.shortLinkDeleteText', { code: remove.code })}</p>
          <div class="field field-full">
            <label for="sl-confirm">{t('tags.shortLinkCode')}</label>
            <input id="sl-confirm" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
          </div>
        </ConfirmDialog>
      )}
    </Card>
  )
}

export function TagsPage() {
  return (
    <>
      <PageHeader title={t('tags.title')} />
      <div class="two-col">
        <LabelSection kind="tags" />
        <LabelSection kind="campaigns" />
      </div>
      <ShortLinks />
    </>
  )
}
