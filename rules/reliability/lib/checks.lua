-- The check functions of the reliability pack's rules (declared in pack.lua), and the
-- helpers only they use. Compiled on the first document a rule checks.

local py = require "py"
local fail_at = REL.fail_at
local plan_config = REL.plan_config

local function gate(doc, key, default)
  if engine.has(doc, "gate") and engine.has(doc.gate, key) then return doc.gate[key] end
  return default
end

-- Seed-mean ETTR of every policy for a plan, shared by rules 5 and 6.
local function plan_means(doc, ctx)
  return ctx:once("means", function()
    return REL.means(plan_config(doc), REL.POLICIES, gate(doc, "seeds", 8))
  end)
end

local checks = {}

checks["reliability.config-range"] = function(doc, ctx)
  for _, p in ipairs(REL.cross_problems(plan_config(doc))) do
    fail_at(ctx, doc, p.key, p.message)
  end
end

checks["reliability.missing-field"] = function(doc, ctx)
  if not engine.has(doc, "policy") then
    ctx:fail { message = "the plan names no policy (one of " .. table.concat(REL.POLICIES, ", ")
                         .. "): nothing to gate" }
    ctx:stop()
  end
end

checks["reliability.checkpoint-cadence"] = function(doc, ctx)
  local c = plan_config(doc)
  local interval, write, ikey, _, pair = REL.pair(c, doc.policy)
  local rate = REL.event_rate(c)
  if write == 0 or write == interval or rate == 0 then return end
  local k = REL.checkpoint(write, 1 / rate, c.reload_h, interval)
  local x = k.ratio_to_young
  if x >= 0.8 and x <= 1.25 then return end
  local message = ("the %s interval %s h is %s x the Young optimum %s h (write %s h, MTBF %s h):"
                   .. " first-order overhead %s%% above its optimum")
                  :format(pair, py.repr(interval), py.fixed(x, 3), py.fixed(k.young_h, 4),
                          py.repr(write), py.fixed(1 / rate, 4),
                          py.fixed(k.overhead_excess * 100, 1))
  local figures = engine.object("interval_h", interval, "young_h", k.young_h,
                                "ratio_to_young", x, "overhead_excess", k.overhead_excess)
  fail_at(ctx, doc, ikey, message, figures, not (x < 0.5 or x > 2))
end

checks["reliability.spare-pool"] = function(doc, ctx)
  if not REL.SPARES[doc.policy] then return end
  local c = plan_config(doc)
  local need = REL.spare_need(c)
  if c.spare_nodes < need.k_min then
    fail_at(ctx, doc, "spare_nodes",
      ("%d spare nodes are fewer than the %s the repair queue holds on average "
       .. "(%s failures/h x %s h repair and requalification = %s)")
      :format(c.spare_nodes, py.repr(need.k_min), py.repr(need.nu),
              py.repr(c.repair_h + c.requal_h),
              py.repr(need.m)),
      engine.object("spare_nodes", c.spare_nodes, "k_min", need.k_min, "mean_out", need.m))
  elseif c.burst_rate_per_h > 0 and c.spare_nodes < c.burst_blast then
    fail_at(ctx, doc, "spare_nodes",
      ("%d spare nodes can never cover a burst of %d: coverage is all-or-nothing")
      :format(c.spare_nodes, c.burst_blast),
      engine.object("spare_nodes", c.spare_nodes, "burst_blast", c.burst_blast), true)
  end
end

checks["reliability.spare-pool-oversized"] = function(doc, ctx)
  if not REL.SPARES[doc.policy] then return end
  local c = plan_config(doc)
  local need = REL.spare_need(c)
  if c.spare_nodes > need.oversize then
    fail_at(ctx, doc, "spare_nodes",
      ("%d spare nodes are more than %s (8 x max(k_min %s, blast %d)): the idle pool is "
       .. "charged to the envelope and lowers ETTR")
      :format(c.spare_nodes, py.repr(need.oversize), py.repr(need.k_min), need.b),
      engine.object("spare_nodes", c.spare_nodes, "threshold", need.oversize), true)
  end
end

checks["reliability.policy-regime"] = function(doc, ctx)
  local means = plan_means(doc, ctx)
  local best, best_e = nil, nil
  for _, p in ipairs(REL.POLICIES) do
    local e = means[p].ettr
    if not best_e or e > best_e then best, best_e = p, e end
  end
  local own = means[doc.policy].ettr
  local margin = gate(doc, "regime_margin", 0.02)
  if best ~= doc.policy and best_e - own > margin then
    ctx:fail(doc, "policy",
      ("policy '%s' reaches a mean ETTR of %s, but '%s' reaches %s in this regime: a gap of %s, "
       .. "over the margin %s"):format(doc.policy, py.repr(own), best, py.repr(best_e),
                                      py.fixed(best_e - own, 4), py.repr(margin)),
      engine.object("policy_ettr", own, "winner", best, "winner_ettr", best_e,
                    "gap", best_e - own, "margin", margin))
  end
end

checks["reliability.ettr-claim"] = function(doc, ctx)
  if not (engine.has(doc, "claims") and engine.has(doc.claims, "ettr")) then return end
  local own = plan_means(doc, ctx)[doc.policy].ettr
  local margin = gate(doc, "claim_margin", 0.02)
  local claim = doc.claims.ettr
  if claim > own + margin then
    ctx:fail(doc.claims, "ettr",
      ("the plan claims ETTR %s, but policy '%s' reaches %s here, more than %s below the claim")
      :format(py.repr(claim), doc.policy, py.repr(own), py.repr(margin)),
      engine.object("claim", claim, "model_ettr", own, "margin", margin))
  end
end

return checks
