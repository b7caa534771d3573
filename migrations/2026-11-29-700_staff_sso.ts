// Staff single sign-on (OpenID Connect) per agency: the provider settings (client secret sealed),
// the short-lived login attempts (state, nonce, PKCE verifier; used once), and on the session the
// agency whose provider signed it in (requireSsoLogin / requireLogout of the account switcher).
// Also the health of each payment method's webhook (last refusal, last success), which app/init's
// agencyMessages reports as PAYMENT_WEBHOOK_FAILING.
import type { Kysely } from 'kysely'
import { boolDefault, nowDefault, types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema
    .createTable('agency_sso')
    .addColumn('agency_id', t.int, (c) => c.primaryKey().references('agency.id').onDelete('cascade'))
    .addColumn('enabled', t.bool, boolDefault(false))
    .addColumn('issuer', t.text, (c) => c.notNull())
    .addColumn('client_id', t.text, (c) => c.notNull())
    .addColumn('client_secret_sealed', t.text, (c) => c.notNull())
    .addColumn('allowed_domains', t.json, (c) => c.notNull())
    .addColumn('new_user_role', t.text)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema
    .createTable('sso_login_state')
    .addColumn('state', t.text, (c) => c.primaryKey())
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('nonce', t.text, (c) => c.notNull())
    .addColumn('code_verifier', t.text, (c) => c.notNull())
    .addColumn('redirect', t.text)
    .addColumn('account_id', t.int)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .execute()
  await db.schema.createIndex('sso_login_state_created_idx').on('sso_login_state').column('created_at').execute()
  await db.schema.alterTable('session').addColumn('sso_agency_id', t.int).execute()
  await db.schema
    .createTable('payment_webhook_health')
    .addColumn('payment_method_id', t.int, (c) => c.primaryKey().references('payment_method.id').onDelete('cascade'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('last_failure_at', t.timestamp)
    .addColumn('last_failure_reason', t.text)
    .addColumn('last_success_at', t.timestamp)
    .execute()
  await db.schema.createIndex('payment_webhook_health_agency_idx').on('payment_webhook_health').column('agency_id').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('payment_webhook_health').execute()
  await db.schema.alterTable('session').dropColumn('sso_agency_id').execute()
  await db.schema.dropTable('sso_login_state').execute()
  await db.schema.dropTable('agency_sso').execute()
}
