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
-- This file declares the program and its verbs; each verb's module in
-- lib/cli/ declares its options and its code, and is compiled only when that
-- verb runs or its help is asked (spec/core.md 5.8-5.9), so a run compiles
-- its own verb's declarations and no other's.

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
  run = "cli.simulate",
}

prog:verb {
  name = "events",
  summary = "the latent fault timeline of a config",
  run = "cli.events",
}

prog:verb {
  name = "sweep",
  summary = "seed-mean of one result field while one config field varies",
  run = "cli.sweep",
}

prog:verb {
  name = "phase",
  summary = "where warm spares beat elastic shrink: blast radius x pool size",
  run = "cli.phase",
}

prog:verb {
  name = "checkpoint",
  summary = "Young / Daly optimum interval and the overhead of a declared interval",
  run = "cli.checkpoint",
}

prog:verb {
  name = "legal-loss",
  summary = "elastic legal-shape loss for given down-node counts",
  operands = { name = "ITEM", min = 1, max = 100000 },
  run = "cli.legal_loss",
}

prog:verb {
  name = "band",
  summary = "check ETTR values against the one-sided published band [0.85, 0.90)",
  operands = { name = "VALUE", min = 1, max = 100000 },
  run = "cli.band",
}

prog:verb {
  name = "validate",
  summary = "the validation registry (section 8)",
  run = "cli.validate",
}

prog:verb {
  name = "lint",
  summary = "rules over training-recovery-plan documents (section 7)",
  lint = true,
  operands = { name = "PATH", min = 1 },
  run = "cli.lint",
}
