-- The scheduling pack's rules (spec/scheduling.md 6) over capacity-request
-- and scheduler-policy documents, the strict rules included. The engine
-- compiles this file after pack.lua for a run that reads rules (lint,
-- check, rules, explain, validate) and never for a verb that does not; the
-- checks are lib/checks.lua, which reaches what they share through SCHED.
local py = require "py"
local float = SCHED.float

-- The rules' checks are lib/checks.lua, compiled on the first document a rule
-- checks: a run that lints nothing never compiles them.
local function check_of(id)
  return function(doc, ctx) return require("checks")[id](doc, ctx) end
end

engine.declare {
  id       = "scheduling.missing-field",
  severity = "error",
  stage    = "check",
  summary  = "a capacity request needs fleet, fleet.gpus, request.additional_gpus; "
             .. "a policy needs policy",
  fix      = "add the missing key; the finding's path names it",
}

-- Reported by the replay verb alone (README): declared for --explain and
-- SARIF; no lint document carries a calibration.
engine.declare {
  id       = "scheduling.strict.synthetic-calibration",
  severity = "warning",
  stage    = "check",
  program  = true,
  summary  = "in strict mode a replay calibration must not rest on synthetic evidence",
  fix      = "calibrate from measured traces and set evidence_kind accordingly",
}

local CROSS = "scheduling.cross-field"

local function where_key(doc, parent, key)
  local p = doc[parent]
  if p ~= nil and not engine.isnull(p) and engine.has(p, key) then return p, key end
  if p ~= nil and not engine.isnull(p) then return p, nil end
  return doc, parent
end

engine.rule {
  id       = CROSS,
  kind     = { "capacity-request", "scheduler-policy" },
  severity = "error",
  stage    = "input",
  summary  = "fields that are valid alone must also agree with each other (spec 3.1, 3.2, 3.9)",
  fix      = "change one of the two fields the message names",
  check    = function(doc, ctx)
    if ctx.kind == "capacity-request" then
      if doc.fleet == nil or doc.fleet.gpus == nil then return end
      local s = SCHED.resolved(SCHED.STRANDED_FIELDS,
                               SCHED.plain_fields(SCHED.STRANDED_FIELDS, doc.fleet))
      for _, p in ipairs(SCHED.stranded_cross(s)) do
        ctx:fail(doc.fleet, engine.has(doc.fleet, p[1]) and p[1] or nil, p[2])
      end
      return
    end
    local c = SCHED.resolved(SCHED.CONFIG_FIELDS,
                             SCHED.plain_fields(SCHED.CONFIG_FIELDS, doc.cluster))
    for _, p in ipairs(SCHED.config_cross(c)) do
      local at, key = where_key(doc, "cluster", p[1])
      ctx:fail(at, key, p[2])
    end
    if doc.policy ~= nil and doc.policy ~= "intent-closed-loop" then
      for _, k in ipairs({ "tracking", "elasticity" }) do
        if engine.has(doc, k) then
          ctx:fail(doc, k, ("%s applies to intent-closed-loop only, not to policy %s")
                   :format(k, doc.policy))
        end
      end
    end
  end,
}

-- The limits of spec 5.13 for the gate runs of a scheduler policy (3.9),
-- checked before any simulation; a rule cannot emit the core id
-- input.limit, so this input-stage rule carries it (the file is unusable).
engine.rule {
  id       = "scheduling.input-limit",
  kind     = "scheduler-policy",
  severity = "error",
  stage    = "input",
  summary  = "the gate runs of a scheduler policy must stay within the simulator's limits",
  fix      = "lower offered_load, gpus, the failure rate or gate.horizon_days",
  check    = check_of("scheduling.input-limit"),
}

-- ---- capacity-request (6.2) ----

engine.rule {
  id       = "scheduling.recoverable-exceeds-request",
  kind     = "capacity-request",
  severity = "error",
  summary  = "raising E and P to their targets must not recover at least what the purchase "
             .. "delivers",
  rationale = "scheduler work that recovers stranded GPU-hours is cheaper than GPUs that strand "
              .. "at the same rates",
  fix      = "raise allocation efficiency and productive ratio first, or show targets the fleet "
             .. "cannot reach",
  check    = check_of("scheduling.recoverable-exceeds-request"),
}

engine.rule {
  id       = "scheduling.allocation-below-target",
  kind     = "capacity-request",
  severity = "warning",
  summary  = "the fleet's allocation efficiency is below the attainable target",
  fix      = "work on fragmentation, gang admission and reservations before buying",
  check    = check_of("scheduling.allocation-below-target"),
}

engine.rule {
  id       = "scheduling.stranded-claim",
  kind     = "capacity-request",
  severity = "error",
  summary  = "a claimed stranded total must be the calculator's to the GPU-hour",
  fix      = "use the figure `infragate scheduling stranded` prints for the fleet",
  check    = check_of("scheduling.stranded-claim"),
}

engine.rule {
  id       = "scheduling.strict.windows-exceed-horizon",
  kind     = "capacity-request",
  severity = "error",
  summary  = "outage and degraded hours must both fit in the window",
  fix      = "correct the hours or lengthen the window",
  check    = check_of("scheduling.strict.windows-exceed-horizon"),
}

engine.rule {
  id       = "scheduling.strict.assumed-degradation-weight",
  kind     = "capacity-request",
  severity = "error",
  summary  = "degraded hours need a stated degradation weight",
  fix      = "state degradation_weight from a measurement of the degraded hours",
  check    = check_of("scheduling.strict.assumed-degradation-weight"),
}

-- ---- scheduler-policy (6.3) ----

SCHED.GATE = { seeds = 4, horizon_days = 14, margin = 0.01 }

-- The gate runs of 3.9 and their exact means.
function SCHED.gate(cluster, policy, tracking, elasticity, seeds, days)
  local per = {}
  local any_censored, any_preempt = false, false
  for s = 0, seeds - 1 do
    local cfg = {}
    for k, v in pairs(cluster) do cfg[k] = v end
    cfg.horizon_days, cfg.seed = days, s
    local run = SCHED.simulate(cfg, policy, { tracking = tracking, elasticity = elasticity })
    per[#per + 1] = run.metrics
    if run.jobs_never_started > 0 then any_censored = true end
    if run.metrics.preemptions > 0 then any_preempt = true end
  end
  local means = {}
  for _, m in ipairs(SCHED.METRICS) do
    local xs = {}
    for i, r in ipairs(per) do xs[i] = float(r[m]) end
    means[m] = SCHED.mean(xs)
  end
  return { means = means, censored = any_censored, preempted = any_preempt }
end

local function policy_setup(doc)
  local cluster = SCHED.plain_fields(SCHED.CONFIG_FIELDS, doc.cluster)
  local c = SCHED.resolved(SCHED.CONFIG_FIELDS, cluster)
  local g = doc.gate
  local seeds = g and g.seeds or SCHED.GATE.seeds
  local days = g and g.horizon_days or SCHED.GATE.horizon_days
  local margin = g and g.margin and float(g.margin) or SCHED.GATE.margin
  local intent = doc.policy == "intent-closed-loop"
  local tracking = not intent or doc.tracking == nil or doc.tracking
  local elasticity = not intent or doc.elasticity == nil or doc.elasticity
  return { c = c, cluster = cluster, seeds = seeds, days = days, margin = margin,
           intent = intent, tracking = tracking, elasticity = elasticity,
           static = not intent or not tracking,
           r = math.ceil((c.inf_base + c.inf_diurnal_amp) * 1.05) }
end

local function gate_of(doc, ctx)
  return ctx:once("gate", function()
    local p = policy_setup(doc)
    local limit = models.scheduling.check_limits(p.c, VARIANT)
    if limit then error("input.limit: " .. limit.message) end
    p.run = SCHED.gate(p.cluster, doc.policy, p.tracking, p.elasticity, p.seeds, p.days)
    return p
  end)
end

engine.rule {
  id       = "scheduling.power-shed-by-kill",
  kind     = "scheduler-policy",
  severity = "error",
  summary  = "rigid FIFO under a power envelope sheds each contraction by killing jobs",
  rationale = "a kill discards the work since the job's last checkpoint; graceful preemption "
              .. "keeps it",
  fix      = "run tiered-preemption or intent-closed-loop on a power-capped partition",
  check    = check_of("scheduling.power-shed-by-kill"),
}

engine.rule {
  id       = "scheduling.reservation-below-surge",
  kind     = "scheduler-policy",
  severity = "error",
  summary  = "a static inference reservation must cover a surge at the daily peak",
  fix      = "track demand (intent-closed-loop with tracking) or raise inf_base's reservation",
  check    = check_of("scheduling.reservation-below-surge"),
}

engine.rule {
  id       = "scheduling.peak-provisioned-reservation",
  kind     = "scheduler-policy",
  severity = "warning",
  summary  = "a static reservation holds peak GPUs all day against a lower mean demand",
  fix      = "use intent-closed-loop with tracking so the reservation follows demand",
  check    = check_of("scheduling.peak-provisioned-reservation"),
}

local function claim_rule(id, key, summary, above)
  engine.rule {
    id       = id,
    kind     = "scheduler-policy",
    severity = "error",
    summary  = summary,
    fix      = "claim what `infragate scheduling simulate` reaches over the gate seeds",
    check    = function(doc, ctx)
      local c = doc.claims
      if c == nil or c[key] == nil then return end
      local p = gate_of(doc, ctx)
      local m = p.run.means[key]
      local claim = c[key]
      local broken
      if above then broken = claim > m + p.margin else broken = claim + p.margin < m end
      if broken then
        ctx:fail(c, key,
          ("the claimed %s %s is %s the simulated mean %s by more than the margin %s")
            :format(key, py.repr(claim), above and "above" or "below", py.repr(m),
                    py.repr(p.margin)),
          engine.object("claimed", claim, "simulated", m, "margin", p.margin))
      end
    end,
  }
end

claim_rule("scheduling.realization-claim", "capacity_realization",
           "a claimed capacity realization must not exceed the simulated one", true)
claim_rule("scheduling.slo-claim", "slo_attainment",
           "a claimed inference SLO attainment must not exceed the simulated one", true)
claim_rule("scheduling.wait-claim", "mean_wait_h",
           "a claimed mean wait must not be shorter than the simulated one", false)

engine.rule {
  id       = "scheduling.strict.censored-wait",
  kind     = "scheduler-policy",
  severity = "error",
  summary  = "a mean-wait claim must not rest on runs whose never-started jobs are left out",
  fix      = "lower the offered load or lengthen the gate horizon until every job starts",
  check    = check_of("scheduling.strict.censored-wait"),
}

engine.rule {
  id       = "scheduling.strict.uncharged-preemption",
  kind     = "scheduler-policy",
  severity = "error",
  summary  = "claims of a preempting policy rest on preemption the model does not charge",
  fix      = "discount the claims for a checkpoint write per preemption",
  check    = check_of("scheduling.strict.uncharged-preemption"),
}

-- What lib/checks.lua reads from this file.
SCHED.gate_of = gate_of
SCHED.policy_setup = policy_setup
SCHED.where_key = where_key
