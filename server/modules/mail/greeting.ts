// The greeting line of a mail to a guest (issue 10, item 9). German letters greet formally by
// salutation and last name ("Sehr geehrte Frau Becker,"), neutrally by full name when there is no
// gendered salutation ("Guten Tag Kim Lee-Wagner," — no salutation, or Divers), the du form by first
// name ("Hallo Anna,"). Each language of the catalogue has its own forms (mail.greeting.* keys);
// a salutation's text itself never lands in the greeting, nor does an emoji typed into a name.
import { t } from '../../i18n/catalogue'

export interface GreetedPerson {
  salutation?: string | null
  title?: string | null
  firstName?: string | null
  lastName?: string | null
}

const FEMALE = new Set(['frau', 'mrs', 'mrs.', 'ms', 'ms.', 'madame', 'mme', 'signora', 'señora', 'sra.'])
const MALE = new Set(['herr', 'mr', 'mr.', 'monsieur', 'm.', 'signor', 'señor', 'sr.'])

/** Letters, digits, spaces and the punctuation names carry (hyphen, apostrophe, dot); pictographs, emoji and controls go. */
export function cleanNamePart(s: string | null | undefined): string {
  return (s ?? '')
    .replace(/[^\p{L}\p{M}\p{N}\s'’.\-]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
}

export function genderOf(salutation: string | null | undefined): 'female' | 'male' | null {
  const s = cleanNamePart(salutation).toLowerCase()
  if (FEMALE.has(s)) return 'female'
  if (MALE.has(s)) return 'male'
  return null
}

export function mailGreeting(lang: string, p: GreetedPerson): string {
  const title = cleanNamePart(p.title)
  const first = cleanNamePart(p.firstName)
  const last = cleanNamePart(p.lastName)
  const gender = genderOf(p.salutation)
  const full = [title, first, last].filter(Boolean).join(' ')
  if (!full) return t(lang, 'mail.greeting.none')
  if (t(lang, 'mail.greeting.nameForm') === 'FIRST') return t(lang, `mail.greeting.${gender ?? 'neutral'}`, { name: first || full })
  if (gender && last) return t(lang, `mail.greeting.${gender}`, { name: [title, last].filter(Boolean).join(' ') })
  return t(lang, 'mail.greeting.neutral', { name: full })
}
