// The pay page's amounts: German in the agency's money format (ticket info `currencyPrefix`, issue
// 20 item 16, set when the order is read), every other language as Intl writes money there (issue 24).
import { formatPriceIn } from '../../../server/i18n/price'
import { currentLanguage } from '../../i18n'

let prefix = false
export const setMoneyPrefix = (p: boolean | undefined) => void (prefix = !!p)
export const money = (cents: number, currency: string) => formatPriceIn(currentLanguage(), cents, currency, prefix)
