// Per-request helpers that do not need a plugin: language choice and client address.
import { resolveLanguage } from '../i18n/languages'

export function requestLanguage(request: Request, features: readonly string[] = []): string {
  return resolveLanguage(request.headers.get('x-language') ?? request.headers.get('accept-language'), features)
}

export function clientIp(request: Request, server?: { requestIP(r: Request): { address: string } | null } | null): string {
  return server?.requestIP(request)?.address ?? request.headers.get('x-forwarded-for')?.split(',')[0].trim() ?? 'unknown'
}
