-- Requests over a list of ids (one per line in the file opt.file), each id once per pass:
-- request i uses the id on line floor(i / per) + 1 and the (i % per)-th of the paths given as
-- path0, path1 … with {id} replaced (e.g. an invoice's PDF, then its XML). Optional: method
-- (default GET), body (with {id}), cookie, account (x-account-id). bench/invoices.ts uses it.
require("lib")

local ids = {}
local paths = {}

function scenario_init()
  for line in io.lines(opt.file) do
    if #line > 0 then table.insert(ids, line) end
  end
  local k = 0
  while opt["path" .. k] do
    table.insert(paths, opt["path" .. k])
    k = k + 1
  end
end

function make_request(i)
  local per = #paths
  local id = ids[math.floor(i / per) % #ids + 1]
  local path = paths[i % per + 1]:gsub("{id}", id)
  local headers = { ["content-type"] = "application/json" }
  if opt.cookie then headers["cookie"] = opt.cookie end
  if opt.account then headers["x-account-id"] = opt.account end
  if opt.origin then headers["origin"] = opt.origin end
  local body = nil
  if opt.body then body = opt.body:gsub("{id}", id) end
  return wrk.format(opt.method or "GET", path, headers, body)
end
