-- Signed Stripe webhook deliveries, each a different event (bench/webhooks.ts writes them to
-- opt.file: one per line, "signature<TAB>body"; request i sends line i + 1). Counts the outcome
-- einlass answers ({"received":true,"outcome":"PAID"} …; "duplicate" for an event seen before).
-- Args: file, method (the payment method id of the webhook URL).
require("lib")

local events = {}

function scenario_init()
  for line in io.lines(opt.file) do
    local sig, body = line:match("^([^\t]+)\t(.*)$")
    if sig then table.insert(events, { sig, body }) end
  end
end

function make_request(i)
  local e = events[i % #events + 1]
  return wrk.format("POST", "/proxy/api/payments/stripe/webhook/" .. opt.method, { ["content-type"] = "application/json", ["stripe-signature"] = e[1] }, e[2])
end

function classify(status, body)
  if status ~= 200 or not body then return nil end
  if body:find('"duplicate":true', 1, true) then return "duplicate" end
  return body:match('"outcome"%s*:%s*"([%w_]+)"') or "none"
end
