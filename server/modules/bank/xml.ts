// A small XML reader for bank statements: linear in the input, bounded (size, depth, elements), and
// refusing every DTD — CAMT files never carry one, so no entity, external or internal, is ever
// expanded. It keeps local names (namespace prefixes dropped), attributes and text; enough for
// ISO 20022 messages, nothing more (docs/ticketing.md, "Bank statements").
import { AppError } from '../../shared/errors'

export interface XmlNode {
  name: string
  attrs: Record<string, string>
  children: XmlNode[]
  text: string
}

export const XML_LIMITS = { bytes: 10 * 1024 * 1024, depth: 32, elements: 500_000 }

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

const XML_ERRORS = { TOO_LARGE: 'CAMT_TOO_LARGE', NOT_XML: 'CAMT_NOT_XML', DTD: 'CAMT_DTD', ENTITY: 'CAMT_ENTITY', TOO_DEEP: 'CAMT_TOO_DEEP' } as const
const refuse = (code: keyof typeof XML_ERRORS) => new AppError(422, XML_ERRORS[code])

function decode(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&([^;&\s]{1,10});/g, (_, e: string) => {
    if (e in PREDEFINED) return PREDEFINED[e]!
    const cp = e.startsWith('#x') ? Number.parseInt(e.slice(2), 16) : e.startsWith('#') ? Number.parseInt(e.slice(1), 10) : Number.NaN
    if (!Number.isInteger(cp) || cp < 0 || cp > 0x10ffff) throw refuse('ENTITY')
    return String.fromCodePoint(cp)
  })
}

const local = (qname: string) => qname.slice(qname.indexOf(':') + 1)
const ATTR = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g

/** Parses the document; throws CAMT_* AppErrors (422) for anything a statement never contains. */
export function parseXml(input: string): XmlNode {
  if (input.length > XML_LIMITS.bytes) throw refuse('TOO_LARGE')
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' }
  const stack: XmlNode[] = [root]
  let elements = 0
  let i = 0
  const n = input.length
  while (i < n) {
    const lt = input.indexOf('<', i)
    const textEnd = lt === -1 ? n : lt
    if (textEnd > i) {
      const t = input.slice(i, textEnd)
      if (stack.length > 1) stack[stack.length - 1]!.text += decode(t)
      else if (t.trim()) throw refuse('NOT_XML')
    }
    if (lt === -1) break
    if (input.startsWith('<!--', lt)) {
      const end = input.indexOf('-->', lt + 4)
      if (end === -1) throw refuse('NOT_XML')
      i = end + 3
    } else if (input.startsWith('<![CDATA[', lt)) {
      const end = input.indexOf(']]>', lt + 9)
      if (end === -1 || stack.length === 1) throw refuse('NOT_XML')
      stack[stack.length - 1]!.text += input.slice(lt + 9, end)
      i = end + 3
    } else if (input.startsWith('<!', lt)) {
      // <!DOCTYPE …> and <!ENTITY …>: never in a statement, never expanded
      throw refuse('DTD')
    } else if (input.startsWith('<?', lt)) {
      const end = input.indexOf('?>', lt + 2)
      if (end === -1) throw refuse('NOT_XML')
      i = end + 2
    } else {
      const gt = input.indexOf('>', lt + 1)
      if (gt === -1) throw refuse('NOT_XML')
      const tag = input.slice(lt + 1, gt)
      i = gt + 1
      if (tag.startsWith('/')) {
        const name = local(tag.slice(1).trim())
        const open = stack.pop()
        if (!open || stack.length === 0 || open.name !== name) throw refuse('NOT_XML')
        continue
      }
      const selfClosing = tag.endsWith('/')
      const body = selfClosing ? tag.slice(0, -1) : tag
      const sp = body.search(/\s/)
      const qname = sp === -1 ? body : body.slice(0, sp)
      if (!qname || /[<&"']/.test(qname)) throw refuse('NOT_XML')
      const attrs: Record<string, string> = {}
      if (sp !== -1) for (const m of body.slice(sp).matchAll(ATTR)) attrs[m[1]!] = decode(m[3] ?? m[4] ?? '')
      const node: XmlNode = { name: local(qname), attrs, children: [], text: '' }
      if (++elements > XML_LIMITS.elements) throw refuse('TOO_LARGE')
      if (stack.length === 1 && root.children.length) throw refuse('NOT_XML')
      stack[stack.length - 1]!.children.push(node)
      if (!selfClosing) {
        stack.push(node)
        if (stack.length > XML_LIMITS.depth + 1) throw refuse('TOO_DEEP')
      }
    }
  }
  if (stack.length !== 1 || root.children.length !== 1) throw refuse('NOT_XML')
  return root.children[0]!
}

/** The first child with a name, following a path (a/b/c). */
export function child(node: XmlNode | undefined, path: string): XmlNode | undefined {
  let at = node
  for (const part of path.split('/')) {
    if (!at) return undefined
    at = at.children.find((c) => c.name === part)
  }
  return at
}
export const children = (node: XmlNode | undefined, name: string) => node?.children.filter((c) => c.name === name) ?? []
export const textOf = (node: XmlNode | undefined, path?: string) => (path ? child(node, path) : node)?.text.trim() ?? ''
