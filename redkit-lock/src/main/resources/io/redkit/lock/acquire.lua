-- acquire: take the lock when it is free (SET NX PX), the seeds' wire format.
--
-- KEYS[1]  the lock key, e.g. lock:{job:42}; its value is the owner token, a plain string
-- KEYS[2]  the waiters marker, lock:{job:42}:waiting (same hash slot), set while someone waits
-- ARGV[1]  the owner token of this acquisition (fresh random per acquisition)
-- ARGV[2]  the time to live in milliseconds
-- ARGV[3]  how long this caller will wait for a release, in milliseconds (0: it will not wait)
--
-- Returns 0 when the lock is ours, otherwise the holder's remaining time to live in milliseconds
-- (-1 when the holder set no expiry), which bounds how long the caller sleeps before trying again.
--
-- Atomic because the test, the set and the waiters marker must see one state: a release between
-- "busy" and "mark waiting" would publish to nobody. Running it twice with the same owner token is
-- harmless (the second run finds its own token and refreshes the expiry), so a timed-out attempt may
-- be retried. Runs behind busy.lua (what a caller that finds the lock held does).
local holder = redis.call('GET', KEYS[1])
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 0
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 0
end
return busy()
