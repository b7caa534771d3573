/** The one source of "now": tests move it to check time rules without sleeping. */
export interface Clock {
  now(): Date
}
export const systemClock: Clock = { now: () => new Date() }

export class TestClock implements Clock {
  private offsetMs = 0
  now() {
    return new Date(Date.now() + this.offsetMs)
  }
  advance(ms: number) {
    this.offsetMs += ms
  }
  set(date: Date) {
    this.offsetMs = date.getTime() - Date.now()
  }
}
