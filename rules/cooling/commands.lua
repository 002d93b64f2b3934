-- pue-ladder: the published tool's six verbs (ladder, gate, capacity, fleet,
-- admit, validate) with its options, defaults, exit codes, verdicts and
-- printed figures (spec/cooling.md 2-3), plus our options (--format,
-- --rung-to, --climate and --water-mode on capacity, fleet years and
-- sites, --plan and --strict on admit). Sentences are ours; the figures
-- keep the reference's formats in text and print in full in JSON. Every
-- value is checked before the first byte of the result is assembled.
--
-- This file only declares the verbs and their options, which help and
-- argument parsing need. Each verb's code is its module in lib/cli/,
-- compiled only when that verb runs (spec/core.md 5.8-5.9).
local prog = engine.program {
  name    = "pue-ladder",
  summary = "cooling ladder, capacity and admission gates",
  help    = "Checks whether a cooling rung carries a rack density (gate), what a PUE change "
            .. "frees behind a fixed utility feed (capacity), whether a job start may light "
            .. "racks now (admit), and shows the ladder, a synthetic fleet and the validation "
            .. "registry. gate and admit exit 1 when the start is refused.",
  syntax  = { abbrev = "unique-prefix", negative_numbers = true, help_anywhere = true },
}

local function format_opt()
  return { "--format", type = "choice", choices = { "text", "json" }, default = "text",
           group = "added", metavar = "FORMAT", help = "output format: text or json" }
end

local function climate_opt(group, dflt)
  return { "--climate", type = "choice", choices = { "cold", "hot-dry", "hot-humid", "temperate" },
           group = group, metavar = "NAME",
           help = "climate archetype (default " .. dflt .. ")" }
end

local function mode_opt()
  return { "--water-mode", type = "choice", choices = COOL.MODES, group = "added",
           metavar = "NAME", help = "heat-rejection mode (default evaporative)" }
end

prog:verb {
  name = "ladder",
  summary = "the five cooling rungs: ceilings, PUE, heat capture, ride-through, retrofit price",
  options = { format_opt() },
  run = "cli.ladder",
}

prog:verb {
  name = "gate",
  summary = "block a rack density no cooling rung (or not the named rung) can carry",
  options = {
    { "--density", type = "float", required = true, metavar = "KW",
      help = "rack density, kW per rack (> 0)" },
    { "--rung", type = "choice", choices = COOL.RUNGS, metavar = "NAME",
      help = "the rung the racks would sit on" },
    format_opt(),
  },
  run = "cli.gate",
}

prog:verb {
  name = "capacity",
  summary = "IT megawatts a PUE change frees behind a fixed utility feed, as H100 equivalents",
  options = {
    { "--feed-mw", type = "float", default = 10.0, metavar = "MW",
      help = "utility feed, MW of facility power" },
    { "--pue-from", type = "float", required = true, metavar = "PUE", help = "PUE today (>= 1.0)" },
    { "--pue-to", type = "float", metavar = "PUE", help = "PUE after the change (>= 1.0)" },
    { "--rung-to", type = "choice", choices = COOL.RUNGS, group = "added", metavar = "NAME",
      help = "move to this rung instead of --pue-to, with a retrofit costing" },
    climate_opt("added", "temperate; with --rung-to"),
    mode_opt(),
    format_opt(),
  },
  run = "cli.capacity",
}

prog:verb {
  name = "fleet",
  summary = "synthetic fleet: the survey average stays high while the energy-weighted PUE falls",
  options = {
    { "--seed", type = "bigint", default = 7, metavar = "INT",
      help = "seed of CPython's generator, any integer" },
    { "--start-year", type = "int", default = 2014, group = "added", metavar = "YEAR",
      help = "first year, 1900..2200" },
    { "--end-year", type = "int", default = 2024, group = "added", metavar = "YEAR",
      help = "last year, at most 49 after the first" },
    { "--legacy-sites", type = "int", default = 400, min = 1, max = 10000, group = "added",
      metavar = "N", help = "legacy sites at the start, 1..10000" },
    format_opt(),
  },
  run = "cli.fleet",
}

prog:verb {
  name = "admit",
  summary = "may a job start light racks now: ADMIT, STAGGER or DENY per feasible rung or plan",
  options = {
    { "--density", type = "float", metavar = "KW", help = "rack density, kW per rack (required "
      .. "without --plan)" },
    { "--need-ride-through", type = "float", metavar = "S",
      help = "seconds of total cooling loss the job must survive (default 0.0)" },
    { "--racks", type = "int", metavar = "N", help = "racks lit per hall (default 10)" },
    { "--halls", type = "int", metavar = "N", help = "identical halls on one feeder (default 1)" },
    { "--feed-mw", type = "float", metavar = "MW", help = "utility feed per hall (default 8.0)" },
    { "--feeder-limit-mw", type = "float", metavar = "MW",
      help = "the feeder's steady ceiling (default 40.0)" },
    { "--feeder-step-mw", type = "float", metavar = "MW",
      help = "the feeder's largest load step (default 1.5)" },
    climate_opt("reference", "temperate"),
    mode_opt(),
    { "--plan", type = "path", group = "added", metavar = "FILE",
      help = "admit the start of a cooling-plan document ('-' reads stdin)" },
    { "--strict", type = "flag", group = "added",
      help = "with --plan, also run the strict rules" },
    format_opt(),
  },
  run = "cli.admit",
}

prog:verb {
  name = "validate",
  summary = "the validation registry: calibrated, emergent and sanity points, declined anchors",
  options = { format_opt() },
  run = "cli.validate",
}
