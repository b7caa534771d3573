// The offline payment methods as providers of the step machine (payment-methods.ts): TRANSFER
// waits for the money (the GiroCode tells the bank app what to send), INVOICE and LOCATION confirm
// the order to be paid later, COUPON confirms a free order as paid.
import { registerPaymentProvider } from '../payment-methods'
import { giroCodePng } from '../girocode'
import { transferReference } from './mails'
import { STEP } from './steps'

registerPaymentProvider({
  method: 'TRANSFER',
  async pay(_ctx, _trx, order, method) {
    const qrCode =
      method?.iban && order.currency === 'EURO'
        ? await giroCodePng({ bic: method.bic, name: method.account_holder ?? '', iban: method.iban, amount: order.gross_price, reference: transferReference(order, method) })
        : null
    return { step: STEP.FINISHED, status: 'OPEN', qrCode }
  },
})
for (const method of ['INVOICE', 'LOCATION'] as const) {
  registerPaymentProvider({ method, pay: async () => ({ step: STEP.FINISHED, status: 'CONFIRMED' }) })
}
registerPaymentProvider({ method: 'COUPON', pay: async () => ({ step: STEP.FINISHED, status: 'PAID' }) })
