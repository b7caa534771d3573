// One pass at a time over a queue table (the mail worker, each lane of the task runner): a wake-up
// during a pass returns the running pass and runs one more right after it, since the pass's last
// claim may have come before the new row. A failed pass is logged by `onError` and counts 0.
export function serialPasses(pass: () => Promise<number>, onError: (e: unknown) => void, stopped: () => boolean) {
  let running: Promise<number> | null = null
  let again = false
  function runOnce(): Promise<number> {
    if (running) {
      again = true
      return running
    }
    running = pass()
      .catch((e) => {
        onError(e)
        return 0
      })
      .finally(() => {
        running = null
        if (again && !stopped()) {
          again = false
          void runOnce()
        }
      })
    return running
  }
  /** resolves when no pass runs (the one running now has ended) */
  const idle = () => running ?? Promise.resolve(0)
  return { runOnce, idle }
}
