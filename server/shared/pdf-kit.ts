// What every PDF of einlass starts from: pdf-lib with DejaVu Sans (regular and bold) embedded as a
// subset, so German, €, Greek and Cyrillic print in the compiled binary too (the TTFs are imported as
// files, STACK.md trap 6), and a text-wrap helper (pdf-lib has no layout engine).
import fontkit from '@pdf-lib/fontkit'
import { deflateSync } from 'node:zlib'
import pako from 'pako'
import { PDFDocument, type PDFFont } from 'pdf-lib'
import boldPath from '../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' with { type: 'file' }
import regularPath from '../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf' with { type: 'file' }

// fontkit parses a 700 KB font in tens of milliseconds: parse each once per process and hand pdf-lib
// the parsed font (its embedders only read from it). Its layout (shaping through GSUB/GPOS) is most of
// a ticket's cost and pdf-lib asks for it for every measured and drawn string: labels, event titles
// and names repeat from ticket to ticket, so the glyph runs are remembered (pdf-lib only reads them).
let fontBytes: Promise<{ regular: Uint8Array; bold: Uint8Array }> | null = null
const parsed = new Map<Uint8Array, unknown>()
const LAYOUT_CACHE = 20_000
function memoiseLayout(font: { layout(text: string, features?: unknown): unknown }) {
  const layout = font.layout.bind(font)
  const runs = new Map<string, unknown>()
  font.layout = (text: string, features?: unknown) => {
    if (features !== undefined) return layout(text, features)
    let run = runs.get(text)
    if (!run) {
      if (runs.size >= LAYOUT_CACHE) runs.clear()
      run = layout(text)
      runs.set(text, run)
    }
    return run
  }
  return font
}
/**
 * The subset's font file is most of a document's cost (fontkit re-encodes the glyphs, pako deflates
 * the file). Each document first includes the same common characters in the same order (COMMON), so
 * a document whose texts need nothing else (most names) has the same glyph list as the one before:
 * the encoded file is taken from a cache, and its deflated stream from another (keyed by the very
 * array the cache handed out). A rarer letter appends its glyphs and is encoded as before.
 */
const SUBSET_CACHE = 64
interface Emitter {
  on(event: string, cb: (x?: any) => void): Emitter
}
function memoiseSubsets(font: { createSubset(): { glyphs: number[]; encodeStream(): Emitter } }) {
  const create = font.createSubset.bind(font)
  const files = new Map<string, Uint8Array[]>()
  font.createSubset = () => {
    const subset = create()
    const encodeStream = subset.encodeStream.bind(subset)
    subset.encodeStream = () => {
      const key = subset.glyphs.join(',')
      const parts = files.get(key)
      if (parts) {
        // the same events fontkit's stream sends, from the cache
        const on: Record<string, (x?: any) => void> = {}
        const replay: Emitter = {
          on(event, cb) {
            on[event] = cb
            return replay
          },
        }
        queueMicrotask(() => {
          for (const p of parts) on.data?.(p)
          on.end?.()
        })
        return replay
      }
      const collected: Uint8Array[] = []
      const stream = encodeStream()
      stream.on('data', (b: Uint8Array) => collected.push(b)).on('end', () => {
        if (files.size >= SUBSET_CACHE) files.clear()
        files.set(key, collected)
      })
      return stream
    }
    return subset
  }
  return font
}
const cachingFontkit = {
  create(buf: Uint8Array, postscriptName?: string) {
    let f = parsed.get(buf)
    if (!f) {
      f = memoiseSubsets(memoiseLayout((fontkit as any).create(buf, postscriptName)) as any)
      parsed.set(buf, f)
    }
    return f
  },
} as unknown as typeof fontkit

/** What nearly every document prints: ASCII, German letters and the typography of the texts. */
const COMMON = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~ÄÖÜäöüß€–—„“”‚‘’…·•×°§'

// pdf-lib deflates every stream with pako (JavaScript); the runtime's zlib does the same in native
// code. A font file that comes again from the subset cache (same bytes) is deflated once.
const deflated = new Map<number | bigint, { data: Uint8Array; out: Uint8Array }>()
pako.deflate = (data: Uint8Array) => {
  if (data.byteLength < 4096) return deflateSync(data, { level: 6 })
  const key = Bun.hash(data)
  const hit = deflated.get(key)
  if (hit && Buffer.from(hit.data.buffer, hit.data.byteOffset, hit.data.byteLength).equals(Buffer.from(data.buffer, data.byteOffset, data.byteLength))) return hit.out
  const out = deflateSync(data, { level: 6 })
  if (deflated.size >= SUBSET_CACHE * 2) deflated.clear()
  deflated.set(key, { data: data.slice(), out })
  return out
}

function fontFiles() {
  fontBytes ??= Promise.all([Bun.file(regularPath).bytes(), Bun.file(boldPath).bytes()]).then(([regular, bold]) => ({ regular, bold }))
  return fontBytes
}

/** A new document with the two fonts embedded (subset). */
export async function newPdf(): Promise<{ doc: PDFDocument; regular: PDFFont; bold: PDFFont }> {
  const doc = await PDFDocument.create()
  doc.registerFontkit(cachingFontkit)
  const f = await fontFiles()
  const [regular, bold] = await Promise.all([doc.embedFont(f.regular, { subset: true }), doc.embedFont(f.bold, { subset: true })])
  regular.encodeText(COMMON)
  bold.encodeText(COMMON)
  return { doc, regular, bold }
}

/** Splits text into lines that fit the width (words; a word longer than a line is cut). */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    // most lines fit: one measurement (each runs fontkit's shaping) instead of one per word
    if (font.widthOfTextAtSize(paragraph, size) <= width) {
      lines.push(paragraph)
      continue
    }
    let line = ''
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word
      if (font.widthOfTextAtSize(next, size) <= width) {
        line = next
        continue
      }
      if (line) lines.push(line)
      let w = word
      while (font.widthOfTextAtSize(w, size) > width && w.length > 1) {
        let cut = w.length - 1
        while (cut > 1 && font.widthOfTextAtSize(w.slice(0, cut), size) > width) cut--
        lines.push(w.slice(0, cut))
        w = w.slice(cut)
      }
      line = w
    }
    lines.push(line)
  }
  return lines
}

