-- retire-raw: end a session an earlier release stored under its raw id, and nothing else.
--
-- KEYS[1]  the raw-id key, sess:{<id>}
-- ARGV[1]  the id's fingerprint (the first 16 characters of its digest, the header's "sid")
-- ARGV[2]  optional: the exact value the caller read and copied to the digest key
--
-- Returns 1 when the key held a first-format session of that id (and, with ARGV[2], exactly that value) and is
-- deleted; 0 otherwise, nothing deleted.
--
-- Why the checks: a raw-id key has the shape of a digest key (43 base64url characters in the tag), so when a
-- digest read from Redis is sent as a cookie, its "raw-id key" is another user's session; that must not be ended
-- by it. With ARGV[2], a value changed since it was copied (an earlier release's instance updated it during a
-- rolling upgrade) is not deleted either: the copy is taken back and the next load copies again.
local value = redis.call('GET', KEYS[1])
if value == false then
  return 0
end
if ARGV[2] ~= nil and value ~= ARGV[2] then
  return 0
end
local header = string.match(value, '^({"v":1,[^\n]*)\n')
if header == nil or string.find(header, ',"sid":"' .. ARGV[1] .. '"', 1, true) == nil then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
