-- edge-placement: the published tool's four verbs (matrix, evaluate,
-- physics, fleet) with its arguments, defaults, exit codes, verdicts and
-- figures, plus our documents (--request, --ladder, --workloads, --pair,
-- --calls), --strict and --format on every verb (spec/placement.md 2, 4,
-- 6). The sentences are ours; the figures keep the reference's rounding in
-- text mode and print at full precision everywhere else. Every input is
-- resolved and checked before the first byte of output is assembled.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).

local cli_base = require "cli.base"
local PROGRAM = cli_base.PROGRAM
local LINT_FORMATS = cli_base.LINT_FORMATS
local FORMATS = cli_base.FORMATS
local strict_opt = cli_base.strict_opt
local format_opt = cli_base.format_opt
local ladder_opt = cli_base.ladder_opt

local prog = engine.program {
  name    = PROGRAM,
  summary = "place AI workloads on the tower-to-factory continuum; placement physics",
  help    = "Runs each workload through four gates (fabric, power, latency, gravity) on every "
            .. "tier of a ladder, from a cell tower to a central AI factory, and recommends the "
            .. "most central tier that accepts it. evaluate -t TIER exits 1 when the declared "
            .. "tier is blocked. physics prints the WAN figures behind the gates; fleet compares "
            .. "a tower fleet with a hub fleet.",
  syntax  = { abbrev = "unique-prefix", negative_numbers = true, help_anywhere = true },
}

prog:verb {
  name    = "matrix",
  summary = "every library workload on every tier, with its recommended tier",
  options = {
    ladder_opt(),
    { "--workloads", type = "path", group = "added", metavar = "FILE",
      help = "a workload-library document to use instead of the built-in library" },
    strict_opt(),
    format_opt(LINT_FORMATS),
  },
  run = "cli.matrix",
}

prog:verb {
  name    = "evaluate",
  summary = "evaluate one workload on every tier and check its declared tier",
  options = {
    { "--workload", short = "-w", type = "string", metavar = "NAME",
      help = "a library workload, by its exact name" },
    { "--tier", short = "-t", type = "string", metavar = "NAME",
      help = "the declared tier (exact name, unique prefix or unique substring); "
             .. "exit 1 when it is blocked" },
    { "--request", type = "path", group = "added", metavar = "FILE",
      help = "a placement-request document (workload, ladder, overrides, tier)" },
    ladder_opt(),
    strict_opt(),
    format_opt(LINT_FORMATS),
  },
  run = "cli.evaluate",
}

prog:verb {
  name    = "physics",
  summary = "the WAN physics behind the gates for one link",
  options = {
    { "--rate", type = "float", min_exclusive = 0, metavar = "GBPS",
      help = "link rate, Gbps (default 400)" },
    { "--km", type = "float", min = 0, metavar = "KM", help = "fiber distance, km (default 600)" },
    { "--buffer-mb", type = "float", min_exclusive = 0, metavar = "MB",
      help = "switch buffer per port, MB (default 64)" },
    { "--calls", type = "path", group = "added", metavar = "FILE",
      help = "a placement-model-calls document: evaluate its calls instead" },
    format_opt(FORMATS),
  },
  run = "cli.physics",
}

prog:verb {
  name    = "fleet",
  summary = "a tower fleet against an aggregation-hub fleet: power, GPUs, capability",
  options = {
    { "--pair", type = "path", group = "added", metavar = "FILE",
      help = "a fleet-pair document that replaces either side" },
    strict_opt(),
    format_opt(FORMATS),
  },
  run = "cli.fleet",
}
