-- once-extend: renew the lease of a running marker of Once while its work still runs, if it is still ours.
--
-- KEYS[1]  the marker key
-- ARGV[1]  our marker value
-- ARGV[2]  the lease (ms)
--
-- Returns 1 when renewed, 0 when the key holds something else (our lease ran out and another delivery took it).
-- Atomic because a GET then a PEXPIRE from the client could renew the marker of the delivery that took over in
-- between. Idempotent.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
