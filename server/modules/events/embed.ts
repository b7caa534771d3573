// The one embed code for the registration frame, used by the "Einbetten" dialog (through
// GET /proxy/api/events/{id}/embed) and the form page: an iframe that starts 450 px high and the
// helper script /embed.js that lets it grow with the form (einlass:height) and scroll the host page
// (einlass:scroll). A fixed-height iframe scrolled inside the page on phones. Pure: the UI imports it.

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!)

export const EMBED_DEFAULT_HEIGHT = 450

export function embedCode(o: { eventId: number; frameUrl: string; origin: string; title: string; height?: number }): string {
  const height = o.height ?? EMBED_DEFAULT_HEIGHT
  return (
    `<iframe id="einlass-${o.eventId}" src="${escapeHtml(o.frameUrl)}" title="${escapeHtml(o.title)}" width="100%" height="${height}" ` +
    `style="width:100%;height:${height}px;border:0" loading="lazy"></iframe>\n` +
    `<script src="${escapeHtml(o.origin)}/embed.js" async></script>`
  )
}
