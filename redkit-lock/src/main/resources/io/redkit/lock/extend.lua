-- extend: push the expiry of a lock we still hold (the watchdog's step).
--
-- KEYS[1]  the lock key; its value is the owner token
-- ARGV[1]  the owner token of the lease
-- ARGV[2]  the new time to live in milliseconds
--
-- Returns 1 when the key held our token and its expiry is now ARGV[2] ms away, 0 when it did not
-- (expired or taken by another holder: the lease is lost and the extension is refused).
--
-- Atomic because a GET then a PEXPIRE from the client could extend another holder's lock that took
-- ours over between the two commands. Idempotent: running it twice sets the same expiry.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
