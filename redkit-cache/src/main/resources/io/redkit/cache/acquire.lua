-- redkit-cache: look for an entry once more and, if it is still missing, take the right to fill it.
-- KEYS[1]  the cache entry
-- KEYS[2]  its fill lease (a child key of the entry: same slot)
-- ARGV[1]  a fresh random lease token
-- ARGV[2]  lease TTL in milliseconds
-- ARGV[3]  the bytes of an entry the caller already read and rejected (undecodable, other schema version),
--          or '' when it saw none
-- Returns  {1, entry} when an entry other than ARGV[3] is there: use it, no load;
--          {2} when the caller now holds the lease: load, then fill.lua (which overwrites the entry);
--          {0} when another caller holds the lease: wait briefly and call again.
-- Atomic so that "no entry" and "lease free" are seen together: an entry written between a plain GET and a
-- SET NX would otherwise be missed and the key loaded twice.
-- A key of another type (a hash left by an old deploy, a mistake) answers WRONGTYPE to GET; it is treated like
-- an undecodable entry, so the fill's SET overwrites it instead of every read loading again forever.
local entry = redis.pcall('GET', KEYS[1])
if type(entry) == 'table' and entry.err then
  entry = false
end
if entry and entry ~= ARGV[3] then
  return {1, entry}
end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {2}
end
return {0}
