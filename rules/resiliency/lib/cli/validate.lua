-- airan-resiliency validate: run the validation registry: calibrated, emergent
-- and sanity points.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local array = cli_shared.array

local function refs_text(refs)
  if #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do parts[i] = ("[%s]"):format(py.str(r)) end
  return table.concat(parts)
end

return function(args, out)
  local entry = engine.validate {
    mutation = args.mutation,
    settings = { years = args.years, grid_years = args.grid_years },
  }
  local s = entry.settings
  if args.format == "json" then
    local points = engine.array()
    for i, p in ipairs(entry.points) do
      points[i] = engine.object("id", p.id, "kind", p.kind,
                                "refs", array(p.refs),
                                "expected", p.expected + 0.0, "tolerance", p.tolerance + 0.0,
                                "actual", p.actual or engine.null, "ok", p.ok,
                                "detail", p.detail)
    end
    local declined = engine.array()
    for i, d in ipairs(entry.declined) do
      declined[i] = engine.object("what", d.what, "why", d.why)
    end
    out:json(engine.object(
      "pack", "resiliency",
      "settings", engine.object("years", s.years, "grid_years", s.grid_years,
                                "seeds", array(s.seeds),
                                "grid_seed", s.grid_seed,
                                "mutation", args.mutation or engine.null),
      "points", points, "declined", declined, "ok", entry.ok))
    return entry.ok and 0 or 1
  end
  local lines = {
    ("validation registry%s: %d seeds x %d years, grid helper %d years (seed %d)\n")
      :format(args.mutation and (" under mutation " .. args.mutation) or "", #s.seeds,
              s.years, s.grid_years, s.grid_seed),
  }
  for _, p in ipairs(entry.points) do
    lines[#lines + 1] = ("%-46s %-10s %-8s expected %10s  actual %10s  %s\n")
                        :format(p.id, p.kind, refs_text(p.refs), py.fixed(p.expected, 3),
                                p.actual and py.fixed(p.actual, 3) or "none",
                                p.ok and "PASS" or "FAIL")
  end
  lines[#lines + 1] = "not validated:\n"
  for _, d in ipairs(entry.declined) do
    lines[#lines + 1] = ("  %s: %s\n"):format(d.what, d.why)
  end
  if entry.ok then
    lines[#lines + 1] = ("all %d points reproduced over %d seeds x %d years\n")
                        :format(#entry.points, #s.seeds, s.years)
  else
    local red = 0
    for _, p in ipairs(entry.points) do
      if not p.ok then red = red + 1 end
    end
    lines[#lines + 1] = ("validation failed: %d of %d points red\n"):format(red, #entry.points)
  end
  out:write(table.concat(lines))
  return entry.ok and 0 or 1
end
