-- infragate reliability checkpoint: Young / Daly optimum interval and the
-- overhead of a declared interval.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local guarded = cli_shared.guarded
local config_input = cli_shared.config_input
local finish = cli_shared.finish

local options = cli_base.with(cli_base.CONFIG_OPTS,
  { "--pair", type = "choice", choices = { "blocking", "overlapped" }, default = "blocking",
    help = "the config's checkpoint pair" },
  { "--write-h", type = "float", min = 0, metavar = "W", help = "write stall, h" },
  { "--mtbf-h", type = "float", min_exclusive = 0, metavar = "M", help = "event MTBF, h" },
  { "--reload-h", type = "float", min = 0, metavar = "R", help = "restart time, h" },
  { "--interval-h", type = "float", min_exclusive = 0, metavar = "C",
    help = "checkpoint interval, h" })

-- The options whose values can put a figure past the range of a double
-- (lua/overflow.lua), and what the usage error says.
local overflow = require "overflow"
local CK_OPTIONS = { { "write_h", "--write-h" }, { "mtbf_h", "--mtbf-h" },
                     { "reload_h", "--reload-h" }, { "interval_h", "--interval-h" } }
local CK_WHAT = "a checkpoint figure"
local CK_ADVICE = "give a write stall, an MTBF and an interval within reach"

local run = guarded("checkpoint", function(args, out)
  local c = config_input(args)
  local policy = args.pair == "overlapped" and "elastic" or "manual"
  local pc, pw = REL.pair(c, policy)
  local W = (args.write_h or pw) + 0.0
  local C = (args.interval_h or pc) + 0.0
  local R = (args.reload_h or c.reload_h) + 0.0
  local M = args.mtbf_h and args.mtbf_h + 0.0 or nil
  if not M and REL.event_rate(c) > 0 then M = 1 / REL.event_rate(c) end
  local nul = engine.null
  local f = { young_h = nul, daly_h = nul, young_daly_mr_h = nul, ratio_to_young = nul,
              overhead = nul, optimal_overhead = nul, overhead_excess = nul, cadence = nul }
  if M and W > 0 then
    local k = overflow.call(args, CK_OPTIONS, CK_WHAT, CK_ADVICE, REL.checkpoint, W, M, R, C)
    for key, v in pairs(k) do f[key] = v end
    f.cadence = REL.cadence(k.ratio_to_young)
  elseif M then
    f.young_h, f.daly_h, f.young_daly_mr_h = 0.0, 0.0, 0.0
    f.overhead = W / C + C / (2 * M)
    f.optimal_overhead = math.sqrt((2 * W) / M)
    if not (overflow.finite(f.overhead) and overflow.finite(f.optimal_overhead)) then
      overflow.usage(args, CK_OPTIONS, CK_WHAT, CK_ADVICE)
    end
  end
  local findings = engine.array()
  if args.format == "json" then
    out:json(engine.object("pack", "reliability", "pair", args.pair, "write_h", W,
      "interval_h", C, "mtbf_h", M or nul, "reload_h", R, "young_h", f.young_h,
      "daly_h", f.daly_h, "young_daly_mr_h", f.young_daly_mr_h,
      "ratio_to_young", f.ratio_to_young, "overhead", f.overhead,
      "optimal_overhead", f.optimal_overhead, "overhead_excess", f.overhead_excess,
      "cadence", f.cadence, "findings", findings))
  else
    local function h(x) return x == nul and "n/a" or ("%.4f"):format(x) end
    out:write(("%s pair: write %s h, interval %s h, reload %s h\n"):format(args.pair, h(W),
                h(C), h(R))
      .. ("MTBF              %s h\n"):format(M and h(M) or "n/a (no failures)")
      .. ("young_h           %s h\n"):format(h(f.young_h))
      .. ("daly_h            %s h\n"):format(h(f.daly_h))
      .. ("young_daly_mr_h   %s h\n"):format(h(f.young_daly_mr_h))
      .. ("ratio_to_young    %s\n"):format(h(f.ratio_to_young))
      .. ("overhead          %s\n"):format(h(f.overhead))
      .. ("optimal_overhead  %s\n"):format(h(f.optimal_overhead))
      .. ("overhead_excess   %s\n"):format(h(f.overhead_excess))
      .. ("cadence           %s\n"):format(f.cadence == nul and "n/a" or f.cadence))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
