-- What airan-resiliency's declarations (commands.lua) and its verbs' code both
-- use: option lists, defaults and their helpers.

local FORMATS = { "text", "json" }

local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }

local MUTATIONS = { "power-chain-deleted", "transport-rungs-stripped", "r0-on-any-transport",
                    "storms-off", "routine-outage-halved", "fiber-rates-doubled",
                    "references-removed" }

local RUNG_NAMES = {}

for i, r in ipairs(RUNGS) do RUNG_NAMES[i] = r.name end

local MAX_YEARS = DEFAULTS.limits.max_years

local function years_opt(default, help)
  return { "--years", type = "int", default = default, min = 1, max = MAX_YEARS,
           metavar = "N",
           help = ("%s, 1..%d"):format(help or "simulated years per policy", MAX_YEARS) }
end

local function seed_opt(default)
  return { "--seed", type = "bigint", default = default, metavar = "S",
           help = "seed of the generator, any integer (a negative one keys as its magnitude)"
                  .. (default and "" or " (default: the document's, else 7)") }
end

local function format_opt(choices, group)
  return { "--format", type = "choice", choices = choices, default = "text", group = group,
           help = "output format" }
end

return {
  FORMATS = FORMATS,
  LINT_FORMATS = LINT_FORMATS,
  MUTATIONS = MUTATIONS,
  RUNG_NAMES = RUNG_NAMES,
  MAX_YEARS = MAX_YEARS,
  years_opt = years_opt,
  seed_opt = seed_opt,
  format_opt = format_opt,
}
