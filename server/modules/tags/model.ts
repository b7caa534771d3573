// Tags and campaigns (agency-side.md 3 and 5): "group---name" splits into group and name; a name equal
// to an existing one (any case) selects the existing one; new ones get type DEFAULT.
import { z } from 'zod'
import { requiredText } from '../../shared/validation'

export const TAG_TYPES = ['DEFAULT', 'LOCATION'] as const
export const CAMPAIGN_TYPES = ['DEFAULT'] as const
export const GROUP_SEPARATOR = '---'

export function splitGroupName(displayName: string): { group: string | null; name: string } {
  const i = displayName.indexOf(GROUP_SEPARATOR)
  if (i < 0) return { group: null, name: displayName.trim() }
  const group = displayName.slice(0, i).trim()
  const name = displayName.slice(i + GROUP_SEPARATOR.length).trim()
  return { group: group || null, name: name || displayName.trim() }
}

export const TagInput = z.object({ displayName: requiredText(120), type: z.enum(TAG_TYPES).default('DEFAULT') })
export const TagPatch = z.object({ displayName: requiredText(120) })
export const CampaignInput = z.object({ displayName: requiredText(120), type: z.enum(CAMPAIGN_TYPES).default('DEFAULT') })

const Paging = z.object({ page: z.number().int().min(0).default(0), perPage: z.number().int().min(1).max(9999).default(9999) }).default({ page: 0, perPage: 9999 })

export const TagSearch = z.object({
  /** one type or several; default both DEFAULT and LOCATION */
  type: z.union([z.enum(TAG_TYPES), z.array(z.enum(TAG_TYPES)).max(2)]).nullish(),
  search: z.string().trim().max(120).optional(),
  paging: Paging,
})
export const CampaignSearch = z.object({ search: z.string().trim().max(120).optional(), paging: Paging })
