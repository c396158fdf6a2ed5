-- prelude: what every limit script shares, said once. LimitScripts joins it in front of each script when it
-- declares it, so the script Redis runs (and its SHA) is this text followed by the script's own; a script's
-- header comment documents its KEYS, ARGV and reply, this one the names it gives them:
--
-- now      the server's time in microseconds (TIME): the only clock a decision uses, never a client's
-- n        the permits asked for, ARGV[1]
-- idiv     floor division, exact for the whole numbers below 2^53 that Lua doubles hold
-- corrupt  the CORRUPTLIMIT error for a key that holds no rate-limit state; nothing is written
-- decide   the limit that decides a call, over ok[i] (allowed), left[i] (permits left) and wait[i] (retry-after
--          us): a refusing limit before an allowing one; among refusing ones the one that makes the caller wait
--          longest, among allowing ones the one with the fewest permits left.
-- settle   every script's last step, over the same tables and reset[i] (reset-after us): the deciding limit
--          refuses, nothing is written; all allow, write(i) stores each limit's new state. The reply:
--          {allowed 1|0, that limit (1-based), its remaining permits, retry-after us (0 when allowed),
--          reset-after us, now}.
local function idiv(a, b)
  local q = math.floor(a / b)
  if q * b > a then return q - 1 elseif (q + 1) * b <= a then return q + 1 end
  return q
end

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local n = tonumber(ARGV[1])

local function corrupt(key)
  return redis.error_reply('CORRUPTLIMIT ' .. key .. ' holds no rate-limit state; nothing was counted; delete'
      .. ' the key')
end

local function decide(ok, left, wait)
  local pick = 1
  for i = 2, #KEYS do
    local better
    if ok[i] ~= ok[pick] then
      better = not ok[i]
    elseif ok[i] then
      better = left[i] < left[pick]
    else
      better = wait[i] > wait[pick]
    end
    if better then pick = i end
  end
  return pick
end

local function settle(ok, left, wait, reset, write)
  local pick = decide(ok, left, wait)
  if not ok[pick] then
    return {0, pick, left[pick], wait[pick], reset[pick], now}
  end
  for i = 1, #KEYS do
    write(i)
  end
  return {1, pick, left[pick], 0, reset[pick], now}
end
