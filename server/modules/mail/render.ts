// Mail layout: one simple, accessible HTML body and its plain-text twin from the same parts.
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export interface MailParts {
  subject: string
  greeting?: string
  paragraphs: string[]
  button?: { label: string; url: string }
  /** lines after the button, e.g. a fallback link */
  after?: string[]
  footer?: string
  accentColor?: string | null
}

export function renderMail(p: MailParts): { subject: string; html: string; text: string } {
  const color = p.accentColor && /^#[0-9a-f]{3,8}$/i.test(p.accentColor) ? p.accentColor : '#1f5f8b'
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${esc(p.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2430">
<table role="presentation" width="100%" style="max-width:600px;margin:0 auto;background:#fff;border-radius:6px;padding:24px">
<tr><td>
${p.greeting ? `<p style="font-size:16px">${esc(p.greeting)}</p>` : ''}
${p.paragraphs.map((x) => `<p style="font-size:15px;line-height:1.5">${esc(x)}</p>`).join('\n')}
${p.button ? `<p style="margin:28px 0"><a href="${esc(p.button.url)}" style="background:${color};color:#fff;padding:12px 20px;border-radius:4px;text-decoration:none;font-weight:bold">${esc(p.button.label)}</a></p>` : ''}
${(p.after ?? []).map((x) => `<p style="font-size:13px;color:#555;word-break:break-all">${esc(x)}</p>`).join('\n')}
${p.footer ? `<hr style="border:none;border-top:1px solid #ddd"><p style="font-size:12px;color:#777">${esc(p.footer)}</p>` : ''}
</td></tr></table></body></html>`
  const text = [
    p.greeting,
    ...p.paragraphs,
    p.button ? `${p.button.label}: ${p.button.url}` : undefined,
    ...(p.after ?? []),
    p.footer ? `--\n${p.footer}` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n')
  return { subject: p.subject, html, text }
}
