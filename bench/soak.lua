-- wrk script of bench/soak.sh: each request is picked at random from the
-- list bench/soak_requests.py wrote (path in SOAK_REQUESTS), and every
-- response status is counted; done() prints the counts as one JSON line.

local requests = dofile(os.getenv("SOAK_REQUESTS"))
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("number", #threads)
end

function init(args)
  -- A different sequence per thread and per run.
  math.randomseed(os.time() * 100 + number)
  statuses = {}
end

function request()
  return requests[math.random(#requests)]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do
    table.insert(parts, string.format('"%d": %d', status, count))
  end
  local errors = summary.errors
  io.write(string.format(
    'SOAK {"statuses": {%s}, "requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, "timeout": %d, "status_errors": %d, "p50_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f}\n',
    table.concat(parts, ", "), summary.requests, summary.duration,
    errors.connect, errors.read, errors.write, errors.timeout, errors.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
