-- chaos-fidelity (spec/chaos.md 2): the compatible lint form (`chaos-fidelity
-- [lint] [PATH...]`, no PATH = the bundled catalog), coverage, two-clocks and
-- registry, each with --format json. The lint report is assembled here rather
-- than by engine.lint because the program's text layout (2.6), its display
-- names (2.3) and its input findings (input.yaml at the root pointer, in our
-- words) are its own; the rules themselves run through engine.check, exactly
-- as `infragate lint` runs them.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).

local cli_base = require "cli.base"
local LINT_FORMATS = cli_base.LINT_FORMATS
local REQUIRES = cli_base.REQUIRES
local format_opt = cli_base.format_opt
local STRICT_OPT = cli_base.STRICT_OPT
local JOBS_OPT = cli_base.JOBS_OPT
local coverage = cli_base.coverage
local coverage_summary = cli_base.coverage_summary

local prog = engine.program {
  name    = "chaos-fidelity",
  summary = "check that chaos experiments break the layer they claim to test",
  help    = "Checks ChaosExperiment documents against the policy registry: wrong-layer injections, "
            .. "uncertifiable claims, unbounded blast radius, abort and undo, observability and "
            .. "autonomy over-claims.\n\n"
            .. "Without PATH the bundled catalog of 25 reference experiments is checked. A " ..
              "directory "
            .. "PATH checks the *.yaml files directly inside it.\n\n"
            .. "exit codes: 0 every experiment passed (coverage: no gap), 1 some experiment failed "
            .. "(coverage: a gap or an excluded spec), 2 a usage error or an unusable input",
  syntax  = { abbrev = "none", help_anywhere = false, negative_numbers = true,
              default_verb = "lint" },
}

prog:verb {
  name = "lint", summary = "check experiments (the default verb; no PATH: the bundled catalog)",
  operands = { name = "PATH", min = 0 },
  options = { STRICT_OPT, format_opt(LINT_FORMATS), JOBS_OPT },
  run = "cli.lint",
}

CF.coverage = coverage

CF.coverage_summary = coverage_summary

prog:verb {
  name = "coverage", summary = "coverage of a catalog against layers, fault classes and " ..
    "failure modes",
  operands = { name = "PATH", min = 0 },
  options = {
    STRICT_OPT,
    { "--require", type = "choice", choices = REQUIRES, default = "any", metavar = "FIDELITY",
      help = "weakest fidelity that covers a layer: " .. table.concat(REQUIRES, ", ") },
    format_opt({ "text", "json" }), JOBS_OPT,
  },
  run = "cli.coverage",
}

prog:verb {
  name = "two-clocks", summary = "the transport give-up against the c10d watchdog for one " ..
    "configuration",
  operands = { name = "PATH", min = 0, max = 0 },
  options = {
    { "--ib-timeout", type = "string", metavar = "T", help = "NCCL_IB_TIMEOUT, integer 1..31 " ..
      "(default 20)" },
    { "--ib-retry-cnt", type = "string", metavar = "R", help = "NCCL_IB_RETRY_CNT, integer " ..
      "0..7 (default 7)" },
    { "--c10d-timeout", type = "string", metavar = "S", help = "c10d watchdog timeout, s > 0 " ..
      "(default 600)" },
    { "--hold", type = "string", metavar = "S", help = "outage length, s >= 0 (default: none)" },
    format_opt({ "text", "json" }),
  },
  run = "cli.two_clocks",
}

prog:verb {
  name = "registry", summary = "print the loaded policy registry",
  operands = { name = "PATH", min = 0, max = 0 },
  options = { format_opt({ "text", "json" }) },
  run = "cli.registry",
}
