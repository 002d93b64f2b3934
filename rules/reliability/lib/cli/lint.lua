-- infragate reliability lint: rules over training-recovery-plan documents
-- (section 7).
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local verbs = require "verbs"
local cli_base = require "cli.base"

local options = {
  { "--strict", type = "flag", help = "run strict rules (the default)" },
  { "--no-strict", type = "flag", help = "do not run strict rules" },
  cli_base.format_opt(cli_base.LINT_FORMATS),
}

local function run(args)
  return engine.lint { operands = args.operands, pack = "reliability",
                       strict = verbs.strict_choice(args), format = args.format }
end

return { options = options, run = run }
