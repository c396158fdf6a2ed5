-- claim: take over entries idle longer than the visibility timeout, with their delivery counts.
--
-- KEYS[1]  the stream
-- ARGV[1]  the group
-- ARGV[2]  the claiming consumer
-- ARGV[3]  the least idle time (ms) of an entry to claim: the visibility timeout
-- ARGV[4]  where the scan of the pending entries starts (0-0: the beginning)
-- ARGV[5]  the most entries to claim
--
-- Returns {next start, {{id, deliveries, {field, value, ...}}, ...}, gone}: each claimed entry with its delivery
-- count (this claim included), and how many pending entries had been deleted from the stream (trimmed) and were
-- dropped from the group. The next start is 0-0 once the whole list of pending entries was scanned.
--
-- A script so that the counts come in the same round trip as the entries: XAUTOCLAIM does not report them, and
-- the caller must know them to move an entry over the limit to the dead-letter stream instead of handing it
-- out once more. Not idempotent: a second run claims again, and raises the counts again.
local claimed = redis.call('XAUTOCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], 'COUNT', ARGV[5])
local handle, gone = {}, 0
for _, entry in ipairs(claimed[2]) do
  local id, fields = entry[1], entry[2]
  if not fields then
    -- Redis 6.2 hands out an entry deleted while pending without fields: nothing is left to handle.
    redis.call('XACK', KEYS[1], ARGV[1], id)
    gone = gone + 1
  else
    local deliveries = redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1)[1][4]
    handle[#handle + 1] = {id, deliveries, fields}
  end
end
if claimed[3] then
  -- Redis 7 drops entries deleted while pending from the group itself and lists their ids here.
  gone = gone + #claimed[3]
end
return {claimed[1], handle, gone}
