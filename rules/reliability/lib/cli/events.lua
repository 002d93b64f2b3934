-- infragate reliability events: the latent fault timeline of a config.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"

local MAX_LISTED = cli_base.MAX_LISTED
local raise = cli_shared.raise
local guarded = cli_shared.guarded
local config_input = cli_shared.config_input
local findings_of = cli_shared.findings_of
local finish = cli_shared.finish
local fmt6 = cli_shared.fmt6

local function pairs_array(list)
  local a = engine.array()
  for i, e in ipairs(list) do a[i] = engine.array(e[1], e[2]) end
  return a
end

local options = cli_base.with(cli_base.CONFIG_OPTS,
  { "--first", type = "int", default = 5, min = 0, max = MAX_LISTED, metavar = "N",
    help = "list the first N events" },
  { "--last", type = "int", default = 2, min = 0, max = MAX_LISTED, metavar = "N",
    help = "list the last N events" },
  { "--all", type = "flag", help = "list every event" })

local run = guarded("events", function(args, out)
  local c, origin = config_input(args)
  if args.all and REL.expected_events(c) > MAX_LISTED then
    raise({ { rule = "input.limit", argument = "--all",
              message = ("--all would list about %s events, over the limit of 1,000,000")
                        :format(py.thousands(math.floor(REL.expected_events(c)))) } })
  end
  local ev = models.reliability.events { config = c, first = args.first, last = args.last,
                                         all = args.all }
  if args.all and ev.count > MAX_LISTED then
    raise({ { rule = "input.limit", argument = "--all",
              message = ("--all would list %s events, over the limit of 1,000,000")
                        :format(py.thousands(ev.count)) } })
  end
  local findings = findings_of(args, REL.strict_problems({ c }, { "manual" },
    { ["reliability.strict.burst-budget"] = true }, {}), origin)
  local configured = c.single_rate_per_node_h * c.nodes
  local burst_node = c.burst_rate_per_h * c.burst_blast
  local single = REL.single_rate(c)
  if args.format == "json" then
    local o = engine.object("pack", "reliability", "count", ev.count,
      "nodes_failed", ev.nodes_failed, "configured_node_rate_per_h", configured + 0.0,
      "burst_node_rate_per_h", burst_node + 0.0, "single_node_rate_per_h", single + 0.0,
      "first", pairs_array(ev.first), "last", pairs_array(ev.last))
    if args.all then o.events = pairs_array(ev.events) end
    o.findings = findings
    out:json(o)
  else
    local lines = { ("%d latent events, %d nodes failed\n"):format(ev.count, ev.nodes_failed),
      ("configured node rate %s /h, burst node rate %s /h, single-node rate %s /h\n")
      :format(fmt6(configured), fmt6(burst_node), fmt6(single)) }
    local function list(title, l)
      lines[#lines + 1] = title .. ":\n"
      for _, e in ipairs(l) do lines[#lines + 1] = ("%.6f %d\n"):format(e[1], e[2]) end
    end
    if args.all then
      list("events", ev.events)
    else
      list("first", ev.first)
      list("last", ev.last)
    end
    out:write(table.concat(lines))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
