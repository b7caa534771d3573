// The ceiling to compare einlass against: raw Bun.serve + bun:sqlite doing what a registration
// minimally needs — parse JSON, one write transaction with the conditional capacity UPDATE and
// an INSERT, answer 201 (or 409 when full or already registered). No framework, no validation,
// no mail, no tokens.
//   bun bench/baseline-server.ts PORT DB_FILE CAPACITY
import { Database } from 'bun:sqlite'

const [port, file, capacity] = [Number(process.argv[2] ?? 3999), process.argv[3] ?? '/tmp/einlass-baseline.sqlite', Number(process.argv[4] ?? 1_000_000)]
const db = new Database(file, { create: true, strict: true })
db.exec('pragma journal_mode = WAL; pragma synchronous = NORMAL; pragma busy_timeout = 5000; pragma foreign_keys = ON')
db.exec('create table if not exists event (id integer primary key, max_visitors integer, seats_taken integer not null default 0)')
db.exec('create table if not exists visitor (id integer primary key autoincrement, event_id integer not null references event(id), email text not null, first_name text, last_name text, created_at text not null, unique (event_id, email))')
db.prepare('insert or replace into event (id, max_visitors, seats_taken) values (1, ?, 0)').run(capacity)
db.exec('delete from visitor')

const take = db.prepare('update event set seats_taken = seats_taken + 1 where id = ? and seats_taken + 1 <= max_visitors')
const insert = db.prepare('insert into visitor (event_id, email, first_name, last_name, created_at) values (?, ?, ?, ?, ?)')
const register = db.transaction((email: string, first: string, last: string) => {
  if (take.run(1).changes !== 1) return 'FULL'
  insert.run(1, email, first, last, new Date().toISOString())
  return 'OK'
})
register.immediate // bun:sqlite: .immediate runs the transaction with BEGIN IMMEDIATE

Bun.serve({
  port,
  hostname: '127.0.0.1',
  async fetch(req) {
    const body = (await req.json()) as { email: string; firstName: string; lastName: string }
    try {
      const r = register.immediate(body.email, body.firstName, body.lastName)
      return r === 'OK' ? Response.json({ status: 'CONFIRMED' }, { status: 201 }) : Response.json({ errorType: 'EVENT_FULL' }, { status: 409 })
    } catch {
      return Response.json({ errorType: 'ALREADY_REGISTERED' }, { status: 409 })
    }
  },
})
console.log(`baseline ready on ${port}`)
