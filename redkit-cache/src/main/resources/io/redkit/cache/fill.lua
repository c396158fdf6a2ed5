-- redkit-cache: write a loaded entry back, but only while the loader's fill lease still holds.
-- KEYS[1]  the cache entry
-- KEYS[2]  its fill lease
-- ARGV[1]  the lease token the loader got from acquire.lua (or SET NX for an early refresh)
-- ARGV[2]  the entry (envelope bytes)
-- ARGV[3]  entry TTL in milliseconds
-- Returns  1 written (and the lease released); 0 refused: the lease is gone.
-- Invalidation UNLINKs the entry and its lease together, so a load that began before an invalidation finds its
-- lease gone here and cannot write its stale value back. Atomic so that no invalidation falls between the
-- check and the SET.
if redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  redis.call('DEL', KEYS[2])
  return 1
end
return 0
