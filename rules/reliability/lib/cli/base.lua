-- The option tables several of infragate reliability's verbs declare. Each
-- verb's module declares its own options from these (spec/core.md 5.9), so a
-- run compiles only its verb's.
local verbs = require "verbs"

local FORMATS = { "text", "json" }

local MAX_LISTED = 1000000

local format_opt = verbs.format_opt_of(FORMATS)

local STRICT_OPT = { "--strict", type = "flag",
                     help = "strict findings become errors and make the exit status 1" }

local CONFIG_OPTS = {
  { "--config", type = "path", metavar = "FILE", help = "a reliability-config document" },
  { "--set", type = "string", ["repeat"] = "append", metavar = "KEY=VALUE",
    help = "override one config field" },
  { "--seed", type = "int", min = 0, metavar = "N", help = "shorthand for --set seed=N",
    expands_to = "--set seed=" },
  STRICT_OPT, format_opt(),
}

local with = verbs.with

local function policy_opt(default, all)
  local choices = {}
  for i, p in ipairs(REL.POLICIES) do choices[i] = p end
  if all then choices[#choices + 1] = "all" end
  return { "--policy", type = "choice", choices = choices, default = default, metavar = "NAME",
           help = "recovery policy" .. (all and " (or all)" or "") }
end

local FIELD_CHOICES = REL.RESULT_FIELDS

return {
  FORMATS = FORMATS,
  MAX_LISTED = MAX_LISTED,
  format_opt = format_opt,
  STRICT_OPT = STRICT_OPT,
  CONFIG_OPTS = CONFIG_OPTS,
  with = with,
  policy_opt = policy_opt,
  FIELD_CHOICES = FIELD_CHOICES,
}
