// The few parts of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Result {
      '2xx': number
      non2xx: number
      errors: number
      latency: { p50: number; p99: number; average: number }
      requests: { average: number }
    }
  }
  function autocannon(opts: Record<string, unknown>): Promise<autocannon.Result>
  export default autocannon
}
