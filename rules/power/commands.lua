-- `infragate power VERB` (spec/power.md 2, 4): the model verbs decide,
-- breakeven, scarcity, prices, fleet, sweep, causal, span and hall-price,
-- plus validate and lint. Inputs resolve as built-in defaults, then
-- `--config FILE`, then each `--set KEY=VALUE` (typed by the YAML 1.1
-- resolver, as the same text in a document) and `--seed N`. Every input is
-- checked before any figure is computed; input errors end the verb with
-- exit 2 and the error document of 2.5 (which names the pack). The text
-- layouts are ours; only the figures and their rounding are contractual.
--
-- This file declares the program and its verbs; each verb's module in
-- lib/cli/ declares its options and its code, and is compiled only when that
-- verb runs or its help is asked (spec/core.md 5.8-5.9), so a run compiles
-- its own verb's declarations and no other's.

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
  run = "cli.decide",
}

prog:verb {
  name = "breakeven",
  summary = "break-even spread for job lengths, break-even length for spreads",
  run = "cli.breakeven",
}

prog:verb {
  name = "scarcity",
  summary = "value of moving off a site before a price spike",
  run = "cli.scarcity",
}

prog:verb {
  name = "prices",
  summary = "the synthetic hourly price series of a fleet config",
  run = "cli.prices",
}

prog:verb {
  name = "fleet",
  summary = "offline (full-foresight) curtailment of a fleet over one price series",
  run = "cli.fleet",
}

prog:verb {
  name = "sweep",
  summary = "seed-mean of one fleet result field while one config field varies",
  run = "cli.sweep",
}

prog:verb {
  name = "causal",
  summary = "online curtailment controller over a price list (file or generated)",
  run = "cli.causal",
}

prog:verb {
  name = "span",
  summary = "stay / stitch / move ledger for a scale-across scenario",
  run = "cli.span",
}

prog:verb {
  name = "hall-price",
  summary = "expected price of halls with weekly spike hours folded in",
  operands = { name = "ITEM", min = 1, max = 10000 },
  run = "cli.hall_price",
}

prog:verb {
  name = "validate",
  summary = "the validation registry (spec/power.md 7)",
  run = "cli.validate",
}

prog:verb {
  name = "lint",
  summary = "rules over migration proposals, curtailment plans, scale-across proposals",
  lint = true,
  operands = { name = "PATH", min = 1 },
  run = "cli.lint",
}
