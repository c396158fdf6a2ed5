-- once-release: give up a running marker of Once, if it is still ours, so that the next delivery runs the work.
--
-- KEYS[1]  the marker key
-- ARGV[1]  our marker value (it holds a random token)
--
-- Returns 1 when deleted, 0 when the key holds something else: our lease expired and another delivery runs the
-- work now, or it finished. Atomic because a GET then a DEL from the client could delete the marker of the
-- delivery that took over in between. Idempotent.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
