-- luacheck: std +lua54 (math.type and math.tointeger tell ints from floats)
-- `infragate network VERB` (spec/network.md 2, 4): the model verbs (step,
-- ledger, curve, expand, sea, attribute, map, atlas, span, stitch, bytes),
-- the registry (validate) and the rules (lint). Every figure comes from
-- models.network through the functions of pack.lua; this file reads the
-- scenario options, shapes the JSON of section 4 and the text of 2.4, and
-- reports input errors in the error document of power.md 2.5 (with "pack").
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).

local cli_base = require "cli.base"
local MUTATIONS = cli_base.MUTATIONS
local fmt_opt = cli_base.fmt_opt
local options = cli_base.options
local cut_opt = cli_base.cut_opt
local distance_opts = cli_base.distance_opts
local circuit_opt = cli_base.circuit_opt
local halls_opt = cli_base.halls_opt
local placement_opt = cli_base.placement_opt
local INTERVENTION_OPT = cli_base.INTERVENTION_OPT

local prog = engine.program {
  name    = "network",
  summary = "interconnect versus more accelerators: capacity ledger, SEA and scale-across",
  help    = "Splits every accelerator-second a training job pays for into productive, "
            .. "blocked, discarded and unavailable time, prices fabric, reliability and "
            .. "recovery changes as substitution-equivalent accelerators (SEA), maps which "
            .. "change wins where, and rates what survives when one cut of a job spans a "
            .. "stitch between halls. Scenarios: --preset NAME (default reference-405b-16k) "
            .. "or --scenario FILE, edited by --set PATH=VALUE.",
  syntax  = { before_verb = { "--format", "--help" } },
}

prog:verb {
  name    = "step",
  summary = "healthy-step breakdown: compute, exposed collectives, bubble, sync wait, MFU",
  options = options(),
  run = "cli.step",
}

prog:verb {
  name    = "ledger",
  summary = "four-fate accelerator-time ledger (analytical or Monte Carlo)",
  options = options({
    { "--fidelity", type = "choice", choices = { "analytical", "monte-carlo" },
      default = "analytical", help = "analytical (default) or monte-carlo" },
    { "--seed", type = "int", min = 0, metavar = "N", help = "Monte Carlo seed (default 0)" },
    { "--replicates", type = "int", min = 1, max = 100000, metavar = "N",
      help = "Monte Carlo replicates (default 200)" },
  }),
  run = "cli.ledger",
}

prog:verb {
  name    = "curve",
  summary = "productive throughput against pool size (the curve SEA inverts)",
  options = options({
    { "--max-factor", type = "float", min_exclusive = 1, max = 1024, default = 64.0,
      metavar = "X", help = "widest pool multiple" },
  }),
  run = "cli.curve",
}

prog:verb {
  name    = "expand",
  summary = "what adding N accelerators to the pool buys",
  options = options({
    { "--add", type = "int", min = 1, max = 100000000, required = true, metavar = "N",
      help = "accelerators added to the pool" },
  }),
  run = "cli.expand",
}

prog:verb {
  name    = "sea",
  summary = "substitution-equivalent accelerators of interventions, ranked",
  options = options({
    INTERVENTION_OPT,
    { "--only", type = "string", metavar = "NAME,...", help = "only these interventions" },
    { "--regime", type = "string", metavar = "NAME",
      help = "apply that regime of the interventions file first" },
  }),
  run = "cli.sea",
}

prog:verb {
  name    = "attribute",
  summary = "Shapley attribution of a bundle of interventions",
  options = options({
    { "--bundle", type = "string", required = true, metavar = "NAME,...",
      help = "1 to 12 distinct intervention names" },
    INTERVENTION_OPT,
  }),
  run = "cli.attribute",
}

prog:verb {
  name    = "map",
  summary = "decision map: the winning intervention per (failure rate, oversubscription, scale)",
  options = options({
    INTERVENTION_OPT,
    { "--rates", type = "string", metavar = "LIST", help = "failure rates per node-day" },
    { "--oversubscription", type = "string", metavar = "LIST", help = "cross-pod ratios" },
    { "--scales", type = "string", metavar = "LIST", help = "accelerators in the job" },
  }),
  run = "cli.map",
}

prog:verb {
  name    = "atlas",
  summary = "retention of every (distance regime, cut) pair across a stitch",
  options = options({ circuit_opt(true), placement_opt(), halls_opt(),
                      { "--floor", type = "float", min = 0, max = 1, default = 0.90, metavar = "F",
                        help = "retention a surviving cut keeps" } }),
  run = "cli.atlas",
}

prog:verb {
  name    = "span",
  summary = "one cut across one stitch, both placements",
  options = options({ cut_opt(true), distance_opts()[1], distance_opts()[2], circuit_opt(true),
                      placement_opt(), halls_opt() }),
  run = "cli.span",
}

prog:verb {
  name    = "stitch",
  summary = "how many of a second hall's accelerators a stitch delivers",
  options = options({ cut_opt(true), distance_opts()[1], distance_opts()[2], circuit_opt(true) }),
  run = "cli.stitch",
}

prog:verb {
  name    = "bytes",
  summary = "bytes each cut pushes across the stitch per step, exposed bytes, circuit bound",
  options = options({
    { "--cut", type = "string", metavar = "C,...", help = "cuts (default all five)" },
    circuit_opt(false, 400.0), halls_opt() }),
  run = "cli.bytes",
}

prog:verb {
  name    = "validate",
  summary = "run the validation registry (section 7)",
  options = {
    { "--mutate", type = "choice", choices = MUTATIONS, metavar = "NAME",
      help = "break one formula on purpose: " .. table.concat(MUTATIONS, ", ") },
    fmt_opt(),
  },
  run = "cli.validate",
}

prog:verb {
  name     = "lint",
  summary  = "rules over capacity proposals, fabric plans and scenarios",
  lint     = true,
  operands = { name = "PATH", min = 1 },
  run = "cli.lint",
}
