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

-- str() and repr() walk any document value; they are lua/py_render.lua,
-- compiled on the first call, so that a run which only pads and rounds
-- figures does not compile them.
local function render(v, as_repr)
  return require("py_render")(v, as_repr)
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
