-- index-add: record a session in its user's index, prune the index, and keep it no longer than its sessions.
--
-- KEYS[1]  the user's index, sess.user:{<user id>}, a sorted set of session id digests scored by absolute expiry
-- ARGV[1]  the session id's digest
-- ARGV[2]  its absolute expiry, Unix epoch milliseconds
-- ARGV[3]  now, Unix epoch milliseconds (the same clock as the expiries)
--
-- Returns the number of sessions left in the index.
--
-- Atomic so that two logins of one user at once cannot each set the index's expiry from a view that lacks
-- the other's session (the later PEXPIRE would cut the other session out of revoke-all). Members whose
-- absolute expiry has passed are removed; the index expires with the latest absolute expiry among its
-- members, so it never outlives the sessions it lists. Idempotent: a second run changes nothing.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
local ttl = tonumber(last[2]) - tonumber(ARGV[3])
if ttl < 1 then
  ttl = 1
end
redis.call('PEXPIRE', KEYS[1], ttl)
return redis.call('ZCARD', KEYS[1])
