-- once-begin: mark a key as running under a lease, unless it is running or done already.
--
-- KEYS[1]  the marker key
-- ARGV[1]  our marker value (1:running:<random token>)
-- ARGV[2]  the lease (ms)
--
-- Returns {1}: marked, the work is ours to run; or {0, value, pttl}: the marker someone holds (maybe ours, when
-- this is a second run after a first one whose reply was lost) and its remaining lease in ms.
--
-- A script so that the caller learns who holds the key, and for how long, in the same step as the failed SET NX.
-- Running it again with the same marker settles an unknown outcome: the first run either set the key (the second
-- reads our own marker back) or did not (the second sets it).
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1}
end
return {0, redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1])}
