-- The check functions of the scheduling pack's rules (declared in pack.lua), and the
-- helpers only they use. Compiled on the first document a rule checks.

local py = require "py"
local float = SCHED.float
local gate_of = SCHED.gate_of
local policy_setup = SCHED.policy_setup
local where_key = SCHED.where_key

local TARGET_E, TARGET_P = 0.93, 0.90

local function request_figures(doc)
  local given = SCHED.plain_fields(SCHED.STRANDED_FIELDS, doc.fleet)
  local s = SCHED.resolved(SCHED.STRANDED_FIELDS, given)
  local r = SCHED.stranded(s)
  local t = doc.targets
  local et = t and t.allocation_efficiency and float(t.allocation_efficiency) or TARGET_E
  local pt = t and t.productive_ratio and float(t.productive_ratio) or TARGET_P
  local a, e, p = r.availability, s.allocation_efficiency, s.productive_ratio
  local g, h, n = doc.request.additional_gpus, s.window_hours, s.gpus
  local delivered = (((g * h) * a) * e) * p
  local recoverable = (((n * h) * a) * (math.max(e, et) * math.max(p, pt))) - r.usable_gpu_hours
  return { s = s, r = r, et = et, pt = pt, delivered = delivered, recoverable = recoverable }
end

local function fleet_at(doc, key)
  if engine.has(doc.fleet, key) then return doc.fleet, key end
  return doc.fleet, nil
end

local function cluster_at(doc, key)
  if doc.cluster ~= nil and engine.has(doc.cluster, key) then return doc.cluster, key end
  if doc.cluster ~= nil then return doc.cluster, nil end
  return doc, nil
end

local SURGE_GPUS = 120

local checks = {}

checks["scheduling.input-limit"] = function(doc, ctx)
  local cluster = SCHED.plain_fields(SCHED.CONFIG_FIELDS, doc.cluster)
  local c = SCHED.resolved(SCHED.CONFIG_FIELDS, cluster)
  if #SCHED.config_cross(c) > 0 then return end
  local g = doc.gate
  c.horizon_days = g and g.horizon_days or SCHED.GATE.horizon_days
  local limit = models.scheduling.check_limits(c, VARIANT)
  if limit then
    local key = limit.path:match("^/(.*)$")
    local at, k = where_key(doc, "cluster", key)
    ctx:fail(at, k, "input.limit: " .. limit.message)
  end
end

checks["scheduling.recoverable-exceeds-request"] = function(doc, ctx)
  local f = ctx:once("request", function() return request_figures(doc) end)
  if f.recoverable >= f.delivered then
    local h = f.s.window_hours
    ctx:fail(doc.request, "additional_gpus",
      ("raising E to %s and P to %s recovers %s GPU-h (%s GPUs continuously), at least the "
       .. "%s GPU-h (%s GPUs) the %d new GPUs would deliver at the fleet's own rates")
        :format(py.repr(math.max(f.s.allocation_efficiency, f.et)),
                py.repr(math.max(f.s.productive_ratio, f.pt)), SCHED.money(f.recoverable),
                py.fixed(f.recoverable / h, 1), SCHED.money(f.delivered),
                py.fixed(f.delivered / h, 1), doc.request.additional_gpus),
      engine.object("recoverable_gpu_h", f.recoverable, "delivered_gpu_h", f.delivered))
  end
end

checks["scheduling.allocation-below-target"] = function(doc, ctx)
  local f = ctx:once("request", function() return request_figures(doc) end)
  if f.s.allocation_efficiency < f.et then
    local at, key = fleet_at(doc, "allocation_efficiency")
    ctx:fail(at, key,
      ("allocation efficiency %s is below the target %s: the allocation layer strands %s GPU-h")
        :format(py.repr(f.s.allocation_efficiency), py.repr(f.et),
                SCHED.money(f.r.loss_allocation)),
      engine.object("allocation_efficiency", f.s.allocation_efficiency, "target", f.et,
                    "loss_allocation_gpu_h", f.r.loss_allocation))
  end
end

checks["scheduling.stranded-claim"] = function(doc, ctx)
  local c = doc.claims
  if c == nil or c.stranded_gpu_hours == nil then return end
  local f = ctx:once("request", function() return request_figures(doc) end)
  if math.abs(c.stranded_gpu_hours - f.r.stranded_gpu_hours) > 0.5 then
    ctx:fail(c, "stranded_gpu_hours",
      ("the claim of %s stranded GPU-h is not the calculator's %s GPU-h")
        :format(py.repr(c.stranded_gpu_hours), py.repr(f.r.stranded_gpu_hours)),
      engine.object("claimed", c.stranded_gpu_hours, "computed", f.r.stranded_gpu_hours))
  end
end

checks["scheduling.strict.windows-exceed-horizon"] = function(doc, ctx)
  local s = SCHED.resolved(SCHED.STRANDED_FIELDS,
                           SCHED.plain_fields(SCHED.STRANDED_FIELDS, doc.fleet))
  local m = SCHED.windows_exceed(s)
  if m then
    local at, key = fleet_at(doc, "degraded_hours")
    ctx:fail(at, key, m)
  end
end

checks["scheduling.strict.assumed-degradation-weight"] = function(doc, ctx)
  local s = SCHED.resolved(SCHED.STRANDED_FIELDS,
                           SCHED.plain_fields(SCHED.STRANDED_FIELDS, doc.fleet))
  local m = SCHED.assumed_weight(s, engine.has(doc.fleet, "degradation_weight"))
  if m then ctx:fail(doc.fleet, "degraded_hours", m) end
end

checks["scheduling.power-shed-by-kill"] = function(doc, ctx)
  local p = policy_setup(doc)
  if not (p.c.power_envelope and doc.policy == "rigid-fifo") then return end
  local g = gate_of(doc, ctx).run.means
  ctx:fail(doc, "policy",
    ("rigid-fifo sheds the daily power contraction by killing the newest jobs: %s GPU-h "
     .. "of work lost in %s kills per run (mean over %d gate runs)")
      :format(py.fixed(g.work_lost_gpu_h, 1), py.repr(g.emergency_kills), p.seeds),
    engine.object("work_lost_gpu_h", g.work_lost_gpu_h, "emergency_kills", g.emergency_kills))
end

checks["scheduling.reservation-below-surge"] = function(doc, ctx)
  local p = policy_setup(doc)
  if not (p.c.inf_surges and p.static) then return end
  local need = p.c.inf_base + p.c.inf_diurnal_amp + SURGE_GPUS
  if p.r < need then
    local at, key = cluster_at(doc, "inf_surges")
    ctx:fail(at, key,
      ("the static reservation of %d GPUs is below the %s GPUs of a surge at the daily peak")
        :format(p.r, py.repr(need)),
      engine.object("reservation_gpus", p.r, "surge_peak_gpus", need))
  end
end

checks["scheduling.peak-provisioned-reservation"] = function(doc, ctx)
  local p = policy_setup(doc)
  if not p.static then return end
  local g = gate_of(doc, ctx).run.means
  local at, key = doc, "policy"
  if p.intent and engine.has(doc, "tracking") then key = "tracking" end
  ctx:fail(at, key,
    ("the static reservation holds %d GPUs all day for a peak of %s and a daily mean of %s: "
     .. "%s GPU-h reserved and unused per run")
      :format(p.r, py.repr(p.c.inf_base + p.c.inf_diurnal_amp), py.repr(p.c.inf_base),
              py.fixed(g.stranded_reservation_gpu_h, 1)),
    engine.object("reservation_gpus", p.r, "stranded_reservation_gpu_h",
                  g.stranded_reservation_gpu_h))
end

checks["scheduling.strict.censored-wait"] = function(doc, ctx)
  if doc.claims == nil or doc.claims.mean_wait_h == nil then return end
  if gate_of(doc, ctx).run.censored then
    ctx:fail(doc.claims, "mean_wait_h",
             "some gate runs have jobs that never started; the mean wait leaves them out "
             .. "and so flatters the claim")
  end
end

checks["scheduling.strict.uncharged-preemption"] = function(doc, ctx)
  if doc.claims == nil or doc.policy == "rigid-fifo" then return end
  if gate_of(doc, ctx).run.preempted then
    ctx:fail(doc, "policy",
             ("policy %s preempted gracefully in the gate runs, which the model charges no "
              .. "checkpoint write for; the claimed figures are optimistic"):format(doc.policy))
  end
end

return checks
