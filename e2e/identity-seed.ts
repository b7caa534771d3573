// Seeds what the UI cannot create on a running test server (einlass has no screen that creates
// agencies after the first-start setup). Run with Bun:
//   bun e2e/identity-seed.ts agency <sqlite file> <agency> <email> <password> <first> <last>
//   bun e2e/identity-seed.ts accounts <sqlite file> <email> <count>   (editor accounts in new agencies)
import { Database } from 'bun:sqlite'

const [mode, file, ...args] = process.argv.slice(2)
const db = new Database(file)
db.exec('pragma busy_timeout = 5000')
if (mode === 'agency') {
  const [agency, email, password, first, last] = args
  const hash = await Bun.password.hash(password, { algorithm: 'argon2id' })
  db.transaction(() => {
    const a = db.query('insert into agency (display_name) values (?) returning id').get(agency) as { id: number }
    const u = db.query("insert into app_user (email, password_hash, status, language) values (?, ?, 'OK', 'de') returning id").get(email.toLowerCase(), hash) as { id: number }
    db.query("insert into account (user_id, agency_id, user_role, first_name, last_name) values (?, ?, 'AGENCY_ADMIN', ?, ?)").run(u.id, a.id, first, last)
  })()
} else if (mode === 'accounts') {
  const [email, count] = args
  db.transaction(() => {
    const u = db.query('select id from app_user where email = ?').get(email.toLowerCase()) as { id: number }
    for (let i = 1; i <= Number(count); i++) {
      const name = `Filiale ${String(i).padStart(2, '0')}`
      const a = db.query('insert into agency (display_name, internal_name) values (?, ?) returning id').get(name, `intern-${i}`) as { id: number }
      db.query("insert into account (user_id, agency_id, user_role) values (?, ?, 'AGENCY_EDITOR')").run(u.id, a.id)
    }
  })()
} else throw new Error(`unknown mode ${mode}`)
console.log(JSON.stringify({ ok: true }))
