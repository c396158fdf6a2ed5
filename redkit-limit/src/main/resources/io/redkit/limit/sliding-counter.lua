-- sliding-counter: about L permits in any span of one window length, from two fixed-window counts: the current
-- window's, plus the previous window's weighted by the part of it the sliding span still covers. Windows are
-- aligned to the Unix epoch on the server's clock (TIME), never a client's.
--
-- KEYS[i]  the state of limit i, e.g. limit:{api:user42}:counter.60000; every key of a call shares one hash tag
-- ARGV[1]  permits asked for, n >= 1 (never more than any limit's L: the client checks before sending)
-- ARGV[2i], ARGV[2i+1]  limit i: the window length in milliseconds, and L
--
-- The estimate is previous * (window - elapsed) / window + current, elapsed counted in whole milliseconds;
-- a call passes when estimate + n <= L. Kept exact in integers (both sides times the window length in ms; the
-- client refuses a limit whose L * window reaches 2^52). The error, documented for users: the current fixed
-- window never holds more than L; a span of one window length may hold more, up to 2L - 1 when the previous
-- window's permits all came at its end, because the weighting assumes they came evenly.
--
-- State: the string "1:<window index>:<current count>:<previous count>" (1 = layout version), expiring when
-- the next window ends. A value of another version (a newer release's) reads as empty windows; a value that is
-- no state at all fails with CORRUPTLIMIT, writing nothing.
--
-- Returns {allowed 1|0, the deciding limit (1-based), remaining permits, retry-after us, reset-after us,
-- server time us}. Refused: the deciding limit is the refusing one that makes the caller wait longest, and
-- retry-after is the time until the estimate leaves room for n, if nothing else is taken meanwhile. Allowed:
-- it is the limit with the fewest permits left. Reset-after is the time until the estimate is back to zero.
--
-- now, n, idiv, corrupt and decide come from prelude.lua, joined in front of this script.
--
-- Atomic because the check and the count must see one state: two callers that both read room for one would
-- both pass. Every limit is checked before any is written, so a refusal by one consumes nothing from the
-- others. Not idempotent: run twice, it counts the permits twice.
local ok, left, wait, reset, window, current, previous, span = {}, {}, {}, {}, {}, {}, {}, {}

-- When the estimate first leaves room for n: later in this window as the previous one's weight fades, or in
-- the next, where this window's count becomes the previous one.
local function waitFor(ms, cap, w, cur, prev)
  local length = ms * 1000
  if cur + n <= cap and prev > 0 then
    local at = ms - idiv((cap - cur - n) * ms, prev)
    if at < ms then
      return w * length + at * 1000 - now
    end
  end
  local at = 0
  if cur > 0 then
    at = math.max(0, ms - idiv((cap - n) * ms, cur))
  end
  return (w + 1) * length + at * 1000 - now
end

for i = 1, #KEYS do
  local ms, cap = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  span[i] = ms * 1000
  window[i] = idiv(now, span[i])
  local elapsed = idiv(now - window[i] * span[i], 1000)
  current[i], previous[i] = 0, 0
  local raw = redis.call('GET', KEYS[i])
  if raw then
    local v, w, c, p = string.match(raw, '^(%d+):(%d+):(%d+):(%d+)$')
    if not v then
      return corrupt(KEYS[i])
    end
    if v == '1' and tonumber(w) == window[i] then
      current[i], previous[i] = tonumber(c), tonumber(p)
    elseif v == '1' and tonumber(w) == window[i] - 1 then
      previous[i] = tonumber(c)
    end
  end
  -- A limit lowered since the state was written: the old count weighs no more than a full window.
  previous[i] = math.min(previous[i], cap)
  local used = previous[i] * (ms - elapsed) + current[i] * ms
  ok[i] = used + n * ms <= cap * ms
  if ok[i] then
    left[i] = idiv(cap * ms - used - n * ms, ms)
    wait[i] = 0
    reset[i] = (window[i] + 2) * span[i] - now
  else
    left[i] = math.max(0, idiv(cap * ms - used, ms))
    wait[i] = waitFor(ms, cap, window[i], current[i], previous[i])
    if current[i] > 0 then
      reset[i] = (window[i] + 2) * span[i] - now
    else
      reset[i] = (window[i] + 1) * span[i] - now
    end
  end
end

return settle(ok, left, wait, reset, function(i)
  local state = string.format('1:%.0f:%.0f:%.0f', window[i], current[i] + n, previous[i])
  redis.call('SET', KEYS[i], state, 'PX', string.format('%.0f', idiv(reset[i] + 999, 1000)))
end)
