-- infragate network bytes: bytes each cut pushes across the stitch per step,
-- exposed bytes, circuit bound.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local null = cli_shared.null
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local strict_findings = cli_shared.strict_findings
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f4 = cli_shared.f4
local SPAN_STRICT = cli_shared.SPAN_STRICT

return guarded("bytes", function(args, out)
  local cuts = NW.CUTS
  if args.cut then
    cuts = {}
    for item in (args.cut .. ","):gmatch("([^,]*),") do
      local ok = false
      for _, c in ipairs(NW.CUTS) do
        if c == item then ok = true end
      end
      if not ok then usage("--cut", ("--cut item %s is not one of tp, cp, pp, dp, checkpoint")
                                    :format(py.repr(item))) end
      cuts[#cuts + 1] = item
    end
  end
  local run = scenario_of(args)
  local g = args.circuit_gbps + 0.0
  local list = engine.array()
  local lines = { ("bytes across a %s Gbit/s stitch of %d halls, per step\n")
                  :format(py.repr(g), args.halls) }
  for i, cut in ipairs(cuts) do
    local b = models.network.bytes(run.scn, cut, args.halls, g, VARIANT)
    local hide = b.modelled and b.raw > 0 and 1 - b.exposed / b.raw or nil
    list[i] = engine.object("cut", cut, "modelled", b.modelled, "raw_bytes", null(b.raw),
                            "exposed_bytes", null(b.exposed), "hideable_fraction", null(hide),
                            "circuit_lower_bound_s", null(b.lower_bound_s))
    lines[#lines + 1] = b.modelled
      and ("  %-10s raw %s GB  exposed %s GB  circuit bound %s s\n")
          :format(cut, py.fixed(b.raw / 1e9, 3), py.fixed(b.exposed / 1e9, 3),
                  f4(b.lower_bound_s))
      or ("  %-10s not modelled\n"):format(cut)
  end
  local o = envelope()
  o.scenario = head(run)
  o.circuit_gbps = g
  o.halls = args.halls
  o.cuts = list
  return finish(out, args, o, strict_findings(run, args, SPAN_STRICT,
                                              { gbps = g, halls = args.halls }),
                table.concat(lines))
end)
