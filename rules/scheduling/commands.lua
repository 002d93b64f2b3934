-- infragate scheduling: the pack's verbs (spec/scheduling.md 4). Each verb
-- resolves its input (defaults, then --config or the operand, then each
-- --set), refuses what section 3 refuses with the field's position, runs
-- models.scheduling and prints the JSON shape of section 4 or a text table
-- with the spec's rounding. Text layouts and sentences are ours.
--
-- This file declares the program and its verbs; each verb's module in
-- lib/cli/ declares its options and its code, and is compiled only when that
-- verb runs or its help is asked (spec/core.md 5.8-5.9), so a run compiles
-- its own verb's declarations and no other's.

local prog = engine.program {
  name    = "scheduling",
  summary = "stranded capacity and allocation policy: calculate, simulate, replay, gate",
  help    = "Prices the GPU-hours a fleet strands at the scheduler, allocation and "
            .. "productivity layers, simulates a 1,024-GPU cluster under three allocation "
            .. "policies, replays a conserving capacity ledger, models one inference device, "
            .. "analyses the Philly trace's workload shape, and gates capacity requests and "
            .. "scheduler policies.",
}

prog:verb {
  name    = "stranded",
  summary = "three-layer stranded-capacity calculator for one fleet and window",
  run     = "cli.stranded",
}

prog:verb {
  name    = "presets",
  summary = "the six worked examples of the calculator",
  run     = "cli.presets",
}

prog:verb {
  name    = "workload",
  summary = "expected work per job, arrival rate and the generated job stream",
  run     = "cli.workload",
}

prog:verb {
  name    = "simulate",
  summary = "one simulation per policy on one cluster config and seed",
  run     = "cli.simulate",
}

prog:verb {
  name    = "grid",
  summary = "the headline experiment: 4 scenarios x 3 policies x seeds",
  run     = "cli.grid",
}

prog:verb {
  name    = "sensitivity",
  summary = "factorial ablation of demand tracking and elasticity",
  run     = "cli.sensitivity",
}

prog:verb {
  name     = "replay",
  summary  = "conserving capacity ledger of one policy run",
  operands = { name = "SCENARIO", min = 1, max = 1 },
  run      = "cli.replay",
}

prog:verb {
  name     = "compare",
  summary  = "difference of two capacity reports made on identical inputs",
  operands = { name = "REPORT", min = 2, max = 2 },
  run      = "cli.compare",
}

prog:verb {
  name    = "inference",
  summary = "single-device inference service model, or the built-in 72-run sweep",
  run     = "cli.inference",
}

prog:verb {
  name     = "philly",
  summary  = "workload-shape validation of a Philly job log: temporal split, sizes",
  operands = { name = "LOG", min = 1, max = 1 },
  run      = "cli.philly",
}

prog:verb {
  name    = "validate",
  summary = "the validation registry: 17 points, declined anchors, mutations",
  run     = "cli.validate",
}

prog:verb {
  name     = "lint",
  summary  = "rules over capacity requests and scheduler policies",
  lint     = true,
  operands = { name = "PATH", min = 1 },
  run      = "cli.lint",
}
