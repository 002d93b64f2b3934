-- json_values.lua: the JSON value helpers the pack programs share
-- (spec/core.md 2.6): a Lua list as a JSON array that stays an array when
-- empty, and JSON null for a missing value or one no double holds. Kept
-- apart from verbs.lua so a compat program that needs only these does not
-- compile the rest.
local json_values = {}

-- A list as a JSON array (which stays an array when empty or nil).
function json_values.array(list)
  local a = engine.array()
  for i, x in ipairs(list or {}) do a[i] = x end
  return a
end

-- JSON null for a missing value.
function json_values.null(x)
  if x == nil then return engine.null end
  return x
end

-- JSON null also for a figure no double holds (an infinity or NaN): JSON
-- carries neither (spec/core.md 2.6), and a figure that overflows, such as
-- a ride-through of a buffer over 5e-324 kW, has no finite value to print.
function json_values.finite_or_null(x)
  if x == nil or x ~= x or x == math.huge or x == -math.huge then return engine.null end
  return x
end

return json_values
