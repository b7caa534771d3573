// The browser's checks before an upload leaves (agency-side.md 8: 20 MB, 10 B, 12000 px, the allowed
// extensions) and the shrink rule (images over 2000 px; JPEG at quality 0.75). Pure; the server
// checks the same again (server/modules/assets/service.ts).

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024
export const MIN_UPLOAD_BYTES = 10
export const MAX_IMAGE_SIDE = 12000
export const SHRINK_ABOVE_PX = 2000
export const JPEG_QUALITY = 0.75

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'gif']
export const FILE_EXTENSIONS = [...IMAGE_EXTENSIONS, 'pdf', 'txt', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'zip']
/** upload types that take images only (as the server's IMAGE_ONLY) */
export const IMAGE_ONLY_TYPES = ['USER', 'EVENT', 'LOGO', 'BG', 'EVENT_GUEST']

export const extensionOf = (name: string) => (/\.([a-z0-9]+)$/i.exec(name)?.[1] ?? '').toLowerCase()

export type CheckFailure = { code: 'UPLOAD_TOO_LARGE'; mb: number } | { code: 'UPLOAD_TOO_SMALL' } | { code: 'UPLOAD_WRONG_EXTENSION'; extensions: string } | { code: 'IMAGE_TOO_LARGE' }

/** Size and extension, before anything is read. */
export function checkFile(file: { name: string; size: number }, uploadType: string): CheckFailure | null {
  if (file.size > MAX_UPLOAD_BYTES) return { code: 'UPLOAD_TOO_LARGE', mb: MAX_UPLOAD_BYTES / 1024 / 1024 }
  if (file.size < MIN_UPLOAD_BYTES) return { code: 'UPLOAD_TOO_SMALL' }
  const allowed = IMAGE_ONLY_TYPES.includes(uploadType) ? IMAGE_EXTENSIONS : FILE_EXTENSIONS
  if (!allowed.includes(extensionOf(file.name))) return { code: 'UPLOAD_WRONG_EXTENSION', extensions: allowed.join(', ') }
  return null
}

/** Pixel size of a decoded image: over 12000 px wide or high is refused. */
export const checkPixels = (width: number, height: number): CheckFailure | null => (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE ? { code: 'IMAGE_TOO_LARGE' } : null)

/**
 * The size an image is drawn at before upload, or null to send it as it is: over 2000 px on its
 * longer side → 2000 px there, the other side in proportion (a JPEG thus 2000 px wide when it is
 * landscape), encoded as the original type; JPEG at quality 0.75. GIF stays as it is (animation;
 * the server shrinks it).
 */
export function shrinkTarget(width: number, height: number, mime: string): { width: number; height: number; type: string; quality?: number } | null {
  if (mime === 'image/gif' || Math.max(width, height) <= SHRINK_ABOVE_PX) return null
  const scale = SHRINK_ABOVE_PX / Math.max(width, height)
  const type = mime === 'image/png' || mime === 'image/webp' ? mime : 'image/jpeg'
  return { width: Math.round(width * scale), height: Math.round(height * scale), type, ...(type === 'image/jpeg' ? { quality: JPEG_QUALITY } : {}) }
}
