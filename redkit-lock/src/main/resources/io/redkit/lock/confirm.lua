-- confirm: is the lock still ours? Asked after drawing an external fencing token.
--
-- KEYS[1]  the lock key; its value is the owner token
-- ARGV[1]  the owner token of the acquisition being confirmed
--
-- Returns 1 when the key still holds our token, 0 when it does not (it expired, and someone else may hold it).
--
-- Atomic because it is one GET; it is a script so that it is declared, named and run like the others. Why it
-- exists: a token drawn from an outside source (a PostgreSQL sequence) after SET NX PX belongs to a holder only if
-- the lock was still ours when the token was drawn. If it still is now, no later holder can have acquired, and so
-- none can have drawn, before us: tokens follow acquisition order. If it is not, the acquisition fails and the
-- token is never used.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return 1
end
return 0
