-- infragate power lint: rules over migration proposals, curtailment plans,
-- scale-across proposals.
-- Compiled when the verb runs; its options are declared in commands.lua.
local verbs = require "verbs"

return function(args)
  return engine.lint { operands = args.operands, strict = verbs.strict_choice(args),
                       format = args.format }
end
