// A paid event's tickets on the public page (docs/ticketing.md): the categories and, loaded with them,
// the chooser (./ticket-picker.tsx, a chunk of its own: most events sell nothing, and the public page
// keeps its budget). The server checks every choice again when the order is created.
import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { get } from '../../api/client'
import { currentLanguage } from '../../i18n'

export interface TicketCategory {
  id: number
  displayName: string
  grossPrice: number
  grossPriceText: string
  available: number | null
  minPerOrder: number
  maxPerOrder: number
  onSale: boolean
  /** selling rules (docs/ticketing.md, "Selling rules") */
  description?: string | null
  saleState?: 'ON_SALE' | 'NOT_YET' | 'ENDED'
  saleFrom?: string | null
  hidden?: boolean
  requiresCategoryId?: number | null
  requiresName?: string | null
}
export interface TicketChoice {
  amounts: Record<number, number>
  couponCode: string
  /** the code that opened hidden categories (sent with the registration) */
  ticketCode?: string
}

export interface TicketCategories {
  eventId: number
  currency: string
  /** the agency's money format: the currency sign before the amount */
  currencyPrefix?: boolean
  maxPerOrder: number
  items: TicketCategory[]
  /** the event has hidden categories: the chooser offers a code field */
  hasHidden?: boolean
  timezone?: string
}

/** What the chooser (./ticket-picker.tsx) is given. */
export interface TicketPickerProps {
  data: TicketCategories
  value: TicketChoice
  errors: Record<string, string>
  seats?: SeatTickets
  onChange(v: TicketChoice): void
}

/** A paid event's categories and the chooser's component, once both are here (null before, and for an event that sells nothing). */
export function useTicketCategories(eventId: number, paid: boolean) {
  const [data, setData] = useState<(TicketCategories & { Picker: ComponentType<TicketPickerProps> }) | null>(null)
  useEffect(() => {
    if (paid)
      void Promise.all([get<TicketCategories>(`/proxy/api/public/events/${eventId}/ticketCategories?language=${currentLanguage()}`), import('./ticket-picker')]).then(([d, m]) => setData({ ...d, Picker: m.TicketPicker }))
  }, [eventId, paid])
  return data
}

/** Seat-bound categories (a price category of the seating plan names them): their amount is the places of the chairs held. */
export interface SeatTickets {
  bound: Set<number>
  amounts: Record<number, number>
}

