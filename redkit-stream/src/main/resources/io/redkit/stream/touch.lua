-- touch: keep entries a worker holds from being claimed by others, while its handler runs or they wait in its batch.
--
-- KEYS[1]  the stream
-- ARGV[1]  the group
-- ARGV[2]  the consumer that holds them
-- ARGV[3…] entry ids
--
-- Returns the ids now pending for another consumer: taken over after the visibility timeout, before a touch came
-- (an id acknowledged meanwhile is simply skipped).
--
-- XCLAIM to the same consumer with min-idle 0 and JUSTID resets the entry's idle time without counting a
-- delivery, so XAUTOCLAIM by the other workers passes it by. The owner check and the claim are one step: an
-- XCLAIM sent after another consumer took the entry would take it back, and two handlers would run it.
-- Idempotent.
local lost = {}
for i = 3, #ARGV do
  local id = ARGV[i]
  local pending = redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1)
  if #pending > 0 then
    if pending[1][2] == ARGV[2] then
      redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, id, 'JUSTID')
    else
      lost[#lost + 1] = id
    end
  end
end
return lost
