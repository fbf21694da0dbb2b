-- wrk script: every request a distinct URL, so the edge's response cache
-- never answers and each page is composed (BENCHMARKS.md, "Composed
-- pages: lol_html"). The path and query come after `--`; a counter goes
-- in `utm_source`, a parameter the site's pages drop.
--   wrk -t1 -c16 -d10s -s bench/distinct.lua http://127.0.0.1:PORT -- '/versiones/ID/?comparar=A,B'
local target = "/"
local n = 0

function init(args)
  target = args[1] or "/"
end

function request()
  n = n + 1
  local joint = target:find("?", 1, true) and "&" or "?"
  return wrk.format("GET", target .. joint .. "utm_source=" .. n)
end
