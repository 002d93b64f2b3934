-- luacheck: read globals math.tointeger
-- verbs_input.lua: what a verb uses to read its inputs (spec/core.md 2.6,
-- 5.9): an input document checked against its kind, with every problem
-- raised at once as the verb's input errors; a --config document's fields
-- and their positions; --set items applied over a config; Python
-- int()/float() over option text. Reached
-- through verbs.lua (verbs.load_checked, verbs.pyint, ...), which compiles
-- this file on the first such call.
local verbs = require "verbs"
local M = {}

-- An input document of 'kind', with every schema problem raised at once
-- as the verb's input errors.
function M.load_checked(path, kind)
  local doc, findings = engine.load(path, { kind = kind, collect = true })
  if findings and #findings > 0 then
    local errors = {}
    for _, f in ipairs(findings) do
      errors[#errors + 1] = { rule = f.rule, message = f.message, file = f.file or path,
                              line = f.line, column = f.column, path = f.path }
    end
    verbs.raise(errors)
  end
  return doc
end

-- The top-level fields of a --config document of 'kind' into values[k],
-- and where each came from, {file, line, column}, into origin[k]; `kind`
-- itself is not a field.
function M.config_document(path, kind, values, origin)
  local doc = M.load_checked(path, kind)
  if engine.type(doc) == "map" then
    for k, v in pairs(doc) do
      if k ~= "kind" then
        values[k] = v
        local w = engine.where(doc, k)
        origin[k] = { file = path, line = w.line, column = w.column }
      end
    end
  end
end

-- ---- Python int()/float() over option text ---------------------------------------------------

-- Python int() over ASCII, base 10; nil when not such text or beyond 64 bits.
function M.pyint(text)
  local s = text:match("^%s*(.-)%s*$")
  if not s:match("^[+-]?%d[%d_]*$") or s:find("__", 1, true) or s:match("_$") then
    return nil
  end
  return math.tointeger(tonumber((s:gsub("_", ""))))
end

-- Python float() over ASCII: sign, digits with single '_' between digits,
-- fraction, exponent; nil when not such text (inf and nan parse, then are
-- refused by the caller's finiteness check).
function M.pyfloat(text)
  local s = text:match("^%s*(.-)%s*$")
  local low = s:lower()
  if low:match("^[+-]?inf$") or low:match("^[+-]?infinity$") then
    return low:sub(1, 1) == "-" and -math.huge or math.huge
  end
  if low:match("^[+-]?nan$") then return 0 / 0 end
  if s:find("__", 1, true) or s:find("_%D") or s:find("%D_") or s:match("^_") or
     s:match("_$") then
    return nil
  end
  s = s:gsub("_", "")
  if not (s:match("^[+-]?%d+%.?%d*[eE][+-]?%d+$") or s:match("^[+-]?%.%d+[eE][+-]?%d+$") or
          s:match("^[+-]?%d+%.?%d*$") or s:match("^[+-]?%.%d+$")) then
    return nil
  end
  return tonumber(s) + 0.0
end

-- Apply --set items ({option, text, value?}; value given when the option
-- typed it already) over `values`, in argv order: each KEY=VALUE typed by
-- lua/yaml11.lua, `field(key)` its field (nil: unknown, `unknown(key)` the
-- message), `problem(f, v)` why the value is refused or nil. Every problem
-- is raised at once as input.type on the item's option; `origin[key]` is
-- "set" for each value taken.
function M.apply_sets(items, values, origin, spec)
  local errors = {}
  for _, s in ipairs(items) do
    local key, text = s.text:match("^([^=]*)=(.*)$")
    if not key or key == "" then
      verbs.usage(s.option, ("%s takes KEY=VALUE, got '%s'"):format(s.option, s.text))
    end
    local f = spec.field(key)
    local v = s.value
    if v == nil then v = require("yaml11").scalar(text) end
    local problem
    if not f then problem = spec.unknown(key) else problem = spec.problem(f, v) end
    if problem then
      errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = s.option,
                              message = problem }
    else
      values[key] = v
      origin[key] = "set"
    end
  end
  if #errors > 0 then verbs.raise(errors) end
end

return M
