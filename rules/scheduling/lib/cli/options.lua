-- The option tables several of infragate scheduling's verbs declare. Each
-- verb's module declares its own options (spec/core.md 5.9), so a run
-- compiles only its verb's: this file holds what more than one shares.
local FORMATS = { "text", "json" }

local function fmt_opt(choices)
  return { "--format", type = "choice", choices = choices or FORMATS, default = "text",
           help = "output format" }
end

local STRICT_OPT = { "--strict", type = "flag",
                     help = "strict findings become errors and make the exit status 1" }

local SET_OPT = { "--set", type = "string", ["repeat"] = "append", metavar = "KEY=VALUE",
                  help = "override one field of the input document (typed as YAML)" }

local CONFIG_OPT = { "--config", type = "path", metavar = "FILE",
                     help = "the verb's input document" }

local SEED_OPT = { "--seed", type = "int", metavar = "N", help = "shorthand for --set seed=N" }

local DAYS_OPT = { "--days", type = "int", metavar = "N",
                   help = "shorthand for --set horizon_days=N" }

return {
  fmt_opt = fmt_opt,
  STRICT_OPT = STRICT_OPT,
  SET_OPT = SET_OPT,
  CONFIG_OPT = CONFIG_OPT,
  SEED_OPT = SEED_OPT,
  DAYS_OPT = DAYS_OPT,
}
