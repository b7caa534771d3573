-- Ticket buyers, each a different person (bench/ticket-orders.ts): POST <path> with a new e-mail
-- and one ticket of the category. The same body serves the raw baseline (bench/baseline-server.ts
-- reads email, firstName, lastName). Args: path, category, tag.
require("lib")

function make_request(i)
  local body = string.format('{"salutation":"Frau","firstName":"Berta","lastName":"Käuferin %d","email":"%s.%d@bench.example","tickets":[{"categoryId":%s,"amount":1}]}', i, opt.tag, i, opt.category or "0")
  return wrk.format("POST", opt.path, { ["content-type"] = "application/json" }, body)
end
