// The static list of migrations the binary embeds (a file provider cannot list files inside a
// compiled executable). Names sort in the order they run; add new ones at the end.
import type { Migration } from 'kysely'
import * as m001 from './2026-11-22-001_core'

export const migrations: Record<string, Migration> = {
  '2026-11-22-001_core': m001,
}
