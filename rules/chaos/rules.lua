-- The chaos pack's rules (spec/chaos.md 6): the ids the schema reports
-- (phase 1), registry references (phase 2), the compatible semantic rules
-- (phase 3), the strict rules (phase 4) and the run-level
-- chaos.strict.duplicate-id. The engine compiles this file after pack.lua
-- for a run that reads rules (a lint or coverage, not `registry` or
-- `two-clocks`); it reads the registry (REG) and the helpers of CF that
-- pack.lua defines, and nothing else of the pack reads what it defines.
local py = require "py"

local present, strings, array, contains = CF.present, CF.strings, CF.array, CF.contains
local num, float, param, seconds_pair = CF.num, CF.float, CF.param, CF.seconds_pair
local derive, refs_resolve, index_of = CF.derive, CF.refs_resolve, CF.index_of

local function scope_index(s)
  return index_of(REG.vocab.scopes, s)
end

local function level_index(l)
  return index_of(REG.vocab.levels, l) - 1
end

-- ---- phase 1: ids the schema reports (spec 6.1) -------------------------------------------

engine.declare {
  id = "chaos.missing-field", stage = "check", severity = "error",
  summary = "a required field of the experiment is absent or empty",
  fix = "add the field with a non-empty value",
}
engine.declare {
  id = "chaos.unknown-field", stage = "check", severity = "error",
  summary = "a key that the ChaosExperiment schema does not define",
  fix = "remove the key or correct its spelling",
}
engine.declare {
  id = "chaos.api-version", stage = "input", severity = "error",
  summary = "apiVersion must be chaos-fidelity/v1 and kind ChaosExperiment",
  fix = "write apiVersion: chaos-fidelity/v1 and kind: ChaosExperiment",
}
engine.declare {
  id = "chaos.id-format", stage = "check", severity = "error",
  summary = "an experiment id is lower kebab case and at most 64 characters",
  fix = "rename the id to lower-case words joined by single hyphens",
}
engine.declare {
  id = "chaos.enum", stage = "input", severity = "error",
  summary = "a value outside its closed vocabulary",
  fix = "use one of the allowed values the message lists",
}
engine.declare {
  id = "chaos.range", stage = "input", severity = "error",
  summary = "a number outside its allowed range",
  fix = "bring the value inside the bound the message names",
}

-- ---- rule machinery ---------------------------------------------------------------------


-- One semantic rule (phase 3, or phase 4 when strict): it runs only when the
-- registry references resolved, on the derived values shared by the pack's rules.
local function semantic(spec)
  local check = spec.check
  engine.rule {
    id = spec.id, kind = "chaos-experiment", severity = "error",
    summary = spec.summary, fix = spec.fix, description = spec.description,
    check = function(doc, ctx)
      if RULES_OFF[spec.id] then return end
      if not ctx:once("refs", function() return refs_resolve(doc) end) then return end
      check(doc, ctx, ctx:once("derive", function() return derive(doc) end))
    end,
  }
end

-- ---- phase 2: registry references ----------------------------------------------------------

engine.rule {
  id = "chaos.unknown-fault-class", kind = "chaos-experiment", severity = "error",
  summary = "fault.class must name a fault class of the registry",
  fix = "use a class of registry/fault_classes.yaml (chaos-fidelity registry lists them)",
  check = function(doc, ctx)
    local c = doc.fault.class
    if not REG.class[c] then
      ctx:fail(doc.fault, "class", ("fault.class '%s' is not a fault class of the " ..
        "registry"):format(c),
               engine.object("value", c))
    end
  end,
}

engine.rule {
  id = "chaos.unknown-method", kind = "chaos-experiment", severity = "error",
  summary = "injection.method must name an injection method of the registry",
  fix = "use a method of registry/methods.yaml (chaos-fidelity registry lists them)",
  check = function(doc, ctx)
    local m = doc.injection.method
    if not REG.method[m] then
      ctx:fail(doc.injection, "method",
               ("injection.method '%s' is not an injection method of the registry"):format(m),
               engine.object("value", m))
    end
  end,
}

engine.rule {
  id = "chaos.unknown-layer", kind = "chaos-experiment", severity = "error",
  summary = "every layer reference must name one of the 12 registry layers",
  fix = "use a layer id of registry/layers.yaml",
  check = function(doc, ctx)
    -- 'where' is a format of the item's index, built only for a finding.
    local function one(at, key, where, i, value)
      if not REG.layer[value] then
        ctx:fail(at, key, ("%s '%s' is not a layer of the registry"):format(where:format(i), value),
                 engine.object("value", value))
      end
    end
    one(doc.fault, "layer", "fault.layer", 0, doc.fault.layer)
    local prop = doc.fault.expected_propagation
    for i, l in ipairs(strings(prop)) do
      one(prop, i, "fault.expected_propagation[%d]", i - 1, l)
    end
    local tested = doc.claims.tested_layers
    for i, l in ipairs(strings(tested)) do
      one(tested, i, "claims.tested_layers[%d]", i - 1, l)
    end
    for i, s in ipairs(doc.observe.signals) do
      one(s, "layer", "observe.signals[%d].layer", i - 1, s.layer)
    end
    for i, a in ipairs(doc.acceptance) do
      one(a, "layer", "acceptance[%d].layer", i - 1, a.layer)
    end
  end,
}

-- ---- phase 3: layer rules ------------------------------------------------------------------

semantic {
  id = "chaos.fault-layer",
  summary = "fault.layer must be the layer the registry gives the fault class",
  fix = "set fault.layer to the class's layer, or pick the class that lives at the declared layer",
  check = function(doc, ctx, d)
    if doc.fault.layer ~= d.class.layer then
      ctx:fail(doc.fault, "layer", ("fault class '%s' lives at the %s layer, but fault.layer " ..
        "says %s")
               :format(d.class.id, d.class.layer, doc.fault.layer),
               engine.object("declared", doc.fault.layer, "class_layer", d.class.layer))
    end
  end,
}

local function alternatives_text(alts)
  if #alts == 0 then
    return "no software injection reproduces it: use a test facility or known-bad hardware"
  end
  local parts = {}
  for i, a in ipairs(alts) do parts[i] = ("%s (%s)"):format(a.method, a.fidelity) end
  return "a faithful injection would be " .. table.concat(parts, ", ")
end

semantic {
  id = "chaos.wrong-layer",
  summary = "the injection method must reproduce the fault class at some fidelity",
  fix = "inject with one of the faithful methods the message lists, or change the fault class",
  check = function(doc, ctx, d)
    if d.edge ~= nil then return end
    local why = d.method.why[d.class.id] or d.method.why[d.class.layer]
    local alts = CF.alternatives(d.class)
    local use = engine.array()
    for i, a in ipairs(alts) do
      use[i] = engine.object("method", a.method, "fidelity", a.fidelity)
    end
    -- A method acting at the class's own layer can still miss the class
    -- (a port shutdown is not a degraded link): say so rather than "but".
    local where = d.method.origin == d.class.layer
      and ("wrong layer: %s acts at the %s layer, where fault class '%s' lives, but does " ..
           "not reproduce it"):format(d.method.id, d.method.origin, d.class.id)
      or ("wrong layer: %s acts at the %s layer, but fault class '%s' lives at the %s layer")
           :format(d.method.id, d.method.origin, d.class.id, d.class.layer)
    ctx:fail(doc.injection, "method",
             ("%s%s; %s"):format(where, why and (" (" .. why .. ")") or "",
                                 alternatives_text(alts)),
             engine.object("method", d.method.id, "origin", d.method.origin,
                           "fault_class", d.class.id, "class_layer", d.class.layer,
                           "why", why or engine.null, "use", use))
  end,
}

semantic {
  id = "chaos.fidelity-label",
  summary = "injection.fidelity must be the registry's fidelity for the class and method",
  fix = "write the fidelity the registry gives this (class, method) pair",
  check = function(doc, ctx, d)
    local declared = doc.injection.fidelity
    if d.edge ~= nil and declared ~= d.edge then
      ctx:fail(doc.injection, "fidelity",
               ("injection.fidelity says %s, but %s reproduces '%s' only at %s fidelity")
               :format(declared, d.method.id, d.class.id, d.edge),
               engine.object("declared", declared, "registry", d.edge))
    end
  end,
}

semantic {
  id = "chaos.uncertifiable-layer",
  summary = "every tested layer must be one the injection method can certify",
  fix = "drop the layer from claims.tested_layers, or use a method that reaches it",
  check = function(doc, ctx, d)
    local tested = doc.claims.tested_layers
    for i, l in ipairs(d.tested) do
      if not contains(d.method.certifiable, l) then
        ctx:fail(tested, i, ("wrong layer: claims.tested_layers[%d] is %s, which %s cannot " ..
          "certify; it can certify %s")
                 :format(i - 1, l, d.method.id, table.concat(d.method.certifiable, ", ")),
                 engine.object("layer", l, "method", d.method.id,
                               "certifiable", array(d.method.certifiable)))
      end
    end
  end,
}

semantic {
  id = "chaos.kernel-path",
  summary = "a kernel-path method must declare its transport, and it cannot act on RDMA",
  fix = "declare injection.transport (tcp or socket); for RDMA traffic use a fabric or NIC method",
  check = function(doc, ctx, d)
    if not d.method.kernel_path then return end
    if d.transport == nil then
      ctx:fail(doc.injection, "transport",
               ("%s affects only traffic through the kernel network stack: injection.transport " ..
                 "must be declared")
               :format(d.method.id), engine.object("method", d.method.id, "transport", engine.null))
    elseif d.transport == "rdma" then
      ctx:fail(doc.injection, "transport",
               ("wrong layer: %s acts in the host's kernel network stack and has no effect on " ..
                 "RDMA traffic, which bypasses it")
               :format(d.method.id), engine.object("method", d.method.id, "transport", "rdma"))
    end
  end,
}

semantic {
  id = "chaos.propagation-root",
  summary = "the failure graph must start at the fault class's layer",
  fix = "make fault.expected_propagation begin with the class's layer",
  check = function(doc, ctx, d)
    local first = d.propagation[1]
    if first ~= nil and first ~= d.class.layer then
      ctx:fail(doc.fault.expected_propagation, 1,
               ("fault.expected_propagation starts at %s, but the fault lives at %s")
               :format(first, d.class.layer),
               engine.object("expected", d.class.layer, "got", first))
    end
  end,
}

-- ---- phase 3: observability ----------------------------------------------------------------

semantic {
  id = "chaos.root-cause-signal",
  summary = "some observed signal must sit at the root-cause layer",
  fix = "add a signal at the root-cause layer to observe.signals",
  check = function(doc, ctx, d)
    if not contains(d.signal_layers, d.root_layer) then
      ctx:fail(doc.observe, "signals",
               ("no signal in observe.signals is at the root-cause layer %s, so the cause " ..
                 "cannot be attributed")
               :format(d.root_layer), engine.object("layer", d.root_layer))
    end
  end,
}

semantic {
  id = "chaos.detector-unwatched",
  summary = "the detector's input must be one of the observed signals",
  fix = "add the detection signal to observe.signals, or detect on a watched signal",
  check = function(doc, ctx, d)
    local s = doc.observe.detection.signal
    if not contains(d.signal_names, s) then
      ctx:fail(doc.observe.detection, "signal",
               ("observe.detection.signal '%s' is not among observe.signals"):format(s),
               engine.object("signal", s))
    end
  end,
}

semantic {
  id = "chaos.tail-statistic",
  summary = "a fault that slows one member must be detected with a tail statistic",
  fix = "detect with per-rank-tail, max-over-median, min-score or imbalance",
  check = function(doc, ctx, d)
    local st = doc.observe.detection.statistic
    local tails = REG.policy.tail_statistics
    if d.class.tail_required and not contains(tails, st) then
      ctx:fail(doc.observe.detection, "statistic",
               ("fault class '%s' needs a tail statistic, a mean hides one straggler; '%s' is " ..
                 "not one of %s")
               :format(d.class.id, st, table.concat(tails, ", ")),
               engine.object("statistic", st, "allowed", array(tails)))
    end
  end,
}

semantic {
  id = "chaos.under-load",
  summary = "a fault visible only under load must be observed under load",
  fix = "set observe.under_load: true and run the experiment with traffic",
  check = function(doc, ctx, d)
    local ul = doc.observe.under_load
    if d.class.needs_load and ul ~= true then
      local shown = (ul == false) and false or engine.null
      ctx:fail(doc.observe, "under_load",
               ("fault class '%s' must be observed under load (observe.under_load is %s): idle " ..
                 "links train down on purpose")
               :format(d.class.id, ul == false and "false" or "not set"),
               engine.object("under_load", shown))
    end
  end,
}

semantic {
  id = "chaos.unevidenced-layer",
  summary = "every tested layer needs a signal or an acceptance criterion at it",
  fix = "observe a signal or judge a criterion at the layer, or stop claiming it",
  check = function(doc, ctx, d)
    local tested = doc.claims.tested_layers
    for i, l in ipairs(d.tested) do
      if not contains(d.signal_layers, l) and not contains(d.acceptance_layers, l) then
        ctx:fail(tested, i, ("tested layer %s has neither an observed signal nor an acceptance " ..
          "criterion")
                 :format(l), engine.object("layer", l))
      end
    end
  end,
}

-- ---- phase 3: bounds --------------------------------------------------------------------------

semantic {
  id = "chaos.blast-scope",
  summary = "the blast radius scope must contain one target unit",
  fix = "widen scope.blast_radius.scope to the unit's level, or target a smaller unit",
  check = function(doc, ctx, d)
    local br, unit = doc.scope.blast_radius, doc.injection.targets.unit
    if scope_index(d.unit_scope) > scope_index(br.scope) then
      ctx:fail(br, "scope", ("one %s sits at the %s level, wider than the blast radius scope %s")
               :format(unit, d.unit_scope, br.scope),
               engine.object("scope", br.scope, "unit", unit, "unit_scope", d.unit_scope))
    end
  end,
}

semantic {
  id = "chaos.blast-count",
  summary = "the number of targeted nodes or GPUs must fit the blast radius",
  fix = "target fewer units, or raise max_nodes / max_gpus where that is really allowed",
  check = function(doc, ctx, d)
    local t, br = doc.injection.targets, doc.scope.blast_radius
    local field = (t.unit == "node" and "max_nodes") or (t.unit == "gpu" and "max_gpus") or nil
    if field and t.count > br[field] then
      ctx:fail(t, "count", ("injection.targets.count %d %ss exceeds scope.blast_radius.%s %d")
               :format(t.count, t.unit, field, br[field]),
               engine.object("count", t.count, "limit", br[field], "limit_field", field))
    end
    local _ = d
  end,
}

semantic {
  id = "chaos.hold-exceeds-duration",
  summary = "the fault cannot be held longer than the experiment lasts",
  fix = "shorten injection.hold_s or lengthen scope.duration_s",
  check = function(doc, ctx)
    local hold, dur = doc.injection.hold_s, doc.scope.duration_s
    if hold > dur then
      ctx:fail(doc.injection, "hold_s", ("injection.hold_s %s s exceeds scope.duration_s %s s")
               :format(num(hold), num(dur)), engine.object("hold_s", hold, "duration_s", dur))
    end
  end,
}

semantic {
  id = "chaos.abort-reaction",
  summary = "the abort must be able to react before the experiment ends",
  fix = "make abort.max_reaction_s smaller than scope.duration_s",
  check = function(doc, ctx)
    local r, dur = doc.abort.max_reaction_s, doc.scope.duration_s
    if r >= dur then
      ctx:fail(doc.abort, "max_reaction_s", ("abort.max_reaction_s %s s is not below " ..
        "scope.duration_s %s s")
               :format(num(r), num(dur)), engine.object("max_reaction_s", r, "duration_s", dur))
    end
  end,
}

semantic {
  id = "chaos.production-scope",
  summary = "a production experiment may reach at most one node",
  fix = "narrow the blast radius to a node, or run in staging or a canary",
  check = function(doc, ctx)
    local br, limit = doc.scope.blast_radius, REG.policy.production_max_scope
    if doc.scope.environment == "production" and scope_index(br.scope) > scope_index(limit) then
      ctx:fail(br, "scope", ("a production blast radius of scope %s is wider than the limit %s")
               :format(br.scope, limit), engine.object("scope", br.scope, "limit", limit))
    end
  end,
}

semantic {
  id = "chaos.production-irreversible",
  summary = "a real fabric or facility fault must not be injected in production",
  fix = "run it in staging or a canary pod",
  check = function(doc, ctx, d)
    if doc.scope.environment == "production" and d.edge == "real"
       and contains(REG.policy.irreversible_in_production_layers, d.class.layer) then
      ctx:fail(doc.scope, "environment",
               ("a real %s-layer fault cannot be contained in production: run it in staging or " ..
                 "a canary pod")
               :format(d.class.layer), engine.object("layer", d.class.layer))
    end
  end,
}

semantic {
  id = "chaos.tenant-spend",
  summary = "a canary or production experiment may spend only one tenant's work",
  fix = "set scope.blast_radius.max_tenants to 1, or run in staging",
  check = function(doc, ctx)
    local env, br = doc.scope.environment, doc.scope.blast_radius
    if contains(REG.policy.single_tenant_envs, env) and br.max_tenants > 1 then
      ctx:fail(br, "max_tenants", ("a %s experiment may spend one tenant's work, not " ..
        "max_tenants %d")
               :format(env, br.max_tenants),
               engine.object("environment", env, "max_tenants", br.max_tenants))
    end
  end,
}

local function outcome_text(expects)
  return expects == "survive" and "crash-and-restart" or "survive"
end

semantic {
  id = "chaos.two-clocks",
  summary = "a link outage's hold must test the response the experiment expects",
  fix = "hold below the transport give-up to test survival, at or above it to test the crash",
  check = function(doc, ctx, d)
    if not d.applicable then return end
    local expects, hold, g = doc.claims.expects, doc.injection.hold_s, d.clocks.give_up_s
    local bad = (expects == "survive" and hold >= g)
                or (expects == "crash-and-restart" and hold < g)
    if not bad then return end
    local hs, gs = seconds_pair(hold, g)
    ctx:fail(doc.injection, "hold_s",
             ("a %s s hold is %s the %s s transport give-up (NCCL_IB_TIMEOUT %d, " ..
               "NCCL_IB_RETRY_CNT %d), so it tests %s, not %s")
             :format(hs, hold >= g and "at or above" or "below", gs, d.T, d.R,
                     outcome_text(expects), expects),
             engine.object("hold_s", hold, "give_up_s", g, "nccl_ib_timeout", d.T,
                           "nccl_ib_retry_cnt", d.R, "expects", expects))
  end,
}

semantic {
  id = "chaos.verify-window",
  summary = "the experiment must last long enough to hold the fault and verify the undo",
  fix = "lengthen scope.duration_s to at least hold_s plus undo.verify.within_s",
  check = function(doc, ctx)
    local dur, hold, within = doc.scope.duration_s, doc.injection.hold_s, doc.undo.verify.within_s
    if dur < hold + within then
      ctx:fail(doc.scope, "duration_s",
               ("scope.duration_s %s s is shorter than hold_s %s s plus undo.verify.within_s %s s")
               :format(num(dur), num(hold), num(within)),
               engine.object("duration_s", dur, "hold_s", hold, "within_s", within))
    end
  end,
}

-- ---- phase 3: abort and undo -------------------------------------------------------------------

semantic {
  id = "chaos.abort-unwatched",
  summary = "every abort condition must watch an observed signal",
  fix = "add the condition's signal to observe.signals",
  check = function(doc, ctx, d)
    for i, c in ipairs(doc.abort.conditions) do
      if not contains(d.signal_names, c.signal) then
        ctx:fail(c, "signal", ("abort.conditions[%d] watches '%s', which is not among " ..
          "observe.signals")
                 :format(i - 1, c.signal), engine.object("signal", c.signal))
      end
    end
  end,
}

semantic {
  id = "chaos.abort-owner",
  summary = "the agent under test must not hold the abort",
  fix = "give abort.owner to an independent identity (an on-call team)",
  check = function(doc, ctx, d)
    if d.acting_agent and d.agent == doc.abort.owner then
      ctx:fail(doc.abort, "owner", ("the agent under test '%s' holds its own abort; an " ..
        "independent identity must hold it")
               :format(d.agent), engine.object("agent", d.agent))
    end
  end,
}

local function missing_predicate(doc, ctx, d, predicate, why)
  if not contains(d.emits, predicate) then
    ctx:fail(doc.evidence, "emits",
             ("evidence.emits lacks the predicate %s (%s)"):format(predicate, why),
             engine.object("missing", predicate))
  end
end

semantic {
  id = "chaos.abort-evidence",
  summary = "the run must evidence that no abort condition was missed",
  fix = "add abort_never_missed to evidence.emits",
  check = function(doc, ctx, d)
    missing_predicate(doc, ctx, d, "abort_never_missed", "proof that no abort was missed")
  end,
}

semantic {
  id = "chaos.undo-inverse",
  summary = "the undo must be the injection method's inverse",
  fix = "set undo.method to the inverse the registry names for the method",
  check = function(doc, ctx, d)
    if doc.undo.method ~= d.method.inverse then
      ctx:fail(doc.undo, "method", ("undo.method is '%s', but the inverse of %s is '%s'")
               :format(doc.undo.method, d.method.id, d.method.inverse),
               engine.object("got", doc.undo.method, "expected", d.method.inverse))
    end
  end,
}

semantic {
  id = "chaos.residue-check",
  summary = "a method that leaves residue needs residue checks after the undo",
  fix = "list the checks that prove the residue is gone in undo.residue_check",
  check = function(doc, ctx, d)
    if d.method.residue and not present(doc.undo.residue_check) then
      ctx:fail(doc.undo, "residue_check", ("%s leaves kernel or cache state behind: " ..
        "undo.residue_check must list checks")
               :format(d.method.id), engine.object("method", d.method.id))
    end
  end,
}

semantic {
  id = "chaos.undo-path",
  summary = "an injection that breaks the in-band path must be undone out of band",
  fix = "set undo.path: out-of-band",
  check = function(doc, ctx, d)
    if d.method.oob_undo and doc.undo.path ~= "out-of-band" then
      ctx:fail(doc.undo, "path", ("%s breaks the in-band path at the %s layer, so undo.path %s " ..
        "is the broken one")
               :format(d.method.id, d.method.origin, doc.undo.path),
               engine.object("origin", d.method.origin, "path", doc.undo.path))
    end
  end,
}

semantic {
  id = "chaos.reversible-evidence",
  summary = "an injection with an undo must evidence that the state was restored",
  fix = "add reversible to evidence.emits (state digests before and after)",
  check = function(doc, ctx, d)
    if d.method.inverse ~= "none" then
      missing_predicate(doc, ctx, d, "reversible", "state digests before and after the undo")
    end
  end,
}

-- ---- phase 3: autonomy --------------------------------------------------------------------------

local function each_action(d, fn)
  if not d.autonomy then return end
  local list = d.autonomy.allowed_actions
  for i, a in ipairs(strings(list)) do fn(list, i, a, REG.actuator[a]) end
end

semantic {
  id = "chaos.unknown-actuator",
  summary = "every allowed action must be an actuator of the registry",
  fix = "use an actuator of registry/actuators.yaml",
  check = function(_, ctx, d)
    each_action(d, function(list, i, a, class)
      if class == nil then
        ctx:fail(list, i, ("autonomy.allowed_actions[%d] '%s' is not an actuator of the " ..
          "registry"):format(i - 1, a),
                 engine.object("actuator", a))
      end
    end)
  end,
}

semantic {
  id = "chaos.tenant-crossing-actuator",
  summary = "an agent under test must not be allowed an action that spends another tenant's work",
  fix = "remove the tenant-crossing actuator from autonomy.allowed_actions",
  check = function(_, ctx, d)
    each_action(d, function(list, i, a, class)
      if class == "tenant-crossing" then
        ctx:fail(list, i, ("autonomy.allowed_actions[%d] '%s' crosses tenants: it spends " ..
          "another tenant's work")
                 :format(i - 1, a), engine.object("actuator", a))
      end
    end)
  end,
}

semantic {
  id = "chaos.irreversible-actuator",
  summary = "an agent under test must not be allowed an irreversible or forbidden action",
  fix = "remove the actuator from autonomy.allowed_actions",
  check = function(_, ctx, d)
    each_action(d, function(list, i, a, class)
      if class == "irreversible" or class == "forbidden" then
        local why = class == "forbidden" and "is forbidden at every autonomy level"
                    or "cannot be taken back"
        ctx:fail(list, i,
                 ("autonomy.allowed_actions[%d] '%s' %s (%s)"):format(i - 1, a, why, class),
                 engine.object("actuator", a, "class", class))
      end
    end)
  end,
}

semantic {
  id = "chaos.agent-injector",
  summary = "the agent under test must not run its own injection",
  fix = "run the injection from an independent identity",
  check = function(doc, ctx, d)
    if d.acting_agent and d.agent == doc.injection.injector then
      ctx:fail(doc.injection, "injector", ("the agent under test '%s' is also the " ..
        "injector"):format(d.agent),
               engine.object("agent", d.agent))
    end
  end,
}

local function at_least(d, level)
  return d.autonomy and level_index(d.autonomy.certifies_level) >= level
end

semantic {
  id = "chaos.runs-required",
  summary = "evidence for L2 and above needs the minimum number of green runs",
  fix = "raise evidence.runs_required to the policy minimum",
  check = function(doc, ctx, d)
    local runs, minimum = doc.evidence.runs_required, REG.policy.l2_min_runs
    if at_least(d, 2) and runs < minimum then
      ctx:fail(doc.evidence, "runs_required", ("level %s needs at least %d green runs, " ..
        "evidence.runs_required is %d")
               :format(d.autonomy.certifies_level, minimum, runs),
               engine.object("level", d.autonomy.certifies_level, "runs_required", runs,
                             "minimum", minimum))
    end
  end,
}

semantic {
  id = "chaos.control-layer-untested",
  summary = "certifying L2 and above requires testing the autonomy-control layer",
  fix = "add autonomy-control to claims.tested_layers with its evidence",
  check = function(doc, ctx, d)
    if at_least(d, 2) and not contains(d.tested, "autonomy-control") then
      ctx:fail(doc.claims, "tested_layers", ("level %s is certified without autonomy-control " ..
        "among the tested layers")
               :format(d.autonomy.certifies_level),
               engine.object("level", d.autonomy.certifies_level))
    end
  end,
}

semantic {
  id = "chaos.observation-limits",
  summary = "an acting agent must have bounded reads",
  fix = "add autonomy.observation_limits with max_query_range_days and max_qps",
  check = function(_, ctx, d)
    if d.acting_agent and not present(d.autonomy.observation_limits) then
      ctx:fail(d.autonomy, "observation_limits",
               ("agent '%s' acts without autonomy.observation_limits: both the query range and " ..
                 "the query rate must be bounded")
               :format(d.agent), engine.object("agent", d.agent))
    end
  end,
}

semantic {
  id = "chaos.live-traffic-bar",
  summary = "L3 and above need live traffic and the L3 predicates",
  fix = "run in a canary or production and emit quality_canary and gpu_second_budget",
  check = function(doc, ctx, d)
    if not at_least(d, 3) then return end
    local level, env = d.autonomy.certifies_level, doc.scope.environment
    if not contains(REG.policy.live_traffic_envs, env) then
      ctx:fail(doc.scope, "environment", ("level %s needs live traffic, but the experiment " ..
        "runs in %s")
               :format(level, env), engine.object("level", level, "environment", env))
    end
    for _, p in ipairs(REG.policy.l3_required_predicates) do
      if not contains(d.emits, p) then
        ctx:fail(doc.evidence, "emits", ("level %s needs the predicate %s in " ..
          "evidence.emits"):format(level, p),
                 engine.object("level", level, "missing", p))
      end
    end
  end,
}

-- ---- phase 3: acceptance ------------------------------------------------------------------------

semantic {
  id = "chaos.acceptance-layer",
  summary = "every acceptance criterion must judge a tested layer",
  fix = "set the criterion's layer to a tested layer, or test that layer",
  check = function(doc, ctx, d)
    for i, a in ipairs(doc.acceptance) do
      if not contains(d.tested, a.layer) then
        ctx:fail(a, "layer", ("acceptance[%d] '%s' judges the %s layer, which is not tested")
                 :format(i - 1, a.metric, a.layer),
                 engine.object("metric", a.metric, "layer", a.layer))
      end
    end
  end,
}

local function time_bound(a)
  return a.metric:sub(-2) == "_s" and (a.op == "<" or a.op == "<=")
end

semantic {
  id = "chaos.time-bound",
  summary = "a timed response needs an acceptance criterion bounding a time",
  fix = "add a criterion on a metric ending in _s with op < or <=",
  check = function(doc, ctx)
    local expects = doc.claims.expects
    if not contains(REG.policy.time_bounded_expects, expects) then return end
    for _, a in ipairs(doc.acceptance) do
      if time_bound(a) then return end
    end
    ctx:fail(doc, "acceptance", ("claims.expects %s is unfalsifiable without a time bound: no " ..
      "criterion bounds a *_s metric with < or <=")
             :format(expects), engine.object("expects", expects))
  end,
}

-- ---- phase 4: strict rules ----------------------------------------------------------------------

semantic {
  id = "chaos.strict.transport-declared",
  summary = "strict: a two-clock injection must declare its transport, and netem must carry " ..
    "traffic",
  fix = "declare injection.transport (rdma for the two clocks, tcp or socket for netem)",
  check = function(doc, ctx, d)
    if d.pair and d.transport == nil then
      ctx:fail(doc.injection, "transport",
               ("%s takes a link down, but injection.transport is not declared, which skips " ..
                 "the two-clock check")
               :format(d.method.id), engine.object("method", d.method.id, "transport", engine.null))
    elseif d.method.kernel_path and d.transport == "none" then
      ctx:fail(doc.injection, "transport", ("%s on transport none impairs no traffic and tests " ..
        "nothing")
               :format(d.method.id), engine.object("method", d.method.id, "transport", "none"))
    end
  end,
}

semantic {
  id = "chaos.strict.clock-parameters",
  summary = "strict: a two-clock verdict must not depend on which NCCL release runs",
  fix = "pin injection.parameters.nccl_ib_timeout",
  check = function(doc, ctx, d)
    local expects = doc.claims.expects
    if not d.applicable or param(doc, "nccl_ib_timeout") ~= nil then return end
    if expects ~= "survive" and expects ~= "crash-and-restart" then return end
    local hold, outcomes, seen, differ = doc.injection.hold_s, engine.array(), nil, false
    local parts = {}
    for i, t in ipairs(REG.policy.ib_timeout_release_defaults) do
      local c = CF.two_clocks(t, d.R, d.W, hold)
      outcomes[i] = engine.object("nccl_ib_timeout", t, "give_up_s", c.give_up_s,
                                  "outcome", c.outcome)
      parts[i] = ("%s at NCCL_IB_TIMEOUT %d (give-up %s s)")
                 :format(c.outcome, t, py.fixed(c.give_up_s, 1))
      if seen and seen ~= c.outcome then differ = true end
      seen = c.outcome
    end
    if differ then
      ctx:fail(doc.injection, "parameters",
               ("NCCL_IB_TIMEOUT is not pinned and a %s s hold gives %s")
               :format(num(hold), table.concat(parts, " but ")),
               engine.object("hold_s", hold, "outcomes", outcomes))
    end
  end,
}

semantic {
  id = "chaos.strict.two-clock-margin",
  summary = "strict: a hold within the NIC's timer rounding of the give-up is a coin flip",
  fix = "move the hold well clear of the transport give-up (more than 10 %)",
  check = function(doc, ctx, d)
    local expects = doc.claims.expects
    if not d.applicable or ctx:fired("chaos.two-clocks") then return end
    if expects ~= "survive" and expects ~= "crash-and-restart" then return end
    local c, band = d.clocks, REG.policy.two_clock_margin
    if c.give_up_s > 0 and c.within_margin then
      local hs, gs = seconds_pair(doc.injection.hold_s, c.give_up_s)
      ctx:fail(doc.injection, "hold_s", ("a %s s hold is within %s%% of the %s s transport " ..
        "give-up: the NIC's timer rounding decides the outcome")
               :format(hs, py.repr(band * 100), gs),
               engine.object("hold_s", doc.injection.hold_s, "give_up_s", c.give_up_s,
                             "margin", c.margin, "band", band))
    end
  end,
}

semantic {
  id = "chaos.strict.watchdog-clock",
  summary = "strict: a survival hold must end before the c10d watchdog fires",
  fix = "hold shorter than the c10d timeout, or lower NCCL_IB_TIMEOUT",
  check = function(doc, ctx, d)
    if not d.applicable or ctx:fired("chaos.two-clocks") then return end
    if doc.claims.expects ~= "survive" then return end
    local hold = doc.injection.hold_s
    if hold >= d.W then
      ctx:fail(doc.injection, "hold_s", ("a %s s hold reaches the %s s c10d watchdog before " ..
        "the %s s transport give-up: the watchdog kills the job")
               :format(num(hold), num(d.W), py.fixed(d.clocks.give_up_s, 1)),
               engine.object("hold_s", hold, "c10d_timeout_s", float(d.W),
                             "give_up_s", d.clocks.give_up_s))
    end
  end,
}

semantic {
  id = "chaos.strict.abort-dwell",
  summary = "strict: every abort condition must be able to act before the experiment ends",
  fix = "shorten the condition's for_s or abort.max_reaction_s, or lengthen the experiment",
  check = function(doc, ctx)
    if ctx:fired("chaos.abort-reaction") then return end
    local r, dur = doc.abort.max_reaction_s, doc.scope.duration_s
    for i, c in ipairs(doc.abort.conditions) do
      if c.for_s + r >= dur then
        ctx:fail(c, "for_s", ("abort.conditions[%d]: for_s %s s plus max_reaction_s %s s " ..
          "reaches scope.duration_s %s s")
                 :format(i - 1, num(c.for_s), num(r), num(dur)),
                 engine.object("for_s", c.for_s, "max_reaction_s", r, "duration_s", dur))
      end
    end
  end,
}

semantic {
  id = "chaos.strict.abort-without-undo",
  summary = "strict: aborting must undo an injection that has an inverse",
  fix = "set abort.action: undo-and-halt",
  check = function(doc, ctx, d)
    if doc.abort.action == "halt" and d.method.inverse ~= "none" then
      ctx:fail(doc.abort, "action", ("abort.action halt leaves the fault in place; %s needs " ..
        "its undo %s")
               :format(d.method.id, d.method.inverse), engine.object("inverse", d.method.inverse))
    end
  end,
}

semantic {
  id = "chaos.strict.observation-bounds",
  summary = "strict: an agent's query range must be within the policy cap",
  fix = "lower autonomy.observation_limits.max_query_range_days to the cap",
  check = function(_, ctx, d)
    if not d.acting_agent then return end
    local lim, cap = d.autonomy.observation_limits, REG.policy.max_query_range_days_cap
    if present(lim) and lim.max_query_range_days > cap then
      ctx:fail(lim, "max_query_range_days", ("max_query_range_days %s exceeds the %s-day cap: " ..
        "one oversized accounting query can take the database down")
               :format(num(lim.max_query_range_days), num(cap)),
               engine.object("max_query_range_days", lim.max_query_range_days, "cap", cap))
    end
  end,
}

semantic {
  id = "chaos.strict.agentless-certification",
  summary = "strict: agent none cannot certify a level above L0 or be allowed actions",
  fix = "name the agent under test, or certify L0 with no allowed actions",
  check = function(_, ctx, d)
    local a = d.autonomy
    if not a or d.agent ~= "none" then return end
    local actions = strings(a.allowed_actions)
    if a.certifies_level ~= "L0" or #actions > 0 then
      ctx:fail(a, "agent", ("autonomy.agent is none, which skips every agent rule, yet it " ..
        "certifies %s with %d allowed actions")
               :format(a.certifies_level, #actions),
               engine.object("certifies_level", a.certifies_level,
                             "allowed_actions", array(actions)))
    end
  end,
}

semantic {
  id = "chaos.strict.signal-only-expects",
  summary = "strict: a signal-only injection can evidence only detect, deny or fail-closed",
  fix = "claim detect, deny or fail-closed, or use a real injection",
  check = function(doc, ctx, d)
    local allowed, expects = REG.policy.signal_only_expects, doc.claims.expects
    if d.edge == "signal-only" and not contains(allowed, expects) then
      ctx:fail(doc.claims, "expects", ("a signal-only injection cannot evidence %s; it can " ..
        "evidence %s")
               :format(expects, table.concat(allowed, ", ")),
               engine.object("expects", expects, "allowed", array(allowed)))
    end
  end,
}

semantic {
  id = "chaos.strict.time-bound-horizon",
  summary = "strict: a time bound must be observable within the experiment",
  fix = "bound the metric below scope.duration_s, or lengthen the experiment",
  check = function(doc, ctx)
    local dur = doc.scope.duration_s
    for i, a in ipairs(doc.acceptance) do
      if time_bound(a) and a.value > dur then
        ctx:fail(a, "value", ("acceptance[%d] bounds %s by %s s, beyond the %s s the " ..
          "experiment lasts")
                 :format(i - 1, a.metric, num(a.value), num(dur)),
                 engine.object("metric", a.metric, "value", a.value, "duration_s", dur))
      end
    end
  end,
}

semantic {
  id = "chaos.strict.blast-multiplicity",
  summary = "strict: several targets cannot fit a blast radius of one unit's scope",
  fix = "target one unit, or widen the blast radius scope",
  check = function(doc, ctx, d)
    local t, scope = doc.injection.targets, doc.scope.blast_radius.scope
    if t.count > 1 and d.unit_scope == scope then
      ctx:fail(t, "count",
               ("%d %ss do not fit a blast radius of one %s"):format(t.count, t.unit, scope),
               engine.object("count", t.count, "unit", t.unit, "scope", scope))
    end
  end,
}

semantic {
  id = "chaos.strict.propagation-end",
  summary = "strict: the symptom end of the failure graph must be observed or judged",
  fix = "add a signal or an acceptance criterion at the last propagation layer",
  check = function(doc, ctx, d)
    local n = #d.propagation
    if n == 0 then return end
    local last = d.propagation[n]
    if not contains(d.signal_layers, last) and not contains(d.acceptance_layers, last) then
      ctx:fail(doc.fault.expected_propagation, n,
               ("the failure graph ends at %s, where nothing is observed or judged"):format(last),
               engine.object("layer", last))
    end
  end,
}

-- chaos.strict.duplicate-id: two specs of one run answering to one citation.
engine.run_rule {
  id = "chaos.strict.duplicate-id", kind = "chaos-experiment", severity = "error",
  summary = "strict: two experiments of one run must not share an id",
  fix = "give each experiment its own id",
  collect = function(doc) return doc.id end,
  check = function(items, ctx)
    local first = {}
    for _, it in ipairs(items) do
      local f = first[it.value]
      if f then
        ctx:fail { file = it.file, document = it.document, at = "/id",
                   message = ("id '%s' is already used by %s"):format(it.value, f),
                   figures = engine.object("id", it.value, "first_file", f) }
      else
        first[it.value] = it.file
      end
    end
  end,
}
