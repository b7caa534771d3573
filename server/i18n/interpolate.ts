export function interpolate(text: string, params?: Record<string, string | number | null | undefined>): string {
  if (!params) return text
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] == null ? m : String(params[k])))
}
