-- Self check-ins, each request for a different registration (bench/self-checkin.ts):
-- POST /proxy/api/guest/checkInOut with the registration's token et{n}-{event} (seeded by
-- bench/organiser-lib.ts seedGuests) and a unique nonce. Args: event, guests, origin, persons (the
-- persons to check in, "0" = the main guest, "0,1,2" with two escorts; default "0").
require("lib")

function make_request(i)
  local n = 10 + (i % (tonumber(opt.guests) - 11))
  local body = string.format('{"token":"et%d-%s","checkinGuests":[%s],"origin":"selfcheckin","nonce":"bench-nonce-%d"}', n, opt.event, opt.persons or "0", i)
  return wrk.format("POST", "/proxy/api/guest/checkInOut", { ["content-type"] = "application/json", ["origin"] = opt.origin }, body)
end
