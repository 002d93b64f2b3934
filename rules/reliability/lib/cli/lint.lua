-- infragate reliability lint: rules over training-recovery-plan documents
-- (section 7).
-- Compiled when the verb runs; its options are declared in commands.lua.
local verbs = require "verbs"

return function(args)
  return engine.lint { operands = args.operands, pack = "reliability",
                       strict = verbs.strict_choice(args), format = args.format }
end
