-- py.lua: Python-compatible text for pack messages (spec/core.md 5.8):
-- str() and repr() of document values, thousands separators, "%.Nf" and
-- padded columns.
-- The published tools printed through Python, so a figure must read the
-- same here: floats in shortest round trip, True/False/None, dates in
-- Python's str() form.
local py = {}

local function is_int(x)
  return engine.type(x) == "int"
end

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

--- Python str() of a value.
function py.str(v)
  return render(v, false)
end

--- Python repr() of a value.
function py.repr(v)
  return render(v, true)
end

-- The integer part of a number's text grouped by thousands; text that is
-- not a number ("inf", "nan") stays as it is.
local function group_thousands(text)
  local sign, int, rest = text:match("^(-?)(%d+)(.*)$")
  if not int then return text end
  int = int:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  if int:sub(1, 1) == "," then int = int:sub(2) end
  return sign .. int .. rest
end

--- f"{n:,}": digits grouped by thousands ("320,848", "1,234.5").
function py.thousands(n)
  return group_thousands(is_int(n) and ("%d"):format(n) or engine.repr(n))
end

--- "%.Nf" % x, correctly rounded on the exact binary value; "-0" becomes
--- "0" unless keep_negative_zero is set.
function py.fixed(x, n, keep_negative_zero)
  local text = ("%." .. n .. "f"):format(x)
  if not keep_negative_zero and text:match("^%-0%.?0*$") then
    text = text:sub(2)
  end
  return text
end

--- "{:,.Nf}".format(x): py.fixed grouped by thousands ("1,234,568").
function py.grouped_fixed(x, n)
  return group_thousands(py.fixed(x, n))
end

--- "{:<N}" and "{:>N}" of a string: padded with spaces to n code points.
function py.ljust(s, n)
  local len = utf8.len(s) or #s
  if len >= n then return s end
  return s .. (" "):rep(n - len)
end

function py.rjust(s, n)
  local len = utf8.len(s) or #s
  if len >= n then return s end
  return (" "):rep(n - len) .. s
end

return py
