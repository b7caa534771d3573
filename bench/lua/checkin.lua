-- Self check-ins, each request for a different registration (bench/self-checkin.ts):
-- POST /proxy/api/guest/checkInOut with the registration's token et{n}-{event} (seeded by
-- bench/organiser-lib.ts seedGuests) and a unique nonce. Args: event, guests, origin.
require("lib")

function make_request(i)
  local n = 10 + (i % (tonumber(opt.guests) - 11))
  local body = string.format('{"token":"et%d-%s","checkinGuests":[0],"origin":"selfcheckin","nonce":"bench-nonce-%d"}', n, opt.event, i)
  return wrk.format("POST", "/proxy/api/guest/checkInOut", { ["content-type"] = "application/json", ["origin"] = opt.origin }, body)
end
