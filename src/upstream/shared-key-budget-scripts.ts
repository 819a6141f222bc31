/**
 * The Lua scripts that keep upstream key budgets in Redis, one hash per key with the fields of
 * KeyBudgets' state (`limit`, `remaining`, `resetAt` in epoch ms, `inflight`, and `probeUntil`
 * while the one request to a key never heard from is out). Redis runs a script alone, so a
 * take is an atomic check-and-spend across every instance.
 */

/**
 * KEYS: the hashes of the keys. ARGV: now (ms), default window (ms), probe lease (ms), expiry
 * of a hash (ms). Returns {index (0-based) or -1, ms to wait, budget left unspent in windows that
 * ended}.
 */
export const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local best, bestFree, soonest, unspent = -1, 0, -1, 0
for i, key in ipairs(KEYS) do
  local s = redis.call('HMGET', key, 'limit', 'remaining', 'resetAt', 'probeUntil')
  local limit = tonumber(s[1])
  local remaining = tonumber(s[2]) or 0
  local resetAt = tonumber(s[3]) or 0
  local free
  if limit then
    if now >= resetAt then
      unspent = unspent + math.max(0, remaining)
      remaining = limit
      resetAt = now + window
      redis.call('HSET', key, 'remaining', remaining, 'resetAt', resetAt, 'inflight', 0)
    end
    free = remaining
  else
    -- The answer to the request out will tell the budget: asked again soon (wait 100 ms).
    resetAt = 0
    if (tonumber(s[4]) or 0) <= now then free = 1 else free = 0 end
  end
  if free > bestFree then
    best = i
    bestFree = free
  end
  if free <= 0 then
    local wait = math.max(resetAt - now, 100)
    if soonest < 0 or wait < soonest then soonest = wait end
  end
end
if best < 0 then
  if soonest < 0 then soonest = 1000 end
  return {-1, soonest, unspent}
end
local key = KEYS[best]
if redis.call('HEXISTS', key, 'limit') == 1 then
  redis.call('HINCRBY', key, 'remaining', -1)
else
  redis.call('HSET', key, 'probeUntil', now + tonumber(ARGV[3]))
end
redis.call('HINCRBY', key, 'inflight', 1)
redis.call('PEXPIRE', key, tonumber(ARGV[4]))
return {best - 1, 0, unspent}
`;

/**
 * KEYS: the hash of the key a request went with. ARGV: now (ms), answered ('1'/'0'), limit,
 * remaining, resetAt (epoch ms; each '' when the answer did not say), refused ('1'/'0'),
 * default window (ms). Mirrors KeyBudgets.record: the upstream's count wins, less the requests
 * still in flight on the key from any instance.
 */
export const RECORD_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local inflight = redis.call('HINCRBY', key, 'inflight', -1)
if inflight < 0 then
  redis.call('HSET', key, 'inflight', 0)
  inflight = 0
end
redis.call('HDEL', key, 'probeUntil')
if ARGV[2] ~= '1' then return 0 end
local s = redis.call('HMGET', key, 'limit', 'remaining', 'resetAt')
local known = tonumber(s[1])
local current = tonumber(s[2]) or 0
local currentReset = tonumber(s[3]) or 0
local limit = tonumber(ARGV[3]) or known
local remaining = tonumber(ARGV[4])
local resetAt = tonumber(ARGV[5])
if ARGV[6] == '1' then
  redis.call('HSET', key, 'limit', limit or 1, 'remaining', 0,
    'resetAt', resetAt or (now + tonumber(ARGV[7])))
  return 1
end
redis.call('HSET', key, 'limit', limit or math.max(1, current + 1))
if not remaining then return 0 end
local left = math.max(0, remaining - inflight)
local newWindow = resetAt ~= nil and resetAt > currentReset + 1000
if newWindow or known == nil then
  current = left
else
  current = math.min(current, left)
end
redis.call('HSET', key, 'remaining', current)
if resetAt ~= nil and (newWindow or currentReset == 0) then
  redis.call('HSET', key, 'resetAt', resetAt)
end
return 0
`;
