-- YAML 1.1 typing of a --set value, as PyYAML types the same text in a document
-- (spec/yaml.md), and --set applied to a scenario. Compiled on the first
-- --set a run meets.

local FIELD = NW.FIELD
local STRINGS = NW.STRINGS
local is_map = NW.is_map
local pointer = NW.pointer

-- ---- YAML 1.1 typing of a --set value (spec/yaml.md, as PyYAML) -----------------------------

local Y_NULL = { ["~"] = true, null = true, Null = true, NULL = true, [""] = true }
local Y_BOOL = { yes = true, Yes = true, YES = true, ["true"] = true, True = true, TRUE = true,
                 on = true, On = true, ON = true, no = false, No = false, NO = false,
                 ["false"] = false, False = false, FALSE = false, off = false, Off = false,
                 OFF = false }
local Y_INT = re.compile([[^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)]]
                         .. [[|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$]])
local Y_FLOAT = re.compile([[^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?]]
                           .. [[|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?]]
                           .. [[|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*)$]])
local Y_SPECIAL = re.compile([[^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$]])

local function sexagesimal(text)
  local sign, body = text:match("^([-+]?)(.*)$")
  local v = 0
  for part in body:gmatch("[^:]+") do v = v * 60 + tonumber(part) end
  return sign == "-" and -v or v
end

function NW.yaml_scalar(text)
  if Y_NULL[text] then return engine.null end
  if Y_BOOL[text] ~= nil then return Y_BOOL[text] end
  if Y_INT:test(text) then
    local t = text:gsub("_", "")
    local sign, body = t:match("^([-+]?)(.*)$")
    local v
    if body:find(":", 1, true) then
      v = sexagesimal(t)
      return math.tointeger(v) or v
    elseif body:match("^0b") then v = tonumber(body:sub(3), 2)
    elseif body:match("^0x") then v = tonumber(body:sub(3), 16)
    elseif body:match("^0.") then v = tonumber(body:sub(2), 8)
    else v = tonumber(body) end
    if v == nil then return text end
    return sign == "-" and -v or v
  end
  if Y_FLOAT:test(text) then
    local t = text:gsub("_", "")
    if t:find(":", 1, true) then return sexagesimal(t) + 0.0 end
    return tonumber(t) + 0.0
  end
  if Y_SPECIAL:test(text) then
    if text:find("[nN][aA][nN]") then return 0.0 / 0.0 end
    return text:sub(1, 1) == "-" and -math.huge or math.huge
  end
  return text
end

-- Apply `PATH: VALUE` overrides to a plain scenario document. Returns the
-- pointers they touched, or nil, problem for an unknown PATH.
function NW.apply_sets(doc, sets)
  local touched = {}
  for _, s in ipairs(sets) do
    local f = FIELD[s.path]
    local sec, name = s.path:match("^([a-z_]+)%.([a-z0-9_]+)$")
    local string_field = (sec and STRINGS[sec] and STRINGS[sec][name] ~= nil)
                         or (not sec and (s.path == "name" or s.path == "notes"))
    if not f and not string_field then
      return nil, s
    end
    if f then sec, name = f.section, f.name end
    if sec == nil or sec == "" then
      doc[name or s.path] = s.value
      touched[pointer({ name or s.path })] = true
    else
      if not is_map(doc[sec]) then doc[sec] = {} end
      doc[sec][name] = s.value
      touched[pointer({ sec, name })] = true
    end
  end
  return touched
end

return true
