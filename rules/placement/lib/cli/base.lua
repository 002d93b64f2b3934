-- What edge-placement's declarations (commands.lua) and its verbs' code both
-- use: option lists, defaults and their helpers.

local PROGRAM = "edge-placement"

local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }

local FORMATS = { "text", "json" }

local function strict_opt()
  return { "--strict", type = "flag", group = "added",
           help = "also run the strict rules, which close the reference's loopholes" }
end

local function format_opt(choices)
  return { "--format", type = "choice", choices = choices, default = "text", group = "added",
           metavar = "FORMAT", help = "output format: " .. table.concat(choices, ", ") }
end

local function ladder_opt()
  return { "--ladder", type = "path", group = "added", metavar = "FILE",
           help = "a tier-ladder document to use instead of the default ladder" }
end

return {
  PROGRAM = PROGRAM,
  LINT_FORMATS = LINT_FORMATS,
  FORMATS = FORMATS,
  strict_opt = strict_opt,
  format_opt = format_opt,
  ladder_opt = ladder_opt,
}
