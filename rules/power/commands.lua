-- `infragate power VERB` (spec/power.md 2, 4): the model verbs decide,
-- breakeven, scarcity, prices, fleet, sweep, causal, span and hall-price,
-- plus validate and lint. Inputs resolve as built-in defaults, then
-- `--config FILE`, then each `--set KEY=VALUE` (typed by the YAML 1.1
-- resolver, as the same text in a document) and `--seed N`. Every input is
-- checked before any figure is computed; input errors end the verb with
-- exit 2 and the error document of 2.5 (which names the pack). The text
-- layouts are ours; only the figures and their rounding are contractual.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).

local cli_base = require "cli.base"
local LINT_FORMATS = cli_base.LINT_FORMATS
local format_opt = cli_base.format_opt
local STRICT_OPT = cli_base.STRICT_OPT
local with = cli_base.with
local JOB_OPTS = cli_base.JOB_OPTS
local FLEET_OPTS = cli_base.FLEET_OPTS
local RESULT_KEYS = cli_base.RESULT_KEYS
local NUMERIC_FIELDS = cli_base.NUMERIC_FIELDS
local keyed = cli_base.keyed

local prog = engine.program {
  name    = "power",
  summary = "compute and power placement: move, stay, stitch or curtail, priced exactly",
  help    = "Prices the decisions a frontier training fleet faces when power prices differ by "
            .. "site and spike: move a job or stay, ride out or dodge a spike, curtail "
            .. "flexible load, stitch two halls over a circuit. Figures reproduce the "
            .. "reference models bit for bit.",
  syntax  = { abbrev = "none", negative_numbers = true, help_anywhere = true,
              before_verb = { "--format", "--help" } },
}

prog:verb {
  name = "decide",
  summary = "move versus stay for one job and its remaining length",
  options = with(JOB_OPTS, { "--length-h", type = "float", required = true, min = 0,
                             max = 1e7, metavar = "L", help = "remaining length, h" }),
  run = "cli.decide",
}

prog:verb {
  name = "breakeven",
  summary = "break-even spread for job lengths, break-even length for spreads",
  options = with(JOB_OPTS,
    { "--length-h", type = "string", metavar = "L1,L2,...", help = "job lengths, h" },
    { "--spread", type = "string", metavar = "S1,S2,...", help = "price spreads, $/MWh" }),
  run = "cli.breakeven",
}

prog:verb {
  name = "scarcity",
  summary = "value of moving off a site before a price spike",
  options = with(JOB_OPTS,
    { "--spike-price", type = "float", default = 5000.0, min = -1e6, max = 1e6, metavar = "P",
      help = "spike price, $/MWh (default 5000)" },
    { "--spike-hours", type = "float", default = 12.0, min_exclusive = 0, max = 8760,
      metavar = "H", help = "spike length, h (default 12)" }),
  run = "cli.scarcity",
}

for i = 2, #RESULT_KEYS do NUMERIC_FIELDS[#NUMERIC_FIELDS + 1] = RESULT_KEYS[i] end

PW.result_json = function(res) return keyed(res, RESULT_KEYS) end

prog:verb {
  name = "prices",
  summary = "the synthetic hourly price series of a fleet config",
  options = FLEET_OPTS,
  run = "cli.prices",
}

prog:verb {
  name = "fleet",
  summary = "offline (full-foresight) curtailment of a fleet over one price series",
  options = FLEET_OPTS,
  run = "cli.fleet",
}

prog:verb {
  name = "sweep",
  summary = "seed-mean of one fleet result field while one config field varies",
  options = with(FLEET_OPTS,
    { "--vary", type = "string", required = true, metavar = "KEY=V1,V2,...",
      help = "the config field to vary and its values" },
    { "--field", type = "choice", choices = NUMERIC_FIELDS, default = "saving_pct",
      help = "the result field to average (default saving_pct)" },
    { "--seeds", type = "int", default = 24, min = 1, max = 1000, metavar = "N",
      help = "seeds 0..N-1 (default 24)" }),
  run = "cli.sweep",
}

prog:verb {
  name = "causal",
  summary = "online curtailment controller over a price list (file or generated)",
  options = with(FLEET_OPTS,
    { "--prices", type = "path", metavar = "FILE", help = "a price-series document" },
    { "--cheap-threshold", type = "float", default = 50.0, min = 0, max = 1e6, metavar = "X",
      help = "catch-up price, $/MWh (default 50)" },
    { "--actions", type = "flag", help = "list every hour's action" }),
  run = "cli.causal",
}

prog:verb {
  name = "span",
  summary = "stay / stitch / move ledger for a scale-across scenario",
  options = { { "--scenario", type = "path", required = true, metavar = "FILE",
                help = "a scale-across-proposal document" },
              STRICT_OPT, format_opt() },
  run = "cli.span",
}

prog:verb {
  name = "hall-price",
  summary = "expected price of halls with weekly spike hours folded in",
  options = { format_opt() },
  operands = { name = "ITEM", min = 1, max = 10000 },
  run = "cli.hall_price",
}

prog:verb {
  name = "validate",
  summary = "the validation registry (spec/power.md 7)",
  options = { { "--mutate", type = "string", metavar = "NAME",
                help = "run with a mutation that must turn its points red" },
              format_opt() },
  run = "cli.validate",
}

prog:verb {
  name = "lint",
  summary = "rules over migration proposals, curtailment plans, scale-across proposals",
  lint = true,
  options = {
    { "--strict", type = "flag", help = "run strict rules (the default)" },
    { "--no-strict", type = "flag", help = "do not run strict rules" },
    format_opt(LINT_FORMATS),
  },
  operands = { name = "PATH", min = 1 },
  run = "cli.lint",
}
