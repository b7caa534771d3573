// The agency's money format (issue 20 item 16; spec: "two decimals with a comma, optional currency
// prefix"): with currency_prefix the sign stands before the amount ("€ 12,50"), else after it
// ("12,50 €", the German default). Set under Verkauf; every ticketing screen, mail and PDF follows it.
import type { Kysely } from 'kysely'
import { boolDefault, types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('seller_settings').addColumn('currency_prefix', t.bool, boolDefault(false)).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('seller_settings').dropColumn('currency_prefix').execute()
}
