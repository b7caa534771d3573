-- Shared by the wrk scripts of the benchmarks (bench/wrk.ts runs them). A scenario script does
--   dofile(lib_dir .. "lib.lua")   -- (see the first lines of any bench/lua/*.lua)
-- and defines make_request(i) returning wrk.format(...) for the i-th request of the whole run
-- (i = 0, 1, 2 … unique over all threads: thread t sends t, t + T, t + 2T …), optionally
-- classify(status, body) returning a key to count (e.g. an outcome read from the body).
--
-- Arguments after `--` are key=value pairs (opt.key). bench/wrk.ts always passes threads=T.
-- With WRK_LIMIT=N in the environment the run sends exactly N requests in total and each thread stops once its share has
-- been answered (delay() holds a connection back instead of sending more); the thread then prints
-- WRK-THREAD-DONE so the runner can end wrk at once instead of waiting for -d.
--
-- done() prints one line "WRK-JSON {…}": requests, latency percentiles (ms), status counts,
-- errorType counts of non-2xx answers, non-2xx answers NOT in the spec's error shape
-- ({status, errorType, errorMessage}), socket errors, and the wall-clock window (µs, monotonic)
-- from the first request sent to the last answer received, for rates of fixed-count runs.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clk, bench_timespec *ts);
]]
local ts = ffi.new("bench_timespec")
function now_us()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC: the same clock in every thread
  return tonumber(ts.tv_sec) * 1000000 + tonumber(ts.tv_nsec) / 1000
end

-- main state: one entry per thread
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

-- thread state
opt = {}
-- flat (wrk's thread:get cannot copy nested tables): counts under "s:<status>", "e:<errorType>", "k:<kind>"
stats = { sent = 0, received = 0, badShape = 0, firstUs = 0, lastUs = 0, first2xxUs = 0, last2xxUs = 0, ok = 0 }
local share = nil
local reserved = 0
-- wrk calls request() once on the first thread right after init() to check the script
-- (script_verify_request); that request is never sent and must not use up an index.
local verifying = false
local T = 1
LIMIT = tonumber(os.getenv("WRK_LIMIT") or "")

function init(args)
  for _, a in ipairs(args) do
    local k, v = a:match("^([%w_]+)=(.*)$")
    if k then opt[k] = v end
  end
  T = tonumber(opt.threads or "1")
  if LIMIT then
    local n = LIMIT
    share = math.floor(n / T) + ((tid < n % T) and 1 or 0)
  end
  if scenario_init then scenario_init() end
  verifying = (tid == 0)
end

function request()
  if verifying then
    verifying = false
    return make_request(tid)
  end
  local i = stats.sent * T + tid
  stats.sent = stats.sent + 1
  if stats.firstUs == 0 then stats.firstUs = now_us() end
  return make_request(i)
end

local function bump(k)
  stats[k] = (stats[k] or 0) + 1
end

function response(status, headers, body)
  local t = now_us()
  stats.received = stats.received + 1
  stats.lastUs = t
  bump("s:" .. status)
  if status >= 200 and status < 300 then
    stats.ok = stats.ok + 1
    if stats.first2xxUs == 0 then stats.first2xxUs = t end
    stats.last2xxUs = t
  elseif body then
    local e = body:match('"errorType"%s*:%s*"([%w_]+)"')
    if e and body:find('"errorMessage"', 1, true) and body:find('"status"', 1, true) then
      bump("e:" .. e)
    else
      stats.badShape = stats.badShape + 1
      if stats.badShape <= 3 then io.stderr:write("answer not in the error shape: " .. status .. " " .. body:sub(1, 200) .. "\n") end
    end
  end
  if classify then
    local k = classify(status, body)
    if k then bump("k:" .. k) end
  end
  if share and stats.received >= share then
    io.stdout:write("WRK-THREAD-DONE\n")
    io.stdout:flush()
    wrk.thread:stop()
  end
end

-- fixed-count runs: a connection whose thread has sent its share waits (never sends more). Only
-- defined then: wrk looks for delay() when it loads the script, and it costs a timer per request.
-- The place is taken in delay() itself: between delay() and request() wrk runs a timer, in which
-- the thread's other connections pass delay() too (counting in request() sent one too many).
if LIMIT then
  function delay()
    if reserved >= share then return 3600000 end
    reserved = reserved + 1
    return 0
  end
end

local function encode(v)
  local ty = type(v)
  if ty == "table" then
    local parts = {}
    for k, x in pairs(v) do table.insert(parts, string.format("%q:%s", tostring(k), encode(x))) end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif ty == "number" then
    return string.format("%.3f", v)
  elseif ty == "string" then
    return string.format("%q", v)
  end
  return tostring(v)
end

local groups = { s = "status", e = "errorTypes", k = "kinds" }

function done(summary, latency, requests)
  local out = { status = {}, errorTypes = {}, kinds = {}, badShape = 0, sent = 0, received = 0, ok = 0, firstUs = 0, lastUs = 0, first2xxUs = 0, last2xxUs = 0 }
  for _, th in ipairs(threads) do
    local s = th:get("stats")
    for k, n in pairs(s) do
      local g, name = k:match("^(%a):(.*)$")
      if g then out[groups[g]][name] = (out[groups[g]][name] or 0) + n end
    end
    out.badShape = out.badShape + s.badShape
    out.sent = out.sent + s.sent
    out.received = out.received + s.received
    out.ok = out.ok + s.ok
    if s.firstUs > 0 and (out.firstUs == 0 or s.firstUs < out.firstUs) then out.firstUs = s.firstUs end
    if s.lastUs > out.lastUs then out.lastUs = s.lastUs end
    if s.first2xxUs > 0 and (out.first2xxUs == 0 or s.first2xxUs < out.first2xxUs) then out.first2xxUs = s.first2xxUs end
    if s.last2xxUs > out.last2xxUs then out.last2xxUs = s.last2xxUs end
  end
  out.requests = summary.requests
  out.durationUs = summary.duration
  out.socketErrors = { connect = summary.errors.connect, read = summary.errors.read, write = summary.errors.write, timeout = summary.errors.timeout }
  out.latencyMs = {
    p50 = latency:percentile(50) / 1000,
    p90 = latency:percentile(90) / 1000,
    p95 = latency:percentile(95) / 1000,
    p99 = latency:percentile(99) / 1000,
    max = latency.max / 1000,
    mean = latency.mean / 1000,
  }
  io.stdout:write("WRK-JSON " .. encode(out) .. "\n")
end
