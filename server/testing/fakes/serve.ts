// Starts the three provider fakes in a process of their own for the journeys (Playwright runs
// under node, the fakes need Bun), plus the stand-in browser scripts of Stripe.js and the PayPal
// JS SDK with the calls einlass makes (mount the element, confirm, approve). Prints the addresses
// as one JSON line. Card 4000000000000002 is declined, like Stripe's test card.
import { startMollieFake } from './mollie'
import { startPayPalFake } from './paypal'
import { startStripeFake } from './stripe'

const stripe = startStripeFake(process.env.STRIPE_WHSEC ?? 'whsec_test_einlass')
const mollie = startMollieFake()
const paypal = startPayPalFake(process.env.PAYPAL_CLIENT ?? 'einlass-client', process.env.PAYPAL_SECRET ?? 'einlass-secret')

const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'GET, POST' }

const stripeJs = (control: string) => `
window.Stripe = function (publicKey, opts) {
  var input
  var listeners = []
  return {
    elements: function (o) {
      return {
        create: function (type) {
          return {
            mount: function (el) {
              el.innerHTML = '<label style="display:block;font:14px sans-serif">Kartennummer<input name="cardnumber" inputmode="numeric" autocomplete="cc-number" style="display:block;width:100%;padding:10px;margin-top:4px;border:1px solid #999;border-radius:4px;font-size:16px" placeholder="1234 1234 1234 1234"></label><p style="font:12px sans-serif;color:#666">Stripe (Test) · ' + o.amount + ' ' + o.currency + '</p>'
              input = el.querySelector('input')
              input.addEventListener('input', function () {
                var v = input.value.replace(/\\s/g, '')
                var error = v && !/^\\d{0,19}$/.test(v) ? { code: 'invalid_number', message: 'Ihre Kartennummer ist ungültig.' } : null
                listeners.forEach(function (f) { f({ complete: v.length >= 12, error: error }) })
              })
            },
            on: function (ev, f) { if (ev === 'change') listeners.push(f) }
          }
        },
        submit: function () {
          var v = input ? input.value.replace(/\\s/g, '') : ''
          return Promise.resolve(v.length < 12 ? { error: { code: 'incomplete_number', message: 'Ihre Kartennummer ist unvollständig.' } } : {})
        }
      }
    },
    confirmPayment: function (p) {
      return fetch('${control}/stripe/confirm', { method: 'POST', body: JSON.stringify({ clientSecret: p.clientSecret, card: input.value.replace(/\\s/g, '') }) }).then(function (r) { return r.json() })
    }
  }
}`

const paypalJs = (control: string) => `
window.paypal = {
  Buttons: function (opts) {
    return {
      render: function (el) {
        var b = document.createElement('button')
        b.type = 'button'
        b.textContent = 'Mit PayPal bezahlen'
        b.style.cssText = 'display:block;width:100%;padding:12px;background:#ffc439;border:0;border-radius:20px;font:bold 16px sans-serif'
        b.onclick = function () {
          opts.createOrder().then(function (id) {
            return fetch('${control}/paypal/approve', { method: 'POST', body: id }).then(function () { return opts.onApprove({ orderID: id }) })
          })
        }
        el.appendChild(b)
      }
    }
  }
}`

const control: ReturnType<typeof Bun.serve> = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req): Promise<Response> {
    const url = new URL(req.url)
    const base = `http://127.0.0.1:${control.port}`
    if (req.method === 'OPTIONS') return new Response(null, { headers: cors })
    if (url.pathname === '/stripe.js') return new Response(stripeJs(base), { headers: { 'content-type': 'text/javascript', ...cors } })
    if (url.pathname.startsWith('/paypal.js')) return new Response(paypalJs(base), { headers: { 'content-type': 'text/javascript', ...cors } })
    if (url.pathname === '/stripe/confirm') {
      const b = JSON.parse(await req.text())
      const pi = [...stripe.intents.values()].find((x) => x.client_secret === b.clientSecret)
      if (!pi) return Response.json({ error: { code: 'resource_missing', message: 'Unbekannte Zahlung.' } }, { headers: cors })
      stripe.confirm(pi.id, b.card === '4000000000000002' ? 'declined' : 'ok')
      const body = pi.status === 'succeeded' ? { paymentIntent: { id: pi.id, status: pi.status } } : { error: { type: 'card_error', code: 'card_declined', message: 'Ihre Karte wurde abgelehnt.' } }
      return Response.json(body, { headers: cors })
    }
    if (url.pathname === '/paypal/approve') {
      paypal.approve(await req.text())
      return new Response('ok', { headers: cors })
    }
    if (url.pathname === '/mollie/paid') {
      mollie.setStatus(url.searchParams.get('id') ?? '', 'paid')
      return new Response('ok', { headers: cors })
    }
    // Mollie moves the last refund of a payment on (refunded), or fails or cancels it
    if (url.pathname === '/mollie/refund') {
      const last = mollie.refunds.filter((r) => r.paymentId === url.searchParams.get('payment')).at(-1)
      if (!last) return new Response('no refund', { status: 404 })
      mollie.setRefundStatus(last.id, (url.searchParams.get('status') ?? 'refunded') as Parameters<typeof mollie.setRefundStatus>[1])
      return Response.json(last, { headers: cors })
    }
    return new Response('not found', { status: 404 })
  },
})

console.log(JSON.stringify({ stripe: stripe.url, mollie: mollie.url, paypal: paypal.url, control: `http://127.0.0.1:${control.port}` }))
