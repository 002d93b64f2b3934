-- edge-placement: the published tool's four verbs (matrix, evaluate,
-- physics, fleet) with its arguments, defaults, exit codes, verdicts and
-- figures, plus our documents (--request, --ladder, --workloads, --pair,
-- --calls), --strict and --format on every verb (spec/placement.md 2, 4,
-- 6). The sentences are ours; the figures keep the reference's rounding in
-- text mode and print at full precision everywhere else. Every input is
-- resolved and checked before the first byte of output is assembled.
local py = require "py"

local PROGRAM = "edge-placement"
local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }
local FORMATS = { "text", "json" }
local INF = math.huge

-- The reference tool's physics defaults (4.3).
local PHYSICS_DEFAULTS = { rate = 400.0, km = 600.0, buffer_mb = 64.0 }

local prog = engine.program {
  name    = PROGRAM,
  summary = "place AI workloads on the tower-to-factory continuum; placement physics",
  help    = "Runs each workload through four gates (fabric, power, latency, gravity) on every "
            .. "tier of a ladder, from a cell tower to a central AI factory, and recommends the "
            .. "most central tier that accepts it. evaluate -t TIER exits 1 when the declared "
            .. "tier is blocked. physics prints the WAN figures behind the gates; fleet compares "
            .. "a tower fleet with a hub fleet.",
  syntax  = { abbrev = "unique-prefix", negative_numbers = true, help_anywhere = true },
}

-- ---- shared helpers ----------------------------------------------------------------

local jv = require "json_values"
local array_of, null_if_nil = jv.array, jv.null

local function finite_or_null(x)
  if x == INF or x == -INF then return engine.null end
  return x
end

-- Text width (UTF-8 aware) and Python "{:,.Nf}".
local pad, grouped_fixed = py.ljust, py.grouped_fixed

-- Python "{:g}".
local function g(x)
  return ("%g"):format(x)
end

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

local function workload_json(w)
  return engine.object(
    "name", w.name, "note", w.note, "latency_sla_ms", finite_or_null(w.latency_sla_ms),
    "access_rtt_ms", w.access_rtt_ms, "gpus", w.gpus, "gpu_watts", w.gpu_watts,
    "collective", w.collective, "data_gravity", w.data_gravity,
    "ingest_gbps", w.ingest_gbps, "sovereign", w.sovereign,
    "resilience_class", w.resilience_class)
end

local function ladder_names(tiers)
  return array_of(PL.names_of(tiers))
end

local function strict_opt()
  return { "--strict", type = "flag", group = "added",
           help = "also run the strict rules, which close the reference's loopholes" }
end

local function format_opt(choices)
  return { "--format", type = "choice", choices = choices, default = "text", group = "added",
           metavar = "FORMAT", help = "output format: " .. table.concat(choices, ", ") }
end

local function ladder_opt()
  return { "--ladder", type = "path", group = "added", metavar = "FILE",
           help = "a tier-ladder document to use instead of the default ladder" }
end

-- Resolve a --ladder file: tiers, or exit 2.
local function ladder_from(path)
  local doc = load(path, "tier-ladder")
  local ps = {}
  local tiers = PL.resolve_ladder(doc, "tiers", path, ps)
  if #ps > 0 then raise_problems(ps) end
  return tiers
end

-- ---- matrix (4.1, 6.2) ------------------------------------------------------------------

local LEGEND = "+ viable   ~(g) costly (gravity)   x(.) blocked by a gate: "
               .. "f fabric, p power, l latency, g gravity\n"

local function matrix_text(workloads, tiers, rows)
  local wn = 0
  for _, w in ipairs(workloads) do wn = math.max(wn, utf8.len(w.name) or #w.name) end
  wn = wn + 2
  local widths = {}
  local head = { pad("workload", wn) }
  for i, t in ipairs(tiers) do
    widths[i] = math.max(20, (utf8.len(t.name) or #t.name) + 2)
    head[#head + 1] = pad(t.name, widths[i])
  end
  head[#head + 1] = "recommended"
  local header = table.concat(head)
  local lines = { LEGEND, "\n", header, "\n", ("-"):rep(utf8.len(header)), "\n" }
  for k, w in ipairs(workloads) do
    local row = rows[k]
    local cells = { pad(w.name, wn) }
    for i, v in ipairs(row.verdicts) do cells[#cells + 1] = pad(v.mark, widths[i]) end
    cells[#cells + 1] = row.rec and tiers[row.rec].name or "NONE"
    if row.forced_by == "infeasible" then
      cells[#cells + 1] = "  <- infeasible"
    elseif row.forced_by then
      cells[#cells + 1] = "  <- forced by " .. row.forced_by
    end
    lines[#lines + 1] = table.concat(cells) .. "\n"
  end
  return table.concat(lines)
end

prog:verb {
  name    = "matrix",
  summary = "every library workload on every tier, with its recommended tier",
  options = {
    ladder_opt(),
    { "--workloads", type = "path", group = "added", metavar = "FILE",
      help = "a workload-library document to use instead of the built-in library" },
    strict_opt(),
    format_opt(LINT_FORMATS),
  },
  run = function(args, out)
    local workloads, custom = LIBRARY, false
    local tiers = PL.default_ladder()
    if args.workloads then
      local doc = load(args.workloads, "workload-library")
      local ps = {}
      workloads = PL.resolve_library(doc, args.workloads, ps)
      if #ps > 0 then raise_problems(ps) end
    end
    if args.ladder then
      tiers = ladder_from(args.ladder)
      custom = true
    end
    local rows, findings = {}, {}
    for i, w in ipairs(workloads) do rows[i] = PL.evaluate_ladder(w, tiers) end
    PL.infeasible_findings(workloads, rows, findings)
    if custom then PL.ladder_findings(tiers, findings) end
    findings = active(findings, args.strict)
    local rc = args.strict and has_error(findings) and 1 or 0
    if args.format == "json" then
      local jrows = engine.array()
      local by_tier = engine.object()
      for _, t in ipairs(tiers) do by_tier[t.name] = 0 end
      local placed, infeasible, forced = 0, 0, 0
      for k, w in ipairs(workloads) do
        local row = rows[k]
        local cells = engine.array()
        for i, v in ipairs(row.verdicts) do
          cells[i] = engine.object("tier", tiers[i].name, "status", v.status,
                                   "gate", null_if_nil(v.gate), "reason", null_if_nil(v.reason),
                                   "mark", v.mark)
        end
        if row.rec then
          placed = placed + 1
          by_tier[tiers[row.rec].name] = by_tier[tiers[row.rec].name] + 1
        else
          infeasible = infeasible + 1
        end
        if row.forced_by and row.forced_by ~= "infeasible" then forced = forced + 1 end
        jrows[k] = engine.object("workload", w.name, "cells", cells,
                                 "recommended", row.rec and tiers[row.rec].name or engine.null,
                                 "forced_by", null_if_nil(row.forced_by))
      end
      local obj = engine.object("ladder", ladder_names(tiers), "rows", jrows,
        "summary", engine.object("workloads", #workloads, "placed", placed,
                                 "infeasible", infeasible, "forced", forced,
                                 "by_tier", by_tier))
      add_findings_json(obj, findings)
      out:json(obj)
    elseif args.format == "text" then
      out:write(matrix_text(workloads, tiers, rows) .. findings_text(findings))
    else
      report(out, findings, args.format, args.workloads or args.ladder)
    end
    return rc
  end,
}

-- ---- evaluate (4.2, 6.1) --------------------------------------------------------------

local function tier_json(v)
  local f = v.fig
  return engine.object("tier", v.tier.name, "status", v.status, "gate", null_if_nil(v.gate),
                       "reason", null_if_nil(v.reason), "rule", null_if_nil(v.rule),
                       "detail", null_if_nil(v.detail), "km_to_user", f.km_to_user,
                       "fronthaul_us", f.fronthaul_us,
                       "propagation_rtt_ms", f.propagation_rtt_ms,
                       "path_rtt_ms", f.path_rtt_ms, "power_gpus", f.power_gpus)
end

local function passed_over(a)
  local list = engine.array()
  local from = a.rec and a.rec + 1 or 1
  for i = from, #a.verdicts do
    local v = a.verdicts[i]
    list[#list + 1] = engine.object("tier", v.tier.name, "status", v.status,
                                    "gate", null_if_nil(v.gate),
                                    "reason", null_if_nil(v.reason))
  end
  return list
end

local function evaluate_text(rc, a, findings)
  local w = rc.workload
  local lines = { w.note ~= "" and (w.name .. ": " .. w.note) or w.name, "\n\n" }
  for _, v in ipairs(a.verdicts) do
    local line = "  " .. pad(v.tier.name, 18) .. " " .. pad(v.status, 8)
    if v.status ~= "VIABLE" then
      line = line .. " [" .. v.gate .. "] " .. v.detail
    end
    lines[#lines + 1] = line:gsub("%s+$", "") .. "\n"
  end
  lines[#lines + 1] = "\n"
  local top = rc.tiers[#rc.tiers].name
  if a.rec then
    lines[#lines + 1] = ("recommended: %s\n"):format(rc.tiers[a.rec].name)
  else
    lines[#lines + 1] = "recommended: NONE\n"
  end
  if a.forced_by == "infeasible" then
    lines[#lines + 1] = ("no tier of the ladder accepts '%s'\n"):format(w.name)
  elseif a.forced_by then
    lines[#lines + 1] = ("the recommendation sits below the top tier '%s' because of its %s "
                         .. "gate\n"):format(top, a.forced_by)
  end
  return table.concat(lines) .. findings_text(findings)
end

prog:verb {
  name    = "evaluate",
  summary = "evaluate one workload on every tier and check its declared tier",
  options = {
    { "--workload", short = "-w", type = "string", metavar = "NAME",
      help = "a library workload, by its exact name" },
    { "--tier", short = "-t", type = "string", metavar = "NAME",
      help = "the declared tier (exact name, unique prefix or unique substring); "
             .. "exit 1 when it is blocked" },
    { "--request", type = "path", group = "added", metavar = "FILE",
      help = "a placement-request document (workload, ladder, overrides, tier)" },
    ladder_opt(),
    strict_opt(),
    format_opt(LINT_FORMATS),
  },
  run = function(args, out)
    if (args.workload == nil) == (args.request == nil) then
      engine.usage(args.request and "--request" or "--workload",
                   "give exactly one of -w/--workload NAME and --request FILE")
    end
    local lib
    if args.workload then
      lib = PL.find_by_name(LIBRARY, args.workload)
      if not lib then
        engine.usage("--workload", ("'%s' is not a library workload; choose one of %s")
                     :format(args.workload, PL.quoted_list(PL.names_of(LIBRARY))))
      end
    end
    local doc, ladder
    if args.request then doc = load(args.request, "placement-request") end
    if args.ladder then
      if doc and doc.ladder ~= nil then
        engine.usage("--ladder", ("'%s' has its own ladder; --ladder cannot replace it")
                     :format(args.request))
      end
      ladder = { doc = load(args.ladder, "tier-ladder"), file = args.ladder }
    end
    local rc = PL.resolve_request(doc, { file = args.request, ladder = ladder,
                                         tier = args.tier, workload = lib })
    if #rc.problems > 0 then raise_problems(rc.problems) end
    if rc.declared and rc.declared.error then engine.usage("--tier", rc.declared.error) end
    local a = PL.analyze_request(rc)
    local findings = active(a.findings, args.strict)
    local rc_exit = has_error(findings) and 1 or 0
    if args.format == "json" then
      local tiers = engine.array()
      for i, v in ipairs(a.verdicts) do tiers[i] = tier_json(v) end
      local check = engine.null
      if a.check then
        check = engine.object("requested", a.check.requested, "tier", a.check.tier,
                              "match", a.check.match, "status", a.check.status,
                              "ok", a.check.ok)
      end
      local obj = engine.object(
        "file", null_if_nil(args.request), "workload", workload_json(rc.workload),
        "ladder", ladder_names(rc.tiers), "tiers", tiers,
        "recommended", a.rec and rc.tiers[a.rec].name or engine.null,
        "forced_by", null_if_nil(a.forced_by), "passed_over", passed_over(a),
        "check", check)
      add_findings_json(obj, findings)
      out:json(obj)
    elseif args.format == "text" then
      out:write(evaluate_text(rc, a, findings))
    else
      report(out, findings, args.format, args.request)
    end
    return rc_exit
  end,
}

-- ---- physics (4.3, 6.3, 6.4) ------------------------------------------------------------

local function physics_figures(rate, km, buffer)
  local M = models.placement
  return {
    one_way_us = M.one_way_us(km), rtt_ms = M.rtt_ms(km), bdp_mb = M.bdp_mb(rate, km),
    pfc_headroom_mb = M.pfc_headroom_mb(rate, km),
    latency_domain = DOMAIN_NAMES[math.floor(M.latency_domain(km)) + 1],
    collectives_allowed = M.collectives_allowed(km) == 1,
    lossless_max_km = M.pfc_max_lossless_km(rate, buffer),
    ib_credit_max_km = M.ib_credit_max_km(rate),
  }
end

local function physics_text(rate, km, buffer, f)
  return table.concat({
    ("link                 %s Gbps over %s km of SMF\n"):format(g(rate), g(km)),
    ("one-way propagation  %s µs\n"):format(grouped_fixed(f.one_way_us, 0)),
    ("round trip           %s ms\n"):format(py.fixed(f.rtt_ms, 2)),
    ("one-way BDP          %s MB\n"):format(grouped_fixed(f.bdp_mb, 1)),
    ("lossless headroom    %s MB per port (about 2x the one-way BDP)\n")
      :format(grouped_fixed(f.pfc_headroom_mb, 1)),
    ("latency domain       %s\n"):format(f.latency_domain),
    ("RDMA collectives     %s\n"):format(f.collectives_allowed and "engineerable" or "NO"),
    "\n",
    ("lossless ceiling     ~%s km with %s MB per port at %s Gbps\n")
      :format(grouped_fixed(f.lossless_max_km, 1), g(buffer), g(rate)),
    ("IB credit ceiling    ~%s km with %d KB per VL at %s Gbps\n")
      :format(grouped_fixed(f.ib_credit_max_km, 2), CONST.IB_VL_BUFFER_KB, g(rate)),
  })
end

local function call_value_text(v)
  if type(v) == "boolean" then return v and "true" or "false" end
  if type(v) == "string" then return v end
  return engine.repr(v)
end

local function calls_output(args, out)
  local doc = load(args.calls, "placement-model-calls")
  local ps = {}
  local results = PL.run_calls(doc, args.calls, ps)
  if #ps > 0 then raise_problems(ps) end
  if args.format == "json" then
    local list = engine.array()
    for i, c in ipairs(results) do
      local a = engine.object()
      for k, name in ipairs(c.names) do a[name] = c.values[k] end
      list[i] = engine.object("model", c.model, "args", a, "value", c.value)
    end
    out:json(engine.object("results", list))
  else
    local lines = {}
    for i, c in ipairs(results) do
      local parts = {}
      for k, name in ipairs(c.names) do
        parts[k] = name .. "=" .. engine.repr(c.values[k])
      end
      lines[i] = ("%s(%s) = %s\n"):format(c.model, table.concat(parts, ", "),
                                          call_value_text(c.value))
    end
    out:write(table.concat(lines))
  end
  return 0
end

prog:verb {
  name    = "physics",
  summary = "the WAN physics behind the gates for one link",
  options = {
    { "--rate", type = "float", min_exclusive = 0, metavar = "GBPS",
      help = "link rate, Gbps (default 400)" },
    { "--km", type = "float", min = 0, metavar = "KM", help = "fiber distance, km (default 600)" },
    { "--buffer-mb", type = "float", min_exclusive = 0, metavar = "MB",
      help = "switch buffer per port, MB (default 64)" },
    { "--calls", type = "path", group = "added", metavar = "FILE",
      help = "a placement-model-calls document: evaluate its calls instead" },
    format_opt(FORMATS),
  },
  run = function(args, out)
    if args.calls then
      for _, k in ipairs({ "rate", "km", "buffer_mb" }) do
        if args[k] ~= nil then
          engine.usage("--calls", ("--calls evaluates its own calls; it cannot be combined "
                                   .. "with --%s"):format((k:gsub("_", "-"))))
        end
      end
      return calls_output(args, out)
    end
    local rate = args.rate or PHYSICS_DEFAULTS.rate
    local km = args.km or PHYSICS_DEFAULTS.km
    local buffer = args.buffer_mb or PHYSICS_DEFAULTS.buffer_mb
    local f = physics_figures(rate, km, buffer)
    if args.format == "json" then
      out:json(engine.object(
        "rate_gbps", rate, "km", km, "buffer_mb", buffer,
        "us_per_km", CONST.FIBER_US_PER_KM, "pfc_mult", CONST.PFC_HEADROOM_BDP_MULT,
        "ib_vl_buffer_kb", CONST.IB_VL_BUFFER_KB,
        "one_way_us", f.one_way_us, "rtt_ms", f.rtt_ms, "bdp_mb", f.bdp_mb,
        "pfc_headroom_mb", f.pfc_headroom_mb, "latency_domain", f.latency_domain,
        "collectives_allowed", f.collectives_allowed, "lossless_max_km", f.lossless_max_km,
        "ib_credit_max_km", f.ib_credit_max_km))
    else
      out:write(physics_text(rate, km, buffer, f))
    end
    return 0
  end,
}

-- ---- fleet (4.4, 6.5) ----------------------------------------------------------------------

local SIDE_KEYS = { "tier", "sites", "gpu", "gpu_watts", "gpu_tflops_fp8",
                    "power_gpus_per_site", "fabric_gpus_per_site", "gpus_per_site",
                    "bound_by", "gpus", "ai_mw", "consumed_mw", "stranded_fraction",
                    "pflops_fp8", "pflops_per_mw" }

local function side_json(s)
  local o = engine.object()
  for _, k in ipairs(SIDE_KEYS) do o[k] = s[k] end
  o.hostable = array_of(s.hostable)
  o.hostable_count = #s.hostable
  return o
end

local SUMMARY_ROWS = {
  { "sites", "sites" },
  { "AI power provisioned (MW)", "ai_mw" },
  { "AI power consumed (MW)", "consumed_mw" },
  { "envelope stranded (%)", "stranded_pct" },
  { "GPUs", "gpus" },
  { "dense FP8 PFLOPS", "pflops_fp8" },
  { "PFLOPS per MW", "pflops_per_mw" },
  { "quantum (GPUs per site)", "quantum" },
  { "workload classes hosted", "hostable" },
}

-- The summary's JSON keys, in the order of 6.5: {summary field, key}.
local SUMMARY_JSON = {
  { "sites", "sites" }, { "gpus", "gpus" }, { "ai_mw", "ai_mw" },
  { "consumed_mw", "consumed_mw" }, { "stranded_pct", "stranded_pct" },
  { "pflops_fp8", "pflops_fp8" }, { "pflops_per_mw", "pflops_per_mw" },
  { "quantum", "scheduling_quantum_gpus" }, { "hostable", "hostable" },
}

local function fleet_text(c, findings)
  local s = c.summary
  local lines = { pad("fleet", 25) .. " " .. pad("tower", 16) .. " hub\n" }
  for _, row in ipairs(SUMMARY_ROWS) do
    lines[#lines + 1] = ("%s %s %s\n"):format(pad(row[1], 25),
      pad(py.thousands(s.tower[row[2]]), 16), py.thousands(s.hub[row[2]]))
  end
  lines[#lines + 1] = "\n"
  local ratio = s.ratio == INF and "inf" or engine.repr(s.ratio)
  lines[#lines + 1] = ("per provisioned MW the hub fleet carries %sx the tower fleet's dense "
                       .. "FP8 capability\n"):format(ratio)
  lines[#lines + 1] = ("per watt drawn the tower's silicon holds its own; what the tower fleet "
                       .. "pays for is the %d%% of its envelope that its %d-GPU quantum per "
                       .. "site leaves unused\n")
    :format(engine.round(c.tower.stranded_fraction * 100), c.tower.gpus_per_site)
  return table.concat(lines) .. findings_text(findings)
end

prog:verb {
  name    = "fleet",
  summary = "a tower fleet against an aggregation-hub fleet: power, GPUs, capability",
  options = {
    { "--pair", type = "path", group = "added", metavar = "FILE",
      help = "a fleet-pair document that replaces either side" },
    strict_opt(),
    format_opt(FORMATS),
  },
  run = function(args, out)
    local doc
    if args.pair then doc = load(args.pair, "fleet-pair") end
    local ps = {}
    local f = PL.resolve_fleet(doc, args.pair, ps)
    if #ps > 0 then raise_problems(ps) end
    local c = PL.compare_fleet(f)
    local findings = {}
    PL.fleet_findings(f, findings)
    findings = active(findings, args.strict)
    local rc = args.strict and has_error(findings) and 1 or 0
    if args.format == "json" then
      local summary = engine.object()
      for _, side in ipairs({ "tower", "hub" }) do
        for _, k in ipairs(SUMMARY_JSON) do
          summary[side .. "_" .. k[2]] = c.summary[side][k[1]]
        end
      end
      summary.hub_capability_per_mw_x = finite_or_null(c.summary.ratio)
      local obj = engine.object("tower", side_json(c.tower), "hub", side_json(c.hub),
                                "capability_per_mw_x", finite_or_null(c.ratio),
                                "summary", summary)
      add_findings_json(obj, findings)
      out:json(obj)
    else
      out:write(fleet_text(c, findings))
    end
    return rc
  end,
}
