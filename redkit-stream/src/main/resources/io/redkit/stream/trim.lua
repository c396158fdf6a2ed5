-- trim: delete the entries every group of the stream has acknowledged, and only those.
--
-- KEYS[1]  the stream
-- ARGV[1]  an entry id, or '': delete only entries below it too (the age limit), or any acknowledged one
--
-- Returns {deleted, floor}: how many entries were deleted, and the id below which every entry was acknowledged by
-- every group ('' when a group has read nothing yet, or there is no group: nothing is deleted then).
--
-- What a group has not acknowledged is its pending entries and those it has not read yet (after its
-- last-delivered-id). So the floor is, over all groups, the oldest pending entry, or the id just after the last
-- delivered one when nothing is pending; XTRIM MINID deletes the entries below it. A script so that no entry is read, acknowledged
-- or added between computing the floor and trimming to it. Idempotent.
local function parse(id)
  local dash = string.find(id, '-', 1, true)
  return tonumber(string.sub(id, 1, dash - 1)), tonumber(string.sub(id, dash + 1))
end
local function below(a, b)
  local ams, aseq = parse(a)
  local bms, bseq = parse(b)
  return ams < bms or (ams == bms and aseq < bseq)
end
local floor = nil
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  local name, last, pending
  for i = 1, #group, 2 do
    if group[i] == 'name' then name = group[i + 1]
    elseif group[i] == 'last-delivered-id' then last = group[i + 1]
    elseif group[i] == 'pending' then pending = group[i + 1] end
  end
  local ms, seq = parse(last)
  local kept = last
  if seq < 4503599627370496 then -- 2^52: the next id is exact in a Lua number; above it, keep the last one too
    kept = string.format('%d-%d', ms, seq + 1)
  end
  if pending > 0 then
    kept = redis.call('XPENDING', KEYS[1], name)[2]
  end
  if floor == nil or below(kept, floor) then
    floor = kept
  end
end
if floor == nil or floor == '0-1' then
  return {0, ''}
end
local to = floor
if ARGV[1] ~= '' and below(ARGV[1], to) then
  to = ARGV[1]
end
return {redis.call('XTRIM', KEYS[1], 'MINID', to), floor}
