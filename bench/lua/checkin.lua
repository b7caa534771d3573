-- Self check-ins, each request for a different registration (bench/self-checkin.ts):
-- POST /proxy/api/guest/checkInOut with the registration's token et{n}-{event} (seeded by
-- bench/organiser-lib.ts seedGuests) and a unique nonce. Args: event, guests, origin, persons (the
-- persons to check in, "0" = the main guest, "0,1,2" with two escorts; default "0"), offset (the
-- first registration of this run, so that runs one after another check in other guests; default 0).
require("lib")

function make_request(i)
  local k = i + tonumber(opt.offset or "0")
  local n = 10 + (k % (tonumber(opt.guests) - 11))
  local body = string.format('{"token":"et%d-%s","checkinGuests":[%s],"origin":"selfcheckin","nonce":"bench-nonce-%d"}', n, opt.event, opt.persons or "0", k)
  return wrk.format("POST", "/proxy/api/guest/checkInOut", { ["content-type"] = "application/json", ["origin"] = opt.origin }, body)
end
