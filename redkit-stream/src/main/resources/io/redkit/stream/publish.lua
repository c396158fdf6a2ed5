-- publish: add one entry unless the stream is full of entries some group has not acknowledged.
--
-- KEYS[1]  the stream
-- KEYS[2]  (publishOnce only) the message key's marker, in the stream's hash slot: the id of the entry added
-- ARGV[1]  the cap: the most entries the stream may hold
-- ARGV[2]  what to do when it is full: 'ask' (reply full, so that the caller trims what every group acknowledged
--          and calls again), 'reject' (reply full) or 'drop' (delete the oldest entries, read or not, to make room)
-- ARGV[3]  how long the marker is kept, in milliseconds; 0 for a plain publish (no marker)
-- ARGV[4…] the entry's field, value pairs
--
-- Returns {1, id, dropped}: added, with how many entries were deleted to make room (only with 'drop');
-- {0, length}: not added, the stream holds length entries; or {2, id, 0}: not added, because an entry was already
-- added under this message key while its marker lives (id is that entry's).
--
-- A script so that the length check and the add are one step: two producers checking a cap of 100 at 99 would
-- both add; and so that the marker is checked and written in the same step as the add: a retry after a timeout
-- whose first run did add finds the marker. Without a marker, never retried blindly: a second run adds a second
-- entry.
local remember = tonumber(ARGV[3])
if remember > 0 then
  local first = redis.call('GET', KEYS[2])
  if first then
    return {2, first, 0}
  end
end
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
for i = 4, #ARGV do
  args[#args + 1] = ARGV[i]
end
local id = redis.call(unpack(args))
if remember > 0 then
  redis.call('SET', KEYS[2], id, 'PX', remember)
end
return {1, id, dropped}
