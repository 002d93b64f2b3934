-- infragate network span: one cut across one stitch, both placements.
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
local distance = cli_shared.distance
local SPAN_STRICT = cli_shared.SPAN_STRICT

local function placements_obj(h, b)
  return engine.object("hierarchical", engine.object("retention", null(h.retention),
                                                     "step_ratio", null(h.step_ratio)),
                       "blind", engine.object("retention", null(b.retention),
                                              "step_ratio", null(b.step_ratio)))
end

return guarded("span", function(args, out)
  local alpha, regime = distance(args, true)
  local run = scenario_of(args)
  local g = args.circuit_gbps + 0.0
  local h = NW.span(run.scn, args.cut, alpha, g, args.halls, "hierarchical")
  local b = NW.span(run.scn, args.cut, alpha, g, args.halls, "blind")
  local c = args.placement == "blind" and b or h
  local o = envelope()
  o.scenario = head(run)
  o.cut = args.cut
  o.regime = null(regime)
  o.alpha_us = alpha
  o.circuit_gbps = g
  o.halls = args.halls
  o.placement = args.placement
  o.applicable = c.applicable
  o.retention = null(c.retention)
  o.step_ratio = null(c.step_ratio)
  o.placements = placements_obj(h, b)
  local text = c.applicable
    and ("%s cut at %s us over %s Gbit/s (%s): retention %s, step x%s; hierarchical %s, "
         .. "blind %s\n"):format(args.cut, py.repr(alpha), py.repr(g), args.placement,
                                f4(c.retention), f4(c.step_ratio), f4(h.retention),
                                f4(b.retention))
    or ("%s cut: not applicable across %d halls\n"):format(args.cut, args.halls)
  return finish(out, args, o, strict_findings(run, args, SPAN_STRICT,
                                              { gbps = g, halls = args.halls }), text)
end)
