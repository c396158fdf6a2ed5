-- give-back: make entries a stopping worker holds claimable by the others at once, with chosen delivery counts.
--
-- KEYS[1]  the stream
-- ARGV[1]  the group
-- ARGV[2]  the consumer that holds them
-- ARGV[3]  the idle time (ms) to give them: the visibility timeout, so that the next XAUTOCLAIM takes them
-- ARGV[4…] pairs: entry id, the delivery count to leave it with
--
-- Returns how many were handed back; an entry no longer pending for this consumer is left alone.
--
-- An entry read but never handed to the handler gets its count back (its count minus one), so that the worker
-- that takes it over does not take it for a redelivery; one waiting for a retry keeps its count. XCLAIM to the
-- same consumer with IDLE, RETRYCOUNT and JUSTID sets both without handing the entry out. A script so that the
-- owner check and the claim are one step. Idempotent.
local moved = 0
for i = 4, #ARGV, 2 do
  local id = ARGV[i]
  local pending = redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1)
  if #pending > 0 and pending[1][2] == ARGV[2] then
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, id, 'IDLE', ARGV[3], 'RETRYCOUNT', ARGV[i + 1], 'JUSTID')
    moved = moved + 1
  end
end
return moved
