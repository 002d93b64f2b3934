-- chaos-fidelity (spec/chaos.md 2): the compatible lint form (`chaos-fidelity
-- [lint] [PATH...]`, no PATH = the bundled catalog), coverage, two-clocks and
-- registry, each with --format json. The lint report is assembled here rather
-- than by engine.lint because the program's text layout (2.6), its display
-- names (2.3) and its input findings (input.yaml at the root pointer, in our
-- words) are its own; the rules themselves run through engine.check, exactly
-- as `infragate lint` runs them.
local py = require "py"

local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }
local FIDELITIES = { "real", "emulated", "signal-only" }
local REQUIRES = { "any", "real", "emulated", "signal-only" }
local array = CF.array
local contains = CF.contains

local prog = engine.program {
  name    = "chaos-fidelity",
  summary = "check that chaos experiments break the layer they claim to test",
  help    = "Checks ChaosExperiment documents against the policy registry: wrong-layer injections, "
            .. "uncertifiable claims, unbounded blast radius, abort and undo, observability and "
            .. "autonomy over-claims.\n\n"
            .. "Without PATH the bundled catalog of 25 reference experiments is checked. A " ..
              "directory "
            .. "PATH checks the *.yaml files directly inside it.\n\n"
            .. "exit codes: 0 every experiment passed (coverage: no gap), 1 some experiment failed "
            .. "(coverage: a gap or an excluded spec), 2 a usage error or an unusable input",
  syntax  = { abbrev = "none", help_anywhere = false, negative_numbers = true,
              default_verb = "lint" },
}

local function format_opt(choices)
  return { "--format", type = "choice", choices = choices, default = "text", metavar = "FMT",
           help = "output format: " .. table.concat(choices, ", ") }
end

local STRICT_OPT = { "--strict", type = "flag", help = "also run the chaos.strict.* rules" }
local JOBS_OPT = { "--jobs", short = "-j", type = "int", min = 1, metavar = "N",
                   help = "parallel files (output order unchanged)" }

-- ---- inputs (spec 2.3) ------------------------------------------------------------

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

-- ---- one file ----------------------------------------------------------------------

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
-- every mapping key is a string; otherwise nothing else is checked.
local function bad_keys(v, out)
  local t = engine.type(v)
  if t == "map" then
    for _, k in ipairs(engine.keys(v)) do
      if engine.type(k) ~= "str" then
        local w = engine.where(v, k, "key")
        out[#out + 1] = { rule = "input.type", severity = "error", unusable = true,
                          message = ("mapping key %s at %s is a %s; every key must be a string")
                                    :format(py.repr(k), w.path, engine.type(k)),
                          line = w.line, column = w.column, end_line = w.end_line,
                          end_column = w.end_column, path = w.path, document = 0,
                          figures = engine.object("expected", "string key") }
      else
        bad_keys(v[k], out)
      end
    end
  elseif t == "list" then
    for _, x in ipairs(v) do bad_keys(x, out) end
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
      r.experiment = CF.experiment(view)
      r.doc = view
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

local function finding_json(f)
  local o = engine.object("rule", f.rule, "severity", f.severity, "message", f.message,
                          "line", f.line or engine.null, "column", f.column or engine.null,
                          "path", f.path or "", "document", f.document or 0,
                          "end_line", f.end_line or engine.null,
                          "end_column", f.end_column or engine.null)
  if f.figures then o.figures = f.figures end
  return o
end

local function lint_json(results)
  local files, nfailed, nerrors, nunusable = engine.array(), 0, 0, 0
  for i, r in ipairs(results) do
    local fs = engine.array()
    for j, f in ipairs(r.findings) do fs[j] = finding_json(f) end
    local entry = engine.object("file", r.display, "verdict", r.verdict,
                                "rules", array(sorted_rules(r.findings)), "findings", fs,
                                "suppressed", engine.array())
    if r.experiment then entry.experiment = r.experiment end
    files[i] = entry
    if r.verdict ~= "pass" then nfailed = nfailed + 1 end
    if r.verdict == "error" then nunusable = nunusable + 1 end
    nerrors = nerrors + #r.findings
  end
  return engine.object("files", files, "summary", engine.object(
    "files", #results, "failed", nfailed, "errors", nerrors, "warnings", 0, "infos", 0,
    "unusable", nunusable, "skipped", 0, "suppressed", 0))
end

local function lint_text(results)
  local lines, nfind, nfiles = {}, 0, 0
  for _, r in ipairs(results) do
    local word = r.verdict == "pass" and "ok" or "FAIL"
    lines[#lines + 1] = ("%-4s %s\n"):format(word, basename(r.display))
    if #r.findings > 0 then nfiles = nfiles + 1 end
    nfind = nfind + #r.findings
  end
  lines[#lines + 1] = "\n"
  if nfind == 0 then
    lines[#lines + 1] = ("all %d experiments are valid\n"):format(#results)
  else
    lines[#lines + 1] = ("%d problem%s in %d of %d experiments:\n")
                        :format(nfind, nfind == 1 and "" or "s", nfiles, #results)
    for _, r in ipairs(results) do
      local name = basename(r.display)
      for _, f in ipairs(r.findings) do
        lines[#lines + 1] = ("  %s:%d:%d: error[%s]: %s\n")
                            :format(name, f.line or 1, f.column or 1, f.rule, f.message)
      end
    end
  end
  return table.concat(lines)
end

local function exit_code(results)
  local code = 0
  for _, r in ipairs(results) do
    if r.verdict == "error" then return 2 end
    if r.verdict == "fail" then code = 1 end
  end
  return code
end

local function run_lint(args, out)
  if args.format == "sarif" or args.format == "github" or args.format == "junit" then
    -- The engine's reporters, over the same files (usage errors checked first).
    expand(args.operands)
    return engine.lint { operands = args.operands, strict = args.strict == true,
                         format = args.format, jobs = args.jobs,
                         expand = expand_opts(args.operands) }
  end
  local results = lint_run(args.operands, args.strict)
  if args.format == "json" then
    out:json(lint_json(results))
  else
    out:write(lint_text(results))
  end
  return exit_code(results)
end

prog:verb {
  name = "lint", summary = "check experiments (the default verb; no PATH: the bundled catalog)",
  operands = { name = "PATH", min = 0 },
  options = { STRICT_OPT, format_opt(LINT_FORMATS), JOBS_OPT },
  run = run_lint,
}

-- ---- coverage (spec 8) ------------------------------------------------------------------

local RANK = CF.FIDELITY_RANK

local function buckets()
  return { real = 0, emulated = 0, ["signal-only"] = 0 }
end

local function buckets_json(b)
  return engine.object("real", b.real, "emulated", b.emulated, "signal-only", b["signal-only"])
end

local function stronger(a, b)
  if a == nil then return b end
  if b == nil then return a end
  return RANK[a] <= RANK[b] and a or b
end

local function sorted_unique(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

local function coverage(results, require)
  local valid, excluded = {}, {}
  for _, r in ipairs(results) do
    if r.verdict == "pass" then valid[#valid + 1] = r.fields
    else excluded[#excluded + 1] = r end
  end
  local cov = { layers = {}, classes = {}, modes = {}, valid = valid, excluded = excluded }
  for _, l in ipairs(REG.layers) do
    local row = { layer = l, faults = buckets(), tested = buckets(), specs = {} }
    for _, s in ipairs(valid) do
      if REG.class[s.class].layer == l.id then
        row.faults[s.fidelity] = row.faults[s.fidelity] + 1
        row.specs[s.id] = true
      end
      if contains(s.tested, l.id) then
        row.tested[s.fidelity] = row.tested[s.fidelity] + 1
        row.specs[s.id] = true
      end
    end
    for _, f in ipairs(FIDELITIES) do
      if row.best == nil and (row.faults[f] > 0 or row.tested[f] > 0) then row.best = f end
    end
    row.covered = row.best ~= nil and (require == "any" or RANK[row.best] <= RANK[require])
    cov.layers[#cov.layers + 1] = row
  end
  for _, c in ipairs(REG.classes) do
    local row = { class = c, available = CF.best_available(c), specs = {} }
    for _, s in ipairs(valid) do
      if s.class == c.id then
        row.best = stronger(row.best, s.fidelity)
        row.specs[s.id] = true
      end
    end
    if row.best == nil then row.status = "gap"
    elseif row.available and RANK[row.best] > RANK[row.available] then
      row.status = "below-available"
    else row.status = "covered" end
    cov.classes[#cov.classes + 1] = row
  end
  for _, m in ipairs(REG.failure_modes) do
    local row = { mode = m, specs = {} }
    for _, s in ipairs(valid) do
      if contains(m.classes, s.class) then row.specs[s.id] = true end
    end
    row.covered = next(row.specs) ~= nil
    cov.modes[#cov.modes + 1] = row
  end
  return cov
end
CF.coverage = coverage

local function coverage_summary(cov)
  local s = { layer_gaps = {}, class_gaps = {}, below = {}, mode_gaps = {}, layers = 0,
              classes = 0, modes = 0 }
  for _, r in ipairs(cov.layers) do
    if r.covered then s.layers = s.layers + 1 else s.layer_gaps[#s.layer_gaps + 1] = r.layer.id end
  end
  for _, r in ipairs(cov.classes) do
    if r.status == "gap" then s.class_gaps[#s.class_gaps + 1] = r.class.id
    else s.classes = s.classes + 1 end
    if r.status == "below-available" then s.below[#s.below + 1] = r.class.id end
  end
  for _, r in ipairs(cov.modes) do
    if r.covered then s.modes = s.modes + 1 else s.mode_gaps[#s.mode_gaps + 1] = r.mode.id end
  end
  return s
end
CF.coverage_summary = coverage_summary

local function coverage_json(cov, s, require, total)
  local layers, classes = engine.array(), engine.array()
  local modes, excluded = engine.array(), engine.array()
  for i, r in ipairs(cov.layers) do
    layers[i] = engine.object("layer", r.layer.id, "kind", r.layer.kind,
                              "faults", buckets_json(r.faults), "tested", buckets_json(r.tested),
                              "best", r.best or engine.null,
                              "status", r.covered and "covered" or "gap",
                              "specs", array(sorted_unique(r.specs)))
  end
  for i, r in ipairs(cov.classes) do
    classes[i] = engine.object("fault_class", r.class.id, "layer", r.class.layer,
                               "best_available", r.available or engine.null,
                               "best_in_catalog", r.best or engine.null, "status", r.status,
                               "specs", array(sorted_unique(r.specs)))
  end
  for i, r in ipairs(cov.modes) do
    modes[i] = engine.object("failure_mode", r.mode.id, "fault_classes", array(r.mode.classes),
                             "status", r.covered and "covered" or "gap",
                             "specs", array(sorted_unique(r.specs)))
  end
  for i, r in ipairs(cov.excluded) do
    excluded[i] = engine.object("file", r.display, "verdict", r.verdict,
                                "rules", array(sorted_rules(r.findings)))
  end
  return engine.object(
    "require", require,
    "specs", engine.object("total", total, "valid", #cov.valid, "excluded", #cov.excluded),
    "excluded", excluded, "layers", layers, "fault_classes", classes, "failure_modes", modes,
    "summary", engine.object(
      "layers", #cov.layers, "layers_covered", s.layers, "layer_gaps", array(s.layer_gaps),
      "fault_classes", #cov.classes, "fault_classes_covered", s.classes,
      "fault_class_gaps", array(s.class_gaps), "below_available", array(s.below),
      "failure_modes", #cov.modes, "failure_modes_covered", s.modes,
      "failure_mode_gaps", array(s.mode_gaps)))
end

local function list_text(list)
  return #list > 0 and table.concat(list, ", ") or "none"
end

local function coverage_text(cov, s, require)
  local lines = {
    ("coverage of %d valid specs (%d excluded), required fidelity: %s\n")
      :format(#cov.valid, #cov.excluded, require),
    ("%-17s %-6s %-24s %-24s %-12s %s\n"):format("layer", "kind", "faults real/emu/sig",
                                                 "tested real/emu/sig", "best", "status"),
  }
  for _, r in ipairs(cov.layers) do
    local f, t = r.faults, r.tested
    lines[#lines + 1] = ("%-17s %-6s %-24s %-24s %-12s %s\n"):format(
      r.layer.id, r.layer.kind, ("%d/%d/%d"):format(f.real, f.emulated, f["signal-only"]),
      ("%d/%d/%d"):format(t.real, t.emulated, t["signal-only"]), r.best or "-",
      r.covered and "covered" or "gap")
  end
  lines[#lines + 1] = ("layers covered %d/%d, fault classes exercised %d/%d, failure modes " ..
    "covered %d/%d\n")
                      :format(s.layers, #cov.layers, s.classes, #cov.classes, s.modes, #cov.modes)
  lines[#lines + 1] = "fault classes not exercised: " .. list_text(s.class_gaps) .. "\n"
  lines[#lines + 1] = "fault classes below their best available fidelity: "
                      .. list_text(s.below) .. "\n"
  lines[#lines + 1] = "failure modes not covered: " .. list_text(s.mode_gaps) .. "\n"
  for _, r in ipairs(cov.excluded) do
    lines[#lines + 1] = ("excluded %s: %s\n"):format(basename(r.display),
                                                      table.concat(sorted_rules(r.findings), ", "))
  end
  return table.concat(lines)
end

prog:verb {
  name = "coverage", summary = "coverage of a catalog against layers, fault classes and " ..
    "failure modes",
  operands = { name = "PATH", min = 0 },
  options = {
    STRICT_OPT,
    { "--require", type = "choice", choices = REQUIRES, default = "any", metavar = "FIDELITY",
      help = "weakest fidelity that covers a layer: " .. table.concat(REQUIRES, ", ") },
    format_opt({ "text", "json" }), JOBS_OPT,
  },
  run = function(args, out)
    local results = lint_run(args.operands, args.strict)
    local errors = {}
    for _, r in ipairs(results) do
      if r.verdict == "error" then
        for _, f in ipairs(r.findings) do
          if f.unusable or f.rule:sub(1, 6) == "input." then
            f.file = r.display
            errors[#errors + 1] = f
          end
        end
      end
    end
    if #errors > 0 then engine.input_error(errors) end
    local cov = coverage(results, args.require)
    local s = coverage_summary(cov)
    if args.format == "json" then
      out:json(coverage_json(cov, s, args.require, #results))
    else
      out:write(coverage_text(cov, s, args.require))
    end
    local bad = #s.layer_gaps > 0 or #s.mode_gaps > 0 or #cov.excluded > 0
    return bad and 1 or 0
  end,
}

-- ---- two-clocks (spec 5.2, 9.3) -----------------------------------------------------------------

-- Option values as spec 2.2 spells them: ASCII digits, no nan, inf, hex or '_'.
local function int_value(name, text, lo, hi)
  if not text:match("^[+-]?%d+$") then
    engine.usage(name, ("%s '%s' is not an integer"):format(name, text))
  end
  local v = tonumber(text)
  if v == nil or v < lo or v > hi then
    engine.usage(name, ("%s %s is outside %d..%d"):format(name, text, lo, hi))
  end
  return v
end

local function number_value(name, text, lo, open)
  local mant = text:match("^[+-]?(%d*%.?%d*)[eE][+-]?%d+$") or text:match("^[+-]?(%d*%.?%d*)$")
  if not mant or not mant:find("%d") then
    engine.usage(name, ("%s '%s' is not a number"):format(name, text))
  end
  local v = tonumber(text) + 0.0
  if v ~= v or v == math.huge or v == -math.huge then
    engine.usage(name, ("%s '%s' is not a finite number"):format(name, text))
  end
  if (open and v <= lo) or (not open and v < lo) then
    local op = open and ">" or ">="
    engine.usage(name, ("%s %s must be %s %s"):format(name, text, op, py.repr(lo)))
  end
  return v
end

local function two_clocks_text(c)
  local lines = {
    ("ACK timeout %s s at NCCL_IB_TIMEOUT %d; transport gives up after %s s (%d retries)\n")
      :format(py.fixed(c.ack_timeout_s, 3), c.nccl_ib_timeout, py.fixed(c.give_up_s, 1),
              c.nccl_ib_retry_cnt),
    ("c10d watchdog %s s; first clock: %s at %s s\n")
      :format(py.fixed(c.c10d_timeout_s, 1), c.first_clock, py.fixed(c.first_clock_s, 1)),
  }
  if not engine.isnull(c.hold_s) then
    if c.outcome == "survive" then
      lines[#lines + 1] = ("an outage of %s s is survived\n"):format(py.repr(c.hold_s))
    else
      lines[#lines + 1] = ("an outage of %s s ends in crash-and-restart: the %s fires at %s s\n")
                          :format(py.repr(c.hold_s), c.ended_by, py.fixed(c.error_at_s, 1))
    end
  end
  return table.concat(lines)
end

prog:verb {
  name = "two-clocks", summary = "the transport give-up against the c10d watchdog for one " ..
    "configuration",
  operands = { name = "PATH", min = 0, max = 0 },
  options = {
    { "--ib-timeout", type = "string", metavar = "T", help = "NCCL_IB_TIMEOUT, integer 1..31 " ..
      "(default 20)" },
    { "--ib-retry-cnt", type = "string", metavar = "R", help = "NCCL_IB_RETRY_CNT, integer " ..
      "0..7 (default 7)" },
    { "--c10d-timeout", type = "string", metavar = "S", help = "c10d watchdog timeout, s > 0 " ..
      "(default 600)" },
    { "--hold", type = "string", metavar = "S", help = "outage length, s >= 0 (default: none)" },
    format_opt({ "text", "json" }),
  },
  run = function(args, out)
    local p = REG.policy
    local t = args.ib_timeout and int_value("--ib-timeout", args.ib_timeout, 1, 31)
              or p.ib_default_timeout
    local r = args.ib_retry_cnt and int_value("--ib-retry-cnt", args.ib_retry_cnt, 0, 7)
              or p.ib_default_retry_cnt
    local w = args.c10d_timeout and number_value("--c10d-timeout", args.c10d_timeout, 0, true)
              or p.c10d_timeout_default_s + 0.0
    local hold = args.hold and number_value("--hold", args.hold, 0, false) or nil
    local c = CF.two_clocks(t, r, w, hold)
    if args.format == "json" then out:json(c) else out:write(two_clocks_text(c)) end
    return 0
  end,
}

-- ---- registry (spec 3, 9.4) ---------------------------------------------------------------------

local function faithful_for(method_id)
  local list = engine.array()
  for _, c in ipairs(REG.classes) do
    local f = c.edges[method_id]
    if f then list[#list + 1] = engine.object("fault_class", c.id, "fidelity", f) end
  end
  return list
end

local function registry_json()
  local layers, methods, classes, actuators, modes = engine.array(), engine.array(), engine.array(),
                                                     engine.array(), engine.array()
  local edges = 0
  for i, l in ipairs(REG.layers) do
    layers[i] = engine.object("layer", l.id, "kind", l.kind, "order", l.order, "what", l.what)
  end
  for i, m in ipairs(REG.methods) do
    methods[i] = engine.object("method", m.id, "origin", m.origin,
                               "certifiable", array(m.certifiable),
                               "inverse", m.inverse, "residue", m.residue, "oob_undo", m.oob_undo,
                               "kernel_path", m.kernel_path, "faithful_for", faithful_for(m.id),
                               "why", m.why, "tools", m.tools or engine.null,
                               "source", m.source or engine.null)
  end
  for i, c in ipairs(REG.classes) do
    local ms = engine.array()
    for j, m in ipairs(c.edge_order) do
      ms[j] = engine.object("method", m, "fidelity", c.edges[m])
    end
    edges = edges + #c.edge_order
    classes[i] = engine.object("fault_class", c.id, "layer", c.layer,
                               "tail_required", c.tail_required,
                               "needs_load", c.needs_load, "methods", ms)
  end
  for i, a in ipairs(REG.actuators) do
    actuators[i] = engine.object("actuator", a.id, "class", a.class)
  end
  for i, m in ipairs(REG.failure_modes) do
    local det = m.detection or {}
    modes[i] = engine.object("failure_mode", m.id, "title", m.title or engine.null,
                             "layers", array(m.layers or {}),
                             "fault_classes", array(m.classes or {}),
                             "statistic", det.statistic or engine.null,
                             "signals", array(det.signals or {}), "catalog", array(m.catalog or {}))
  end
  return engine.object("layers", layers, "methods", methods, "fault_classes", classes,
                       "actuators", actuators, "policy", REG.policy, "failure_modes", modes,
                       "summary", engine.object("layers", #layers, "methods", #methods,
                                                "fault_classes", #classes, "edges", edges,
                                                "actuators", #actuators, "failure_modes", #modes))
end

local SHORT = { ["inference-graph"] = "IG", framework = "FW", collective = "CO",
                orchestrator = "OR",
                host = "HO", accelerator = "AC", pcie = "PC", ["nic-transport"] = "NT",
                fabric = "FB",
                facility = "FA", telemetry = "TE", ["autonomy-control"] = "AU" }
local FID_SHORT = { real = "real", emulated = "emu", ["signal-only"] = "sig" }

local function registry_text()
  local head = {}
  for i, l in ipairs(REG.layers) do head[i] = SHORT[l.id] or l.id:sub(1, 2):upper() end
  local lines = { "methods x layers (O = origin, c = certifiable)\n",
                  ("%-26s %s  %s\n"):format("method", table.concat(head, " "), "inverse") }
  for _, m in ipairs(REG.methods) do
    local cells = {}
    for i, l in ipairs(REG.layers) do
      local o, c = m.origin == l.id, contains(m.certifiable, l.id)
      cells[i] = (o and c and "Oc") or (o and "O ") or (c and "c ") or ". "
    end
    local flags = {}
    for _, f in ipairs({ "residue", "oob_undo", "kernel_path" }) do
      if m[f] then flags[#flags + 1] = f end
    end
    local flag_text = #flags > 0 and (" [" .. table.concat(flags, ",") .. "]") or ""
    lines[#lines + 1] = ("%-26s %s  %s%s\n"):format(m.id, table.concat(cells, " "), m.inverse,
                                                    flag_text)
  end
  lines[#lines + 1] = "\nfault classes (layer: method fidelity ...)\n"
  for _, c in ipairs(REG.classes) do
    local edges = {}
    for i, m in ipairs(c.edge_order) do edges[i] = m .. " " .. FID_SHORT[c.edges[m]] end
    local flags = (c.tail_required and " tail" or "") .. (c.needs_load and " load" or "")
    lines[#lines + 1] = ("%-26s %-17s %s%s\n"):format(c.id, c.layer, table.concat(edges, ", " ..
      ""), flags)
  end
  lines[#lines + 1] = ("\n%d layers, %d methods, %d fault classes, %d actuators, %d failure " ..
    "modes\n")
                      :format(#REG.layers, #REG.methods, #REG.classes, #REG.actuators,
                              #REG.failure_modes)
  return table.concat(lines)
end

prog:verb {
  name = "registry", summary = "print the loaded policy registry",
  operands = { name = "PATH", min = 0, max = 0 },
  options = { format_opt({ "text", "json" }) },
  run = function(args, out)
    if args.format == "json" then out:json(registry_json()) else out:write(registry_text()) end
    return 0
  end,
}
