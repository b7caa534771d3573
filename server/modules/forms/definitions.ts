// The shapes of a registration form: field definitions (as the organiser configures them) and the
// visitor data a guest submits. Pure TypeScript shared by the server, the form builder, the public
// page and the admin mode; no server imports.

export const FIELD_TYPES = [
  'TEXT',
  'TEXTAREA',
  'NUMBER',
  'TIME',
  'DATE',
  'DATE_TIME',
  'YES_NO',
  'LIST',
  'SMARTLIST',
  'TIMESLOT',
  'IMAGE',
  'FILE',
  'ADDRESS',
  'COMPANY_ADDRESS',
  'COUNTRY',
  'GENDER',
  'DELEGATE_EMAIL',
  'SEPARATOR',
  'COVID_STATE',
  'EXPLANATION',
  'DYNAMIC_DEFAULT_FIELD',
] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/** Types an organiser adds from the palette (default fields come with their code). */
export const CUSTOM_FIELD_TYPES = FIELD_TYPES.filter((t) => t !== 'DYNAMIC_DEFAULT_FIELD')

export const DEFAULT_FIELD_CODES = [
  'SALUTATION',
  'TITLE',
  'FIRST_NAME',
  'LAST_NAME',
  'EMAIL',
  'IMAGE',
  'BIRTHDAY',
  'GENDER',
  'PHONE_NUMBER',
  'MOBILE_PHONE_NUMBER',
  'COVID_STATE',
  'ADDRESS',
  'COMPANY',
  'POSITION',
  'WEB',
  'INFO',
  'COMPANY_ADDRESS',
  'VIP',
  'ESCORT_NAME',
  'ESCORT_TITLE',
  'ESCORT_SALUTATION',
  'ESCORT_COMPANY',
  'ESCORT_POSITION',
  'ESCORT_PHONE_NUMBER',
  'ESCORT_WEB',
  'ESCORT_INFO',
  'ESCORT_ADDRESS',
  'ESCORT_EMAIL',
  'ESCORT_BIRTHDAY',
  'ESCORT_COVID_STATE',
] as const
export type DefaultFieldCode = (typeof DEFAULT_FIELD_CODES)[number]

export const ESCORT_CODES = DEFAULT_FIELD_CODES.filter((c) => c.startsWith('ESCORT_'))
export const isEscortCode = (c: string | null | undefined) => !!c && c.startsWith('ESCORT_')

/** Default fields that are the visitor's basic data (columns of the registration, not field values). */
export const BASIC_CODES = ['SALUTATION', 'TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL'] as const
export type BasicCode = (typeof BASIC_CODES)[number]
export const BASIC_KEY: Record<BasicCode, 'salutation' | 'title' | 'firstName' | 'lastName' | 'email'> = {
  SALUTATION: 'salutation',
  TITLE: 'title',
  FIRST_NAME: 'firstName',
  LAST_NAME: 'lastName',
  EMAIL: 'email',
}
/** Default fields that can never be hidden, removed or made optional. */
export const LOCKED_CODES: readonly string[] = ['FIRST_NAME', 'LAST_NAME']

export const APPEARANCES = ['HIDDEN', 'VISIBLE', 'REQUIRED'] as const
export type Appearance = (typeof APPEARANCES)[number]
export const SIZES = ['DEFAULT', 'FULL', 'HALF'] as const
export type FieldSize = (typeof SIZES)[number]

export const SALUTATIONS = ['Herr', 'Frau', 'Divers'] as const
export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const
export const COVID_STATES = ['UNKNOWN', 'NOTHING', 'VACCINATED', 'RECOVERED', 'TESTED'] as const

export const OPERATORS = ['EQUALS', 'NOT_EQUALS', 'IS_EMPTY', 'IS_NOT_EMPTY', 'GREATER_THEN', 'GREATER_OR_EQUAL', 'LESS_THEN', 'LESS_OR_EQUAL', 'IS_TRUE', 'IS_FALSE'] as const
export type Operator = (typeof OPERATORS)[number]
/** The condition source that is not a field: the registration's VIP flag. */
export const VIP_SOURCE = 'VIP' as const

export interface Condition {
  /** id of the field whose value decides, or 'VIP' */
  fieldId: number | typeof VIP_SOURCE
  operator: Operator
  /** compared value (EQUALS/NOT_EQUALS/number comparisons); for TIMESLOT a timeslot id */
  value?: string | number | null
}

export interface Translation {
  language: string
  displayName: string
}

export interface DefinedGroup {
  id: string
  displayName: string
}

export interface DefinedValue {
  id: number
  displayName: string
  description: string | null
  translations: Translation[]
  group: string | null
  /** places left: 0 = out of stock, negative = unlimited */
  freeValue: number
  /** how many the organiser offers (-1 unlimited); freeValue = capacity - taken */
  capacity: number
  minPerGuest: number
  /** -1 = unlimited */
  maxPerGuest: number
  sortOrder: number
}

export interface Timeslot {
  id: number
  displayName: string
  dateInfo: string | null
  dateTimezoneInfo: string | null
  /** places left; negative = unlimited */
  freeSlots: number
  capacity: number
  groupId: string | null
  sortOrder: number
}

export interface FieldSettings {
  /** DATE: the birthday variant (DD.MM.YYYY mask, 1899-01-01 … today, ages) */
  birthday?: boolean
  minAge?: number | null
  maxAge?: number | null
  /** EXPLANATION: the text shown */
  text?: string | null
  /** NUMBER: upper bound */
  max?: number | null
  /** placeholder / hint under the field */
  hint?: string | null
}

export interface FieldDef {
  id: number
  type: FieldType
  defaultField: DefaultFieldCode | null
  displayName: string
  translations: Translation[]
  appearance: Appearance
  size: FieldSize
  sortOrder: number
  locked: boolean
  autocomplete: string | null
  conditions: Condition[]
  /** LIST options */
  values: string[]
  customValue: boolean
  multiple: boolean
  amountSelection: boolean
  /** -1 = unlimited */
  maxPerGuest: number
  hideUnavailable: boolean
  definedValues: DefinedValue[]
  definedGroups: DefinedGroup[]
  hasDefinedGroups: boolean
  showDefinedGroupsAsTabs: boolean
  timeslots: Timeslot[]
  settings: FieldSettings
}

/** A field with every option at its default (server's default form, tests); the caller sets the rest. */
export const blankFieldDef = (over: Partial<FieldDef> & Pick<FieldDef, 'id' | 'type'>): FieldDef => ({
  defaultField: null,
  displayName: '',
  translations: [],
  appearance: 'VISIBLE',
  size: 'DEFAULT',
  sortOrder: over.id,
  locked: false,
  autocomplete: null,
  conditions: [],
  values: [],
  customValue: false,
  multiple: false,
  amountSelection: false,
  maxPerGuest: -1,
  hideUnavailable: false,
  definedValues: [],
  definedGroups: [],
  hasDefinedGroups: false,
  showDefinedGroupsAsTabs: false,
  timeslots: [],
  settings: {},
  ...over,
})

/** What a field holds in the visitor data. */
export interface ListValue {
  selected: string[]
  /** null: the own-value option is not chosen; '' chosen but empty */
  custom: string | null
}
export interface Selection {
  /** SMARTLIST: the defined value's id */
  fieldValueId: number
  amount: number
}
export interface SlotSelection {
  timeslotId: number
  amount: number
  /** the reservation that holds the place (not in admin mode) */
  reservationToken?: string | null
}
export interface AddressValue {
  street?: string | null
  streetNumber?: string | null
  postCode?: string | null
  city?: string | null
  country?: string | null
}
export interface AssetValue {
  assetId: number
  fileName?: string | null
}
export type FieldValue = string | number | boolean | ListValue | Selection[] | SlotSelection[] | AddressValue | AssetValue | null

export interface EscortData {
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
  address?: AddressValue | null
}

export interface VisitorData {
  salutation?: string | null
  title?: string | null
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  /** field id → value (every field that is not basic data) */
  fields: Record<string, FieldValue | undefined>
  escortPersons: EscortData[]
}

/** What the engine needs to know about the event and the situation. */
export interface FormContext {
  now: Date
  /** event start (ISO): ages are computed relative to it */
  eventStart: string
  /** two-letter phone region, default 'de' */
  defaultPhoneLocale: string
  disabledCovidStates: readonly string[]
  /** -1 unlimited, else the most persons (main guest + escorts) per registration */
  maxVisitorPerSubscription: number
  /** the registration's VIP flag (admin mode sets it; public registrations are not VIP) */
  vip: boolean
  /** organiser registering a guest: missing fields are saved with a warning, no reservations */
  admin: boolean
  language?: string
}

/** The effective kind of a field: default fields render like one of the generic types. */
export type FieldKind =
  | 'TEXT'
  | 'TEXTAREA'
  | 'EMAIL'
  | 'PHONE'
  | 'URL'
  | 'SALUTATION'
  | Exclude<FieldType, 'TEXT' | 'TEXTAREA' | 'DYNAMIC_DEFAULT_FIELD'>
  | 'VIP'
  | 'ESCORT'

const DEFAULT_KIND: Record<DefaultFieldCode, FieldKind> = {
  SALUTATION: 'SALUTATION',
  TITLE: 'TEXT',
  FIRST_NAME: 'TEXT',
  LAST_NAME: 'TEXT',
  EMAIL: 'EMAIL',
  IMAGE: 'IMAGE',
  BIRTHDAY: 'DATE',
  GENDER: 'GENDER',
  PHONE_NUMBER: 'PHONE',
  MOBILE_PHONE_NUMBER: 'PHONE',
  COVID_STATE: 'COVID_STATE',
  ADDRESS: 'ADDRESS',
  COMPANY: 'TEXT',
  POSITION: 'TEXT',
  WEB: 'URL',
  INFO: 'TEXTAREA',
  COMPANY_ADDRESS: 'COMPANY_ADDRESS',
  VIP: 'VIP',
  ESCORT_NAME: 'ESCORT',
  ESCORT_TITLE: 'ESCORT',
  ESCORT_SALUTATION: 'ESCORT',
  ESCORT_COMPANY: 'ESCORT',
  ESCORT_POSITION: 'ESCORT',
  ESCORT_PHONE_NUMBER: 'ESCORT',
  ESCORT_WEB: 'ESCORT',
  ESCORT_INFO: 'ESCORT',
  ESCORT_ADDRESS: 'ESCORT',
  ESCORT_EMAIL: 'ESCORT',
  ESCORT_BIRTHDAY: 'ESCORT',
  ESCORT_COVID_STATE: 'ESCORT',
}

export function kindOf(f: Pick<FieldDef, 'type' | 'defaultField'>): FieldKind {
  if (f.defaultField) return DEFAULT_KIND[f.defaultField]
  if (f.type === 'DYNAMIC_DEFAULT_FIELD') return 'TEXT'
  return f.type as FieldKind
}

/** Field widths of the spec: 100% for FULL and the wide types, otherwise 50%. */
const WIDE: readonly string[] = ['SEPARATOR', 'COVID_STATE', 'SMARTLIST', 'TEXTAREA', 'ADDRESS', 'TIMESLOT', 'EXPLANATION']
export function widthOf(f: Pick<FieldDef, 'type' | 'size' | 'defaultField'>): 'full' | 'half' {
  if (f.size === 'FULL') return 'full'
  if (f.size === 'HALF') return 'half'
  const k = kindOf(f)
  return WIDE.includes(f.type) || WIDE.includes(k) ? 'full' : 'half'
}

/** Defined groups show as tabs when there are 3 or fewer (or the field asks for it). */
export const groupsAsTabs = (f: Pick<FieldDef, 'definedGroups' | 'hasDefinedGroups' | 'showDefinedGroupsAsTabs'>) =>
  f.hasDefinedGroups && f.definedGroups.length > 0 && (f.showDefinedGroupsAsTabs || f.definedGroups.length <= 3)

/** Operators allowed per type of the field a condition reads (guest-side.md 5). */
export function operatorsFor(source: Pick<FieldDef, 'type' | 'defaultField'> | typeof VIP_SOURCE): readonly Operator[] {
  if (source === VIP_SOURCE) return ['IS_TRUE', 'IS_FALSE']
  const k = kindOf(source)
  if (k === 'VIP' || k === 'YES_NO') return ['IS_TRUE', 'IS_FALSE']
  if (k === 'NUMBER') return ['EQUALS', 'NOT_EQUALS', 'IS_EMPTY', 'IS_NOT_EMPTY', 'GREATER_THEN', 'GREATER_OR_EQUAL', 'LESS_THEN', 'LESS_OR_EQUAL']
  if (k === 'SEPARATOR' || k === 'EXPLANATION' || k === 'ESCORT') return []
  return ['EQUALS', 'NOT_EQUALS', 'IS_EMPTY', 'IS_NOT_EMPTY']
}

/** Fields without a value of their own. */
export const isDecoration = (f: Pick<FieldDef, 'type'>) => f.type === 'SEPARATOR' || f.type === 'EXPLANATION'

/** The label in a language: a translation if there is one, else the display name. */
export function labelOf(f: { displayName: string; translations?: Translation[] }, language = 'de'): string {
  if (language !== 'de') {
    const tr = f.translations?.find((t) => t.language === language && t.displayName.trim())
    if (tr) return tr.displayName
  }
  return f.displayName
}

/** Default upper bound of a multi-choice amount when maxPerGuest is unlimited. */
export const DEFAULT_AMOUNT_BOUND = 10
