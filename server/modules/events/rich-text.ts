// Organiser-entered rich text (event descriptions, agreement texts) is sanitised on the server with
// sanitize-html before it is stored: only formatting tags, links limited to the spec's protocols
// (http, https, mailto, tel; agency-side.md 9), images only from http(s) and data URLs.
import sanitizeHtml from 'sanitize-html'

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h1', 'h2', 'h3', 'ul', 'ol', 'li', 'a', 'blockquote', 'span', 'div', 'img'],
  allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'], '*': ['class'] },
  allowedClasses: { '*': ['ql-indent-1', 'ql-indent-2', 'ql-indent-3', 'ql-indent-4', 'ql-indent-5', 'ql-indent-6', 'ql-indent-7', 'ql-indent-8'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
}

export function sanitizeRichText(html: string | null | undefined): string | null {
  if (html == null) return null
  const clean = sanitizeHtml(html, OPTIONS).trim()
  return clean === '' ? null : clean
}
