// The request id (issue 22, docs/operations.md "Request ids in mails and tasks"): a mail or task
// queued during a request records that request's id, so the worker's log lines about it can be
// followed back to the request (and across the proxy) that caused it. Null for work queued outside
// a request (periodic jobs, the CLI).
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('mail_outbox').addColumn('request_id', t.text).execute()
  await db.schema.alterTable('task').addColumn('request_id', t.text).execute()
}
