-- release: compare-and-delete, the seeds' owner-checked release.
--
-- KEYS[1]  the lock key; its value is the owner token
-- KEYS[2]  the waiters marker (same hash slot)
-- ARGV[1]  the owner token of the lease being released
-- ARGV[2]  the pub/sub channel that wakes waiters
--
-- Returns 1 when the key held our token and is now deleted (RELEASED), 0 when it did not: it expired,
-- or someone else holds it now (LOST: another holder may have worked in parallel).
--
-- Atomic because a GET then a DEL from the client could delete a lock that expired and was taken by
-- another holder between the two commands: the very bug of the seeds' naive DEL. Publishes only when a
-- waiter marked itself, so an uncontended release costs no PUBLISH. Idempotent.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if redis.call('EXISTS', KEYS[2]) == 1 then
    redis.call('PUBLISH', ARGV[2], KEYS[1])
  end
  return 1
end
return 0
