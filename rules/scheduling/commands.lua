-- infragate scheduling: the pack's verbs (spec/scheduling.md 4). Each verb
-- resolves its input (defaults, then --config or the operand, then each
-- --set), refuses what section 3 refuses with the field's position, runs
-- models.scheduling and prints the JSON shape of section 4 or a text table
-- with the spec's rounding. Text layouts and sentences are ours.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).
local cli_base = require "cli.base"
local LINT_FORMATS = cli_base.LINT_FORMATS
local MUTATIONS = cli_base.MUTATIONS
local fmt_opt = cli_base.fmt_opt
local STRICT_OPT = cli_base.STRICT_OPT
local SET_OPT = cli_base.SET_OPT
local CONFIG_OPT = cli_base.CONFIG_OPT
local STRANDED_FLAGS = cli_base.STRANDED_FLAGS
local PRESET_NAMES = cli_base.PRESET_NAMES
local stranded_options = cli_base.stranded_options

local prog = engine.program {
  name    = "scheduling",
  summary = "stranded capacity and allocation policy: calculate, simulate, replay, gate",
  help    = "Prices the GPU-hours a fleet strands at the scheduler, allocation and "
            .. "productivity layers, simulates a 1,024-GPU cluster under three allocation "
            .. "policies, replays a conserving capacity ledger, models one inference device, "
            .. "analyses the Philly trace's workload shape, and gates capacity requests and "
            .. "scheduler policies.",
}

for i, p in ipairs(SCHED.PRESETS) do PRESET_NAMES[i] = p.name end

-- Each flag is a --set of its field in its argv place (4.1): expands_to
-- appends "field=value" to args.set, and args.set_via names the flag.
for _, fl in ipairs(STRANDED_FLAGS) do
  stranded_options[#stranded_options + 1] = { fl[1], type = fl[3] or "float",
                                              finite = false, metavar = "X",
                                              help = "set " .. fl[2],
                                              expands_to = "--set " .. fl[2] .. "=" }
end
for _, o in ipairs({ SET_OPT, fmt_opt(), STRICT_OPT }) do
  stranded_options[#stranded_options + 1] = o
end

prog:verb {
  name    = "stranded",
  summary = "three-layer stranded-capacity calculator for one fleet and window",
  options = stranded_options,
  run = "cli.stranded",
}

prog:verb {
  name    = "presets",
  summary = "the six worked examples of the calculator",
  options = { fmt_opt() },
  run = "cli.presets",
}

prog:verb {
  name    = "workload",
  summary = "expected work per job, arrival rate and the generated job stream",
  options = { CONFIG_OPT, SET_OPT,
              { "--seed", type = "int", metavar = "N", help = "shorthand for --set seed=N" },
              { "--days", type = "int", metavar = "N",
                help = "shorthand for --set horizon_days=N" },
              fmt_opt() },
  run = "cli.workload",
}

prog:verb {
  name    = "simulate",
  summary = "one simulation per policy on one cluster config and seed",
  options = { { "--policy", type = "string", default = "all", metavar = "P[,P...]|all",
                help = "policies to run: " .. table.concat(SCHED.POLICIES, ", ") .. " or all" },
              CONFIG_OPT, SET_OPT,
              { "--seed", type = "int", metavar = "N", help = "shorthand for --set seed=N" },
              { "--days", type = "int", metavar = "N",
                help = "shorthand for --set horizon_days=N" },
              { "--no-tracking", type = "flag",
                help = "intent controller keeps the static reservation" },
              { "--no-elasticity", type = "flag", help = "no job is elastic" },
              fmt_opt(), STRICT_OPT },
  run = "cli.simulate",
}

prog:verb {
  name    = "grid",
  summary = "the headline experiment: 4 scenarios x 3 policies x seeds",
  options = { { "--days", type = "int", default = 30, metavar = "N", help = "horizon in days" },
              { "--seeds", type = "string", metavar = "S,S,...",
                help = "seeds (default 42,43,44)" },
              CONFIG_OPT, SET_OPT, fmt_opt(), STRICT_OPT },
  run = "cli.grid",
}

prog:verb {
  name    = "sensitivity",
  summary = "factorial ablation of demand tracking and elasticity",
  options = { { "--days", type = "int", default = 14, min = 1, max = 366, metavar = "N",
                help = "horizon in days" },
              { "--seeds", type = "string", metavar = "S,S,...", help = "seeds (default 0..11)" },
              { "--runs", type = "flag", help = "also print every run" },
              fmt_opt(), STRICT_OPT },
  run = "cli.sensitivity",
}

prog:verb {
  name     = "replay",
  summary  = "conserving capacity ledger of one policy run",
  operands = { name = "SCENARIO", min = 1, max = 1 },
  options  = { SET_OPT, fmt_opt(), STRICT_OPT },
  run = "cli.replay",
}

prog:verb {
  name     = "compare",
  summary  = "difference of two capacity reports made on identical inputs",
  operands = { name = "REPORT", min = 2, max = 2 },
  options  = { fmt_opt() },
  run = "cli.compare",
}

prog:verb {
  name    = "inference",
  summary = "single-device inference service model, or the built-in 72-run sweep",
  options = { { "--scenario", type = "path", metavar = "FILE", help = "an inference-scenario" },
              { "--sweep", type = "flag", help = "run the 72 built-in scenarios" },
              fmt_opt() },
  run = "cli.inference",
}

prog:verb {
  name     = "philly",
  summary  = "workload-shape validation of a Philly job log: temporal split, sizes",
  operands = { name = "LOG", min = 1, max = 1 },
  options  = { { "--cutoff", type = "string", default = "2017-11-20", metavar = "YYYY-MM-DD",
                 help = "calibration before, validation on or after this date" },
               fmt_opt() },
  run = "cli.philly",
}

prog:verb {
  name    = "validate",
  summary = "the validation registry: 17 points, declined anchors, mutations",
  options = { { "--mutate", type = "choice", choices = MUTATIONS, metavar = "NAME",
                help = "break one mechanism on purpose: " .. table.concat(MUTATIONS, ", ") },
              fmt_opt() },
  run = "cli.validate",
}

prog:verb {
  name     = "lint",
  summary  = "rules over capacity requests and scheduler policies",
  lint     = true,
  operands = { name = "PATH", min = 1 },
  options  = { { "--strict", type = "flag", help = "run strict rules (the default)" },
               { "--no-strict", type = "flag", help = "do not run the strict rules" },
               fmt_opt(LINT_FORMATS) },
  run = "cli.lint",
}
