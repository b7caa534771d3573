// One file of the queue in the browser: the checks with the spec's German texts, the shrink on a
// canvas, then POST /proxy/api/asset through XMLHttpRequest (fetch reports no upload progress).
import { ApiError, reportAuthError, session } from '../../api/client'
import { currentLanguage, t } from '../../i18n'
import { type CheckFailure, checkFile, checkPixels, IMAGE_EXTENSIONS, extensionOf, shrinkTarget } from './checks'
import type { SendArgs } from './queue'

export interface UploadedAsset {
  id: number
  originalFileName: string
  mimeType: string
  defaultImagePath: string | null
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly errorType: string,
  ) {
    super(message)
  }
}

const failureText = (f: CheckFailure) => t(`errors.${f.code}`, 'mb' in f ? { mb: f.mb } : 'extensions' in f ? { extensions: f.extensions } : undefined)

async function decode(file: File): Promise<HTMLImageElement | null> {
  const url = URL.createObjectURL(file)
  try {
    const img = new Image()
    img.src = url
    await img.decode()
    return img
  } catch {
    return null
  } finally {
    URL.revokeObjectURL(url)
  }
}

/** The file as it is uploaded: checked, and an image over 2000 px drawn smaller. */
export async function prepareFile(file: File, uploadType: string): Promise<File> {
  const failed = checkFile(file, uploadType)
  if (failed) throw new UploadError(failureText(failed), failed.code)
  if (!IMAGE_EXTENSIONS.includes(extensionOf(file.name))) return file
  const img = await decode(file)
  // an image the browser cannot read goes to the server, which answers why
  if (!img) return file
  const tooLarge = checkPixels(img.naturalWidth, img.naturalHeight)
  if (tooLarge) throw new UploadError(failureText(tooLarge), tooLarge.code)
  const target = shrinkTarget(img.naturalWidth, img.naturalHeight, file.type || `image/${extensionOf(file.name).replace('jpg', 'jpeg')}`)
  if (!target) return file
  const canvas = document.createElement('canvas')
  canvas.width = target.width
  canvas.height = target.height
  canvas.getContext('2d')!.drawImage(img, 0, 0, target.width, target.height)
  const blob = await new Promise<Blob | null>((res) => canvas.toBlob(res, target.type, target.quality))
  if (!blob) return file
  const ext = target.type === 'image/jpeg' ? (extensionOf(file.name) === 'jpeg' ? 'jpeg' : 'jpg') : extensionOf(file.name)
  return new File([blob], file.name.replace(/\.[a-z0-9]+$/i, `.${ext}`), { type: target.type })
}

/** Uploads one prepared file; progress 0–100 from the request's upload events; abortable. */
export function xhrUpload(file: File, a: Pick<SendArgs, 'crypted' | 'uploadType' | 'storeOwnMedia' | 'onProgress' | 'signal'>): Promise<UploadedAsset> {
  return new Promise((resolve, reject) => {
    const form = new FormData()
    form.append('file', file)
    form.append('fileName', file.name)
    form.append('type', a.uploadType)
    form.append('secure', String(a.crypted))
    form.append('storeOwnMedia', String(a.storeOwnMedia))
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/proxy/api/asset')
    xhr.setRequestHeader('accept', 'application/json')
    xhr.setRequestHeader('x-language', currentLanguage())
    if (session.accountId) xhr.setRequestHeader('x-account-id', session.accountId)
    xhr.upload.onprogress = (e) => e.lengthComputable && a.onProgress((e.loaded / e.total) * 100)
    xhr.onload = () => {
      let body: Record<string, any> = {}
      try {
        body = JSON.parse(xhr.responseText)
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as UploadedAsset)
      const err = new ApiError(xhr.status, body.errorType ?? 'INTERNAL_ERROR', body.errorMessage ?? xhr.statusText, body.errorTranslation, body.errorFields ?? [], body)
      reportAuthError(err)
      reject(new UploadError(err.errorType === 'UPLOAD_LIMIT_REACHED' ? t('errors.UPLOAD_LIMIT_REACHED') : err.errorTranslation || err.errorMessage, err.errorType))
    }
    xhr.onerror = () => reject(new UploadError('Keine Verbindung zum Server.', 'NETWORK'))
    xhr.onabort = () => reject(new UploadError(t('upload.aborted'), 'ABORTED'))
    a.signal.addEventListener('abort', () => xhr.abort())
    xhr.send(form)
  })
}

export const sendFile = async (a: SendArgs): Promise<UploadedAsset> => xhrUpload(await prepareFile(a.file, a.uploadType), a)
