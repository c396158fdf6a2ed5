-- test script: runs behind the prelude
return twice(tonumber(ARGV[1]))
