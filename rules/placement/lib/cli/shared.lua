-- What several of edge-placement's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local py = require "py"
local cli_base = require "cli.base"

local PROGRAM = cli_base.PROGRAM

local INF = math.huge

-- lua/json_values.lua, compiled by the first verb that builds JSON.
local function array_of(...) return require("json_values").array(...) end
local function null_if_nil(...) return require("json_values").null(...) end

local function finite_or_null(x)
  if x == INF or x == -INF then return engine.null end
  return x
end

-- Text width (UTF-8 aware) and Python "{:,.Nf}".
local pad, grouped_fixed = py.ljust, py.grouped_fixed

-- Where a finding or problem points: file, line, column, pointer (nil for
-- the command line).
local function locate(loc)
  if not loc then return nil end
  local w = engine.where(loc.at, loc.key, loc.on)
  local path = w.path
  if loc.ptr and loc.at[loc.key] == nil then path = loc.ptr end
  return loc.file, w.line, w.column, path
end

-- Raise the resolution problems of the documents as input errors (exit 2).
local function raise_problems(ps)
  local fs = {}
  for i, p in ipairs(ps) do
    local w = engine.where(p.at, p.key, p.on)
    fs[i] = { rule = "input.type", severity = "error", message = p.message, file = p.file,
              line = w.line, column = w.column, path = w.path }
  end
  engine.input_error(fs)
end

-- Findings that apply: compatible ones always, strict ones under --strict.
local function active(findings, strict)
  local out = {}
  for _, f in ipairs(findings) do
    if strict or not f.strict then out[#out + 1] = f end
  end
  return out
end

local function has_error(findings)
  for _, f in ipairs(findings) do
    if f.severity == "error" then return true end
  end
  return false
end

-- The JSON and report forms of findings are cli/findings_out.lua, compiled
-- only by a run that prints them.
local function add_findings_json(...)
  return require("cli.findings_out").add_findings_json(...)
end
local function report(...) return require("cli.findings_out").report(...) end
local function ladder_names(...) return require("cli.findings_out").ladder_names(...) end
local function rules_of(...) return require("cli.findings_out").rules_of(...) end
local function findings_json(...) return require("cli.findings_out").findings_json(...) end

-- Diag lines: file:line:col: severity[rule]: message.
local function findings_text(findings)
  local lines = {}
  for _, f in ipairs(findings) do
    local file, line, column = locate(f.loc)
    local where = PROGRAM
    if file and line then
      where = ("%s:%d:%d"):format(file, line, column)
    elseif file then
      where = file
    end
    lines[#lines + 1] = ("%s: %s[%s]: %s\n"):format(where, f.severity, f.rule, f.message)
  end
  return table.concat(lines)
end

local function load(path, kind)
  return engine.load(path, { kind = kind })
end

return {
  INF = INF,
  array_of = array_of,
  null_if_nil = null_if_nil,
  finite_or_null = finite_or_null,
  pad = pad,
  grouped_fixed = grouped_fixed,
  locate = locate,
  raise_problems = raise_problems,
  active = active,
  has_error = has_error,
  rules_of = rules_of,
  findings_json = findings_json,
  add_findings_json = add_findings_json,
  findings_text = findings_text,
  report = report,
  load = load,
  ladder_names = ladder_names,
}
