-- What infragate network's declarations (commands.lua) and its verbs' code both
-- use: option lists, defaults and their helpers.
local verbs = require "verbs"

local MUTATIONS = { "delete-latency-exposure", "zero-the-stitch-latency",
                    "contiguous-pipeline-always", "delete-nic-cap", "delete-contention",
                    "collapse-blind-placement", "delete-span-tier", "ignore-interleave",
                    "failure-rate-per-accelerator", "checkpoint-every-minute" }

local fmt_opt = verbs.format_opt_of({ "text", "json" })

local SCENARIO_OPTS = {
  { "--preset", type = "choice", choices = NW.PRESET_NAMES, metavar = "NAME",
    help = "a built-in scenario (default reference-405b-16k)" },
  { "--scenario", type = "path", metavar = "FILE", help = "a network-scenario document" },
  { "--set", type = "string", ["repeat"] = "append", metavar = "PATH=VALUE",
    help = "override one scenario field (section.field or a top-level field)" },
  { "--strict", type = "flag", help = "strict findings become errors (exit 1)" },
}

local function options(extra)
  local t = {}
  for _, o in ipairs(SCENARIO_OPTS) do t[#t + 1] = o end
  for _, o in ipairs(extra or {}) do t[#t + 1] = o end
  t[#t + 1] = fmt_opt()
  return t
end

local function cut_opt(required)
  return { "--cut", type = "choice", choices = NW.CUTS, required = required, metavar = "C",
           help = "the cut across the stitch: tp, cp, pp, dp or checkpoint" }
end

local function distance_opts()
  return {
    { "--regime", type = "choice", choices = NW.regime_names(), metavar = "NAME",
      help = "a distance regime: scale-up, rail, campus-stitch, metro, region" },
    { "--alpha-us", type = "float", min = 0, max = 1e7, metavar = "US",
      help = "one-way stitch latency, microseconds" },
  }
end

local function circuit_opt(required, default)
  return { "--circuit-gbps", type = "float", min_exclusive = 0, max = 1e12, required = required,
           default = default, metavar = "G", help = "aggregate circuit capacity, Gbit/s" }
end

local function halls_opt()
  return { "--halls", type = "int", min = 2, max = 64, default = 2, metavar = "H",
           help = "halls the cut spans" }
end

local function placement_opt()
  return { "--placement", type = "choice", choices = { "hierarchical", "blind" },
           default = "hierarchical", metavar = "P", help = "rank placement across halls" }
end

local INTERVENTION_OPT = { "--interventions", type = "path", metavar = "FILE",
                           help = "a network-interventions document (default: the built-in ten)" }

return {
  MUTATIONS = MUTATIONS,
  fmt_opt = fmt_opt,
  SCENARIO_OPTS = SCENARIO_OPTS,
  options = options,
  cut_opt = cut_opt,
  distance_opts = distance_opts,
  circuit_opt = circuit_opt,
  halls_opt = halls_opt,
  placement_opt = placement_opt,
  INTERVENTION_OPT = INTERVENTION_OPT,
}
