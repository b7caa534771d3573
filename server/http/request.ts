// Per-request helpers that do not need a plugin: language choice (the client address: client-address.ts).
import { resolveLanguage } from '../i18n/languages'

export function requestLanguage(request: Request, features: readonly string[] = []): string {
  return resolveLanguage(request.headers.get('x-language') ?? request.headers.get('accept-language'), features)
}
