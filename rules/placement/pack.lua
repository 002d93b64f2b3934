-- The placement pack (spec/placement.md): where on the four-rung continuum
-- from a cell tower to a central AI factory a workload may run (the gate
-- cascade of 7.4) and where it should run (centralize by default, 7.5).
-- This file holds the data (constants, default tiers, the workload library,
-- the GPU table), the gates as a table a mutation or a site pack can
-- replace, placement, and the rule ids with their severities. The rules
-- are rules.lua; reading documents, the library documents, the fleet
-- arithmetic, the model calls and the per-kind lint analysis are modules
-- in lib/; each is compiled only by a run that needs it. commands.lua (the
-- edge-placement verbs, whose code is in lib/cli/), rules.lua and
-- validation.lua (the registry's figures) reach it through the globals
-- below; every figure is computed by models.placement.
engine.pack {
  summary   = "edge placement gates, placement physics and the tower-versus-hub fleet",
  help_base = "https://infragate.invalid/rules/placement/",
}

-- ---- constants (spec/placement.md 7.1): the one place they live -----------

CONST = {
  FIBER_US_PER_KM       = 4.9,       -- us/km one way, SMF [1]
  HOLLOW_CORE_US_PER_KM = 3.5,       -- us/km, informational [6]
  PFC_HEADROOM_BDP_MULT = 2.0,       -- x one-way BDP [2]
  IB_VL_BUFFER_KB       = 128,       -- KB per virtual lane [3]
  FRONTHAUL_BUDGET_US   = 100.0,     -- us one way, O-RAN 7.2x [11]
  INGEST_COSTLY_GBPS    = 0.25,      -- Gbps of sustained raw ingest [18]
  GRAVITY_COSTLY_KM     = 20.0,      -- km: beyond the metro edge
  POWER_OVERHEAD        = 1.35,      -- x GPU TDP [14][15]
  EARTH_R_KM            = 6371.0088, -- km, validation only
  MAX_LADDER            = 16,
}

-- The latency domains, in the order of the model's index (7.1 DOMAINS).
DOMAIN_NAMES = { "intra-rack", "intra-pod", "metro", "regional+" }

-- ---- default tiers (3.1), ladder order, edge first --------------------------

DEFAULT_TIERS = {
  { name = "tower", ai_power_kw = 1.5, cooling = "air", max_fabric_gpus = 2,
    max_gpu_watts = 75.0, fabric = "none", km_to_user = 2.0, km_to_parent = 15.0,
    transit_rtt_ms = 0.1, staffed = false, in_region = true },
  { name = "aggregation-hub", ai_power_kw = 50.0, cooling = "liquid", max_fabric_gpus = 64,
    max_gpu_watts = 700.0, fabric = "pod", km_to_user = 15.0, km_to_parent = 40.0,
    transit_rtt_ms = 0.3, staffed = true, in_region = true },
  { name = "metro-pop", ai_power_kw = 2000.0, cooling = "liquid", max_fabric_gpus = 2048,
    max_gpu_watts = 1400.0, fabric = "full", km_to_user = 40.0, km_to_parent = 500.0,
    transit_rtt_ms = 1.0, staffed = true, in_region = true },
  { name = "central-factory", ai_power_kw = 100000.0, cooling = "liquid",
    max_fabric_gpus = 100000, max_gpu_watts = 1400.0, fabric = "full", km_to_user = 500.0,
    km_to_parent = 0.0, transit_rtt_ms = 10.0, staffed = true, in_region = false },
}

-- The tier name whose tiers (and tiers based on it) default to out of region.
CENTRAL_TIER = "central-factory"

-- ---- the workload library (3.2), matrix row order ------------------------------

local INF = math.huge

local function lib(name, sla, acc, gpus, watts, coll, grav, ingest, sov, class, note)
  return { name = name, note = note, latency_sla_ms = sla, access_rtt_ms = acc, gpus = gpus,
           gpu_watts = watts, collective = coll, data_gravity = grav, ingest_gbps = ingest,
           sovereign = sov, resilience_class = class }
end

LIBRARY = {
  lib("ran-l1-baseband", 0.2, 0.0, 1, 75.0, "none", "local", 25.0, true, "R0",
      "radio layer 1 on a pinned MIG slice, held to the eCPRI fronthaul budget"),
  lib("ric-xapp-loop", 10.0, 0.0, 1, 75.0, "none", "local", 0.0, false, "R1",
      "near-real-time RIC control loop (10 ms to 1 s)"),
  lib("telemetry-anomaly", 100.0, 0.0, 1, 75.0, "none", "local", 0.5, false, "R2",
      "anomaly scoring of RAN telemetry where the streams start"),
  lib("realtime-cv", 20.0, 2.0, 1, 75.0, "none", "local", 1.0, false, "R2",
      "closed-loop camera analytics"),
  lib("agentic-voice", 100.0, 20.0, 1, 75.0, "none", "local", 0.0, false, "R2",
      "speech agents over 5G access, within a 150-300 ms conversational budget"),
  lib("rag-slm-inference", 100.0, 20.0, 1, 75.0, "none", "mixed", 0.0, false, "R2",
      "a small model answering from a local index"),
  lib("sovereign-inference-70b", 150.0, 20.0, 4, 700.0, "pod", "local", 0.0, true, "R2",
      "regulated inference that must stay in the jurisdiction"),
  lib("video-vlm", 100.0, 5.0, 8, 350.0, "pod", "local", 4.0, false, "R2",
      "a vision-language model over many cameras on an L40-class pod"),
  lib("medium-llm-serving", 100.0, 20.0, 8, 700.0, "pod", "mixed", 0.0, false, "R2",
      "tensor-parallel serving of a 70B-class model"),
  lib("lora-finetune", INF, 0.0, 8, 700.0, "pod", "mixed", 0.0, false, "R2",
      "parameter-efficient fine-tuning"),
  lib("regional-batch-train", INF, 0.0, 512, 700.0, "large", "central", 0.0, false, "R2",
      "mid-scale synchronous training"),
  lib("frontier-pretrain", INF, 0.0, 16384, 700.0, "large", "central", 0.0, false, "R2",
      "synchronous pretraining of a 405B-class model"),
}

-- ---- GPUs (3.3) and the default fleet (4.4) ---------------------------------------

GPU_TABLE = {
  order = { "l4", "h100" },
  l4    = { watts = 72.0, tflops_fp8 = 242.0 },
  h100  = { watts = 700.0, tflops_fp8 = 1979.0 },
}

FLEET_DEFAULTS = {
  tower = { tier = "tower", sites = 30000, gpu = "l4" },
  hub   = { tier = "aggregation-hub", sites = 300, gpu = "h100" },
}

-- How the recommender walks the verdicts (7.5); validation mutations change
-- it, and an air-cooling cutoff that the newest reference removed (D12).
POLICY = { walk = "central-first", air_cooling_cutoff_w = nil }

-- Model switches of validation mutations (spec/core.md 11.2): figures pass
-- these on; nothing a document or an option reaches sets them.
VARIANT = {}

-- ---- physics through the models -----------------------------------------------

local M = models.placement

local function one_way_us(km)
  return M.one_way_us(km, CONST.FIBER_US_PER_KM)
end

local function rtt_ms(km)
  return M.rtt_ms(km, CONST.FIBER_US_PER_KM)
end

local function power_gpus(kw, watts)
  -- An integer-valued float (saturated at 2^62): floor gives the integer.
  return math.floor(M.power_gpus(kw, watts, CONST.POWER_OVERHEAD))
end

local function r(x) return engine.repr(x) end

-- ---- the gates (7.4), in cascade order ---------------------------------------------
-- Each gate returns nil (pass) or {status, reason, detail, figures}. A site
-- pack or a mutation may replace one entry's check.

local function blocked(reason, detail, figures)
  return { status = "BLOCKED", reason = reason, detail = detail, figures = figures }
end

GATES = {
  { name = "fabric", rule = "placement.fabric",
    check = function(w, t)
      if w.collective == "large" and t.fabric ~= "full" then
        return blocked("needs-full-fabric",
          ("a large collective over %d GPUs needs a full fabric, and tier '%s' has fabric '%s'")
          :format(w.gpus, t.name, t.fabric),
          engine.object("gpus", w.gpus, "fabric", t.fabric))
      end
      if w.collective == "pod" and t.fabric == "none" then
        return blocked("needs-scale-out",
          ("pod collectives need a scale-out fabric, and tier '%s' has fabric 'none'")
          :format(t.name), engine.object("fabric", t.fabric))
      end
      if w.gpus > t.max_fabric_gpus then
        return blocked("fabric-size",
          ("%d GPUs exceed tier '%s''s fabric of %d GPUs (max_fabric_gpus)")
          :format(w.gpus, t.name, t.max_fabric_gpus),
          engine.object("gpus", w.gpus, "max_fabric_gpus", t.max_fabric_gpus))
      end
    end },
  { name = "power", rule = "placement.power",
    check = function(w, t, fig)
      if w.gpu_watts > t.max_gpu_watts then
        return blocked("tdp-envelope",
          ("a %s W GPU is over tier '%s''s %s W envelope (max_gpu_watts)")
          :format(r(w.gpu_watts), t.name, r(t.max_gpu_watts)),
          engine.object("gpu_watts", w.gpu_watts, "max_gpu_watts", t.max_gpu_watts))
      end
      local cutoff = POLICY.air_cooling_cutoff_w
      if cutoff and t.cooling == "air" and w.gpu_watts > cutoff then
        return blocked("air-cooling-cutoff",
          ("a %s W GPU is over the %s W air-cooling cutoff of tier '%s'")
          :format(r(w.gpu_watts), r(cutoff), t.name),
          engine.object("gpu_watts", w.gpu_watts, "cutoff_w", cutoff))
      end
      if w.gpus > fig.power_gpus then
        return blocked("power-envelope",
          ("%d GPUs of %s W need more than tier '%s''s %s kW, which feeds %d at %s x TDP")
          :format(w.gpus, r(w.gpu_watts), t.name, r(t.ai_power_kw), fig.power_gpus,
                  r(CONST.POWER_OVERHEAD)),
          engine.object("gpus", w.gpus, "gpu_watts", w.gpu_watts,
                        "ai_power_kw", t.ai_power_kw, "power_gpus", fig.power_gpus))
      end
    end },
  { name = "latency", rule = "placement.latency",
    check = function(w, t, fig)
      if w.resilience_class == "R0" then
        if fig.fronthaul_us > CONST.FRONTHAUL_BUDGET_US then
          return blocked("fronthaul-budget",
            ("R0 fronthaul of %s µs over %s km is over the %s µs budget")
            :format(r(fig.fronthaul_us), r(t.km_to_user), r(CONST.FRONTHAUL_BUDGET_US)),
            engine.object("fronthaul_us", fig.fronthaul_us, "km_to_user", t.km_to_user,
                          "budget_us", CONST.FRONTHAUL_BUDGET_US))
        end
        return nil
      end
      if w.latency_sla_ms == INF then return nil end
      if fig.path_rtt_ms > w.latency_sla_ms then
        return blocked("latency-budget",
          ("path RTT %s ms (access %s + propagation %s + transit %s) is over the %s ms SLA")
          :format(r(fig.path_rtt_ms), r(w.access_rtt_ms), r(fig.propagation_rtt_ms),
                  r(t.transit_rtt_ms), r(w.latency_sla_ms)),
          engine.object("access_rtt_ms", w.access_rtt_ms,
                        "propagation_rtt_ms", fig.propagation_rtt_ms,
                        "transit_rtt_ms", t.transit_rtt_ms, "path_rtt_ms", fig.path_rtt_ms,
                        "latency_sla_ms", w.latency_sla_ms))
      end
    end },
  { name = "gravity", rule = "placement.gravity",
    check = function(w, t)
      if w.sovereign and not t.in_region then
        return blocked("residency",
          ("a sovereign workload may not run on tier '%s', which is out of region "
           .. "(in_region false)"):format(t.name), engine.object("in_region", false))
      end
      if w.data_gravity == "local" and w.ingest_gbps > CONST.INGEST_COSTLY_GBPS
          and t.km_to_user > CONST.GRAVITY_COSTLY_KM then
        return { status = "COSTLY", reason = "ingest-haul", rule = "placement.costly",
          detail = ("hauling %s Gbps of local ingest %s km is over %s Gbps beyond %s km")
            :format(r(w.ingest_gbps), r(t.km_to_user), r(CONST.INGEST_COSTLY_GBPS),
                    r(CONST.GRAVITY_COSTLY_KM)),
          figures = engine.object("ingest_gbps", w.ingest_gbps, "km_to_user", t.km_to_user,
                                  "ingest_costly_gbps", CONST.INGEST_COSTLY_GBPS,
                                  "gravity_costly_km", CONST.GRAVITY_COSTLY_KM) }
      end
    end },
}

local MARKS = { VIABLE = "+", COSTLY = "~(g)" }

-- The five figures of a tier for a workload (6.1), whatever the verdict.
local function tier_figures(w, t)
  local prop = rtt_ms(t.km_to_user)
  return { km_to_user = t.km_to_user, fronthaul_us = one_way_us(t.km_to_user),
           propagation_rtt_ms = prop, path_rtt_ms = (w.access_rtt_ms + prop) + t.transit_rtt_ms,
           power_gpus = power_gpus(t.ai_power_kw, w.gpu_watts) }
end

-- The verdict of workload w on tier t: the first gate that objects decides.
local function evaluate(w, t)
  local fig = tier_figures(w, t)
  for _, gate in ipairs(GATES) do
    local v = gate.check(w, t, fig)
    if v then
      v.gate = gate.name
      v.rule = v.rule or gate.rule
      v.tier = t
      v.fig = fig
      v.mark = MARKS[v.status] or ("x(" .. gate.name:sub(1, 1) .. ")")
      return v
    end
  end
  return { status = "VIABLE", tier = t, fig = fig, mark = MARKS.VIABLE }
end

-- Placement (7.5): the most central VIABLE tier, else the most central
-- COSTLY one; forced_by names the top tier's gate when that is not the top.
local function place(verdicts)
  local n = #verdicts
  local first, last, step = n, 1, -1
  if POLICY.walk == "edge-first" then first, last, step = 1, n, 1 end
  local rec
  for _, want in ipairs({ "VIABLE", "COSTLY" }) do
    for i = first, last, step do
      if verdicts[i].status == want then rec = i break end
    end
    if rec then break end
  end
  local forced
  if not rec then
    forced = "infeasible"
  elseif rec ~= n then
    forced = verdicts[n].gate
  end
  return rec, forced
end

local function evaluate_ladder(w, tiers)
  local vs = {}
  for i, t in ipairs(tiers) do vs[i] = evaluate(w, t) end
  local rec, forced = place(vs)
  return { verdicts = vs, rec = rec, forced_by = forced }
end

-- ---- names and lookups -------------------------------------------------------------------

local function find_by_name(list, name)
  for i, item in ipairs(list) do
    if item.name == name then return item, i end
  end
  return nil
end

local function names_of(list)
  local out = {}
  for i, item in ipairs(list) do out[i] = item.name end
  return out
end

local function quoted_list(names)
  local q = {}
  for i, n in ipairs(names) do q[i] = "'" .. n .. "'" end
  return table.concat(q, ", ")
end

-- Tier lookup (7.7): exact, else the unique prefix match, else the unique
-- substring match. Returns index, match; or nil, message.
local function lookup_tier(tiers, text)
  for i, t in ipairs(tiers) do
    if t.name == text then return i, "exact" end
  end
  for _, how in ipairs({ "prefix", "substring" }) do
    local hits = {}
    for i, t in ipairs(tiers) do
      local at = t.name:find(text, 1, true)
      if at and (how == "substring" or at == 1) then hits[#hits + 1] = i end
    end
    if #hits == 1 then return hits[1], how end
    if #hits > 1 then
      local names = {}
      for k, i in ipairs(hits) do names[k] = tiers[i].name end
      return nil, ("tier '%s' is ambiguous: it matches %s by %s"):format(
        text, quoted_list(names), how)
    end
  end
  return nil, ("no tier is named '%s'; the ladder has %s"):format(
    text, quoted_list(names_of(tiers)))
end

-- ---- document resolution (5.1-5.6) --------------------------------------------------------
-- What the built-in ladder and library need here; reading documents is
-- lib/resolve.lua. A problem is {file, at, key, on, message}.

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

local function problem(ps, file, at, key, message, on)
  ps[#ps + 1] = { file = file, at = at, key = key, on = on, message = message }
end

-- The resolution of workload, tier and ladder documents and the ladder
-- rules are lib/resolve.lua, compiled on the first document: the -w and -t
-- of the published tool need none of it.
local function resolve_workload(...) return require("resolve").resolve_workload(...) end
local function resolve_tier(...) return require("resolve").resolve_tier(...) end
local function resolve_ladder(...) return require("resolve").resolve_ladder(...) end
local function apply_overrides(...) return require("resolve").apply_overrides(...) end
local function ladder_findings(...) return require("resolve").ladder_findings(...) end

local function default_tier(name)
  local t = find_by_name(DEFAULT_TIERS, name)
  if not t then return nil end
  local c = copy(t)
  c.base = name
  c.in_region_stated = false
  return c
end

local function default_ladder()
  local tiers = {}
  for i, t in ipairs(DEFAULT_TIERS) do tiers[i] = default_tier(t.name) end
  return tiers
end

-- ---- requests ---------------------------------------------------------------------------

-- Resolve a placement request. opts: file (the request's display path),
-- ladder = {doc = view, file = path} from --ladder, tier = the -t text (it
-- overrides the document's), workload = a library record from -w (no
-- document). Returns the context; rc.problems lists what failed.
local function resolve_request(doc, opts)
  local rc = { problems = {}, file = opts.file }
  local ps = rc.problems
  if doc then
    rc.workload = resolve_workload(doc, "workload", opts.file, ps)
    rc.workload_loc = { file = opts.file, at = doc, key = "workload" }
  else
    rc.workload = copy(opts.workload)
  end
  if doc and doc.ladder ~= nil then
    rc.tiers = resolve_ladder(doc, "ladder", opts.file, ps)
    rc.custom = true
  elseif opts.ladder then
    rc.tiers = resolve_ladder(opts.ladder.doc, "tiers", opts.ladder.file, ps)
    rc.custom = true
  else
    rc.tiers = default_ladder()
  end
  if rc.tiers and doc then apply_overrides(doc, rc.tiers, opts.file, ps) end
  if opts.tier ~= nil then
    rc.declared = { text = opts.tier }
  elseif doc and doc.tier ~= nil then
    rc.declared = { text = doc.tier, loc = { file = opts.file, at = doc, key = "tier" } }
  end
  if rc.tiers and rc.declared and rc.declared.text ~= "" then
    local i, how = lookup_tier(rc.tiers, rc.declared.text)
    if i then
      rc.declared.index, rc.declared.match = i, how
    else
      rc.declared.error = how
      if rc.declared.loc then
        problem(ps, opts.file, doc, "tier", how)
      end
    end
  end
  return rc
end

-- ---- findings --------------------------------------------------------------------------
-- Every rule id of the pack and its severity: findings take theirs from
-- here, and rules.lua registers each rule with it. The rules themselves
-- (summaries, fixes, checks) are rules.lua, which a verb that reads no
-- rule never compiles.

RULE_INFO = {
  ["placement.resolve"]                       = { severity = "error" },
  ["placement.fabric"]                        = { severity = "error" },
  ["placement.power"]                         = { severity = "error" },
  ["placement.latency"]                       = { severity = "error" },
  ["placement.gravity"]                       = { severity = "error" },
  ["placement.costly"]                        = { severity = "warning" },
  ["placement.strict.empty-tier"]             = { severity = "error" },
  ["placement.strict.costly-placement"]       = { severity = "error" },
  ["placement.strict.unforced-edge"]          = { severity = "error" },
  ["placement.strict.tier-abbrev"]            = { severity = "warning" },
  ["placement.strict.infeasible"]             = { severity = "error" },
  ["placement.strict.residency-undeclared"]   = { severity = "error" },
  ["placement.strict.ladder-order"]           = { severity = "error" },
  ["placement.strict.fleet-envelope"]         = { severity = "error" },
}

local function finding(list, rule, message, tier, loc, figures)
  list[#list + 1] = { rule = rule, severity = RULE_INFO[rule].severity, message = message,
                      tier = tier, loc = loc, figures = figures,
                      strict = rule:find("^placement%.strict%.") ~= nil }
end

-- Evaluate a resolved request: verdicts, placement, the check of the
-- declared tier and every finding of 9.1 and 9.3 (strict ones marked).
local function analyze_request(rc)
  local a = evaluate_ladder(rc.workload, rc.tiers)
  local out = {}
  a.findings = out
  local d = rc.declared
  local loc = d and d.loc
  if d and d.index then
    local v = a.verdicts[d.index]
    a.check = { requested = d.text, tier = v.tier.name, match = d.match, status = v.status,
                ok = v.status ~= "BLOCKED", index = d.index }
    if v.status == "BLOCKED" then
      finding(out, v.rule, ("declared tier '%s' is blocked by the %s gate: %s")
              :format(v.tier.name, v.gate, v.detail), v.tier.name, loc, v.figures)
    elseif v.status == "COSTLY" then
      finding(out, "placement.costly", ("declared tier '%s' is costly: %s")
              :format(v.tier.name, v.detail), v.tier.name, loc, v.figures)
    end
  end
  if d and d.text == "" then
    finding(out, "placement.strict.empty-tier",
      "the declared tier is empty, so no tier is checked", nil, loc)
  end
  if a.check and a.check.status ~= "BLOCKED" then
    local v = a.verdicts[d.index]
    if v.status == "COSTLY" then
      for _, other in ipairs(a.verdicts) do
        if other.status == "VIABLE" then
          finding(out, "placement.strict.costly-placement",
            ("declared tier '%s' is costly while tier '%s' is viable"):format(
              v.tier.name, other.tier.name), v.tier.name, loc)
          break
        end
      end
    end
    if a.rec and d.index < a.rec then
      finding(out, "placement.strict.unforced-edge",
        ("declared tier '%s' is more edgeward than the recommended '%s', and no gate forces it")
        :format(v.tier.name, a.verdicts[a.rec].tier.name), v.tier.name, loc)
    end
  end
  if a.check and a.check.match ~= "exact" then
    finding(out, "placement.strict.tier-abbrev",
      ("declared tier '%s' names '%s' only by %s; write the full name")
      :format(d.text, a.check.tier, a.check.match), a.check.tier, loc)
  end
  if not a.rec and not a.check then
    finding(out, "placement.strict.infeasible",
      ("no tier accepts workload '%s'"):format(rc.workload.name), nil, rc.workload_loc)
  end
  if rc.custom then ladder_findings(rc.tiers, out) end
  return a
end

-- ---- libraries --------------------------------------------------------------------------

-- lib/library.lua, compiled on first call.
local function resolve_library(...) return require("library").resolve_library(...) end
local function infeasible_findings(...) return require("library").infeasible_findings(...) end

-- ---- fleets (7.6) --------------------------------------------------------------------------

-- lib/fleet.lua, compiled on first call.
local function resolve_fleet(...) return require("fleet").resolve_fleet(...) end
local function fleet_findings(...) return require("fleet").fleet_findings(...) end
local function compare_fleet(...) return require("fleet").compare_fleet(...) end

-- ---- model calls (5.7) --------------------------------------------------------------------

-- lib/calls.lua, compiled on first call.
local function run_calls(...) return require("calls").run_calls(...) end

-- ---- what commands.lua and validation.lua use ----------------------------------------------

PL = {
  evaluate = evaluate, evaluate_ladder = evaluate_ladder, place = place,
  tier_figures = tier_figures, lookup_tier = lookup_tier, find_by_name = find_by_name,
  names_of = names_of, quoted_list = quoted_list, copy = copy,
  default_tier = default_tier, default_ladder = default_ladder,
  resolve_request = resolve_request, resolve_ladder = resolve_ladder,
  resolve_library = resolve_library, resolve_fleet = resolve_fleet,
  analyze_request = analyze_request, ladder_findings = ladder_findings,
  infeasible_findings = infeasible_findings, fleet_findings = fleet_findings,
  compare_fleet = compare_fleet, run_calls = run_calls,
  one_way_us = one_way_us, rtt_ms = rtt_ms, power_gpus = power_gpus,
  M = M, problem = problem, r = r,
  INF = INF, finding = finding, resolve_tier = resolve_tier,
  resolve_workload = resolve_workload,
}
