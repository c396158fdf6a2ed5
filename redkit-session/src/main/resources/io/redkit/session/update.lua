-- update: replace a live session's value, never bring back one that has ended.
--
-- KEYS[1]  the session key, sess:{<id>}
-- ARGV[1]  the new stored value (header with the same id, user and lifetimes, then the new payload)
-- ARGV[2]  the time to live in milliseconds: min(idle timeout, absolute expiry - now), computed by the caller
--
-- Returns 1 when the session existed and now holds ARGV[1], 0 when it did not (revoked, expired or rotated
-- away meanwhile: nothing is written).
--
-- SET XX so that an update racing a revoke cannot recreate the session the user just logged out of; a
-- script because the client's SET has no XX here. Idempotent: a second run writes the same value.
if redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2]) then
  return 1
end
return 0
