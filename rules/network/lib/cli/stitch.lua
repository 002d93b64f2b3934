-- infragate network stitch: how many of a second hall's accelerators a stitch
-- delivers.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local null = cli_shared.null
local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local strict_findings = cli_shared.strict_findings
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f4 = cli_shared.f4
local f1 = cli_shared.f1
local distance = cli_shared.distance
local SPAN_STRICT = cli_shared.SPAN_STRICT

return guarded("stitch", function(args, out)
  local alpha, regime = distance(args, true)
  local run = scenario_of(args)
  local g = args.circuit_gbps + 0.0
  local s = models.network.stitch(run.scn, args.cut, alpha, g, VARIANT)
  local o = envelope()
  o.scenario = head(run)
  o.cut = args.cut
  o.regime = null(regime)
  o.alpha_us = alpha
  o.circuit_gbps = g
  o.applicable = s.applicable
  o.accelerators_connected = null(s.accelerators_connected)
  o.accelerators_delivered = null(s.accelerators_delivered)
  o.efficiency = null(s.efficiency)
  o.throughput_local = null(s.throughput_local)
  o.throughput_spanned = null(s.throughput_spanned)
  local text = s.applicable
    and ("a stitch at %s us over %s Gbit/s (%s cut) delivers %s of the %d accelerators it "
         .. "connects (efficiency %s)\n"):format(py.repr(alpha), py.repr(g), args.cut,
                                                 f1(s.accelerators_delivered),
                                                 s.accelerators_connected, f4(s.efficiency))
    or ("the %s cut cannot be stitched on this job\n"):format(args.cut)
  return finish(out, args, o, strict_findings(run, args, SPAN_STRICT, { gbps = g }), text)
end)
