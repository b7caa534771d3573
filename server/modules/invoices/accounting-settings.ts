// The accountant's DATEV settings of an agency (docs/invoices.md, "DATEV"): consultant and client
// number, fiscal year start, account length, chart, the debtor/clearing account and per tax rate the
// revenue account and BU-Schlüssel. Kept beside the seller settings in a table of their own.
import { z } from 'zod'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import type { TaxRate } from './snapshot'

const account = () => z.string().trim().regex(/^\d{1,9}$/, 'INVALID')

export const RevenueAccount = z.object({
  /** percent, or null for "no VAT" (tax code none) */
  rate: z.number().min(0, 'INVALID').max(100, 'INVALID').nullable(),
  account: account(),
  /** DATEV's BU-Schlüssel for the rate; empty when the revenue account is an automatic one */
  buKey: z
    .string()
    .trim()
    .regex(/^\d{0,4}$/, 'INVALID')
    .nullish()
    .transform((v) => (v ? v : null)),
})

export const AccountingSettingsInput = z.object({
  consultantNumber: z.number().int().min(1001, 'INVALID').max(9_999_999, 'INVALID').nullable(),
  clientNumber: z.number().int().min(1, 'INVALID').max(99_999, 'INVALID').nullable(),
  fiscalYearStartMonth: z.number().int().min(1, 'INVALID').max(12, 'INVALID').default(1),
  accountLength: z.number().int().min(4, 'INVALID').max(8, 'INVALID').default(4),
  chart: z.enum(['SKR03', 'SKR04']).default('SKR03'),
  debtorAccount: account()
    .nullish()
    .or(z.literal(''))
    .transform((v) => (v ? v : null)),
  revenueAccounts: z
    .array(RevenueAccount)
    .max(20, 'TOO_LONG')
    .default([])
    .refine((list) => new Set(list.map((r) => String(r.rate))).size === list.length, 'DUPLICATE'),
})
export type AccountingSettingsInput = z.infer<typeof AccountingSettingsInput>
export type RevenueAccount = z.infer<typeof RevenueAccount>

export interface AccountingSettings {
  consultantNumber: number | null
  clientNumber: number | null
  fiscalYearStartMonth: number
  accountLength: number
  chart: 'SKR03' | 'SKR04'
  debtorAccount: string | null
  revenueAccounts: RevenueAccount[]
}

export async function accountingSettings(db: Db, agencyId: number): Promise<AccountingSettings> {
  const s = await db.selectFrom('accounting_settings').selectAll().where('agency_id', '=', agencyId).executeTakeFirst()
  return {
    consultantNumber: s?.consultant_number ?? null,
    clientNumber: s?.client_number ?? null,
    fiscalYearStartMonth: s ? Number(s.fiscal_year_start_month) : 1,
    accountLength: s ? Number(s.account_length) : 4,
    chart: s?.chart === 'SKR04' ? 'SKR04' : 'SKR03',
    debtorAccount: s?.debtor_account ?? null,
    revenueAccounts: fromJson<RevenueAccount[]>(s?.revenue_accounts, []),
  }
}

export async function saveAccountingSettings(ctx: AppContext, agencyId: number, input: AccountingSettingsInput) {
  const cols = {
    consultant_number: input.consultantNumber,
    client_number: input.clientNumber,
    fiscal_year_start_month: input.fiscalYearStartMonth,
    account_length: input.accountLength,
    chart: input.chart,
    debtor_account: input.debtorAccount,
    revenue_accounts: toJson(input.revenueAccounts),
    updated_at: isoNow(ctx.clock.now()),
  }
  await ctx.db
    .insertInto('accounting_settings')
    .values({ agency_id: agencyId, ...cols })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet(cols))
    .execute()
  return accountingSettings(ctx.db, agencyId)
}

export const sameRate = (a: TaxRate, b: TaxRate) => (a === null ? b === null : b !== null && Math.abs(a - b) < 1e-9)
