-- airan-resiliency: the published tool's three verbs (ladder, policy,
-- transports) with the same defaults and figures, plus ours (simulate,
-- lint, validate) and --format json on every verb (spec/resiliency.md 2,
-- 4). The text layouts and sentences are ours; the figures are printed with
-- the precision of 2.6 so they read as the reference tool's. Everything is
-- computed by models.resiliency through the functions of pack.lua.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).

local cli_base = require "cli.base"
local FORMATS = cli_base.FORMATS
local LINT_FORMATS = cli_base.LINT_FORMATS
local MUTATIONS = cli_base.MUTATIONS
local RUNG_NAMES = cli_base.RUNG_NAMES
local MAX_YEARS = cli_base.MAX_YEARS
local years_opt = cli_base.years_opt
local seed_opt = cli_base.seed_opt
local format_opt = cli_base.format_opt

local prog = engine.program {
  name    = "airan-resiliency",
  summary = "price the next nine of an AI-RAN / edge site's last mile (Monte Carlo)",
  help    = "Simulates many independent years of one site: transport failures, the power "
            .. "chain, GNSS timing and regional storms, per resilience class R0 (radio), "
            .. "R1 (control plane) and R2 (tenant AI). ladder, policy and transports answer "
            .. "as the published tool; simulate, lint and validate read site documents and "
            .. "the validation registry.",
  syntax  = { abbrev = "unique-prefix", negative_numbers = true, help_anywhere = false,
              before_verb = { "--format", "--help" } },
}

prog:verb {
  name    = "ladder",
  summary = "simulate the five-rung policy ladder P0..P4",
  options = { years_opt(DEFAULTS.years), seed_opt(DEFAULTS.seed), format_opt(FORMATS, "added") },
  run = "cli.ladder",
}

prog:verb {
  name    = "policy",
  summary = "simulate one rung of the ladder",
  options = {
    { "--policy", short = "-p", type = "choice", choices = RUNG_NAMES, required = true,
      metavar = "NAME", help = "the rung: " .. table.concat(RUNG_NAMES, ", ") },
    years_opt(DEFAULTS.years), seed_opt(DEFAULTS.seed), format_opt(FORMATS, "added"),
  },
  run = "cli.policy",
}

prog:verb {
  name    = "transports",
  summary = "list the transport catalog and its failure modes",
  options = {
    { "--site", type = "path", metavar = "FILE", group = "added",
      help = "a site document whose catalog overrides and extends the built-ins" },
    format_opt(FORMATS, "added"),
  },
  run = "cli.transports",
}

prog:verb {
  name    = "simulate",
  summary = "simulate the policy of a site document",
  options = {
    { "--site", type = "path", required = true, metavar = "FILE",
      help = "the site document (kind resiliency-site)" },
    years_opt(nil, "simulated years (default: the document's simulation block, else 2000)"),
    seed_opt(nil), format_opt(FORMATS),
  },
  run = "cli.simulate",
}

prog:verb {
  name     = "lint",
  summary  = "simulate site documents and check their claims",
  lint     = true,
  operands = { name = "FILE", min = 1 },
  options  = {
    { "--strict", type = "flag", group = "added",
      help = "also run the resiliency.strict.* rules" },
    years_opt(nil, "simulated years for every document, over its simulation block"),
    seed_opt(nil), format_opt(LINT_FORMATS, "added"),
    { "--jobs", short = "-j", type = "int", min = 0, metavar = "N", group = "added",
      help = "worker threads (0: one per CPU)" },
  },
  run = "cli.lint",
}

prog:verb {
  name    = "validate",
  summary = "run the validation registry: calibrated, emergent and sanity points",
  options = {
    years_opt(nil, "simulated years per rung and seed (default 2000; 600 under a "
                   .. "mutation)"),
    { "--grid-years", type = "int", min = 1, max = MAX_YEARS, metavar = "N", group = "added",
      help = ("years of the grid-hours helper, 1..%d (default 4000; 1000 under a mutation)")
             :format(MAX_YEARS) },
    { "--mutation", type = "choice", choices = MUTATIONS, metavar = "NAME", group = "added",
      help = "break one mechanism on purpose (a test of the registry): "
             .. table.concat(MUTATIONS, ", ") },
    format_opt(FORMATS, "added"),
  },
  run = "cli.validate",
}
