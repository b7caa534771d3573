-- Chair holds, each request a different visit (bench/chairs.ts): POST
-- /proxy/api/public/events/{event}/seatingplan/reservation/chair for one place of chair
-- ids[i % #ids] with the identification bench-{tag}-{i}. Args: event, first, count, tag (the chairs'
-- ids are first … first + count - 1).
require("lib")

function make_request(i)
  local chair = tonumber(opt.first) + (i % tonumber(opt.count))
  local body = string.format('{"chairId":%d,"identification":"bench-%s-%d","amount":1}', chair, opt.tag, i)
  return wrk.format("POST", "/proxy/api/public/events/" .. opt.event .. "/seatingplan/reservation/chair", { ["content-type"] = "application/json" }, body)
end

function classify(status, body)
  if status == 200 and body and body:find('"succeeded":true', 1, true) then return "held" end
  return nil
end
