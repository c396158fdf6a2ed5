-- dead-letter: move one pending entry to the dead-letter stream, with why, and acknowledge it.
--
-- KEYS[1]  the stream
-- KEYS[2]  its dead-letter stream (same hash slot)
-- ARGV[1]  the group
-- ARGV[2]  the consumer that holds the entry
-- ARGV[3]  the entry id
-- ARGV[4]  the reason: failed, undecodable or abandoned
-- ARGV[5]  the last error's text
-- ARGV[6]  how many times it was handed out
-- ARGV[7]  the dead-letter stream's approximate MAXLEN
--
-- Returns 1 when moved; 0 when the entry is no longer pending for this consumer (acknowledged, or claimed by
-- another consumer meanwhile), and then nothing was written.
--
-- Atomic because the copy and the acknowledgement must happen together: a crash after the XADD alone would
-- leave the entry pending, to be handed out again and dead-lettered twice; after the XACK alone, it would be
-- gone from both streams. Not idempotent: a retry after a first run that moved it answers 0.
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #pending == 0 or pending[1][2] ~= ARGV[2] then
  return 0
end
local args = {'XADD', KEYS[2], 'MAXLEN', '~', ARGV[7], '*'}
local entry = redis.call('XRANGE', KEYS[1], ARGV[3], ARGV[3])
if entry[1] then
  for _, value in ipairs(entry[1][2]) do
    args[#args + 1] = value
  end
end
local meta = {'dead-id', ARGV[3], 'dead-reason', ARGV[4], 'dead-error', ARGV[5], 'dead-deliveries', ARGV[6],
  'dead-group', ARGV[1], 'dead-consumer', ARGV[2]}
for _, value in ipairs(meta) do
  args[#args + 1] = value
end
redis.call(unpack(args))
redis.call('XACK', KEYS[1], ARGV[1], ARGV[3])
return 1
