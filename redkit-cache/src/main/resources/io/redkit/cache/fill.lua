-- redkit-cache: write a loaded entry back, but only while the loader's fill lease still holds, and only over the
-- entry the loader expected to replace.
-- KEYS[1]  the cache entry
-- KEYS[2]  its fill lease
-- ARGV[1]  the lease token the loader got from acquire.lua (or SET NX for an early refresh)
-- ARGV[2]  the entry (envelope bytes)
-- ARGV[3]  entry TTL in milliseconds
-- ARGV[4]  (after a miss) the entry the reader found and rejected, or '' when it found none; absent for an early
--          refresh, which replaces whatever is there
-- Returns  1 written (and the lease released); 0 refused: the lease is gone, or another client wrote the entry
--          since the miss (its value is at least as new as this load's, which may have begun before that write).
-- Invalidation UNLINKs the entry and its lease together, so a load that began before an invalidation finds its
-- lease gone here and cannot write its stale value back. A writer that does not take part in leases (another
-- language's service, a script) leaves the lease alone; the entry it wrote is what shows it. Atomic so that no
-- invalidation or write falls between the checks and the SET.
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
if ARGV[4] then
  local current = redis.pcall('GET', KEYS[1])
  -- A key of another type answers WRONGTYPE: it is overwritten, as acquire.lua promised.
  if type(current) == 'string' and current ~= ARGV[4] then
    redis.call('DEL', KEYS[2])
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('DEL', KEYS[2])
return 1
