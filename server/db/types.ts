// How values are stored, decided once for both dialects (services never see the difference):
// - timestamps: ISO-8601 UTC strings (`2026-11-22T01:41:47.000Z`). SQLite stores text, Postgres
//   timestamptz; the Postgres driver is told to hand them back as the same ISO strings.
// - booleans: written as JS booleans, read back as 0/1 on both (Postgres via a type parser).
// - money: integer cents. JSON: text holding JSON.stringify output.
// - ids: integer primary keys; int8/count(*) from Postgres are parsed to numbers.
import type { ColumnType, Generated } from 'kysely'

export type Timestamp = string
/** boolean column without a default */
export type Bool = ColumnType<0 | 1, boolean, boolean>
/** boolean column with a default */
export type GenBool = ColumnType<0 | 1, boolean | undefined, boolean>
/** JSON text; T names what it holds (read it with fromJson<T>) */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type Json<T> = ColumnType<string, string, string>
/** JSON text with a default */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type GenJson<T> = ColumnType<string, string | undefined, string>
export type Id = Generated<number>

export const toJson = (v: unknown): string => JSON.stringify(v)
export function fromJson<T>(s: string | null | undefined, fallback: T): T {
  if (s == null || s === '') return fallback
  try {
    return JSON.parse(s) as T
  } catch {
    return fallback
  }
}
export const isoNow = (d: Date = new Date()) => d.toISOString()
export const bool = (v: number | boolean | null | undefined) => v === 1 || v === true
