-- wrk script for .ci/floodbench: a visitor loading the page, one request at a
-- time, from an address of its own; prints
--   figures requests=N p50_us=N p95_us=N non2xx=N
function request()
  return wrk.format("GET", nil, { ["X-Forwarded-For"] = "192.0.2.200" }, nil)
end

function done(summary, latency, requests)
  io.write(string.format("figures requests=%d p50_us=%d p95_us=%d non2xx=%d\n",
    summary.requests, latency:percentile(50), latency:percentile(95), summary.errors.status))
end
