-- infragate reliability validate: the validation registry (section 8).
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local guarded = cli_shared.guarded

local function ref_text(refs)
  if not refs or #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do
    parts[i] = math.type(r) == "integer" and ("[" .. r .. "]") or tostring(r)
  end
  return table.concat(parts)
end

local options = {
  { "--mutate", type = "choice", choices = REL.MUTATIONS, metavar = "NAME",
    help = "run under a mutation that must turn its points red" },
  cli_base.STRICT_OPT, cli_base.format_opt(),
}

local run = guarded("validate", function(args, out)
  local res = engine.validate { pack = "reliability", mutation = args.mutate }
  local points, declined = engine.array(), engine.array()
  local counts = { points = 0, passed = 0, failed = 0, calibrated = 0, emergent = 0,
                   sanity = 0 }
  local lines = { ("validation registry of reliability%s\n")
                  :format(args.mutate and (" under mutation " .. args.mutate) or "") }
  for i, p in ipairs(res.points) do
    points[i] = engine.object("id", p.id, "kind", p.kind, "ref", ref_text(p.refs),
      "model", "-", "expected", p.expected, "tolerance", p.tolerance,
      "actual", p.actual or engine.null, "ok", p.ok, "detail", p.detail or engine.object())
    counts.points = counts.points + 1
    counts[p.ok and "passed" or "failed"] = counts[p.ok and "passed" or "failed"] + 1
    counts[p.kind] = counts[p.kind] + 1
    lines[#lines + 1] = ("%-46s %-10s %-10s expected %10.4f actual %10s tol %-6s %s\n")
      :format(p.id, p.kind, ref_text(p.refs), p.expected,
              p.actual and ("%.4f"):format(p.actual) or "none", py.repr(p.tolerance),
              p.ok and "PASS" or "FAIL")
  end
  lines[#lines + 1] = "declined anchors:\n"
  for i, d in ipairs(res.declined) do
    declined[i] = engine.object("anchor", d.what, "reason", d.why)
    lines[#lines + 1] = ("  %s: %s\n"):format(d.what, d.why)
  end
  lines[#lines + 1] = ("%d points: %d passed, %d failed (%d calibrated, %d emergent, "
                       .. "%d sanity)\n"):format(counts.points, counts.passed, counts.failed,
                       counts.calibrated, counts.emergent, counts.sanity)
  local ok = counts.failed == 0
  if args.format == "json" then
    out:json(engine.object("pack", "reliability", "ok", ok,
      "mutation", args.mutate or engine.null, "points", points, "declined", declined,
      "summary", engine.object("points", counts.points, "passed", counts.passed,
        "failed", counts.failed, "calibrated", counts.calibrated,
        "emergent", counts.emergent, "sanity", counts.sanity)))
  else
    out:write(table.concat(lines))
  end
  return ok and 0 or 1
end)

return { options = options, run = run }
