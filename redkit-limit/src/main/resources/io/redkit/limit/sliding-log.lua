-- sliding-log: at most L permits in any span of one window length, exactly: a sorted set of the permits
-- taken, scored by the server time (TIME, microseconds) at which they were taken.
--
-- KEYS[i]  the log of limit i, e.g. limit:{api:user42}:log.1000; every key of a call shares one hash tag
-- ARGV[1]  permits asked for, n >= 1 (never more than any limit's L: the client checks before sending)
-- ARGV[2]  a random token of this call, so that its members are unique (two calls in one microsecond, or n
--          permits of one call, must not collapse into one member and be counted once)
-- ARGV[2i+1], ARGV[2i+2]  limit i: the window length in microseconds (whole milliseconds), and L
--
-- State: a sorted set, one member "<token>.<k>" per permit, its score the microsecond it was taken; a permit
-- counts while now - score < window. Layout version 1: another layout would take another key suffix. The key
-- expires a window after the last permit taken. Memory is one member per permit in the window, which is why
-- the client caps L (use the sliding counter for large limits).
--
-- Returns {allowed 1|0, the deciding limit (1-based), remaining permits, retry-after us, reset-after us,
-- server time us}. Refused: the deciding limit is the refusing one that makes the caller wait longest, and
-- retry-after is the time until enough of its permits have left the window. Allowed: it is the limit with the
-- fewest permits left. Reset-after is the time until the deciding limit's log is empty.
--
-- now, n, idiv, corrupt and decide come from prelude.lua, joined in front of this script.
--
-- Atomic because the trim, the count and the add must see one state: two callers that both count L - 1 would
-- both add. Every limit is checked before any permit is added (the trim only drops permits that have left the
-- window, which changes no decision), so a refusal by one consumes nothing from the others. Not idempotent:
-- run twice, it adds the permits twice.
local token = ARGV[2]
local ok, left, wait, reset, length = {}, {}, {}, {}, {}

local function oldest(key, rank)
  return tonumber(redis.call('ZRANGE', key, rank, rank, 'WITHSCORES')[2])
end

for i = 1, #KEYS do
  length[i] = tonumber(ARGV[2 * i + 1])
  local cap = tonumber(ARGV[2 * i + 2])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', string.format('%.0f', now - length[i]))
  local count = redis.call('ZCARD', KEYS[i])
  ok[i] = count + n <= cap
  if ok[i] then
    left[i] = cap - count - n
    wait[i] = 0
    reset[i] = length[i]
  else
    left[i] = math.max(0, cap - count)
    -- The permit whose leaving makes room for n: the (count + n - cap)-th oldest.
    wait[i] = oldest(KEYS[i], count + n - cap - 1) + length[i] - now
    reset[i] = oldest(KEYS[i], -1) + length[i] - now
  end
end

local score = string.format('%.0f', now)
return settle(ok, left, wait, reset, function(i)
  -- In chunks: unpack() of a whole large batch would overflow Lua's stack.
  local k = 0
  while k < n do
    local batch = {}
    for j = k + 1, math.min(n, k + 500) do
      batch[#batch + 1] = score
      batch[#batch + 1] = token .. '.' .. j
    end
    redis.call('ZADD', KEYS[i], unpack(batch))
    k = k + 500
  end
  redis.call('PEXPIRE', KEYS[i], string.format('%.0f', math.floor(length[i] / 1000) + 1))
end)
