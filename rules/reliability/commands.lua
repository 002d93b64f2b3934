-- luacheck: read globals math.tointeger math.type math.maxinteger table.unpack
-- `infragate reliability VERB` (spec/reliability.md 2, 4): simulate, events,
-- sweep, phase, checkpoint, legal-loss, band, validate and lint. Model
-- inputs resolve as built-in defaults, then `--config FILE` (a
-- reliability-config document), then each `--set KEY=VALUE` (typed by the
-- YAML 1.1 resolver, as the same text in a document) and `--seed N`. Every
-- argument and document is checked, and every limit of 5.10, before the
-- first simulation runs; an input error ends the verb with exit 2 and the
-- error document of section 2. Text layouts are ours; only their figures
-- and the rounding of those figures are contractual.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).

local cli_base = require "cli.base"
local LINT_FORMATS = cli_base.LINT_FORMATS
local MAX_LISTED = cli_base.MAX_LISTED
local format_opt = cli_base.format_opt
local STRICT_OPT = cli_base.STRICT_OPT
local CONFIG_OPTS = cli_base.CONFIG_OPTS
local with = cli_base.with
local policy_opt = cli_base.policy_opt
local FIELD_CHOICES = cli_base.FIELD_CHOICES

local prog = engine.program {
  name    = "reliability",
  summary = "recovery economics of gang training jobs: policies, spares, checkpoint cadence",
  help    = "Simulates how a gang training job recovers from node faults (operator, automatic "
            .. "restart, warm spares, elastic shrink), prices the lost GPU-hours, finds the "
            .. "checkpoint optimum and gates declared training-recovery plans.",
  syntax  = { abbrev = "none", negative_numbers = true, help_anywhere = true },
}

prog:verb {
  name = "simulate",
  summary = "run one recovery policy, or all five on one shared fault timeline",
  options = with(CONFIG_OPTS, policy_opt("all", true)),
  run = "cli.simulate",
}

prog:verb {
  name = "events",
  summary = "the latent fault timeline of a config",
  options = with(CONFIG_OPTS,
    { "--first", type = "int", default = 5, min = 0, max = MAX_LISTED, metavar = "N",
      help = "list the first N events (default 5)" },
    { "--last", type = "int", default = 2, min = 0, max = MAX_LISTED, metavar = "N",
      help = "list the last N events (default 2)" },
    { "--all", type = "flag", help = "list every event" }),
  run = "cli.events",
}

prog:verb {
  name = "sweep",
  summary = "seed-mean of one result field while one config field varies",
  options = with(CONFIG_OPTS,
    { "--vary", type = "string", required = true, metavar = "KEY=V1,V2,...",
      help = "the config field to vary and its values" },
    policy_opt("auto-spares-ckpt", false),
    { "--field", type = "choice", choices = FIELD_CHOICES, default = "ettr", metavar = "FIELD",
      help = "the result field to average (default ettr)" },
    { "--seeds", type = "int", default = 8, min = 1, max = 1000, metavar = "N",
      help = "seeds 0..N-1 (default 8)" }),
  run = "cli.sweep",
}

prog:verb {
  name = "phase",
  summary = "where warm spares beat elastic shrink: blast radius x pool size",
  options = with(CONFIG_OPTS,
    { "--blasts", type = "string", default = "1,2,4,8,16,32", metavar = "LIST",
      help = "blast radii, nodes (default 1,2,4,8,16,32)" },
    { "--pools", type = "string", default = "0,2,4,8,16,32,64", metavar = "LIST",
      help = "spare pool sizes, nodes (default 0,2,4,8,16,32,64)" },
    { "--seeds", type = "int", default = 8, min = 1, max = 100000, metavar = "N",
      help = "seeds 0..N-1 (default 8)" },
    { "--corr-fraction", type = "float", default = 0.5, min = 0, max = 1, metavar = "F",
      help = "share of the node-failure budget that arrives in bursts (default 0.5)" }),
  run = "cli.phase",
}

prog:verb {
  name = "checkpoint",
  summary = "Young / Daly optimum interval and the overhead of a declared interval",
  options = with(CONFIG_OPTS,
    { "--pair", type = "choice", choices = { "blocking", "overlapped" }, default = "blocking",
      help = "the config's checkpoint pair (default blocking)" },
    { "--write-h", type = "float", min = 0, metavar = "W", help = "write stall, h" },
    { "--mtbf-h", type = "float", min_exclusive = 0, metavar = "M", help = "event MTBF, h" },
    { "--reload-h", type = "float", min = 0, metavar = "R", help = "restart time, h" },
    { "--interval-h", type = "float", min_exclusive = 0, metavar = "C",
      help = "checkpoint interval, h" }),
  run = "cli.checkpoint",
}

prog:verb {
  name = "legal-loss",
  summary = "elastic legal-shape loss for given down-node counts",
  options = { { "--granularity", type = "int", default = 8, min = 1, metavar = "G",
                help = "nodes per data-parallel replica (default 8)" },
              STRICT_OPT, format_opt() },
  operands = { name = "ITEM", min = 1, max = 100000 },
  run = "cli.legal_loss",
}

prog:verb {
  name = "band",
  summary = "check ETTR values against the one-sided published band [0.85, 0.90)",
  options = { { "--floor", type = "float", default = 0.85, metavar = "F",
                help = "lowest value in band (default 0.85)" },
              { "--bound", type = "float", default = 0.90, metavar = "B",
                help = "the published bound, excluded (default 0.90)" },
              STRICT_OPT, format_opt() },
  operands = { name = "VALUE", min = 1, max = 100000 },
  run = "cli.band",
}

prog:verb {
  name = "validate",
  summary = "the validation registry (section 8)",
  options = { { "--mutate", type = "choice", choices = REL.MUTATIONS, metavar = "NAME",
                help = "run under a mutation that must turn its points red" },
              STRICT_OPT, format_opt() },
  run = "cli.validate",
}

prog:verb {
  name = "lint",
  summary = "rules over training-recovery-plan documents (section 7)",
  lint = true,
  options = {
    { "--strict", type = "flag", help = "run strict rules (the default)" },
    { "--no-strict", type = "flag", help = "do not run strict rules" },
    format_opt(LINT_FORMATS),
  },
  operands = { name = "PATH", min = 1 },
  run = "cli.lint",
}
