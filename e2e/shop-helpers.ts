// Shared set-up of the ticket-shop journeys: the payment provider fakes (server/testing/fakes, their
// real REST shapes) in a Bun process of their own, and the seller data an invoice needs.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createInterface } from 'node:readline'

export type Fakes = { stripe: string; mollie: string; paypal: string; control: string }

/** Starts the provider fakes; `urls` are their base addresses, `stop()` ends the process. */
export async function startPaymentFakes(): Promise<{ urls: Fakes; stop(): void }> {
  const bun = existsSync('node_modules/.bin/bun') ? 'node_modules/.bin/bun' : 'bun'
  const proc = spawn(bun, ['server/testing/fakes/serve.ts'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve) => createInterface({ input: proc.stdout! }).once('line', resolve))
  return { urls: JSON.parse(line) as Fakes, stop: () => proc.kill() }
}

/** The agency's seller settings (PUT /proxy/api/agency/sellerSettings) with XRechnung on. */
export const SELLER = {
  name: 'Agentur Sonnenschein GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '04109', city: 'Leipzig', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-',
  contactName: 'Ada Admin', phone: '+49 341 123456', email: 'kasse@agentur.example', useInvoiceXML: true,
}
