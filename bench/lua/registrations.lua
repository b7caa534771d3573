-- Public registrations without form fields, each request a new person (bench/guard.ts): POST <path>
-- with a new e-mail. The same body serves the raw baseline (bench/baseline-server.ts reads email,
-- firstName, lastName). Args: path, tag (makes the e-mails of one run unique in the database).
require("lib")

function make_request(i)
  local body = string.format('{"salutation":"Frau","firstName":"Bea","lastName":"Bench %d","email":"%s.%d@bench.example"}', i, opt.tag, i)
  return wrk.format("POST", opt.path, { ["content-type"] = "application/json" }, body)
end
