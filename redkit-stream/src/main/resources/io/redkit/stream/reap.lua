-- reap: delete a dead consumer of a group without orphaning its pending entries.
--
-- KEYS[1]  the stream
-- ARGV[1]  the group
-- ARGV[2]  the dead consumer
-- ARGV[3]  the heir: the consumer its pending entries are handed to
-- ARGV[4]  the least idle time (ms) for the consumer to count as dead
-- ARGV[5]  the idle time (ms) to give the handed-on entries: the visibility timeout, so any worker claims them
--
-- Returns how many entries were handed on, or -1 when the consumer was not (or no longer) idle that long and
-- was kept.
--
-- XGROUP DELCONSUMER drops a consumer's pending entries with it: they stay in the stream but are never handed
-- out again, lost to the group. So its entries go to the heir first (XCLAIM … JUSTID keeps their delivery
-- counts), and the idle check, the hand-over and the delete are one step: a consumer that reads again between a
-- check and a delete made by the client would lose what it just read. Idempotent.
if ARGV[2] == ARGV[3] then
  return -1 -- the heir is never reaped by its own process: its entries would have nowhere to go
end
local idle = -1
for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local name, ms
  for i = 1, #consumer, 2 do
    if consumer[i] == 'name' then name = consumer[i + 1] end
    if consumer[i] == 'idle' then ms = consumer[i + 1] end
  end
  if name == ARGV[2] then idle = ms end
end
if idle < tonumber(ARGV[4]) then
  return -1
end
local moved = 0
while true do
  local pending = redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', 100, ARGV[2])
  if #pending == 0 then
    break
  end
  local args = {'XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0}
  for _, p in ipairs(pending) do
    args[#args + 1] = p[1]
  end
  args[#args + 1] = 'IDLE'
  args[#args + 1] = ARGV[5]
  args[#args + 1] = 'JUSTID'
  redis.call(unpack(args))
  moved = moved + #pending
end
redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2])
return moved
