/** Counters raised by database triggers (migration 701); `recipients`: who receives organiser notifications changed. */
export interface CacheGenerationTable {
  name: string
  n: number
}

export interface NotificationSettingsTables {
  cache_generation: CacheGenerationTable
}
