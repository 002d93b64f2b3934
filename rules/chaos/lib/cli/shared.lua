-- What several of chaos-fidelity's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local py = require "py"

local array = CF.array

local EXPAND = { recursive = false, suffixes = { ".yaml" }, hidden = false, dedupe = false }

-- The expansion options of one run (the bundled catalog without PATH).
local function expand_opts(operands)
  local opts = {}
  for k, v in pairs(EXPAND) do opts[k] = v end
  if #operands == 0 then opts.pack_dir = "catalog" end
  return opts
end

local function basename(path)
  return path:match("([^/]+)/*$") or path
end

-- The files of a run, in input order: {display, path, error}. A missing PATH,
-- standard input and an empty expansion are usage errors.
local function expand(operands)
  for _, op in ipairs(operands) do
    if op == "-" or op == "" then
      engine.usage(op, ("'%s' is not a PATH: standard input is not read, name a file or a " ..
        "directory")
                   :format(op))
    end
  end
  local files = engine.expand(operands, expand_opts(operands))
  for _, op in ipairs(operands) do
    local shown = op:gsub("(.)/+$", "%1")
    for _, f in ipairs(files) do
      if f.error and f.display == shown and f.error:find("no such file", 1, true) then
        engine.usage(op, ("PATH '%s' does not exist"):format(op))
      end
    end
  end
  if #files == 0 then engine.usage("PATH", "the PATHs given hold no .yaml file to check") end
  return files
end

local PHASE_ONE = { ["chaos.missing-field"] = true, ["chaos.unknown-field"] = true,
                    ["chaos.api-version"] = true, ["chaos.id-format"] = true,
                    ["chaos.enum"] = true, ["chaos.range"] = true }

local function input_finding(rule, message, line, column)
  return { rule = rule, severity = "error", message = message, line = line, column = column,
           path = "", document = 0, unusable = true }
end

-- Our words for what the loader found (no parser text, spec 2.5).
local function reword(f)
  if f.rule == "input.yaml" then
    f.path = ""
    f.message = f.line and ("not valid YAML: one YAML document is expected and parsing stopped " ..
      "at line %d, column %d")
                           :format(f.line, f.column or 0)
                or "not valid YAML: one YAML document is expected"
  end
  return f
end

-- Phase 0 after parsing (spec 4.1): the top level is a non-empty mapping and
-- every mapping key is a string; otherwise nothing else is checked. The
-- engine finds the non-string keys (one walk in C, nothing below such a key).
local function bad_keys(v, out)
  for _, bad in ipairs(engine.nonstring_keys(v)) do
    local k = bad.key
    local w = engine.where(bad.map, k, "key")
    out[#out + 1] = { rule = "input.type", severity = "error", unusable = true,
                      message = ("mapping key %s at %s is a %s; every key must be a string")
                                :format(py.repr(k), w.path, engine.type(k)),
                      line = w.line, column = w.column, end_line = w.end_line,
                      end_column = w.end_column, path = w.path, document = 0,
                      figures = engine.object("expected", "string key") }
  end
end

local function shape_problems(view)
  local t = engine.type(view)
  if t ~= "map" or #view == 0 then
    local f = input_finding("input.type", ("the top level must be a non-empty mapping, found %s")
                            :format(t == "map" and "an empty mapping" or t), 1, 1)
    f.figures = engine.object("expected", "mapping")
    return { f }
  end
  local out = {}
  bad_keys(view, out)
  return out
end

-- Lint one expanded file: its findings in report order, the verdict, and the
-- view when the schema stage passed (for the experiment object and run rules).
local function lint_one(file, strict)
  if file.error then
    return { input_finding("input.unreadable", ("the file could not be read (%s)")
                           :format(file.error:match(": ([^:]+)$") or file.error), 1, 1) }, "error"
  end
  local view, problems = engine.load(file.path, { collect = true })
  if not view or (problems and #problems > 0) then
    local out = {}
    for i, f in ipairs(problems or {}) do out[i] = reword(f) end
    return out, "error"
  end
  local shape = shape_problems(view)
  if #shape > 0 then return shape, "error" end
  local findings = engine.check(view, { kind = "chaos-experiment", strict = strict })
  local verdict, schema_ok = "pass", true
  for _, f in ipairs(findings) do
    if f.unusable or f.rule:sub(1, 6) == "input." then verdict = "error"
    elseif verdict == "pass" then verdict = "fail" end
    if PHASE_ONE[f.rule] or f.rule:sub(1, 6) == "input." or f.rule:sub(1, 7) == "engine." then
      schema_ok = false
    end
  end
  return findings, verdict, schema_ok and view or nil
end

local function sorted_rules(findings)
  local seen, rules = {}, {}
  for _, f in ipairs(findings) do
    if not seen[f.rule] then seen[f.rule] = true; rules[#rules + 1] = f.rule end
  end
  table.sort(rules)
  return rules
end

local function verdict_of(findings)
  local v = "pass"
  for _, f in ipairs(findings) do
    if f.unusable or f.rule:sub(1, 6) == "input." then return "error" end
    v = "fail"
  end
  return v
end

-- Lint every file of a run (spec 6.1, 6.4 for the run-level duplicate id).
local function lint_run(operands, strict)
  local files = expand(operands)
  local results, first_id = {}, {}
  for i, file in ipairs(files) do
    local findings, verdict, view = lint_one(file, strict)
    local r = { display = file.display, findings = findings, verdict = verdict }
    if view then
      r.doc = view      -- the experiment object is built only by JSON output
      if strict then
        local id = view.id
        if first_id[id] then
          local w = engine.where(view, "id")
          findings[#findings + 1] = {
            rule = "chaos.strict.duplicate-id", severity = "error",
            message = ("id '%s' is already used by %s; one citation would name two experiments")
                      :format(id, first_id[id]),
            line = w.line, column = w.column, end_line = w.end_line, end_column = w.end_column,
            path = "/id", document = 0,
            figures = engine.object("id", id, "first_file", first_id[id]) }
          r.verdict = verdict_of(findings)
        else
          first_id[id] = file.display
        end
      end
      r.fields = { id = view.id, class = view.fault.class, fidelity = view.injection.fidelity,
                   tested = {} }
      for j, l in ipairs(view.claims.tested_layers) do r.fields.tested[j] = l end
    end
    results[i] = r
  end
  return results
end

return {
  array = array,
  EXPAND = EXPAND,
  expand_opts = expand_opts,
  basename = basename,
  expand = expand,
  PHASE_ONE = PHASE_ONE,
  input_finding = input_finding,
  reword = reword,
  bad_keys = bad_keys,
  shape_problems = shape_problems,
  lint_one = lint_one,
  sorted_rules = sorted_rules,
  verdict_of = verdict_of,
  lint_run = lint_run,
}
