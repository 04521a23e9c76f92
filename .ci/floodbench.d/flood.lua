-- wrk script for .ci/floodbench: the insights' writes as strangers send them.
--
-- FLOOD_MODE=one: one client (X-Forwarded-For FLOOD_ADDRESS) at the top of
-- its speed: every other request announces a new visit (floodone-NNNNNN), the
-- others are comment requests with attempts of the visits it announced, so
-- it tries every write the page can make, as often as the server answers.
--
-- FLOOD_MODE=many: many clients through the trusted proxy hop, each its own
-- address (10.x.y.z, FLOOD_CLIENTS of them): a client's first request
-- announces its visit (floodmany-NNNNNN), its later ones are that visit's
-- attempts, numbered on, and its tools. FLOOD_DELAY_MS between two requests
-- of one connection paces them (0: as fast as the server answers).
--
-- At the end: one line "figures requests=N non2xx=N errors=N".

local mode = os.getenv("FLOOD_MODE") or "many"
local address = os.getenv("FLOOD_ADDRESS") or "198.51.100.1"
local clients = tonumber(os.getenv("FLOOD_CLIENTS") or "20000") or 20000
local pause = tonumber(os.getenv("FLOOD_DELAY_MS") or "0") or 0

local thread_count = 0
function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  nthreads = tonumber(os.getenv("FLOOD_THREADS") or "1")
  counter = 0
end

local function start(visit, ip)
  return wrk.format("POST", "/insights/events", {
    ["Content-Type"] = "text/plain;charset=UTF-8",
    ["X-Forwarded-For"] = ip,
  }, string.format('{"visit":"%s","lang":"en","layout":"page","width":1280,"tools":["map"]}', visit))
end

local function attempt(visit, n, ip)
  return wrk.format("POST", "/api/comment", {
    ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = ip,
  }, string.format('{"error":799.09,"weight":0.1,"bias":150,"lang":"en","visit":"%s","attempt":%d}', visit, n))
end

function request()
  local n = counter * nthreads + id
  counter = counter + 1
  if mode == "one" then
    local visit = string.format("floodone-%08d", math.floor(n / 2))
    if n % 2 == 0 then
      return start(visit, address)
    end
    return attempt(string.format("floodone-%08d", math.floor(n / 4)), n % 400 + 1, address)
  end
  local c = n % clients
  local k = math.floor(n / clients)
  local ip = string.format("10.%d.%d.%d", math.floor(c / 65536) % 256, math.floor(c / 256) % 256, c % 256)
  local visit = string.format("floodmany-%08d", c)
  if k == 0 then
    return start(visit, ip)
  end
  return attempt(visit, k, ip)
end

function delay()
  return pause
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("figures requests=%d non2xx=%d errors=%d\n",
    summary.requests, e.status, e.connect + e.read + e.write + e.timeout))
end
