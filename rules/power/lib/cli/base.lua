-- What several of infragate power's verbs declare and use: option lists,
-- the fleet result's keys and their JSON. Each verb's module declares its
-- own options from these (spec/core.md 5.9).
local verbs = require "verbs"

local FORMATS = { "text", "json" }

local format_opt = verbs.format_opt_of(FORMATS)

local STRICT_OPT = { "--strict", type = "flag",
                     help = "strict findings become errors and make the exit status 1" }

local CONFIG_OPT = { "--config", type = "path", metavar = "FILE",
                     help = "the verb's input document" }

local SET_OPT = { "--set", type = "string", ["repeat"] = "append", metavar = "KEY=VALUE",
                  help = "override one field of the input document" }

-- `--seed N` arrives in args.set as "seed=N" at its argv place (3.2: each
-- --set/--seed in argv order).
local SEED_OPT = { "--seed", type = "int", min = 0, metavar = "N",
                   help = "shorthand for --set seed=N", expands_to = "--set seed=" }

local with = verbs.with

local JOB_OPTS = { CONFIG_OPT, SET_OPT, STRICT_OPT, format_opt() }

local FLEET_OPTS = { CONFIG_OPT, SET_OPT, SEED_OPT, STRICT_OPT, format_opt() }

local RESULT_KEYS = { "seed", "hours_curtailed", "eligible_hours", "curtailed_frac_of_uptime",
  "curtailed_mwh", "deferred_mwh", "blind_cost_dollars", "aware_cost_dollars",
  "saving_dollars", "saving_pct", "gross_avoided_dollars", "saving_from_top1pct_hours_frac",
  "max_price_mwh" }

-- The result fields `sweep --field` may average: every result key but the seed.
local NUMERIC_FIELDS = {}
for i = 2, #RESULT_KEYS do NUMERIC_FIELDS[#NUMERIC_FIELDS + 1] = RESULT_KEYS[i] end

local function keyed(t, keys)
  local o = engine.object()
  for _, k in ipairs(keys) do o[k] = t[k] end
  return o
end

-- A fleet result as the JSON object of 4.5, in key order.
local function result_json(res)
  return keyed(res, RESULT_KEYS)
end

return {
  FORMATS = FORMATS,
  format_opt = format_opt,
  STRICT_OPT = STRICT_OPT,
  CONFIG_OPT = CONFIG_OPT,
  SET_OPT = SET_OPT,
  SEED_OPT = SEED_OPT,
  with = with,
  JOB_OPTS = JOB_OPTS,
  FLEET_OPTS = FLEET_OPTS,
  RESULT_KEYS = RESULT_KEYS,
  NUMERIC_FIELDS = NUMERIC_FIELDS,
  keyed = keyed,
  result_json = result_json,
}
