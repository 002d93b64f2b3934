-- infragate scheduling lint: rules over capacity requests and scheduler
-- policies.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local verbs = require "verbs"
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local guarded = cli_edge.guarded

local options = {
  { "--strict", type = "flag", help = "run strict rules (the default)" },
  { "--no-strict", type = "flag", help = "do not run the strict rules" },
  cli_options.fmt_opt(cli_options.LINT_FORMATS),
}

local run = guarded("lint", function(args)
  return engine.lint { operands = args.operands, pack = "scheduling",
                       strict = verbs.strict_choice(args), format = args.format }
end)

return { options = options, run = run }
