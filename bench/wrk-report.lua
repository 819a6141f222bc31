-- Loaded by every wrk run of `npm run bench` (bench/wrk.ts).
--
-- With WRK_PATHS naming a file of request paths (one a line), each thread cycles through them,
-- starting at a random one, so a cache sees many keys instead of one hot URL. Without it,
-- `request` stays undefined and wrk keeps its fast path of one pre-built request.
--
-- `done` prints one line, `WRK_RESULT {json}`, with the counts and the latency distribution
-- (µs) that bench/wrk-output.ts parses: wrk's own text rounds and drops what the bench needs.

local paths_file = os.getenv("WRK_PATHS")
if paths_file then
  local paths = {}
  for line in io.lines(paths_file) do
    if line ~= "" then paths[#paths + 1] = line end
  end
  local prepared, position = {}, 0
  function init(args)
    for i, path in ipairs(paths) do prepared[i] = wrk.format(nil, path) end
    position = math.random(#prepared) - 1
  end
  function request()
    position = position % #prepared + 1
    return prepared[position]
  end
end

-- With WRK_DELAY_MS, each connection waits that long after each answer before its next request:
-- a steady load below the server's capacity (the jobs-under-load bench), not a saturating one.
local delay_ms = tonumber(os.getenv("WRK_DELAY_MS") or "")
if delay_ms then
  function delay() return delay_ms end
end

local PERCENTILES = { 50, 75, 90, 95, 98, 99, 99.5, 99.9, 99.99 }

function done(summary, latency, requests)
  local points = {}
  for _, p in ipairs(PERCENTILES) do
    points[#points + 1] = string.format("[%g,%d]", p, latency:percentile(p))
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"mean":%.1f,"max":%d,"percentiles":[%s]}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.max, table.concat(points, ",")))
end
