// What a service deep inside a request may want to know about it without being handed the request:
// its id (the x-request-id of the log line) and the client's address, for the audit log
// (modules/audit). One AsyncLocalStorage run per request, in app.ts's handle(); empty outside.
import { AsyncLocalStorage } from 'node:async_hooks'

export interface RequestContext {
  /** set by the security plugin once it has chosen the id */
  reqId: string | null
  /** the client's address (X-Forwarded-For only from trusted proxies), read on first use */
  clientIp(): string
}

const store = new AsyncLocalStorage<RequestContext>()

export const runInRequest = <T>(rc: RequestContext, f: () => T): T => store.run(rc, f)
export const currentRequest = (): RequestContext | undefined => store.getStore()
