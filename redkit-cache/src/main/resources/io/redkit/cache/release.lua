-- redkit-cache: give a fill lease back without filling (the loader failed or the value is not cacheable).
-- KEYS[1]  the fill lease
-- ARGV[1]  our lease token
-- Returns  1 released, 0 when the lease was no longer ours (expired, invalidated, taken by another).
-- Owner-checked and atomic so that a late release never deletes another caller's lease.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
