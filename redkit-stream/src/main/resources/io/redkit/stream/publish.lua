-- publish: add one entry unless the stream is full of entries some group has not acknowledged.
--
-- KEYS[1]  the stream
-- ARGV[1]  the cap: the most entries the stream may hold
-- ARGV[2]  what to do when it is full: 'ask' (reply full, so that the caller trims what every group acknowledged
--          and calls again), 'reject' (reply full) or 'drop' (delete the oldest entries, read or not, to make room)
-- ARGV[3…] the entry's field, value pairs
--
-- Returns {1, id, dropped}: added, with how many entries were deleted to make room (only with 'drop'); or
-- {0, length}: not added, the stream holds length entries.
--
-- A script so that the length check and the add are one step: two producers checking a cap of 100 at 99 would
-- both add. Never retried blindly: a second run adds a second entry.
local len = redis.call('XLEN', KEYS[1])
local cap = tonumber(ARGV[1])
local dropped = 0
if len >= cap then
  if ARGV[2] ~= 'drop' then
    return {0, len}
  end
  dropped = redis.call('XTRIM', KEYS[1], 'MAXLEN', '=', cap - 1)
end
local args = {'XADD', KEYS[1], '*'}
for i = 3, #ARGV do
  args[#args + 1] = ARGV[i]
end
return {1, redis.call(unpack(args)), dropped}
