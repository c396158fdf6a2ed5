-- busy: what an acquiring script does when the lock is held, said once; LockScripts joins this file in front of
-- acquire.lua and fenced-acquire.lua, and their SHAs are those of the joined text.
--
-- KEYS[1]  the lock key, e.g. lock:{job:42}
-- KEYS[2]  the waiters marker, lock:{job:42}:waiting (same hash slot), set while someone waits
-- ARGV[3]  how long this caller will wait for a release, in milliseconds (0: it will not wait)
--
-- Returns (busy()) the holder's remaining time to live in milliseconds, or -1 when the holder set no expiry, after
-- marking the caller as waiting when it will wait.
--
-- Atomic because it runs inside the acquiring script: a release between "busy" and "mark waiting" would publish
-- to nobody.
local function busy()
  local wait = tonumber(ARGV[3])
  if wait > 0 then
    -- Bounded: the marker lives no longer than this caller's wait.
    local current = redis.call('PTTL', KEYS[2])
    if current < wait then
      redis.call('SET', KEYS[2], '1', 'PX', wait)
    end
  end
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 1 then
    return -1
  end
  return ttl
end
