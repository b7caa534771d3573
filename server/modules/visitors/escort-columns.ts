// An escort person as the form engine checked it, in escort_person's columns: registering and the
// guest's own escort edits write the same row shape.
import type { EscortData } from '../forms/definitions'
import type { EscortPersonTable } from './visitors.table'


export const escortColumns = (e: EscortData) =>
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
