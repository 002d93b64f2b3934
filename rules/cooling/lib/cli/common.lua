-- What the pue-ladder verb modules share: option checks that end in a
-- usage error and the Python number formats the published tool prints.
-- py is required inside the formats, so a verb that prints none of them
-- (gate) never compiles it.
local common = {}

function common.pad(...) return require("py").ljust(...) end
function common.lpad(...) return require("py").rjust(...) end
common.null_if_nil = require("json_values").null

-- A usage error when args[key] <= 0.
function common.positive(args, key, option, what)
  if args[key] <= 0 then
    engine.usage(option, ("%s %s: %s must be > 0"):format(option, engine.repr(args[key]), what))
  end
end

-- Python "{:,.0f}".
function common.grouped_fixed(x)
  return require("py").grouped_fixed(x, 0)
end

-- Python "{:+.2f}" (the sign kept on -0.00).
function common.signed2(x)
  return ("%+.2f"):format(x)
end

return common
