// The desk on a check-in list (docs/organiser.md "Check-in-Listen"): the chooser (remembered per event
// in this browser), the list's id for lookup, check-in and counts, and why the list does not admit a
// person (their own ticket's category), said before anyone taps "Einchecken".
import { useEffect, useState } from 'preact/hooks'
import type { Person } from '../../../server/modules/checkin/model'
import { get } from '../../api/client'
import { t } from '../../i18n'
import type { CheckinList } from './checkin-lists'

const storageKey = (eventId: number) => `einlass.checkinList.${eventId}`

function stored(eventId: number): number | null {
  try {
    const v = Number(localStorage.getItem(storageKey(eventId)))
    return Number.isInteger(v) && v > 0 ? v : null
  } catch {
    return null
  }
}

/** The event's lists and the one this desk works on (null: the event as a whole). */
export function useDeskList(eventId: number) {
  const [lists, setLists] = useState<CheckinList[]>([])
  const [chosen, setChosen] = useState<number | null>(() => stored(eventId))
  useEffect(() => {
    setChosen(stored(eventId))
    get<{ items: CheckinList[] }>(`/proxy/api/events/${eventId}/checkin/lists`).then((r) => setLists(r.items), () => setLists([]))
  }, [eventId])
  // a remembered list that was deleted since: the event as a whole
  const listId = chosen !== null && lists.some((l) => l.id === chosen) ? chosen : null
  const choose = (id: number | null) => {
    setChosen(id)
    try {
      if (id === null) localStorage.removeItem(storageKey(eventId))
      else localStorage.setItem(storageKey(eventId), String(id))
    } catch {
      // private mode: chosen for this visit only
    }
  }
  return { lists, listId, list: lists.find((l) => l.id === listId) ?? null, choose }
}

/** `&listId=…` for the desk's GET calls, or nothing. */
export const listParam = (listId: number | null, first = false) => (listId ? `${first ? '?' : '&'}listId=${listId}` : '')

export function DeskListChooser({ lists, listId, onChange }: { lists: CheckinList[]; listId: number | null; onChange(id: number | null): void }) {
  if (!lists.length) return null
  return (
    <div class="desk-list field">
      <label for="desk-list">{t('checkin.lists.chooser')}</label>
      <select id="desk-list" value={listId ?? ''} onChange={(e) => onChange(Number((e.target as HTMLSelectElement).value) || null)}>
        <option value="">{t('checkin.lists.wholeEvent')}</option>
        {lists.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Why the desk's list does not admit this person, in the desk's words (the check-in's own refusal). */
export const refusalText = (p: Person): string | null => (p.listRefusal ? t(`errors.${p.listRefusal.errorType}`, p.listRefusal.params) : null)

/**
 * The refusal to show at once after a lookup: when the list admits none of the persons the scan is
 * about (the scanned person of a personal code, else all of the registration).
 */
export function scanRefusal(persons: Person[], scanned: number | null): string | null {
  const concerned = scanned === null ? persons : persons.filter((p) => p.person === scanned)
  if (!concerned.length || concerned.some((p) => !p.listRefusal)) return null
  return refusalText(concerned[0])
}

/** The persons a check-in answered, keeping what the lookup said about the list (the answer does not repeat it). */
export const withRefusals = (before: Person[], after: Person[]): Person[] =>
  after.map((p) => ({ ...p, listRefusal: before.find((b) => b.person === p.person)?.listRefusal ?? null }))
