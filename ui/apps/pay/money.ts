// The pay page's amounts in the agency's money format (ticket info `currencyPrefix`, issue 20 item 16),
// set when the order is read.
import { formatPrice } from '../../../server/i18n/price'

let prefix = false
export const setMoneyPrefix = (p: boolean | undefined) => void (prefix = !!p)
export const money = (cents: number, currency: string) => formatPrice(cents, currency, prefix)
