-- infragate reliability legal-loss: elastic legal-shape loss for given down-
-- node counts.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local usage = cli_shared.usage
local guarded = cli_shared.guarded
local pyint = cli_shared.pyint
local finish = cli_shared.finish

local options = {
  { "--granularity", type = "int", default = 8, min = 1, metavar = "G",
    help = "nodes per data-parallel replica" },
  cli_base.STRICT_OPT, cli_base.format_opt(),
}

local run = guarded("legal-loss", function(args, out)
  local rows, text = engine.array(), {}
  for i, item in ipairs(args.operands) do
    local dtext, gtext = item:match("^([^:]*):(.*)$")
    dtext = dtext or item
    local d, g = pyint(dtext), gtext and pyint(gtext) or args.granularity
    if d == nil or d < 0 or d > 1e15 then
      usage("ITEM", ("down-node count '%s' must be an integer >= 0"):format(dtext))
    end
    if g == nil or g < 1 or g > 1e15 then
      usage("ITEM", ("granularity '%s' of '%s' must be an integer >= 1"):format(gtext, item))
    end
    local loss = math.tointeger(models.reliability.legal_loss(d, g))
    rows[i] = engine.object("down", d, "granularity", g, "loss", loss)
    text[i] = ("%d %d %d\n"):format(d, g, loss)
  end
  local findings = engine.array()
  if args.format == "json" then
    out:json(engine.object("pack", "reliability", "rows", rows, "findings", findings))
  else
    out:write(table.concat(text))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
