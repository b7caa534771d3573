// An escort person as the form engine checked it, in escort_person's columns: registering and the
// guest's own escort edits write the same row shape.
import type { EscortPersonTable } from './visitors.table'

export interface EscortValues {
  salutation?: string | null
  title?: string | null
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  company?: string | null
  position?: string | null
  phoneNumber?: string | null
  web?: string | null
  info?: string | null
  birthday?: string | null
  covidState?: string | null
  address?: { street?: string | null; streetNumber?: string | null; postCode?: string | null; city?: string | null; country?: string | null } | null
}

export const escortColumns = (e: EscortValues) =>
  ({
    salutation: e.salutation ?? null,
    title: e.title ?? null,
    first_name: e.firstName ?? null,
    last_name: e.lastName ?? null,
    email: e.email ?? null,
    company: e.company ?? null,
    position: e.position ?? null,
    phone_number: e.phoneNumber ?? null,
    web: e.web ?? null,
    info: e.info ?? null,
    birthday: e.birthday ?? null,
    covid_state: e.covidState ?? null,
    street: e.address?.street ?? null,
    street_number: e.address?.streetNumber ?? null,
    post_code: e.address?.postCode ?? null,
    city: e.address?.city ?? null,
    country: e.address?.country ?? null,
  }) satisfies Partial<Record<keyof EscortPersonTable, unknown>>
