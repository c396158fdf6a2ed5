-- fenced-acquire: take the lock when it is free and issue the next fencing token in the same step.
--
-- KEYS[1]  the lock key, e.g. lock:{job:42}; its value is the owner token, a plain string
-- KEYS[2]  the waiters marker, lock:{job:42}:waiting (same hash slot)
-- KEYS[3]  the fence counter, lock:{job:42}:fence (same hash slot)
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the time to live in milliseconds
-- ARGV[3]  how long this caller will wait for a release, in milliseconds (0: it will not wait)
-- ARGV[4]  how long the fence counter is kept after the last fenced acquisition, in milliseconds
--
-- Returns {1, token} when the lock is ours, otherwise {0, holder's remaining ttl in ms or -1}.
-- Fails with CORRUPTFENCE, writing nothing, when KEYS[3] holds something that is not a counter.
--
-- Atomic because the token must belong to exactly one acquisition: an INCR after a separate SET could
-- be taken by a holder that lost the lock in between, and a newer holder could get a smaller token.
-- Not idempotent: a retry would issue a second token. Runs behind busy.lua (what a caller that finds the
-- lock held does).
--
-- Validates before it writes: Redis does not roll a script back, so a failure after the SET of the lock
-- would leave a lock nobody holds for a whole TTL (and every retry another). The counter is read and checked
-- first, and the INCR, which can still fail on a value out of range, comes before the SET of the lock.
--
-- The counter does not leak: it expires ARGV[4] ms after the last fenced acquisition. When it is gone
-- it starts again from the server clock in microseconds, which is larger than any token issued before
-- (a counter grows by one per acquisition, far slower than a microsecond clock), so tokens keep rising
-- across the gap and a resource that remembers an old token does not refuse every new holder.
local holder = redis.call('GET', KEYS[1])
if holder == false then
  local fence = redis.call('GET', KEYS[3])
  if fence == false then
    local now = redis.call('TIME')
    redis.call('SET', KEYS[3], now[1] .. string.format('%06d', tonumber(now[2])))
  elseif not string.match(fence, '^%d+$') or #fence > 19 then
    return redis.error_reply('CORRUPTFENCE ' .. KEYS[3] .. ' does not hold a fencing counter;'
        .. ' no lock was taken; repair or delete it (tokens must keep rising)')
  end
  local token = redis.call('INCR', KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {1, token}
end
return {0, busy()}
