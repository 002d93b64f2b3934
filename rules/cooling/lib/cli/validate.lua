-- pue-ladder validate (spec/cooling.md 3.6): the validation registry's points
-- and declined anchors.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local common = require "cli.common"

local pad = common.pad
local lpad = common.lpad
local null_if_nil = common.null_if_nil

local function ref_text(refs)
  if #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do parts[i] = "[" .. tostring(r) .. "]" end
  return table.concat(parts)
end

return function(args, out)
  local entry = engine.validate { pack = "cooling" }
  local passed = 0
  for _, p in ipairs(entry.points) do if p.ok then passed = passed + 1 end end
  if args.format == "json" then
    local points, declined = engine.array(), engine.array()
    for i, p in ipairs(entry.points) do
      points[i] = engine.object("name", p.id, "kind", p.kind, "ref", ref_text(p.refs),
                                "expected", p.expected + 0.0, "tolerance", p.tolerance + 0.0,
                                "actual", p.actual and p.actual + 0.0 or engine.null,
                                "ok", p.ok, "source", null_if_nil(p.source),
                                "note", null_if_nil(p.note))
    end
    for i, d in ipairs(entry.declined) do
      declined[i] = engine.object("what", d.what, "why", d.why)
    end
    out:json(engine.object("ok", entry.ok, "seeds", entry.settings.seeds, "points", points,
                           "declined", declined,
                           "summary", engine.object("points", #entry.points, "passed", passed,
                                                    "failed", #entry.points - passed)))
    return entry.ok and 0 or 1
  end
  local lines = { pad("point", 50) .. pad("kind", 12) .. pad("ref", 11) .. lpad("expected", 9)
                  .. lpad("actual", 9) .. lpad("tol", 7) .. "  result" }
  for _, p in ipairs(entry.points) do
    lines[#lines + 1] = pad(p.id, 50) .. pad(p.kind, 12) .. pad(ref_text(p.refs), 11)
      .. lpad(py.fixed(p.expected, 3), 9)
      .. lpad(p.actual and py.fixed(p.actual, 3) or "-", 9)
      .. lpad(py.fixed(p.tolerance, 3), 7) .. "  " .. (p.ok and "PASS" or "FAIL")
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "Declined anchors (not validated, and why):"
  for i, d in ipairs(entry.declined) do
    lines[#lines + 1] = ("  %d. %s: %s"):format(i, d.what, d.why)
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = (entry.ok and ("all %d points reproduced"):format(#entry.points)
                       or ("%d of %d points failed"):format(#entry.points - passed,
                                                            #entry.points))
    .. "; calibrated points compare constants tuned to published figures, emergent points "
    .. "test behaviour nothing was tuned to produce, sanity points test the model's own "
    .. "machinery"
  out:write(table.concat(lines, "\n") .. "\n")
  return entry.ok and 0 or 1
end
