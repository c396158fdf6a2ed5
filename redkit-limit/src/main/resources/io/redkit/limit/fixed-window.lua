-- fixed-window: at most L permits in each window of a fixed length, windows aligned to the Unix epoch on the
-- server's clock (TIME), never a client's.
--
-- KEYS[i]  the state of limit i, e.g. limit:{api:user42}:fixed.60000; every key of a call shares one hash tag
-- ARGV[1]  permits asked for, n >= 1 (never more than any limit's L: the client checks before sending)
-- ARGV[2i], ARGV[2i+1]  limit i: the window length in microseconds (whole milliseconds), and L
--
-- State: the string "1:<window index>:<count>" (1 = layout version), expiring when its window ends. The
-- window index is kept in the value rather than trusted to the expiry: Redis checks expiry against the
-- millisecond the script started, not against TIME, and deletes a key only after its last millisecond, so a
-- key could outlive its window by a call or two and pass its count on to the next window. A value of another
-- version (a newer release's) reads as an empty window; a value that is no state at all fails with
-- CORRUPTLIMIT, writing nothing.
--
-- Returns {allowed 1|0, the deciding limit (1-based), remaining permits, retry-after us, reset-after us,
-- server time us}. Refused: the deciding limit is the refusing one that makes the caller wait longest, and
-- retry-after is that wait (to the end of its window). Allowed: it is the limit with the fewest permits left.
-- Reset-after is the time until the deciding limit's window ends.
--
-- now, n, idiv, corrupt and decide come from prelude.lua, joined in front of this script.
--
-- Atomic because the check and the count (GET, then SET of the count + n with its expiry: the seeds' INCR +
-- PEXPIRE, without counting a refused request) must see one state: two callers that both read L - 1 would
-- both pass. Every limit is checked before any is written, so a refusal by one consumes nothing from the
-- others. Not idempotent: run twice, it counts the permits twice.
local ok, left, wait, reset, window, count = {}, {}, {}, {}, {}, {}

for i = 1, #KEYS do
  local length, cap = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  window[i] = idiv(now, length)
  count[i] = 0
  local raw = redis.call('GET', KEYS[i])
  if raw then
    local v, w, c = string.match(raw, '^(%d+):(%d+):(%d+)$')
    if not v then
      return corrupt(KEYS[i])
    end
    if v == '1' and tonumber(w) == window[i] then
      count[i] = tonumber(c)
    end
  end
  reset[i] = (window[i] + 1) * length - now
  ok[i] = count[i] + n <= cap
  if ok[i] then
    left[i] = cap - count[i] - n
    wait[i] = 0
  else
    left[i] = math.max(0, cap - count[i])
    wait[i] = reset[i]
  end
end

return settle(ok, left, wait, reset, function(i)
  local state = string.format('1:%.0f:%.0f', window[i], count[i] + n)
  redis.call('SET', KEYS[i], state, 'PX', string.format('%.0f', idiv(reset[i] + 999, 1000)))
end)
