-- redkit-cache: keep a fill lease while its loader is still running.
-- KEYS[1]  the fill lease
-- ARGV[1]  our lease token
-- ARGV[2]  lease TTL in milliseconds
-- Returns  1 extended; 0 when the lease is no longer ours: an invalidation UNLINKed it (the load is now stale
--          and fill.lua will refuse it), or it expired and another instance took it.
-- Owner-checked and atomic so that a late extension never prolongs another caller's lease. Without it, a loader
-- slower than the lease never filled the cache: its write-back found the lease gone, and every read loaded again.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
