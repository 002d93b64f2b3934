-- py_render.lua: Python's str() and repr() of a document value, for
-- lua/py.lua (py.str, py.repr), which requires it on first use. Floats in
-- shortest round trip (engine.repr), True/False/None, strings quoted as
-- Python quotes them, dates in str() form, lists and mappings item by item.

local function repr_string(s)
  local quote = "'"
  if s:find("'", 1, true) and not s:find('"', 1, true) then
    quote = '"'
  end
  local out = s:gsub("[%c\\'\"]", function(c)
    if c == "\\" then return "\\\\" end
    if c == "\n" then return "\\n" end
    if c == "\r" then return "\\r" end
    if c == "\t" then return "\\t" end
    if c == quote then return "\\" .. c end
    if c == "'" or c == '"' then return c end
    return ("\\x%02x"):format(c:byte())
  end)
  return quote .. out .. quote
end

local render

-- A list prints the same under str() and repr(): its items in repr.
local function render_list(v)
  local parts = {}
  for _, item in ipairs(v) do
    parts[#parts + 1] = render(item, true)
  end
  return "[" .. table.concat(parts, ", ") .. "]"
end

render = function(v, as_repr)
  local t = engine.type(v)
  if v == nil or t == "null" then return "None" end
  if t == "bool" then return v and "True" or "False" end
  if t == "int" then
    if type(v) == "string" then return v end -- integers beyond 64 bits
    return ("%d"):format(v)
  end
  if t == "float" then return engine.repr(v) end
  if t == "str" then return as_repr and repr_string(v) or v end
  if t == "date" or t == "datetime" then
    return as_repr and repr_string(tostring(v)) or tostring(v)
  end
  if t == "list" then return render_list(v) end
  if t == "map" then
    local parts = {}
    for k, item in pairs(v) do
      parts[#parts + 1] = render(k, true) .. ": " .. render(item, true)
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  if type(v) == "table" then
    if #v > 0 or next(v) == nil then return render_list(v) end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    local parts = {}
    for _, k in ipairs(keys) do
      parts[#parts + 1] = render(k, true) .. ": " .. render(v[k], true)
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return tostring(v)
end

return render
