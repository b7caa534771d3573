import type { Generated } from 'kysely'
import type { Timestamp } from '../../db/types'

/** Install-wide state every process shares on Postgres (generated secrets, an installed license). */
export interface InstallStateTable {
  /** 'secrets' | 'license' */
  name: string
  value: string
  updated_at: Generated<Timestamp>
}

export interface SystemTables {
  install_state: InstallStateTable
}
