-- touch: load a session and renew its idle timeout in the same round trip, never past its absolute lifetime.
--
-- KEYS[1]  the session key, sess:{<id digest>}
-- ARGV[1]  now, Unix epoch milliseconds (the caller's wall clock, the clock that wrote the expiry)
-- ARGV[2]  the idle timeout in milliseconds
--
-- Returns nil when there is no such session; the stored value, its time to live now
-- min(idle timeout, absolute expiry - now); "-" when the absolute expiry has passed (the key is deleted);
-- "!" when the value does not start with a session header (the key is deleted: it is not a session).
--
-- Why a script and not GETEX PX: GETEX cannot know the absolute expiry before it reads the value, so in a
-- session's last idle period it would push the key's life past the absolute lifetime. Reading the expiry
-- from the value's fixed prefix {"v":N,"exp":M (see Envelope) and capping the PEXPIRE keeps it one round
-- trip, like GETEX, and the key never outlives its lifetime. Atomic so that a revoke between the read and
-- the renewal cannot be undone by it. Idempotent: a second run sets the same expiry or finds nothing.
local value = redis.call('GET', KEYS[1])
if value == false then
  return false
end
local exp = string.match(value, '^{"v":%d+,"exp":(%d+)')
if exp == nil then
  redis.call('DEL', KEYS[1])
  return '!'
end
local left = tonumber(exp) - tonumber(ARGV[1])
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return '-'
end
local ttl = tonumber(ARGV[2])
if left < ttl then
  ttl = left
end
redis.call('PEXPIRE', KEYS[1], ttl)
return value
