-- Interventions of a document or a --intervention option read and checked (spec
-- network.md 3.2). Compiled on the first call of NW.convert_intervention or
-- NW.check_intervention (sea, attribute, map and the capacity rules).

local FIELD = NW.FIELD
local field_value = NW.field_value
local is_finite = NW.is_finite
local is_map = NW.is_map
local problem_list = NW.problem_list
local show = NW.show
local type_name = NW.type_name

local CATEGORIES = { network = true, reliability = true, recovery = true, jitter = true,
                     pool = true, other = true }
local IV_NAME = re.compile([[^[a-z0-9_-]{1,64}$]])

-- The default category of an intervention: network when every key is under
-- accelerator.*bw* or topology.*, else other.
local function default_category(entry)
  local any = false
  for _, map in ipairs({ entry.overrides or {}, entry.multipliers or {} }) do
    for k in pairs(map) do
      any = true
      if not (k:match("^topology%.") or k:match("^accelerator%..*bw")) then return "other" end
    end
  end
  return any and "network" or "other"
end

-- Convert one intervention entry (a plain table from a document) into the
-- model's table. Problems as NW.convert's, below `base`.
function NW.convert_intervention(e, base)
  local problems, problem = problem_list(base)
  if not is_map(e) then
    problem({}, nil, ("an intervention must be a mapping (got %s)"):format(type_name(e)))
    return nil, problems
  end
  local known = { name = true, description = true, category = true, multipliers = true,
                  overrides = true, cost_accelerator_equivalents = true }
  for k in pairs(e) do
    if type(k) ~= "string" or not known[k] then
      problem({}, k, ("unknown intervention key %s"):format(show(k)), true)
    end
  end
  local out = { overrides = {}, multipliers = {} }
  if type(e.name) ~= "string" or not IV_NAME:test(e.name) then
    problem({}, "name", "an intervention needs a name of 1 to 64 characters from [a-z0-9_-]")
  else
    out.name = e.name
  end
  if e.description ~= nil and type(e.description) ~= "string" then
    problem({}, "description", "description must be a string")
  end
  if e.category ~= nil and not CATEGORIES[e.category] then
    problem({}, "category", ("category must be one of network, reliability, recovery, jitter, "
                             .. "pool, other (got %s)"):format(show(e.category)))
  end
  local cost = e.cost_accelerator_equivalents
  if cost ~= nil then
    if math.type(cost) == nil or not is_finite(cost) or cost < 0 then
      problem({}, "cost_accelerator_equivalents",
              ("cost_accelerator_equivalents must be a finite number >= 0 (got %s)")
              :format(show(cost)))
    else
      out.cost = cost + 0.0
    end
  end
  for _, which in ipairs({ "overrides", "multipliers" }) do
    local map = e[which]
    if map ~= nil and not is_map(map) then
      problem({}, which, ("%s must be a mapping of section.field paths"):format(which))
    elseif map ~= nil then
      for k, v in pairs(map) do
        local f = type(k) == "string" and FIELD[k]
        if not f then
          problem({ which }, k, ("%s names no scenario field %s"):format(which, show(k)), true)
        elseif which == "multipliers" then
          if f.type ~= "int" and f.type ~= "number" then
            problem({ which }, k, ("%s is not a number field and cannot be multiplied"):format(k))
          elseif math.type(v) == nil or not is_finite(v) then
            problem({ which }, k, ("the multiplier of %s must be a finite number (got %s)")
                                  :format(k, show(v)))
          else
            out.multipliers[k] = v + 0.0
          end
        else
          local x, why = field_value(f, v, false)
          if x == nil then
            problem({ which }, k, ("%s %s"):format(k, why))
          elseif not engine.isnull(x) then
            out.overrides[k] = x
          end
        end
      end
    end
  end
  if #problems > 0 then return nil, problems end
  out.category = e.category or default_category(out)
  return out, {}
end

-- The values an intervention produces on a scenario must satisfy 3.1 too.
function NW.check_intervention(scn, entry)
  return models.network.check_intervention(scn, entry)
end

return true
