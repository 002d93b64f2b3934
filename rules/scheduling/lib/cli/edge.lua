-- The edges of every infragate scheduling verb: the guard that turns an
-- input failure raised deep inside the verb into exit 2 and the error
-- document, the strict findings of a model verb, and the exit status.
local verbs = require "verbs"

-- Input errors (power.md 2.5): raised from deep inside a verb and printed by
-- the shared verb guard (lua/verbs.lua), so that an entry can name the option
-- it came from (`argument`), which the engine's own input errors cannot carry.
local fail = verbs.failer("scheduling")

local guarded = verbs.guard(fail)

-- A strict finding of a model verb (6.4): a warning, an error under --strict.
local function strict_finding(args, id, message, path, o)
  o = o or {}
  return engine.object("rule", id, "severity", args.strict and "error" or "warning",
                       "message", message, "file", o.file or engine.null,
                       "line", o.line or engine.null, "column", o.column or engine.null,
                       "path", path)
end

local finish = verbs.finish

local function findings_array(list)
  local a = engine.array()
  for i, f in ipairs(list) do a[i] = f end
  return a
end

-- Where a resolved field came from, {file, line, column}, or {} for a flag,
-- a preset or a default: what a finding or an input error on it points at.
local function origin_of(origins, key)
  return origins[key] or {}
end

return {
  origin_of = origin_of,
  guarded = guarded,
  strict_finding = strict_finding,
  finish = finish,
  findings_array = findings_array,
}
