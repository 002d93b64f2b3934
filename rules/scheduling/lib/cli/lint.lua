-- infragate scheduling lint: rules over capacity requests and scheduler
-- policies.
-- Compiled when the verb runs; its options are declared in commands.lua.
local verbs = require "verbs"
local cli_shared = require "cli.shared"

local guarded = cli_shared.guarded

return guarded("lint", function(args)
  return engine.lint { operands = args.operands, pack = "scheduling",
                       strict = verbs.strict_choice(args), format = args.format }
end)
