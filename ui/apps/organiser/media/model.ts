// The media gallery's payloads as the UI reads them (server/modules/media; docs/media.md).
export const GALLERY = '/proxy/api/mediaGallery'
export const PAGE_SIZES = [2, 10, 20, 50] as const

export interface MediaCategory {
  id: number
  displayName: string
  entryCount: number
}

export interface MediaEntry {
  id: number
  categoryId: number
  assetId: number
  asset: { id: number; defaultImagePath: string | null; originalFileName: string | null }
  lastModified: string
  displayName: string
  copyright: string | null
  note: string | null
  validFrom: string | null
  validUntil: string | null
  valid: boolean
}

export interface EntryPage {
  items: MediaEntry[]
  total: number
  page: number
  perPage: number
}

export const thumbnail = (e: MediaEntry) => `/proxy/api/asset/${e.assetId}?dimension=Regular_400`
