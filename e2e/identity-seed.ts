// Seeds what the UI cannot create on a running test server: a second agency with its
// administrator (einlass has no screen that creates agencies after the first-start setup).
// Run with Bun: bun e2e/identity-seed.ts <sqlite file> <agency> <email> <password> <first> <last>
import { Database } from 'bun:sqlite'

const [file, agency, email, password, first, last] = process.argv.slice(2)
const db = new Database(file)
db.exec('pragma busy_timeout = 5000')
const hash = await Bun.password.hash(password, { algorithm: 'argon2id' })
db.transaction(() => {
  const a = db.query('insert into agency (display_name) values (?) returning id').get(agency) as { id: number }
  const u = db.query("insert into app_user (email, password_hash, status, language) values (?, ?, 'OK', 'de') returning id").get(email.toLowerCase(), hash) as { id: number }
  db.query("insert into account (user_id, agency_id, user_role, first_name, last_name) values (?, ?, 'AGENCY_ADMIN', ?, ?)").run(u.id, a.id, first, last)
})()
console.log(JSON.stringify({ ok: true }))
