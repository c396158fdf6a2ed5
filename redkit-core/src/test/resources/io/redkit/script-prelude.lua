-- test prelude: a shared function
local function twice(x) return x * 2 end
