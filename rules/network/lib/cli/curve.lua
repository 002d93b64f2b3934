-- infragate network curve: productive throughput against pool size (the curve
-- SEA inverts).
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f1 = cli_shared.f1

return guarded("curve", function(args, out)
  local run = scenario_of(args)
  local pts = models.network.curve(run.scn, args.max_factor, VARIANT)
  local list, peak = engine.array(), nil
  local lines = { ("scaling curve of %s up to %s x dp\n")
                  :format(run.scn.name or "", py.repr(args.max_factor + 0.0)) }
  for i, p in ipairs(pts) do
    list[i] = engine.object("n_pool", p.n_pool, "productive_accelerators", p.productive)
    if not peak or p.productive > pts[peak].productive then peak = i end
    lines[#lines + 1] = ("  pool %9d  productive %s\n"):format(p.n_pool, f1(p.productive))
  end
  local o = envelope()
  o.scenario = head(run)
  o.max_factor = args.max_factor + 0.0
  o.points = list
  o.peak = peak and engine.object("index", peak - 1, "n_pool", pts[peak].n_pool,
                                  "productive_accelerators", pts[peak].productive)
           or engine.null
  return finish(out, args, o, engine.array(), table.concat(lines))
end)
