-- wrk script for .ci/loadbench: every request comes from another visitor.
--
-- Each request carries its own X-Forwarded-For (10.x.y.z, a counter spread over
-- wrk's threads), so with JAY_TRUSTED_PROXY_HOPS=1 the server's per-client
-- rate limiter keys, charges and remembers a client every time: exercised,
-- never hit. BENCH_CLIENTS addresses in turn (16.7 million if unset):
-- .ci/loadbench sets 90,000, under the 100,000 clients the day's table of
-- model calls holds (coach::budget::MAX_CLIENTS; past it a new client gets
-- the offline comment, which would measure the wrong thing), and few enough
-- that at 20,000 requests/s each comes back every 4.5 s, within its rate.
--
-- From the environment: BENCH_METHOD (GET), BENCH_BODY and BENCH_TYPE (its
-- Content-Type). At the end it prints one line of figures for the caller:
--   figures requests=N duration_us=N p50_us=N p99_us=N non2xx=N errors=N
--
-- With BENCH_VISITS (a number), every request is an attempt of a visit the
-- caller announced: BENCH_BODY's %VISIT% becomes loadbench-visit-NNNN (the
-- request's count modulo BENCH_VISITS, plus BENCH_VISIT_FROM) and %ATTEMPT%
-- the attempt number BENCH_ATTEMPT_FROM + (the count divided by BENCH_VISITS)
-- + 1, so no two requests of a run (nor of runs with attempt ranges apart)
-- repeat one.

local method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
if body == "" then body = nil end
local ctype = os.getenv("BENCH_TYPE")
local visits = tonumber(os.getenv("BENCH_VISITS") or "0") or 0
local attempt_from = tonumber(os.getenv("BENCH_ATTEMPT_FROM") or "0") or 0
local visit_from = tonumber(os.getenv("BENCH_VISIT_FROM") or "0") or 0
local clients = tonumber(os.getenv("BENCH_CLIENTS") or "16777216") or 16777216

-- Each wrk thread has its own Lua state: `id` (0, 1, …) and BENCH_THREADS (how
-- many there are) interleave their counters, so no two threads share an address.
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  nthreads = tonumber(os.getenv("BENCH_THREADS") or "1")
  counter = 0
end

function request()
  local count = counter * nthreads + id
  local n = count % clients
  counter = counter + 1
  local headers = {
    ["X-Forwarded-For"] = string.format("10.%d.%d.%d",
      math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256),
  }
  if ctype and ctype ~= "" then headers["Content-Type"] = ctype end
  local b = body
  if visits > 0 and b then
    local visit = string.format("loadbench-visit-%04d", visit_from + count % visits)
    local attempt = tostring(attempt_from + math.floor(count / visits) + 1)
    b = (b:gsub("%%VISIT%%", visit))
    b = (b:gsub("%%ATTEMPT%%", attempt))
  end
  return wrk.format(method, nil, headers, b)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "figures requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50),
    latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
