-- infragate network lint: rules over capacity proposals, fabric plans and
-- scenarios.
-- Compiled when the verb runs; its options are declared in commands.lua.
local verbs = require "verbs"

return function(args)
  return engine.lint { operands = args.operands, pack = "network",
                       strict = verbs.strict_choice(args), format = args.format }
end
