// What every PDF of einlass starts from: pdf-lib with DejaVu Sans (regular and bold) embedded as a
// subset, so German, €, Greek and Cyrillic print in the compiled binary too (the TTFs are imported as
// files, STACK.md trap 6), and a text-wrap helper (pdf-lib has no layout engine).
import fontkit from '@pdf-lib/fontkit'
import { deflateSync } from 'node:zlib'
import pako from 'pako'
import { PDFDocument, type PDFFont } from 'pdf-lib'
import boldPath from '../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' with { type: 'file' }
import regularPath from '../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf' with { type: 'file' }

// Japanese and Chinese: Noto Sans SC (Google Fonts' build, 30 000 characters: simplified hanzi, the
// kanji of Japanese, hiragana and katakana). 10 MB a weight, so it is imported (as a file, for the
// compiled binary) and parsed only when a document has text DejaVu cannot print, and embedded as a
// subset: a Japanese ticket carries the few hundred glyphs it prints.
const cjkFiles = () =>
  Promise.all([
    import('../../node_modules/@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf', { with: { type: 'file' } }),
    import('../../node_modules/@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf', { with: { type: 'file' } }),
  ]).then(([r, b]) => Promise.all([Bun.file(r.default).bytes(), Bun.file(b.default).bytes()]))

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

let cjkBytes: Promise<[Uint8Array, Uint8Array]> | null = null

/**
 * Han ideographs, kana, CJK punctuation and full-width forms, Hangul: what DejaVu Sans has no
 * glyphs for and a Japanese or Chinese text is made of.
 */
const CJK = /[\u2E80-\u2FDF\u3000-\u30FF\u3100-\u312F\u31A0-\u31FF\u3200-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFF}]/u

/** Whether any of the texts needs the CJK font. */
export function needsCjk(...texts: Array<string | null | undefined>): boolean {
  return texts.some((t) => t != null && CJK.test(t))
}

/** Languages whose documents always get the CJK font (their labels are Japanese or Chinese). */
export const isCjkLanguage = (lang: string | null | undefined) => Boolean(lang && /^(ja|zh)\b/i.test(lang))

export interface PdfKit {
  doc: PDFDocument
  regular: PDFFont
  bold: PDFFont
  /**
   * The font to print this text with: the CJK font of the same weight when the text has Japanese or
   * Chinese characters and the document embedded it (`newPdf({ cjk: true })`), else `font`. The CJK
   * font has Latin letters too, so a mixed string ("Ticket: 山田") is printed in one font.
   */
  fontFor(text: string, font: PDFFont): PDFFont
}

/** A new document with DejaVu Sans regular and bold embedded (subset), and Noto Sans SC when `cjk`. */
export async function newPdf(opts: { cjk?: boolean } = {}): Promise<PdfKit> {
  const doc = await PDFDocument.create()
  doc.registerFontkit(cachingFontkit)
  const f = await fontFiles()
  const [regular, bold] = await Promise.all([doc.embedFont(f.regular, { subset: true }), doc.embedFont(f.bold, { subset: true })])
  regular.encodeText(COMMON)
  bold.encodeText(COMMON)
  if (!opts.cjk) return { doc, regular, bold, fontFor: (_t, font) => font }
  cjkBytes ??= cjkFiles()
  const [cr, cb] = await cjkBytes
  const [cjkRegular, cjkBold] = await Promise.all([doc.embedFont(cr, { subset: true }), doc.embedFont(cb, { subset: true })])
  const fontFor = (t: string, font: PDFFont) => (CJK.test(t) ? (font === bold ? cjkBold : font === regular ? cjkRegular : font) : font)
  return { doc, regular, bold, fontFor }
}

/** Closing punctuation that must not begin a line in Japanese or Chinese (kinsoku). */
const NO_LINE_START = /^[、。，．・：；？！）」』】〕〉》’”ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ）］｝〜]$/u

/**
 * Splits text into lines that fit the width: between words, and anywhere between Japanese or Chinese
 * characters (those texts have no spaces), never before closing punctuation; a word longer than a
 * line is cut.
 */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width
  for (const paragraph of text.split('\n')) {
    // most lines fit: one measurement (each runs fontkit's shaping) instead of one per word
    if (fits(paragraph)) {
      lines.push(paragraph)
      continue
    }
    // pieces: runs of other characters, each CJK character alone; `space` = a space before it
    const pieces: Array<{ s: string; space: boolean }> = []
    let space = false
    for (const m of paragraph.matchAll(new RegExp(`\\s+|${CJK.source}|(?:(?!${CJK.source})\\S)+`, 'gu'))) {
      if (/^\s/.test(m[0])) space = true
      else {
        pieces.push({ s: m[0], space })
        space = false
      }
    }
    let line = ''
    for (const piece of pieces) {
      const next = line ? `${line}${piece.space ? ' ' : ''}${piece.s}` : piece.s
      if (fits(next)) {
        line = next
        continue
      }
      let w = piece.s
      if (line && !piece.space && NO_LINE_START.test(w)) {
        // the mark takes the character before it to the next line
        const chars = [...line]
        if (chars.length > 1) {
          w = chars.pop() + w
          line = chars.join('')
        }
      }
      if (line) lines.push(line)
      while (!fits(w) && w.length > 1) {
        let cut = w.length - 1
        while (cut > 1 && !fits(w.slice(0, cut))) cut--
        lines.push(w.slice(0, cut))
        w = w.slice(cut)
      }
      line = w
    }
    lines.push(line)
  }
  return lines
}
