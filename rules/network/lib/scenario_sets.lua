-- --set applied to a scenario (the values typed by lua/yaml11.lua, as PyYAML
-- types the same text in a document). Compiled on the first --set a run
-- meets.

local FIELD = NW.FIELD
local STRINGS = NW.STRINGS
local is_map = NW.is_map
local pointer = NW.pointer

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
