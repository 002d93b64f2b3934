-- promotion-gate (spec/promotion.md 4): the full gate (default), the
-- declaration linter (--declaration-only) and --print-digest, with the
-- reference tool's arguments, exit codes and verdicts. The receipt stage
-- (7.5) and the result predicates (7.6) live here because they read the
-- operator's trust policy and the evidence root, which only this command
-- takes. Everything is assembled before the first byte is written.
--
-- This file declares the program, its verbs and their options (what help and
-- argument parsing need); each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).

local cli_base = require "cli.base"
local PROGRAM = cli_base.PROGRAM
local HELP = cli_base.HELP
local options = cli_base.options

local prog = engine.program {
  name    = PROGRAM,
  summary = "refuse an autonomy promotion (L0-L4) that its evidence has not earned",
  help    = HELP,
  syntax  = { abbrev = "none", help_anywhere = true, default_verb = "gate" },
}

prog:verb {
  name     = "gate",
  summary  = "check promotion records against the L0-L4 gate",
  options  = options(),
  operands = { name = "RECORD", min = 0 },
  run = "cli.gate",
}

prog:verb {
  name     = "digest",
  summary  = "print each record's record_sha256",
  select   = { "--print-digest" },
  options  = options(),
  operands = { name = "RECORD", min = 0 },
  run = "cli.digest",
}
