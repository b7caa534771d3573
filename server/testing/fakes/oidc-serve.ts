// Starts the OpenID provider fake (oidc.ts) in a Bun process of its own for the journeys (Playwright
// runs under node) and prints its issuer, client id and secret as one JSON line.
import { startOidcFake } from './oidc'

const idp = await startOidcFake({ clientId: process.env.OIDC_CLIENT ?? 'einlass-staff', clientSecret: process.env.OIDC_SECRET ?? 'oidc-secret-for-journeys' })
console.log(JSON.stringify({ issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }))
process.on('SIGTERM', () => {
  idp.stop()
  process.exit(0)
})
