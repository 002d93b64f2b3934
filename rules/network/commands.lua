-- luacheck: std +lua54 (math.type and math.tointeger tell ints from floats)
-- `infragate network VERB` (spec/network.md 2, 4): the model verbs (step,
-- ledger, curve, expand, sea, attribute, map, atlas, span, stitch, bytes),
-- the registry (validate) and the rules (lint). Every figure comes from
-- models.network through the functions of pack.lua; this file reads the
-- scenario options, shapes the JSON of section 4 and the text of 2.4, and
-- reports input errors in the error document of power.md 2.5 (with "pack").
local py = require "py"
local verbs = require "verbs"

local MUTATIONS = { "delete-latency-exposure", "zero-the-stitch-latency",
                    "contiguous-pipeline-always", "delete-nic-cap", "delete-contention",
                    "collapse-blind-placement", "delete-span-tier", "ignore-interleave",
                    "failure-rate-per-accelerator", "checkpoint-every-minute" }
-- The recorded decision-map rates of the reference study (5.8), never recomputed.
local DEFAULT_RATES = { 0.001, 0.0013623344859430982, 0.0018559552515898456,
                        0.0025284318436080457, 0.003444569895903927, 0.004692656358431348,
                        0.006392967587771188, 0.008709360212337149, 0.011865061767767603,
                        0.016164182824074787, 0.022021023698326182, 0.03 }
local DEFAULT_OVERSUB = { 1.0, 2.0, 4.0, 7.0, 12.0, 16.0 }
local DEFAULT_SCALES = { 16384, 65536 }
local MAX_MAP_CELLS = 4096  -- a bound on one run's work (about 3 ms of model per cell)

local prog = engine.program {
  name    = "network",
  summary = "interconnect versus more accelerators: capacity ledger, SEA and scale-across",
  help    = "Splits every accelerator-second a training job pays for into productive, "
            .. "blocked, discarded and unavailable time, prices fabric, reliability and "
            .. "recovery changes as substitution-equivalent accelerators (SEA), maps which "
            .. "change wins where, and rates what survives when one cut of a job spans a "
            .. "stitch between halls. Scenarios: --preset NAME (default reference-405b-16k) "
            .. "or --scenario FILE, edited by --set PATH=VALUE.",
  syntax  = { before_verb = { "--format", "--help" } },
}

-- ---- small helpers --------------------------------------------------------------------------

local jv = require "json_values"
local array, null = jv.array, jv.null

-- ---- errors: collected, then one document (power.md 2.5) ------------------------------------

-- A file without a line prints as the command (the scenario's own line
-- is not known there).
local fail = verbs.failer("network", { file_needs_line = true })
local raise, usage, guarded = verbs.raise, verbs.usage, verbs.guard(fail)

-- ---- options --------------------------------------------------------------------------------

local fmt_opt = verbs.format_opt_of({ "text", "json" })

local SCENARIO_OPTS = {
  { "--preset", type = "choice", choices = NW.PRESET_NAMES, metavar = "NAME",
    help = "a built-in scenario (default reference-405b-16k)" },
  { "--scenario", type = "path", metavar = "FILE", help = "a network-scenario document" },
  { "--set", type = "string", ["repeat"] = "append", metavar = "PATH=VALUE",
    help = "override one scenario field (section.field or a top-level field)" },
  { "--strict", type = "flag", help = "strict findings become errors (exit 1)" },
}

local function options(extra)
  local t = {}
  for _, o in ipairs(SCENARIO_OPTS) do t[#t + 1] = o end
  for _, o in ipairs(extra or {}) do t[#t + 1] = o end
  t[#t + 1] = fmt_opt()
  return t
end

local function cut_opt(required)
  return { "--cut", type = "choice", choices = NW.CUTS, required = required, metavar = "C",
           help = "the cut across the stitch: tp, cp, pp, dp or checkpoint" }
end

local function distance_opts()
  return {
    { "--regime", type = "choice", choices = NW.regime_names(), metavar = "NAME",
      help = "a distance regime: scale-up, rail, campus-stitch, metro, region" },
    { "--alpha-us", type = "float", min = 0, max = 1e7, metavar = "US",
      help = "one-way stitch latency, microseconds" },
  }
end

local function circuit_opt(required, default)
  return { "--circuit-gbps", type = "float", min_exclusive = 0, max = 1e12, required = required,
           default = default, metavar = "G", help = "aggregate circuit capacity, Gbit/s" }
end

local function halls_opt()
  return { "--halls", type = "int", min = 2, max = 64, default = 2, metavar = "H",
           help = "halls the cut spans (default 2)" }
end

local function placement_opt()
  return { "--placement", type = "choice", choices = { "hierarchical", "blind" },
           default = "hierarchical", metavar = "P", help = "rank placement across halls" }
end

-- ---- the scenario of a run (2.2) ------------------------------------------------------------

local function where_of(view, parent, key, on_key)
  local at = view
  if #parent > 0 then at = engine.get(view, NW.pointer(parent)) end
  if at == nil then return nil end
  if key ~= nil and engine.type(at) == "map" then
    return engine.where(at, key, on_key and "key" or nil)
  end
  return engine.where(at)
end

local function parse_sets(list)
  local sets = {}
  for _, item in ipairs(list or {}) do
    local path, text = item:match("^([^=]*)=(.*)$")
    if not path or path == "" then
      usage("--set", ("--set takes PATH=VALUE (got %s)"):format(py.repr(item)))
    end
    sets[#sets + 1] = { path = path, value = NW.yaml_scalar(text), text = item }
  end
  return sets
end

-- The resolved scenario and where its values came from: {scn, view, file, touched}.
local function scenario_of(args)
  if args.preset and args.scenario then
    usage("--scenario", "give --preset or --scenario, not both")
  end
  local doc, view, file
  if args.scenario then
    local findings
    view, findings = engine.load(args.scenario, { collect = true })
    if findings and #findings > 0 then
      local errs = {}
      for i, f in ipairs(findings) do
        errs[i] = { rule = f.rule, message = f.message, file = args.scenario, line = f.line,
                    column = f.column, path = f.path }
      end
      raise(errs)
    end
    file = args.scenario
    doc = engine.plain(view)
  else
    doc = NW.preset_doc(args.preset or NW.DEFAULT_PRESET)
  end
  local sets = parse_sets(args.set)
  local touched = {}
  if engine.type(doc) == "map" or (type(doc) == "table") then
    local t, bad = NW.apply_sets(doc, sets)
    if not t then
      raise({ { rule = "input.type", argument = "--set", path = "/" .. bad.path:gsub("%.", "/"),
                message = ("--set names no scenario field %s"):format(py.repr(bad.path)) } })
    end
    touched = t
  end
  local scn, problems = NW.convert(doc, {})
  if not scn then
    local errs = {}
    for _, p in ipairs(problems) do
      local parts = {}
      for i, x in ipairs(p.parent) do parts[i] = x end
      if p.key ~= nil then parts[#parts + 1] = p.key end
      local ptr = NW.pointer(parts)
      local e = { rule = "input.type", message = p.message, path = ptr }
      if touched[ptr] or (p.cross and next(touched)) then
        e.argument = "--set"
      elseif view then
        local w = where_of(view, p.parent, p.key, p.on_key)
        e.file = file
        if w then e.line, e.column = w.line, w.column end
      end
      errs[#errs + 1] = e
    end
    raise(errs)
  end
  return { scn = NW.resolve(scn), view = view, file = file, touched = touched }
end

local function head(run)
  local s = run.scn
  return engine.object("name", s.name or "", "world_size", s.world_size, "n_pool", s.n_pool)
end

-- The strict findings of a verb (6.5), as JSON objects; also notes for text.
local function strict_findings(run, args, names, extra)
  local c = { scn = run.scn, step = run.step, ledger = run.ledger }
  for k, v in pairs(extra or {}) do c[k] = v end
  local list = engine.array()
  for _, name in ipairs(names) do
    local f = NW.STRICT[name](c)
    if f then
      local file, line, column = engine.null, engine.null, engine.null
      local option = f.path == "/halls" or f.path == "/circuit_gbps"
      if run.view and not run.touched[f.path] and not option then
        local node = engine.get(run.view, f.path)
        if node ~= nil then
          local w = engine.where(engine.get(run.view, f.path:match("^(.*)/[^/]*$")) or run.view,
                                 f.path:match("([^/]*)$"))
          file, line, column = run.file, w.line, w.column
        end
      end
      list[#list + 1] = engine.object("rule", "network.strict." .. name,
                                      "severity", args.strict and "error" or "warning",
                                      "message", f.message, "file", file, "line", line,
                                      "column", column, "path", f.path)
    end
  end
  return list
end

local function finish(out, args, obj, findings, text)
  if args.format == "json" then
    obj.findings = findings
    out:json(obj)
  else
    out:write(text)
  end
  return verbs.finish(args, out, findings)
end

local function envelope()
  local o = engine.object("pack", "network")
  return o
end

local function f4(x) return x and py.fixed(x, 4) or "n/a" end
local function f1(x) return x and py.fixed(x, 1) or "n/a" end

-- ---- step -----------------------------------------------------------------------------------

local STEP_KEYS = { "t_compute_s", "t_tp_exposed_s", "t_cp_exposed_s", "t_pp_exposed_s",
                    "t_dp_exposed_s", "t_bubble_s", "t_sync_wait_s", "t_step_s", "t_blocked_s",
                    "step_efficiency" }

prog:verb {
  name    = "step",
  summary = "healthy-step breakdown: compute, exposed collectives, bubble, sync wait, MFU",
  options = options(),
  run     = guarded("step", function(args, out)
    local run = scenario_of(args)
    local st = models.network.step(run.scn, VARIANT)
    run.step = st
    local step = engine.object()
    for _, k in ipairs(STEP_KEYS) do step[k] = st[k] end
    local cap = run.scn.accelerator.memory_gb + 0.0
    local o = envelope()
    o.scenario = head(run)
    o.step = step
    o.comm_raw_s = engine.object("tp", st.comm_raw_tp_s, "cp", st.comm_raw_cp_s,
                                 "pp", st.comm_raw_pp_s, "dp", st.comm_raw_dp_s)
    o.tokens_per_step = st.tokens_per_step
    o.flops_per_token = st.flops_per_token
    o.mfu = st.mfu
    o.tflops_per_gpu = st.tflops_per_gpu
    o.param_disagreement = st.param_disagreement
    o.memory_gb = engine.object("state", st.memory_state_gb, "activation", st.memory_activation_gb,
                                "total", st.memory_total_gb,
                                "capacity", cap)
    local lines = { ("healthy step of %s (%d accelerators, pool %d)\n")
                    :format(run.scn.name or "", run.scn.world_size, run.scn.n_pool) }
    for _, k in ipairs(STEP_KEYS) do
      lines[#lines + 1] = ("  %-18s %s\n"):format(k, f4(st[k]))
    end
    lines[#lines + 1] = ("  MFU %s, %s TFLOP/s per GPU, %d tokens per step\n")
                        :format(f4(st.mfu), py.fixed(st.tflops_per_gpu, 2), st.tokens_per_step)
    lines[#lines + 1] = ("  memory: state %s GB + activations %s GB of %s GB\n")
                        :format(py.fixed(st.memory_state_gb, 2),
                                py.fixed(st.memory_activation_gb, 2), py.fixed(cap, 2))
    return finish(out, args, o, strict_findings(run, args, { "memory-exceeds-capacity",
                                                              "param-inconsistent",
                                                              "more-than-two-halls" }),
                  table.concat(lines))
  end),
}

-- ---- ledger ---------------------------------------------------------------------------------

local BUCKETS = { "productive", "blocked_comm", "blocked_sync", "blocked_bubble",
                  "blocked_checkpoint", "blocked_restart", "discarded", "unavailable_down",
                  "unavailable_spare_stranded" }

prog:verb {
  name    = "ledger",
  summary = "four-fate accelerator-time ledger (analytical or Monte Carlo)",
  options = options({
    { "--fidelity", type = "choice", choices = { "analytical", "monte-carlo" },
      default = "analytical", help = "analytical (default) or monte-carlo" },
    { "--seed", type = "int", min = 0, metavar = "N", help = "Monte Carlo seed (default 0)" },
    { "--replicates", type = "int", min = 1, max = 100000, metavar = "N",
      help = "Monte Carlo replicates (default 200)" },
  }),
  run     = guarded("ledger", function(args, out)
    local mc = args.fidelity == "monte-carlo"
    if not mc and args.seed then usage("--seed", "--seed needs --fidelity monte-carlo") end
    if not mc and args.replicates then
      usage("--replicates", "--replicates needs --fidelity monte-carlo")
    end
    local run = scenario_of(args)
    local seed, reps = mc and (args.seed or 0) or nil, mc and (args.replicates or 200) or nil
    local ok, l = pcall(NW.ledger, run.scn, { fidelity = args.fidelity, seed = seed,
                                              replicates = reps })
    if not ok then
      local why = tostring(l):match("would draw.-rate")
      if not why then error(l, 0) end
      usage("--replicates", ("%d replicates of this job %s"):format(reps, why))
    end
    run.ledger = l
    local secs = engine.object()
    for _, b in ipairs(BUCKETS) do secs[b] = l[b] end
    secs.total = l.total
    local o = envelope()
    o.scenario = head(run)
    o.fidelity = args.fidelity
    o.seed = null(seed)
    o.replicates = null(reps)
    o.window_days = run.scn.window_days + 0.0
    o.accelerator_seconds = secs
    o.ucf = l.ucf
    o.productive_accelerators = l.productive_accelerators
    o.tokens_per_second = l.tokens_per_second
    o.ettr = l.ettr
    o.step_efficiency = l.step_efficiency
    o.t_step_s = l.t_step_s
    o.failure_free = l.failure_free
    o.job_mttf_hours = null(l.job_mttf_hours)
    o.checkpoint_interval_s = null(l.checkpoint_interval_s)
    o.n_failures = l.n_failures
    o.recovery_pressure = l.recovery_pressure
    o.within_validity_envelope = l.within_validity_envelope
    local lines = { ("%s ledger of %s over %s days (%d accelerators, pool %d)\n")
                    :format(args.fidelity, run.scn.name or "", py.repr(run.scn.window_days + 0.0),
                            run.scn.world_size, run.scn.n_pool) }
    for _, b in ipairs(BUCKETS) do
      lines[#lines + 1] = ("  %-28s %s\n"):format(b, f4(l[b] / l.total))
    end
    lines[#lines + 1] = ("  useful capacity %s, ETTR %s, MTTF %s h, checkpoint every %s s\n")
                        :format(f4(l.ucf), f4(l.ettr),
                                l.job_mttf_hours and py.fixed(l.job_mttf_hours, 2) or "infinite",
                                l.checkpoint_interval_s and f1(l.checkpoint_interval_s) or "never")
    lines[#lines + 1] = ("  %s failures, recovery pressure %s, inside the validity envelope: %s\n")
                        :format(py.fixed(l.n_failures, 2), f4(l.recovery_pressure),
                                l.within_validity_envelope and "yes" or "no")
    return finish(out, args, o, strict_findings(run, args, { "outside-validity-envelope",
                                                              "small-job",
                                                              "more-than-two-halls" }),
                  table.concat(lines))
  end),
}

-- ---- curve ----------------------------------------------------------------------------------

prog:verb {
  name    = "curve",
  summary = "productive throughput against pool size (the curve SEA inverts)",
  options = options({
    { "--max-factor", type = "float", min_exclusive = 1, max = 1024, default = 64.0,
      metavar = "X", help = "widest pool multiple (default 64)" },
  }),
  run     = guarded("curve", function(args, out)
    local run = scenario_of(args)
    local pts = models.network.curve(run.scn, args.max_factor, VARIANT)
    local list, peak = engine.array(), nil
    local lines = { ("scaling curve of %s up to %s x dp\n")
                    :format(run.scn.name or "", py.repr(args.max_factor + 0.0)) }
    for i, p in ipairs(pts) do
      list[i] = engine.object("n_pool", p.n_pool, "productive_accelerators", p.productive)
      if not peak or p.productive > pts[peak].productive then peak = i end
      lines[#lines + 1] = ("  pool %9d  productive %s\n"):format(p.n_pool, f1(p.productive))
    end
    local o = envelope()
    o.scenario = head(run)
    o.max_factor = args.max_factor + 0.0
    o.points = list
    o.peak = peak and engine.object("index", peak - 1, "n_pool", pts[peak].n_pool,
                                    "productive_accelerators", pts[peak].productive)
             or engine.null
    return finish(out, args, o, engine.array(), table.concat(lines))
  end),
}

-- ---- expand ---------------------------------------------------------------------------------

prog:verb {
  name    = "expand",
  summary = "what adding N accelerators to the pool buys",
  options = options({
    { "--add", type = "int", min = 1, max = 100000000, required = true, metavar = "N",
      help = "accelerators added to the pool" },
  }),
  run     = guarded("expand", function(args, out)
    local run = scenario_of(args)
    local e = models.network.expand(run.scn, args.add, VARIANT)
    local o = envelope()
    o.scenario = head(run)
    o.add_accelerators = args.add
    o.target_pool = e.target_pool
    o.realizable = e.realizable
    o.expanded_pool = null(e.expanded_pool)
    o.expanded_world_size = null(e.expanded_world_size)
    o.baseline_productive_accelerators = e.baseline_productive_accelerators
    o.expanded_productive_accelerators = null(e.expanded_productive_accelerators)
    o.gain_fraction = null(e.gain_fraction)
    o.pool_growth_fraction = null(e.pool_growth_fraction)
    o.marginal_productivity = null(e.marginal_productivity)
    o.average_productivity = e.average_productivity
    local text
    if e.realizable then
      text = ("adding %d accelerators to the pool of %d: pool %d (target %d), world %d; "
              .. "productive %s -> %s (gain %s, pool growth %s)\n")
             :format(args.add, run.scn.n_pool, e.expanded_pool, e.target_pool,
                     e.expanded_world_size, f1(e.baseline_productive_accelerators),
                     f1(e.expanded_productive_accelerators), f4(e.gain_fraction),
                     f4(e.pool_growth_fraction))
    else
      text = ("adding %d accelerators to the pool of %d: the target %d cannot host a whole "
              .. "replica the batch can feed\n"):format(args.add, run.scn.n_pool, e.target_pool)
    end
    return finish(out, args, o, engine.array(), text)
  end),
}

-- ---- interventions of sea, attribute, map ---------------------------------------------------

-- The intervention set: built in, or from --interventions FILE; and its regimes.
local function intervention_set(args, scn)
  if not args.interventions then return NW.BUILTIN_INTERVENTIONS, nil end
  local view, findings = engine.load(args.interventions, { kind = "network-interventions",
                                                           collect = true })
  local errs = {}
  for _, f in ipairs(findings or {}) do
    errs[#errs + 1] = { rule = f.rule, message = f.message, file = args.interventions,
                        line = f.line, column = f.column, path = f.path }
  end
  if #errs > 0 then raise(errs) end
  local set, seen = {}, {}
  local function bad(p)
    local parts = {}
    for i, x in ipairs(p.parent) do parts[i] = x end
    if p.key ~= nil then parts[#parts + 1] = p.key end
    local w = where_of(view, p.parent, p.key, p.on_key)
    errs[#errs + 1] = { rule = "input.type", message = p.message, file = args.interventions,
                        line = w and w.line, column = w and w.column, path = NW.pointer(parts) }
  end
  for i, e in ipairs(view.interventions) do
    local entry, problems = NW.convert_intervention(engine.plain(e), { "interventions", i - 1 })
    for _, p in ipairs(problems) do bad(p) end
    if entry then
      if seen[entry.name] then
        bad({ parent = { "interventions", i - 1 }, key = "name",
              message = ("intervention %s is listed twice"):format(entry.name) })
      end
      seen[entry.name] = true
      local wrong = NW.check_intervention(scn, entry)
      if wrong then
        bad({ parent = { "interventions", i - 1 }, key = nil,
              message = ("intervention %s makes %s %s"):format(entry.name, wrong.path,
                                                               wrong.message) })
      end
      set[#set + 1] = entry
    end
  end
  if #errs > 0 then raise(errs) end
  local regimes = {}
  if engine.has(view, "regimes") then
    for i, r in ipairs(view.regimes) do
      local overrides = {}
      for k, v in pairs(engine.plain(r.overrides or {})) do
        overrides[#overrides + 1] = { path = tostring(k), value = v, index = i }
      end
      regimes[r.name] = overrides
    end
  end
  return set, regimes
end

local INTERVENTION_OPT = { "--interventions", type = "path", metavar = "FILE",
                           help = "a network-interventions document (default: the built-in ten)" }

local function names_list(text, option, set, min, max)
  local names, seen = {}, {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local found = false
    for _, e in ipairs(set) do
      if e.name == item then found = true end
    end
    if not found then
      usage(option, ("%s names no intervention %s"):format(option, py.repr(item)))
    end
    if seen[item] then usage(option, ("%s lists %s twice"):format(option, item)) end
    seen[item] = true
    names[#names + 1] = item
  end
  if #names < min or #names > max then
    usage(option, ("%s takes %d to %d names"):format(option, min, max))
  end
  return names
end

local function pick(set, names)
  local by, out = {}, {}
  for _, e in ipairs(set) do by[e.name] = e end
  for i, n in ipairs(names) do out[i] = by[n] end
  return out
end

-- ---- sea ------------------------------------------------------------------------------------

local function sea_row(r)
  return engine.object(
    "name", r.name, "category", r.category, "sea", null(r.sea), "attainable", r.attainable,
    "sea_fraction_of_pool", null(r.sea_fraction_of_pool),
    "baseline_productive_accelerators", r.baseline_productive_accelerators,
    "treated_productive_accelerators", r.treated_productive_accelerators,
    "delta_productive_accelerators", r.delta_productive_accelerators,
    "best_throughput_by_scaling", null(r.best_throughput_by_scaling),
    "naive_equivalent", r.naive_equivalent, "baseline_ucf", r.baseline_ucf,
    "treated_ucf", r.treated_ucf,
    "cost_accelerator_equivalents", null(r.cost_accelerator_equivalents),
    "value_ratio", null(r.value_ratio), "rank", r.rank)
end

prog:verb {
  name    = "sea",
  summary = "substitution-equivalent accelerators of interventions, ranked",
  options = options({
    INTERVENTION_OPT,
    { "--only", type = "string", metavar = "NAME,...", help = "only these interventions" },
    { "--regime", type = "string", metavar = "NAME",
      help = "apply that regime of the interventions file first" },
  }),
  run     = guarded("sea", function(args, out)
    local run = scenario_of(args)
    local set, regimes = intervention_set(args, run.scn)
    if args.regime then
      if not regimes or not regimes[args.regime] then
        usage("--regime", ("--regime %s is not a regime of the interventions file")
                          :format(py.repr(args.regime)))
      end
      local plain = NW.copy(run.scn)
      plain.world_size, plain.window_s, plain.overhead = nil, nil, nil
      local touched, bad = NW.apply_sets(plain, regimes[args.regime])
      if not touched then
        usage("--regime", ("regime %s names no scenario field %s"):format(args.regime, bad.path))
      end
      local scn, problems = NW.convert(plain, {})
      if not scn then
        usage("--regime", ("regime %s: %s"):format(args.regime, problems[1].message))
      end
      run.scn = NW.resolve(scn)
    end
    if args.only then
      set = pick(set, names_list(args.only, "--only", set, 1, math.huge))
      local keep, order = {}, {}
      for _, e in ipairs(set) do keep[e.name] = e end
      -- --only keeps file order
      for _, e in ipairs(args.interventions and set or NW.BUILTIN_INTERVENTIONS) do
        if keep[e.name] then order[#order + 1] = keep[e.name] end
      end
      set = order
    end
    local rows = models.network.sea(run.scn, set, VARIANT)
    local ranking = NW.rank(rows)
    local list = engine.array()
    local lines = { ("SEA of %d interventions on %s (pool %d)\n")
                    :format(#rows, run.scn.name or "", run.scn.n_pool) }
    for i, r in ipairs(rows) do
      list[i] = sea_row(r)
      lines[#lines + 1] = ("  %-20s SEA %12s  naive %10s  rank %d\n")
                          :format(r.name, r.sea and f1(r.sea) or "unattainable",
                                  f1(r.naive_equivalent), r.rank)
    end
    local o = envelope()
    o.scenario = head(run)
    o.interventions = list
    o.ranking = array(ranking)
    return finish(out, args, o, engine.array(), table.concat(lines))
  end),
}

-- ---- attribute ------------------------------------------------------------------------------

prog:verb {
  name    = "attribute",
  summary = "Shapley attribution of a bundle of interventions",
  options = options({
    { "--bundle", type = "string", required = true, metavar = "NAME,...",
      help = "1 to 12 distinct intervention names" },
    INTERVENTION_OPT,
  }),
  run     = guarded("attribute", function(args, out)
    local run = scenario_of(args)
    local set = intervention_set(args, run.scn)
    local names = names_list(args.bundle, "--bundle", set, 1, 12)
    local r = models.network.shapley(run.scn, pick(set, names), VARIANT)
    local shap = engine.object()
    local lines = { ("Shapley attribution of %s on %s\n"):format(table.concat(names, ", "),
                                                                run.scn.name or "") }
    for i, n in ipairs(names) do
      shap[n] = r.shapley[i]
      lines[#lines + 1] = ("  %-20s %s\n"):format(n, f1(r.shapley[i]))
    end
    local add = r.bundle_sea > 0 and (r.sum_of_individual_sea - r.bundle_sea) / r.bundle_sea or nil
    lines[#lines + 1] = ("  bundle SEA %s, sum of individual SEAs %s\n")
                        :format(f1(r.bundle_sea), f1(r.sum_of_individual_sea))
    local o = envelope()
    o.scenario = head(run)
    o.bundle = array(names)
    o.shapley = shap
    o.bundle_sea = r.bundle_sea
    o.sum_of_individual_sea = r.sum_of_individual_sea
    o.additivity_error = null(add)
    o.capped = r.capped
    return finish(out, args, o, engine.array(), table.concat(lines))
  end),
}

-- ---- map ------------------------------------------------------------------------------------

local function number_list(text, option, is_int, lo, hi)
  local list = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = NW.float_text(item)
    if is_int then
      local s = item:match("^%s*(.-)%s*$"):gsub("_", "")
      v = s:match("^[+-]?%d+$") and math.tointeger(tonumber(s)) or nil
    end
    if v == nil or v < lo or v > hi then
      usage(option, ("%s item %s is not %s within %s..%s"):format(option, py.repr(item),
            is_int and "an integer" or "a finite number", py.repr(lo), py.repr(hi)))
    end
    list[#list + 1] = v
  end
  return list
end

prog:verb {
  name    = "map",
  summary = "decision map: the winning intervention per (failure rate, oversubscription, scale)",
  options = options({
    INTERVENTION_OPT,
    { "--rates", type = "string", metavar = "LIST", help = "failure rates per node-day" },
    { "--oversubscription", type = "string", metavar = "LIST", help = "cross-pod ratios" },
    { "--scales", type = "string", metavar = "LIST", help = "accelerators in the job" },
  }),
  run     = guarded("map", function(args, out)
    local rates = args.rates and number_list(args.rates, "--rates", false, 0, 100) or DEFAULT_RATES
    local sigmas = args.oversubscription
                   and number_list(args.oversubscription, "--oversubscription", false, 1, 1000)
                   or DEFAULT_OVERSUB
    local scales = args.scales and number_list(args.scales, "--scales", true, 1, 100000000)
                   or DEFAULT_SCALES
    if #rates * #sigmas * #scales > MAX_MAP_CELLS then
      local option = args.rates and "--rates"
                     or (args.oversubscription and "--oversubscription" or "--scales")
      usage(option,
            ("the grid has %d cells, more than the %d a map computes")
            :format(#rates * #sigmas * #scales, MAX_MAP_CELLS))
    end
    local run = scenario_of(args)
    local set = intervention_set(args, run.scn)
    local cells, lines = engine.array(), {}
    local inside, winners, win_order, distinct = 0, {}, {}, {}
    for _, rate in ipairs(rates) do
      for _, sigma in ipairs(sigmas) do
        for _, scale in ipairs(scales) do
          local base = NW.copy(run.scn)
          base.reliability.failure_rate_per_node_day = rate + 0.0
          base.topology.oversubscription = sigma + 0.0
          local scn = models.network.rescale(base, math.ceil(scale * base.overhead))
          local cell = engine.object("failure_rate_per_node_day", rate + 0.0,
                                     "oversubscription", sigma + 0.0, "scale", scale,
                                     "realizable", scn ~= nil)
          if scn then
            local w = NW.winner(scn, set)
            local l = NW.ledger(scn)
            local seas = engine.object()
            for _, r in ipairs(w.rows) do seas[r.name] = null(r.sea) end
            cell.world_size = l.world_size
            cell.n_pool = l.n_pool
            cell.winner = w.name
            cell.winner_category = w.category
            cell.winner_sea = null(w.sea)
            cell.recovery_pressure = l.recovery_pressure
            cell.within_validity_envelope = l.within_validity_envelope
            cell.sea = seas
            if l.within_validity_envelope then
              inside = inside + 1
              local key = tostring(scale)
              if not winners[key] then
                winners[key] = engine.object()
                win_order[#win_order + 1] = key
              end
              winners[key][w.name] = (winners[key][w.name] or 0) + 1
              distinct[w.name] = true
            end
            lines[#lines + 1] = ("  rate %-10s sigma %-5s scale %-7d winner %-18s SEA %s%s\n")
                                :format(py.repr(rate + 0.0), py.repr(sigma + 0.0), scale, w.name,
                                        w.sea and f1(w.sea) or "unattainable",
                                        l.within_validity_envelope and "" or " (outside envelope)")
          else
            for _, k in ipairs({ "world_size", "n_pool", "winner", "winner_category", "winner_sea",
                                 "recovery_pressure", "within_validity_envelope", "sea" }) do
              cell[k] = engine.null
            end
            lines[#lines + 1] = ("  rate %-10s sigma %-5s scale %-7d not realizable\n")
                                :format(py.repr(rate + 0.0), py.repr(sigma + 0.0), scale)
          end
          cells[#cells + 1] = cell
        end
      end
    end
    local wobj = engine.object()
    for _, k in ipairs(win_order) do wobj[k] = winners[k] end
    local dlist = {}
    for n in pairs(distinct) do dlist[#dlist + 1] = n end
    table.sort(dlist)
    local rl, sl, scl = engine.array(), engine.array(), engine.array()
    for i, r in ipairs(rates) do rl[i] = r + 0.0 end
    for i, s in ipairs(sigmas) do sl[i] = s + 0.0 end
    for i, s in ipairs(scales) do scl[i] = s end
    local o = envelope()
    o.scenario = head(run)
    o.grid = engine.object("rates", rl, "oversubscription", sl, "scales", scl)
    o.cells = cells
    o.summary = engine.object("cells", #cells, "inside_envelope", inside, "winners", wobj,
                              "distinct_winners", array(dlist))
    table.insert(lines, 1, ("decision map over %d cells, %d inside the validity envelope\n")
                           :format(#cells, inside))
    return finish(out, args, o, engine.array(), table.concat(lines))
  end),
}

-- ---- atlas, span, stitch, bytes -------------------------------------------------------------

local function distance(args, required)
  if args.regime and args.alpha_us then
    usage("--alpha-us", "give --regime or --alpha-us, not both")
  end
  if args.regime then return NW.regime(args.regime).alpha_us, args.regime end
  if args.alpha_us then return args.alpha_us + 0.0, nil end
  if required then usage("--regime", "give --regime NAME or --alpha-us A") end
end

local SPAN_STRICT = { "width-beyond-reported", "more-than-two-halls" }

prog:verb {
  name    = "atlas",
  summary = "retention of every (distance regime, cut) pair across a stitch",
  options = options({ circuit_opt(true), placement_opt(), halls_opt(),
                      { "--floor", type = "float", min = 0, max = 1, default = 0.90, metavar = "F",
                        help = "retention a surviving cut keeps (default 0.90)" } }),
  run     = guarded("atlas", function(args, out)
    local run = scenario_of(args)
    local cells, surviving = engine.array(), engine.object()
    local lines = { ("atlas of %s at %s Gbit/s, %s placement, %d halls\n")
                    :format(run.scn.name or "", py.repr(args.circuit_gbps + 0.0), args.placement,
                            args.halls) }
    for _, r in ipairs(NW.REGIMES) do
      local keep = engine.array()
      for _, cut in ipairs(NW.CUTS) do
        local c = NW.span(run.scn, cut, r.alpha_us, args.circuit_gbps + 0.0, args.halls,
                          args.placement)
        cells[#cells + 1] = engine.object("regime", r.name, "alpha_us", r.alpha_us + 0.0,
                                          "cut", cut, "applicable", c.applicable,
                                          "retention", null(c.retention),
                                          "step_ratio", null(c.step_ratio))
        if c.applicable and c.retention >= args.floor then keep[#keep + 1] = cut end
        lines[#lines + 1] = ("  %-14s %-10s %s\n"):format(r.name, cut,
                            c.applicable and ("retention %s  step x%s"):format(f4(c.retention),
                                                                              f4(c.step_ratio))
                            or "not applicable")
      end
      surviving[r.name] = keep
    end
    local o = envelope()
    o.scenario = head(run)
    o.circuit_gbps = args.circuit_gbps + 0.0
    o.placement = args.placement
    o.halls = args.halls
    o.floor = args.floor + 0.0
    o.cells = cells
    o.surviving = surviving
    return finish(out, args, o, strict_findings(run, args, SPAN_STRICT,
                                                { gbps = args.circuit_gbps, halls = args.halls }),
                  table.concat(lines))
  end),
}

local function placements_obj(h, b)
  return engine.object("hierarchical", engine.object("retention", null(h.retention),
                                                     "step_ratio", null(h.step_ratio)),
                       "blind", engine.object("retention", null(b.retention),
                                              "step_ratio", null(b.step_ratio)))
end

prog:verb {
  name    = "span",
  summary = "one cut across one stitch, both placements",
  options = options({ cut_opt(true), distance_opts()[1], distance_opts()[2], circuit_opt(true),
                      placement_opt(), halls_opt() }),
  run     = guarded("span", function(args, out)
    local alpha, regime = distance(args, true)
    local run = scenario_of(args)
    local g = args.circuit_gbps + 0.0
    local h = NW.span(run.scn, args.cut, alpha, g, args.halls, "hierarchical")
    local b = NW.span(run.scn, args.cut, alpha, g, args.halls, "blind")
    local c = args.placement == "blind" and b or h
    local o = envelope()
    o.scenario = head(run)
    o.cut = args.cut
    o.regime = null(regime)
    o.alpha_us = alpha
    o.circuit_gbps = g
    o.halls = args.halls
    o.placement = args.placement
    o.applicable = c.applicable
    o.retention = null(c.retention)
    o.step_ratio = null(c.step_ratio)
    o.placements = placements_obj(h, b)
    local text = c.applicable
      and ("%s cut at %s us over %s Gbit/s (%s): retention %s, step x%s; hierarchical %s, "
           .. "blind %s\n"):format(args.cut, py.repr(alpha), py.repr(g), args.placement,
                                  f4(c.retention), f4(c.step_ratio), f4(h.retention),
                                  f4(b.retention))
      or ("%s cut: not applicable across %d halls\n"):format(args.cut, args.halls)
    return finish(out, args, o, strict_findings(run, args, SPAN_STRICT,
                                                { gbps = g, halls = args.halls }), text)
  end),
}

prog:verb {
  name    = "stitch",
  summary = "how many of a second hall's accelerators a stitch delivers",
  options = options({ cut_opt(true), distance_opts()[1], distance_opts()[2], circuit_opt(true) }),
  run     = guarded("stitch", function(args, out)
    local alpha, regime = distance(args, true)
    local run = scenario_of(args)
    local g = args.circuit_gbps + 0.0
    local s = models.network.stitch(run.scn, args.cut, alpha, g, VARIANT)
    local o = envelope()
    o.scenario = head(run)
    o.cut = args.cut
    o.regime = null(regime)
    o.alpha_us = alpha
    o.circuit_gbps = g
    o.applicable = s.applicable
    o.accelerators_connected = null(s.accelerators_connected)
    o.accelerators_delivered = null(s.accelerators_delivered)
    o.efficiency = null(s.efficiency)
    o.throughput_local = null(s.throughput_local)
    o.throughput_spanned = null(s.throughput_spanned)
    local text = s.applicable
      and ("a stitch at %s us over %s Gbit/s (%s cut) delivers %s of the %d accelerators it "
           .. "connects (efficiency %s)\n"):format(py.repr(alpha), py.repr(g), args.cut,
                                                   f1(s.accelerators_delivered),
                                                   s.accelerators_connected, f4(s.efficiency))
      or ("the %s cut cannot be stitched on this job\n"):format(args.cut)
    return finish(out, args, o, strict_findings(run, args, SPAN_STRICT, { gbps = g }), text)
  end),
}

prog:verb {
  name    = "bytes",
  summary = "bytes each cut pushes across the stitch per step, exposed bytes, circuit bound",
  options = options({
    { "--cut", type = "string", metavar = "C,...", help = "cuts (default all five)" },
    circuit_opt(false, 400.0), halls_opt() }),
  run     = guarded("bytes", function(args, out)
    local cuts = NW.CUTS
    if args.cut then
      cuts = {}
      for item in (args.cut .. ","):gmatch("([^,]*),") do
        local ok = false
        for _, c in ipairs(NW.CUTS) do
          if c == item then ok = true end
        end
        if not ok then usage("--cut", ("--cut item %s is not one of tp, cp, pp, dp, checkpoint")
                                      :format(py.repr(item))) end
        cuts[#cuts + 1] = item
      end
    end
    local run = scenario_of(args)
    local g = args.circuit_gbps + 0.0
    local list = engine.array()
    local lines = { ("bytes across a %s Gbit/s stitch of %d halls, per step\n")
                    :format(py.repr(g), args.halls) }
    for i, cut in ipairs(cuts) do
      local b = models.network.bytes(run.scn, cut, args.halls, g, VARIANT)
      local hide = b.modelled and b.raw > 0 and 1 - b.exposed / b.raw or nil
      list[i] = engine.object("cut", cut, "modelled", b.modelled, "raw_bytes", null(b.raw),
                              "exposed_bytes", null(b.exposed), "hideable_fraction", null(hide),
                              "circuit_lower_bound_s", null(b.lower_bound_s))
      lines[#lines + 1] = b.modelled
        and ("  %-10s raw %s GB  exposed %s GB  circuit bound %s s\n")
            :format(cut, py.fixed(b.raw / 1e9, 3), py.fixed(b.exposed / 1e9, 3),
                    f4(b.lower_bound_s))
        or ("  %-10s not modelled\n"):format(cut)
    end
    local o = envelope()
    o.scenario = head(run)
    o.circuit_gbps = g
    o.halls = args.halls
    o.cuts = list
    return finish(out, args, o, strict_findings(run, args, SPAN_STRICT,
                                                { gbps = g, halls = args.halls }),
                  table.concat(lines))
  end),
}

-- ---- validate -------------------------------------------------------------------------------

prog:verb {
  name    = "validate",
  summary = "run the validation registry (section 7)",
  options = {
    { "--mutate", type = "choice", choices = MUTATIONS, metavar = "NAME",
      help = "break one formula on purpose: " .. table.concat(MUTATIONS, ", ") },
    fmt_opt(),
  },
  run     = function(args, out)
    local entry = engine.validate { pack = "network", mutation = args.mutate }
    if args.format == "json" then
      out:json(engine.object("mutation", null(args.mutate), "ok", entry.ok,
                             "registries", array({ entry })))
      return entry.ok and 0 or 1
    end
    -- The text of `infragate validate` (core.md 11.4), line for line.
    local under = args.mutate and (" under mutation '" .. args.mutate .. "'") or ""
    local lines = { ("validation registry of pack 'network'%s\n"):format(under) }
    for _, p in ipairs(entry.points) do
      lines[#lines + 1] = ("  %-40s %-10s %-10s expected %-10.4g actual %-10.4g tol %-8.4g %s\n")
                          :format(p.id, p.kind, engine.json(array(p.refs)), p.expected,
                                  engine.isnull(p.actual) and 0 / 0 or p.actual, p.tolerance,
                                  p.ok and "PASS" or "FAIL")
    end
    if #entry.declined > 0 then
      lines[#lines + 1] = "  declined anchors:\n"
      for _, d in ipairs(entry.declined) do
        lines[#lines + 1] = ("    - %s: %s\n"):format(d.what, d.why)
      end
    end
    lines[#lines + 1] = entry.ok and "every point reproduced\n" or "some points did not reproduce\n"
    out:write(table.concat(lines))
    return entry.ok and 0 or 1
  end,
}

-- ---- lint -----------------------------------------------------------------------------------

prog:verb {
  name     = "lint",
  summary  = "rules over capacity proposals, fabric plans and scenarios",
  lint     = true,
  operands = { name = "PATH", min = 1 },
  options  = {
    { "--strict", type = "flag", help = "run strict rules (the default here)" },
    { "--no-strict", type = "flag", help = "do not run strict rules" },
    { "--format", type = "choice", choices = { "text", "json", "sarif", "github", "junit" },
      default = "text", help = "report format" },
  },
  run      = function(args)
    return engine.lint { operands = args.operands, pack = "network",
                         strict = verbs.strict_choice(args), format = args.format }
  end,
}
