-- The reliability pack's rules (spec/reliability.md 7) over
-- training-recovery-plan documents: the rules of 7.1 and 7.2, and the strict
-- rules of 7.3 from REL.STRICT. The engine compiles this file after
-- pack.lua for a run that reads rules (lint, check, rules, explain,
-- validate) and never for a verb that does not, so nothing else of the pack
-- reads what it defines; the checks are lib/checks.lua, through REL.

local KIND = "training-recovery-plan"

-- Where a finding on config field `key` points: the field, else the
-- nearest present ancestor (7.1).
local function config_site(doc, key)
  if engine.has(doc, "config") and engine.type(doc.config) == "map" then
    if engine.has(doc.config, key) then return doc.config, key end
    return doc, "config"
  end
  return nil, nil
end

local function fail_at(ctx, doc, key, message, figures, warn)
  local at, k = config_site(doc, key)
  local spec = { at = at, key = k, message = message, figures = figures }
  if warn then ctx:warn(spec) else ctx:fail(spec) end
end

local function plan_config(doc)
  return REL.resolve(engine.has(doc, "config") and doc.config or nil)
end

-- What lib/checks.lua reads from this file.
REL.fail_at = fail_at
REL.plan_config = plan_config

-- The rules' checks are lib/checks.lua, compiled on the first document a rule
-- checks: a run that lints nothing never compiles them.
local function check_of(id)
  return function(doc, ctx) return require("checks")[id](doc, ctx) end
end

engine.rule {
  id       = "reliability.config-range",
  kind     = KIND,
  severity = "error",
  stage    = "input",
  summary  = "a plan's config must meet the cross-field constraints and limits of its fields",
  fix      = "keep burst_blast within nodes, each write stall within its interval, and the "
             .. "expected latent events within 2,000,000",
  check    = check_of("reliability.config-range"),
}

engine.rule {
  id       = "reliability.missing-field",
  kind     = KIND,
  severity = "error",
  summary  = "a recovery plan must name its policy",
  fix      = "add policy: with one of manual, auto-restart, auto-spares, auto-spares-ckpt, "
             .. "elastic",
  check    = check_of("reliability.missing-field"),
}

engine.rule {
  id       = "reliability.checkpoint-cadence",
  kind     = KIND,
  severity = "error",
  summary  = "the policy's checkpoint interval must be near the Young optimum of its regime",
  fix      = "set the interval near young_h = sqrt(2 x write x MTBF); within 0.8x-1.25x costs "
             .. "at most 2.5% above the optimum",
  check    = check_of("reliability.checkpoint-cadence"),
}

engine.rule {
  id       = "reliability.spare-pool",
  kind     = KIND,
  severity = "error",
  summary  = "a spares policy's pool must cover the mean repair queue and, under bursts, a burst",
  fix      = "raise spare_nodes to at least ceil(node failure rate x (repair_h + requal_h))",
  check    = check_of("reliability.spare-pool"),
}

engine.rule {
  id       = "reliability.spare-pool-oversized",
  kind     = KIND,
  severity = "warning",
  summary  = "a spares policy's pool should not be far larger than the repair queue needs",
  fix      = "shrink spare_nodes toward the repair queue; the idle pool is charged to the envelope",
  check    = check_of("reliability.spare-pool-oversized"),
}

engine.rule {
  id       = "reliability.policy-regime",
  kind     = KIND,
  severity = "error",
  summary  = "the declared policy must not lose clearly to another policy in its regime",
  fix      = "declare the winning policy, or change the regime (spares, bursts) it is sized for",
  check    = check_of("reliability.policy-regime"),
}

engine.rule {
  id       = "reliability.ettr-claim",
  kind     = KIND,
  severity = "error",
  summary  = "a plan must not claim an ETTR the model cannot reproduce",
  fix      = "lower claims.ettr to what the model gives for the plan, or change the plan",
  check    = check_of("reliability.ettr-claim"),
}

local STRICT_SUMMARIES = {
  ["reliability.strict.burst-budget"] =
    "bursts must not ask for more node failures than the configured budget",
  ["reliability.strict.write-fills-interval"] =
    "a checkpoint write stall must be shorter than its interval",
  ["reliability.strict.zero-recovery-latency"] =
    "a policy's recovery clocks must not all be zero",
  ["reliability.strict.unused-spares"] =
    "spare nodes must not be declared for a policy that does not use them",
}

local STRICT_FIXES = {
  ["reliability.strict.burst-budget"] =
    "lower burst_rate_per_h x burst_blast to at most single_rate_per_node_h x nodes",
  ["reliability.strict.write-fills-interval"] = "lengthen the interval or shorten the write",
  ["reliability.strict.zero-recovery-latency"] =
    "state the real detection, reload or reshard time",
  ["reliability.strict.unused-spares"] =
    "set spare_nodes to 0, or declare auto-spares or auto-spares-ckpt",
}

for _, s in ipairs(REL.STRICT) do
  local id = s.id
  engine.rule {
    id       = id,
    kind     = KIND,
    severity = "error",
    summary  = STRICT_SUMMARIES[id],
    fix      = STRICT_FIXES[id],
    check    = function(doc, ctx)
      local c = plan_config(doc)
      for _, p in ipairs(REL.strict_problems({ c }, { doc.policy }, { [id] = true },
                                             { doc.policy })) do
        fail_at(ctx, doc, p.key, p.message)
      end
    end,
  }
end

