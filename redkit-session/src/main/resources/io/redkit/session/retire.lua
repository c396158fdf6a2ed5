-- retire: end the old id of a rotation, only if it still holds what the rotation copied.
--
-- KEYS[1]  the old session key, sess:{<id digest>}
-- ARGV[1]  the revision the rotation read and copied to the new id
--
-- Returns 1 when the key held that revision and is deleted; 0 when there was no session (it ended meanwhile:
-- revoked, expired, rotated by another request); -1 when it holds another revision (an update landed after the
-- copy was read): nothing is deleted, and the rotation takes its new id back and copies again.
--
-- Atomic, so that an update cannot land between the check and the DEL and be lost with the old key.
local value = redis.call('GET', KEYS[1])
if value == false then
  return 0
end
local header = string.match(value, '^([^\n]*)\n')
if header == nil then
  return -1
end
local rev = tonumber(string.match(header, ',"rev":(%d+)') or '0')
if rev ~= tonumber(ARGV[1]) then
  return -1
end
redis.call('DEL', KEYS[1])
return 1
