// Reading uploaded CSV files: encoding (UTF-8, else Windows-1252), delimiter detection and a streaming
// record iterator (csv-parse), so 100,000 rows never sit in memory as records at once.
import { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { HEADER_ALIASES, IMPORT_FIELDS, type ImportField, type Mapping } from './model'

export function decodeFile(bytes: Uint8Array): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes)
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

export function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length)
  const counts = [';', ',', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const)
  counts.sort((a, b) => b[1] - a[1])
  return counts[0][1] > 0 ? counts[0][0] : ','
}

/** Records as string arrays (header row included); `info.lines` is the record's first line number. */
export async function* records(text: string, delimiter: string): AsyncGenerator<{ values: string[]; line: number }> {
  const parser = Readable.from([text]).pipe(parse({ delimiter, relax_column_count: true, skip_empty_lines: true, trim: true, bom: true, info: true }))
  for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) yield { values: r.record, line: r.info.lines }
}

export function suggestMapping(headers: string[]): Mapping {
  const out: Mapping = {}
  const taken = new Set<number>()
  for (const field of IMPORT_FIELDS as readonly ImportField[]) {
    const aliases = [field.toLowerCase(), ...(HEADER_ALIASES[field] ?? [])]
    const i = headers.findIndex((h, idx) => !taken.has(idx) && aliases.includes(h.trim().toLowerCase()))
    if (i >= 0) {
      out[field] = i
      taken.add(i)
    }
  }
  return out
}
