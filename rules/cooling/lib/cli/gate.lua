-- pue-ladder gate (spec/cooling.md 3.2): may racks of this density sit on any
-- rung (or on the named one)? Exit 1 when not.
-- Compiled when the verb runs; its options are declared in commands.lua.
local common = require "cli.common"

local null_if_nil = common.null_if_nil
local positive = common.positive
local array_of = COOL.array_of

-- A ceiling as the tool prints it ("{:.0f}"). py is required here, not at
-- the top: only the --rung answers print a ceiling, and compiling it is a
-- tenth of what the other answers cost.
local function whole(x) return require("py").fixed(x, 0) end

local function contains(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

return function(args, out)
  positive(args, "density", "--density", "the rack density")
  local kw = args.density
  local feasible = COOL.feasible(kw)
  local ceiling, ok
  if args.rung then
    for _, r in ipairs(COOL.ladder().rungs) do
      if r.name == args.rung then ceiling = r.max_kw_per_rack end
    end
    ok = contains(feasible, args.rung)
  else
    ok = #feasible > 0
  end
  if args.format == "json" then
    out:json(engine.object("density_kw", kw, "rung", null_if_nil(args.rung),
                           "rung_max_kw", null_if_nil(ceiling), "feasible", array_of(feasible),
                           "verdict", ok and "OK" or "BLOCKED",
                           "rule", ok and engine.null or "cooling.rung-ceiling"))
  else
    local d = engine.repr(kw)
    if args.rung and ok then
      out:write(("OK: %s cools %s kW per rack (its ceiling is %s kW)\n")
                :format(args.rung, d, whole(ceiling)))
    elseif args.rung then
      out:write(("BLOCKED [cooling.rung-ceiling]: %s tops out at %s kW per rack, below %s kW; "
                 .. "%s\n")
                :format(args.rung, whole(ceiling), d, COOL.list_text(feasible)))
    elseif ok then
      out:write(("OK: %s kW per rack can be cooled by %s\n")
                :format(d, table.concat(feasible, ", ")))
    else
      out:write(("BLOCKED [cooling.rung-ceiling]: no rung on the ladder cools %s kW per rack\n")
                :format(d))
    end
  end
  return ok and 0 or 1
end
