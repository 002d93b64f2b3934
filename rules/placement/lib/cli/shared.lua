-- What several of edge-placement's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local py = require "py"
local jv = require "json_values"
local cli_base = require "cli.base"

local PROGRAM = cli_base.PROGRAM

local INF = math.huge

local array_of, null_if_nil = jv.array, jv.null

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

local function rules_of(findings)
  local seen, list = {}, {}
  for _, f in ipairs(findings) do
    if not seen[f.rule] then
      seen[f.rule] = true
      list[#list + 1] = f.rule
    end
  end
  table.sort(list)
  return array_of(list)
end

local function findings_json(findings)
  local list = engine.array()
  for i, f in ipairs(findings) do
    local file, line, column, path = locate(f.loc)
    list[i] = engine.object("rule", f.rule, "severity", f.severity, "message", f.message,
                            "tier", null_if_nil(f.tier), "file", null_if_nil(file),
                            "line", null_if_nil(line), "column", null_if_nil(column),
                            "path", null_if_nil(path))
  end
  return list
end

-- The findings block of a verb's JSON document: rules, findings, verdict.
local function add_findings_json(obj, findings)
  obj.rules = rules_of(findings)
  obj.findings = findings_json(findings)
  obj.verdict = has_error(findings) and "fail" or "pass"
end

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

-- --format sarif|github|junit: only the findings, through the engine.
local function report(out, findings, format, file)
  local list = {}
  for i, f in ipairs(findings) do
    local _, line, column, path = locate(f.loc)
    list[i] = { rule = f.rule, severity = f.severity, message = f.message, line = line,
                column = column, path = path, figures = f.figures }
  end
  out:report(list, format, file or PROGRAM)
end

local function load(path, kind)
  return engine.load(path, { kind = kind })
end

local function ladder_names(tiers)
  return array_of(PL.names_of(tiers))
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
