-- infragate reliability band: check ETTR values against the one-sided
-- published band [0.85, 0.90).
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local usage = cli_shared.usage
local guarded = cli_shared.guarded
local pyfloat = cli_shared.pyfloat
local finish = cli_shared.finish

local options = {
  { "--floor", type = "float", default = 0.85, metavar = "F",
    help = "lowest value in band" },
  { "--bound", type = "float", default = 0.90, metavar = "B",
    help = "the published bound, excluded" },
  cli_base.STRICT_OPT, cli_base.format_opt(),
}

local run = guarded("band", function(args, out)
  local F, B = args.floor + 0.0, args.bound + 0.0
  if F >= B then
    usage("--floor", ("--floor %s must be below --bound %s"):format(py.repr(F), py.repr(B)))
  end
  local rows, text, all = engine.array(), {}, true
  for i, item in ipairs(args.operands) do
    local x = pyfloat(item)
    if x == nil or x ~= x or x == math.huge or x == -math.huge then
      usage("VALUE", ("value '%s' must be a finite number"):format(item))
    end
    local inside = F <= x and x < B
    all = all and inside
    rows[i] = engine.object("value", x, "in_band", inside)
    text[i] = ("%s %s\n"):format(py.repr(x), inside and "in" or "out")
  end
  local findings = engine.array()
  if args.format == "json" then
    out:json(engine.object("pack", "reliability", "floor", F, "bound", B, "rows", rows,
                           "all_in_band", all, "findings", findings))
  else
    out:write(table.concat(text))
  end
  return finish(args, out, findings, all and 0 or 1)
end)

return { options = options, run = run }
