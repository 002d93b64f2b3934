-- pue-ladder capacity (spec/cooling.md 3.3): the IT megawatts a PUE change
-- frees behind a fixed feed, as H100 equivalents, with --rung-to's retrofit
-- costing.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local common = require "cli.common"

local null_if_nil = common.null_if_nil
local grouped_fixed = common.grouped_fixed
local signed2 = common.signed2
local MAX_FEED_MW = 1e12

return function(args, out)
  if args.rung_to and args.pue_to then
    engine.usage("--rung-to", "give --rung-to or --pue-to, not both")
  end
  if not args.rung_to and not args.pue_to then
    engine.usage("--pue-to", "give --pue-to, or --rung-to to move to a rung")
  end
  if not args.rung_to and (args.climate or args.water_mode) then
    engine.usage(args.climate and "--climate" or "--water-mode",
                 "--climate and --water-mode apply only with --rung-to")
  end
  local feed = args.feed_mw
  if feed <= 0 then
    engine.usage("--feed-mw", ("--feed-mw %s: the feed must be > 0 MW"):format(engine.repr(feed)))
  end
  if feed > MAX_FEED_MW then
    engine.usage("--feed-mw", ("--feed-mw %s: the feed must be at most 1e12 MW")
                 :format(engine.repr(feed)))
  end
  local climate = args.climate or COOL.DEFAULT_CLIMATE
  local mode = args.water_mode or COOL.DEFAULT_MODE
  local to = args.pue_to
  if args.rung_to then to = COOL.pue(args.rung_to, climate, mode) end
  if to < 1.0 then
    engine.usage("--pue-to", ("--pue-to: the destination PUE %s is below 1.0, the least a PUE "
                             .. "can be")
                 :format(engine.repr(to)))
  end
  if args.pue_from < 1.0 then
    engine.usage("--pue-from", ("--pue-from %s: the origin PUE is below 1.0, the least a PUE "
                               .. "can be")
                 :format(engine.repr(args.pue_from)))
  end
  local it_from = models.cooling.it_mw(feed, args.pue_from)
  local it_to = models.cooling.it_mw(feed, to)
  local freed = models.cooling.freed_mw(feed, args.pue_from, to)
  local h100 = math.floor(models.cooling.h100(freed > 0 and freed or 0.0))
  local retro, cost, per
  if args.rung_to then
    local _
    _, cost, per = COOL.cost_per_freed(feed, args.pue_from, args.rung_to, climate, mode)
    retro = engine.object("rung", args.rung_to, "climate", climate, "water_mode", mode,
                          "cost_usd", cost, "frees_capacity", freed > 0,
                          "cost_per_freed_mw_usd", null_if_nil(per),
                          "new_build_usd_per_mw", COOL.NEW_BUILD_USD_PER_MW)
  end
  if args.format == "json" then
    out:json(engine.object("feed_mw", feed, "pue_from", args.pue_from, "pue_to", to,
                           "it_mw_from", it_from, "it_mw_to", it_to, "freed_mw", freed,
                           "h100_equivalents", h100, "retrofit", null_if_nil(retro)))
    return 0
  end
  local lines = {
    ("a %s MW feed moving from PUE %s to PUE %s frees %s MW of IT power, about %s H100 GPUs [11]")
      :format(py.fixed(feed, 1), engine.repr(args.pue_from), engine.repr(to), signed2(freed),
              py.thousands(h100)),
    "this is derived IT-power headroom only: deployment and interconnection lead times "
      .. "are not modelled",
  }
  if args.rung_to then
    lines[#lines + 1] = ("destination: %s in a %s climate with %s heat rejection")
                        :format(args.rung_to, climate, mode)
    lines[#lines + 1] = ("retrofit cost: %s USD for all IT capacity cooled at the destination")
                        :format(grouped_fixed(cost))
    if per then
      lines[#lines + 1] = ("cost per freed MW: %s USD/MW"):format(grouped_fixed(per))
    else
      lines[#lines + 1] = "the move frees no capacity, so there is no cost per freed MW"
    end
    lines[#lines + 1] = ("for comparison, a new build costs about %s USD per MW [14]")
                        :format(grouped_fixed(COOL.NEW_BUILD_USD_PER_MW))
  end
  out:write(table.concat(lines, "\n") .. "\n")
  return 0
end
