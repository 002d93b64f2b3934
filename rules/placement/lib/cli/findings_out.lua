-- The JSON and report forms of edge-placement's findings: the findings
-- block of a verb's JSON document, --format sarif|github|junit through the
-- engine, and a ladder's names as a JSON array. Required by the first verb
-- that prints one; cli/shared.lua keeps stubs.
local jv = require "json_values"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local PROGRAM = cli_base.PROGRAM
local array_of, null_if_nil = jv.array, jv.null
local locate = cli_shared.locate
local has_error = cli_shared.has_error

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

local function ladder_names(tiers)
  return array_of(PL.names_of(tiers))
end

return {
  rules_of = rules_of,
  findings_json = findings_json,
  add_findings_json = add_findings_json,
  report = report,
  ladder_names = ladder_names,
}
