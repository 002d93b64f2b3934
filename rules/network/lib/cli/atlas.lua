-- infragate network atlas: retention of every (distance regime, cut) pair
-- across a stitch.
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
local SPAN_STRICT = cli_shared.SPAN_STRICT

return guarded("atlas", function(args, out)
  local run = scenario_of(args)
  local cells, surviving = engine.array(), engine.object()
  local lines = { ("atlas of %s at %s Gbit/s, %s placement, %d halls\n")
                  :format(run.scn.name or "", py.repr(args.circuit_gbps + 0.0), args.placement,
                          args.halls) }
  for _, r in ipairs(NW.REGIMES) do
    local keep = engine.array()
    for _, cut in ipairs(NW.CUTS) do
      local c = NW.span(run.scn, cut, r.alpha_us, args.circuit_gbps + 0.0, args.halls,
                        args.placement)
      cells[#cells + 1] = engine.object("regime", r.name, "alpha_us", r.alpha_us + 0.0,
                                        "cut", cut, "applicable", c.applicable,
                                        "retention", null(c.retention),
                                        "step_ratio", null(c.step_ratio))
      if c.applicable and c.retention >= args.floor then keep[#keep + 1] = cut end
      lines[#lines + 1] = ("  %-14s %-10s %s\n"):format(r.name, cut,
                          c.applicable and ("retention %s  step x%s"):format(f4(c.retention),
                                                                            f4(c.step_ratio))
                          or "not applicable")
    end
    surviving[r.name] = keep
  end
  local o = envelope()
  o.scenario = head(run)
  o.circuit_gbps = args.circuit_gbps + 0.0
  o.placement = args.placement
  o.halls = args.halls
  o.floor = args.floor + 0.0
  o.cells = cells
  o.surviving = surviving
  return finish(out, args, o, strict_findings(run, args, SPAN_STRICT,
                                              { gbps = args.circuit_gbps, halls = args.halls }),
                table.concat(lines))
end)
