// Online payment texts (docs/payments.md): errors, mails of late payments and provider refunds.
export const de = {
  'errors.PAYMENT_PROVIDER_UNAVAILABLE': "Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts abgebucht; bitte versuchen Sie es in ein paar Minuten noch einmal.",
  'errors.PAYMENT_NOT_STARTED': "Für diese Bestellung wurde noch keine Zahlung begonnen.",
  'errors.PAYMENT_DECLINED': "Die Zahlung wurde abgelehnt. Bitte versuchen Sie es mit einem anderen Zahlungsmittel.",
  'errors.REFUND_TOO_LARGE': "Der Betrag ist höher als der noch erstattbare Betrag.",
  'errors.REFUND_NOT_ONLINE': "Diese Bestellung wurde nicht online bezahlt; bitte erfassen Sie die Erstattung manuell.",
  'errors.WEBHOOK_SIGNATURE_INVALID': "Die Signatur der Benachrichtigung ist ungültig.",
  'payments.mail.lateRefunded.subject': "Zahlung erstattet: {number}",
  'payments.mail.lateRefunded.body': "Ihre Zahlung für die Bestellung {number} („{event}“) kam erst nach Ablauf der Reservierung an, und die Tickets sind inzwischen vergeben. Wir haben Ihnen {total} automatisch erstattet.",
  'payments.mail.lateOrganiser.subject': "Verspätete Zahlung erstattet: Bestellung {number}",
  'payments.mail.lateOrganiser.body': "Die Zahlung von {total} für die Bestellung {number} („{event}“) kam nach Ablauf der Reservierung an. Die Tickets waren vergeben; der Betrag wurde automatisch über den Zahlungsdienst erstattet.",
  'payments.mail.partialRefund.subject': "Teilerstattung: {number}",
  'payments.mail.partialRefund.body': "Für Ihre Bestellung {number} („{event}“) haben wir Ihnen {amount} erstattet.",
}
type Keys = keyof typeof de
export const deDu: Partial<Record<Keys, string>> = {
  'errors.PAYMENT_PROVIDER_UNAVAILABLE': "Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts abgebucht; bitte versuch es in ein paar Minuten noch einmal.",
  'errors.PAYMENT_DECLINED': "Die Zahlung wurde abgelehnt. Bitte versuch es mit einem anderen Zahlungsmittel.",
  'errors.REFUND_NOT_ONLINE': "Diese Bestellung wurde nicht online bezahlt; bitte erfasse die Erstattung manuell.",
  'payments.mail.lateRefunded.body': "Deine Zahlung für die Bestellung {number} („{event}“) kam erst nach Ablauf der Reservierung an, und die Tickets sind inzwischen vergeben. Wir haben dir {total} automatisch erstattet.",
  'payments.mail.partialRefund.body': "Für deine Bestellung {number} („{event}“) haben wir dir {amount} erstattet.",
}
export const en: Record<Keys, string> = {
  'errors.PAYMENT_PROVIDER_UNAVAILABLE': "The payment service cannot be reached right now. Nothing was charged; please try again in a few minutes.",
  'errors.PAYMENT_NOT_STARTED': "No payment has been started for this order yet.",
  'errors.PAYMENT_DECLINED': "The payment was declined. Please try another payment method.",
  'errors.REFUND_TOO_LARGE': "The amount is higher than what can still be refunded.",
  'errors.REFUND_NOT_ONLINE': "This order was not paid online; please record the refund manually.",
  'errors.WEBHOOK_SIGNATURE_INVALID': "The notification's signature is invalid.",
  'payments.mail.lateRefunded.subject': "Payment refunded: {number}",
  'payments.mail.lateRefunded.body': "Your payment for order {number} (\"{event}\") arrived after the reservation had expired, and the tickets are gone. We have refunded {total} to you automatically.",
  'payments.mail.lateOrganiser.subject': "Late payment refunded: order {number}",
  'payments.mail.lateOrganiser.body': "The payment of {total} for order {number} (\"{event}\") arrived after the reservation had expired. The tickets were gone; the amount was refunded automatically through the payment service.",
  'payments.mail.partialRefund.subject': "Partial refund: {number}",
  'payments.mail.partialRefund.body': "For your order {number} (\"{event}\") we have refunded {amount} to you.",
}
