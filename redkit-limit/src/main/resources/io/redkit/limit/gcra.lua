-- gcra: the generic cell rate algorithm, a token bucket kept as one time per limit: the theoretical arrival
-- time (TAT) at which the bucket is full again. Decided on the server's clock (TIME), never a client's.
--
-- KEYS[i]  the state of limit i, e.g. limit:{api:user42}:gcra.1000; every key of a call shares one hash tag
-- ARGV[1]  permits asked for, n >= 1 (never more than any limit's burst: the client checks before sending)
-- ARGV[3i-1], ARGV[3i], ARGV[3i+1]  limit i: the emission interval T = step / denom microseconds as two whole
--          numbers (the limit's period over its permits, reduced), and the burst b (the bucket's capacity)
--
-- Arithmetic is exact: Lua numbers are doubles, whole below 2^53, so time is counted in ticks of 1/denom us and
-- kept relative to now; the client refuses a limit whose b * step reaches 2^52. Numbers are written with
-- %.0f, never tostring (which gives 1.8e+15).
--
-- State: the string "1:<tat us>:<tat ticks>" (1 = layout version), expiring when the TAT has passed, since an
-- absent key and a full bucket are the same. A value of another version (a newer release's) reads as a full
-- bucket; a value that is no state at all fails with CORRUPTLIMIT, writing nothing.
--
-- Returns {allowed 1|0, the deciding limit (1-based), remaining permits, retry-after us, reset-after us,
-- server time us}. Refused: the deciding limit is the refusing one that makes the caller wait longest, and
-- retry-after is that wait. Allowed: it is the limit with the fewest permits left. Reset-after is the time
-- until the deciding limit's bucket is full again.
--
-- now, n, idiv, corrupt and decide come from prelude.lua, joined in front of this script.
--
-- Atomic because the check and the update of every limit must see one state: two callers that both read a
-- bucket with one permit left would both take it. Every limit is checked before any is written, so a refusal
-- by one consumes nothing from the others. Not idempotent: run twice, it takes the permits twice.
local ok, left, wait, reset, after, denoms = {}, {}, {}, {}, {}, {}

for i = 1, #KEYS do
  local step, denom, burst = tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1])
  -- Ticks from now until the TAT; 0 when it has passed (a full bucket).
  local ahead = 0
  local raw = redis.call('GET', KEYS[i])
  if raw then
    local v, us, ticks = string.match(raw, '^(%d+):(%d+):(%d+)$')
    if not v then
      return corrupt(KEYS[i])
    end
    if v == '1' then
      local tat = tonumber(us)
      if tat >= now then
        ahead = (tat - now) * denom + tonumber(ticks)
      end
    end
  end
  local full = burst * step
  after[i] = ahead + n * step
  denoms[i] = denom
  ok[i] = after[i] <= full
  if ok[i] then
    left[i] = idiv(full - after[i], step)
    wait[i] = 0
    reset[i] = idiv(after[i] + denom - 1, denom)
  else
    left[i] = math.max(0, idiv(full - ahead, step))
    wait[i] = idiv(after[i] - full + denom - 1, denom)
    reset[i] = idiv(ahead + denom - 1, denom)
  end
end

return settle(ok, left, wait, reset, function(i)
  local whole = idiv(after[i], denoms[i])
  local state = string.format('1:%.0f:%.0f', now + whole, after[i] - whole * denoms[i])
  redis.call('SET', KEYS[i], state, 'PX', string.format('%.0f', idiv(reset[i] + 999, 1000) + 1))
end)
