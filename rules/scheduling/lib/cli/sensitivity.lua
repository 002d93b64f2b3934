-- infragate scheduling sensitivity: factorial ablation of demand tracking and
-- elasticity.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"
local studies = require "studies"
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local array = cli_base.array
local guarded = cli_edge.guarded
local strict_finding = cli_edge.strict_finding
local finish = cli_edge.finish
local findings_array = cli_edge.findings_array
local CENSORED = cli_shared.CENSORED
local censored_message = cli_shared.censored_message
local seeds_arg = cli_shared.seeds_arg

local options = {
  { "--days", type = "int", default = 14, min = 1, max = 366, metavar = "N",
    help = "horizon in days" },
  { "--seeds", type = "string", metavar = "S,S,...", help = "seeds (default 0..11)" },
  { "--runs", type = "flag", help = "also print every run" },
  cli_options.fmt_opt(), cli_options.STRICT_OPT,
}

local run = guarded("sensitivity", function(args, out)
  local default = {}
  for i = 0, 11 do default[#default + 1] = i end
  local seeds = seeds_arg(args, default)
  local summaries, runs, censored = studies.factorial(args.days, seeds, args.runs)
  local findings = {}
  if censored then
    findings[1] = strict_finding(args, CENSORED,
                                 censored_message(censored.n, "a factorial run"),
                                 ("/summaries/%d"):format(censored.summary))
  end
  if args.format == "json" then
    local list = engine.array()
    for i, s in ipairs(summaries) do
      list[i] = engine.object("load", s.load, "power_fraction", s.power,
                              "cells", engine.object("00", s.cells["00"], "10", s.cells["10"],
                                                     "01", s.cells["01"], "11", s.cells["11"]),
                              "interaction", s.interaction)
    end
    local rl = engine.null
    if args.runs then
      rl = engine.array()
      for i, r in ipairs(runs) do rl[i] = r end
    end
    out:json(engine.object("pack", "scheduling", "days", args.days, "seeds", array(seeds),
                           "summaries", list, "runs", rl, "findings", findings_array(findings)))
  else
    local lines = { ("%-5s %-6s %8s %8s %8s %8s %12s\n"):format("load", "power", "00", "10",
                                                                "01", "11", "interaction") }
    for _, s in ipairs(summaries) do
      lines[#lines + 1] = ("%-5s %-6s %8s %8s %8s %8s %12s\n"):format(
        py.repr(s.load), py.repr(s.power), py.fixed(s.cells["00"], 4),
        py.fixed(s.cells["10"], 4), py.fixed(s.cells["01"], 4), py.fixed(s.cells["11"], 4),
        py.fixed(s.interaction, 4))
    end
    out:write(table.concat(lines))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
