-- update: replace a live session's data over the revision the caller read, never over a newer one, never
-- bringing back a session that has ended.
--
-- KEYS[1]  the session key, sess:{<id digest>}
-- ARGV[1]  the new stored value: a header whose exp, iat and uid are the stored ones and whose rev is one more
--          than ARGV[2], a newline, the new payload (see Envelope)
-- ARGV[2]  the revision the caller read
-- ARGV[3]  now, Unix epoch milliseconds (the caller's wall clock, the clock that wrote the expiry)
-- ARGV[4]  the idle timeout in milliseconds
--
-- Returns nil when there is no live session (none, past its absolute lifetime: then deleted, or not a session);
-- "=" when the key now holds ARGV[1], its idle timeout renewed (capped by what is left of its lifetime); else
-- the value stored now, written by nobody here: the stored revision is not ARGV[2] (another update came first),
-- or the new header's lifetimes or user are not the stored ones (a caller's copy of a session record may say
-- anything: times and user are taken from what is stored, never from it).
--
-- Atomic, so that two updates over one revision cannot both win: the second is told what the first wrote.
-- Idempotent over its own write only in the sense that a second run finds the revision moved and writes nothing.
local value = redis.call('GET', KEYS[1])
if value == false then
  return false
end
local stored = string.match(value, '^([^\n]*)\n')
local fresh = string.match(ARGV[1], '^([^\n]*)\n')
if stored == nil or fresh == nil then
  return false
end
local exp = string.match(stored, '^{"v":%d+,"exp":(%d+)')
if exp == nil then
  return false
end
local left = tonumber(exp) - tonumber(ARGV[3])
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return false
end
local rev = tonumber(string.match(stored, ',"rev":(%d+)') or '0')
local function same(pattern)
  local a = string.match(stored, pattern)
  return a ~= nil and a == string.match(fresh, pattern)
end
if rev ~= tonumber(ARGV[2]) or not same('^{"v":%d+,"exp":(%d+)') or not same(',"iat":(%d+)')
    or not same(',"uid":(.*)}$') then
  return value
end
local ttl = tonumber(ARGV[4])
if left < ttl then
  ttl = left
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
return '='
