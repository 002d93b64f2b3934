-- The chaos pack (spec/chaos.md): ChaosExperiment documents checked against a
-- policy registry of layers, injection methods, fault classes with their
-- fidelity edges, actuators and policy constants. The registry is data
-- (rules/chaos/registry/*.yaml, read once here); every rule reads it through
-- the pack global REG, so a validation mutation or a site's registry changes
-- data, never code. Phase 1 is the schema (schemas/chaos-experiment.yaml);
-- phase 2 resolves registry references; phase 3 holds the 36 compatible
-- semantic rules; phase 4 the strict rules; chaos.strict.duplicate-id is a
-- run-level rule. commands.lua (chaos-fidelity) and validation.lua reuse the
-- helpers of the CF table below.
local py = require "py"

engine.pack {
  summary     = "chaos experiments: wrong-layer injections, bounds, abort, undo, evidence, " ..
    "autonomy",
  help_base   = "https://infragate.invalid/rules/chaos/",
  order       = "rule",
  order_after = { ["input.type"] = "chaos.missing-field" },
}

CF = {}             -- helpers shared with commands.lua and validation.lua
VARIANT = {}        -- formula switches of the two-clocks model (mutations only)
RULES_OFF = {}      -- rule ids a mutation switches off (mutations only)

-- ---- the registry ------------------------------------------------------------------

local FIDELITY_RANK = { real = 0, emulated = 1, ["signal-only"] = 2 }
CF.FIDELITY_RANK = FIDELITY_RANK

-- A Lua integer (not a float): its text has no fraction or exponent.
local function is_integer(x)
  return type(x) == "number" and tostring(x):find("^%-?%d+$") ~= nil
end

local function list_of(v)
  local t = {}
  if type(v) == "table" then
    for i, x in ipairs(v) do t[i] = x end
  end
  return t
end

local function index_of(list, value)
  for i, x in ipairs(list) do
    if x == value then return i end
  end
  return nil
end
CF.index_of = index_of

local function contains(list, value)
  return index_of(list, value) ~= nil
end
CF.contains = contains

-- A registry problem: the pack refuses to load with chaos.registry at the
-- offending node of the registry file (spec 3.1); the engine adds its line
-- and column. 'src' is a shipped file name, or { file =, site = } for the
-- extension a site pack ships in its own registry/ folder.
local function bad_registry(src, where, what)
  local file, site = src, nil
  if type(src) == "table" then file, site = src.file, src.site end
  engine.data_error { rule = "chaos.registry", file = "registry/" .. file, path = where,
                      message = what, site = site }
end

local function need(cond, src, where, what)
  if not cond then bad_registry(src, where, what) end
end

-- ---- site extensions ---------------------------------------------------------------

-- A site pack extends the registry with files of its own registry/ folder:
-- these four, merged after the shipped ones in site-pack load order. The
-- others stay as shipped: the 12 layers and the schema's vocabularies are
-- fixed by the standard, the failure modes and signals are what the
-- validation reproduces.
local SITE_FILES = { "methods.yaml", "fault_classes.yaml", "actuators.yaml", "policy.yaml" }
local FIXED_FILES = { "layers.yaml", "vocab.yaml", "failure_modes.yaml", "signals.yaml",
                      "experiment-schema.yaml" }

local function refuse_fixed_files()
  for _, file in ipairs(FIXED_FILES) do
    for _, site in ipairs(engine.site_files("registry/" .. file)) do
      bad_registry({ file = file, site = site }, "",
                   file .. " cannot be extended by a site pack; only " ..
                   table.concat(SITE_FILES, ", ") .. " can")
    end
  end
end

-- A site's map must have text keys only: the ordered walk of a mapping
-- skips any other key, which would otherwise be dropped without a word.
local function text_keys_only(map, src, at)
  for k in next, map do
    need(type(k) == "string", src, at, "key " .. tostring(k) .. " must be text (quote it)")
  end
end

-- The entries of one registry map (methods, fault classes, actuators): the
-- shipped file's in its order, then each site pack's; a new id is appended,
-- a known one replaces the entry where it stands. Each entry keeps where it
-- came from, so that a problem is reported in its own file.
local function registry_map(file, key, what)
  local entries, index = {}, {}
  local function add(raw, src)
    need(type(raw) == "table" and type(raw[key]) == "table" and not raw[key][1], src, "/" .. key,
         "a map of " .. what .. " is required")
    if type(src) == "table" then text_keys_only(raw[key], src, "/" .. key) end
    for id, v in pairs(raw[key]) do
      local e = { id = id, value = v, src = src, at = "/" .. key .. "/" .. id }
      if index[id] then
        entries[index[id]] = e
      else
        entries[#entries + 1] = e
        index[id] = #entries
      end
    end
  end
  add(engine.data("registry/" .. file), file)
  for _, site in ipairs(engine.site_files("registry/" .. file)) do
    add(engine.data("registry/" .. file, { site = site }), { file = file, site = site })
  end
  return entries
end

-- policy.yaml: a site's constant replaces the shipped one of that name; a
-- name the shipped file does not have is refused (a typo would otherwise be
-- ignored). Returns the policy and, per constant, the file it came from.
local function load_policy()
  local p = engine.data("registry/policy.yaml")
  local src = {}
  for _, site in ipairs(engine.site_files("registry/policy.yaml")) do
    local from = { file = "policy.yaml", site = site }
    local raw = engine.data("registry/policy.yaml", { site = site })
    need(type(raw) == "table" and raw[1] == nil, from, "",
         "policy.yaml is a mapping of constants")
    text_keys_only(raw, from, "")
    for k, v in pairs(raw) do
      need(p[k] ~= nil, from, "/" .. k, "'" .. k .. "' is not a policy constant")
      -- A list stays a list and a number a number: the rules read them so.
      need(type(v) == type(p[k]), from, "/" .. k,
           ("'%s' must be a %s, as in the shipped policy.yaml"):format(
             k, type(p[k]) == "table" and "list" or type(p[k])))
      p[k], src[k] = v, from
    end
  end
  return p, function(k) return src[k] or "policy.yaml" end
end

local function load_layers()
  local raw = engine.data("registry/layers.yaml")
  local layers, by_id, seen_order = {}, {}, {}
  need(type(raw.layers) == "table", "layers.yaml", "/layers", "a list of layers is required")
  for i, l in ipairs(raw.layers) do
    local at = ("/layers/%d"):format(i - 1)
    need(type(l.id) == "string" and not by_id[l.id], "layers.yaml", at .. "/id",
         "layer ids must be unique strings")
    need(l.kind == "stack" or l.kind == "plane", "layers.yaml", at .. "/kind",
         "kind must be stack or plane")
    need(is_integer(l.order) and l.order == i and not seen_order[l.order],
         "layers.yaml", at .. "/order", "orders must run 1..12 in list order")
    seen_order[l.order] = true
    local e = { id = l.id, kind = l.kind, order = l.order, what = l.what }
    layers[i], by_id[l.id] = e, e
  end
  need(#layers == 12, "layers.yaml", "/layers", "exactly 12 layers are required")
  return layers, by_id
end

local function load_methods(layer)
  local methods, by_id = {}, {}
  for _, en in ipairs(registry_map("methods.yaml", "methods", "methods")) do
    local id, m, src, at = en.id, en.value, en.src, en.at
    need(type(m) == "table", src, at, "a method is a mapping")
    need(layer[m.origin] ~= nil, src, at .. "/origin", "origin must be a layer")
    need(m.certifiable == nil or (type(m.certifiable) == "table" and #m.certifiable > 0), src,
         at .. "/certifiable", "certifiable must be a list of layers")
    local cert, seen = {}, {}
    for j, l in ipairs(list_of(m.certifiable)) do
      need(layer[l] ~= nil and not seen[l], src, ("%s/certifiable/%d"):format(at, j - 1),
           "certifiable entries must be distinct layers")
      seen[l], cert[j] = true, l
    end
    need(type(m.inverse) == "string" and m.inverse ~= "", src, at .. "/inverse",
         "inverse must be a non-empty string")
    for _, flag in ipairs({ "residue", "oob_undo", "kernel_path" }) do
      need(m[flag] == nil or type(m[flag]) == "boolean", src, at .. "/" .. flag,
           "flags must be booleans")
    end
    local why = engine.object()
    if type(m.why) == "table" then
      for k, text in pairs(m.why) do why[k] = text end
    end
    local e = { id = id, origin = m.origin, certifiable = cert, inverse = m.inverse,
                residue = m.residue == true, oob_undo = m.oob_undo == true,
                kernel_path = m.kernel_path == true, why = why, tools = m.tools,
                source = m.source }
    methods[#methods + 1], by_id[id] = e, e
  end
  return methods, by_id
end

local function load_classes(layer, method, fidelities)
  local classes, by_id = {}, {}
  for _, en in ipairs(registry_map("fault_classes.yaml", "fault_classes", "fault classes")) do
    local id, c, src, at = en.id, en.value, en.src, en.at
    need(type(c) == "table", src, at, "a fault class is a mapping")
    need(layer[c.layer] ~= nil, src, at .. "/layer", "layer must be a layer")
    local e = { id = id, layer = c.layer, tail_required = c.tail_required == true,
                needs_load = c.needs_load == true, edges = {}, edge_order = {} }
    need(c.methods == nil or type(c.methods) == "table", src, at .. "/methods",
         "methods must map method ids to fidelities")
    for m, f in pairs(c.methods or {}) do
      need(method[m] ~= nil, src, at .. "/methods/" .. m, "edge to an unknown method")
      need(contains(fidelities, f), src, at .. "/methods/" .. m,
           "edge fidelity outside the fidelity vocabulary")
      e.edges[m] = f
      e.edge_order[#e.edge_order + 1] = m
    end
    classes[#classes + 1], by_id[id] = e, e
  end
  return classes, by_id
end

local ACTUATOR_CLASSES = { "bounded", "tenant-crossing", "irreversible", "forbidden" }

local function load_actuators()
  local list, by_id = {}, {}
  for _, en in ipairs(registry_map("actuators.yaml", "actuators", "actuators")) do
    need(contains(ACTUATOR_CLASSES, en.value), en.src, en.at,
         "class must be bounded, tenant-crossing, irreversible or forbidden")
    list[#list + 1] = { id = en.id, class = en.value }
    by_id[en.id] = en.value
  end
  return list, by_id
end

local function check_policy(p, src, v, method, class, layer)
  local function each(key, ok)
    for i, x in ipairs(list_of(p[key])) do
      need(ok(x), src(key), ("/%s/%d"):format(key, i - 1), "value outside its universe")
    end
  end
  each("two_clock_methods", function(x) return method[x] ~= nil end)
  each("two_clock_classes", function(x) return class[x] ~= nil end)
  each("tail_statistics", function(x) return contains(v.statistics, x) end)
  each("time_bounded_expects", function(x) return contains(v.expects, x) end)
  each("signal_only_expects", function(x) return contains(v.expects, x) end)
  each("single_tenant_envs", function(x) return contains(v.environments, x) end)
  each("live_traffic_envs", function(x) return contains(v.environments, x) end)
  each("irreversible_in_production_layers", function(x) return layer[x] ~= nil end)
  each("l3_required_predicates", function(x) return contains(v.predicates, x) end)
  each("ib_timeout_release_defaults",
       function(x) return is_integer(x) and x >= 1 and x <= 31 end)
  need(contains(v.scopes, p.production_max_scope), src("production_max_scope"),
       "/production_max_scope", "must be a scope")
  local t, r = p.ib_default_timeout, p.ib_default_retry_cnt
  need(is_integer(t) and t >= 1 and t <= 31, src("ib_default_timeout"), "/ib_default_timeout",
       "must be an integer in 1..31")
  need(is_integer(r) and r >= 0 and r <= 7, src("ib_default_retry_cnt"), "/ib_default_retry_cnt",
       "must be an integer in 0..7")
  need(is_integer(p.l2_min_runs), src("l2_min_runs"), "/l2_min_runs", "must be an integer")
  for _, k in ipairs({ "ib_timeout_unit_s", "c10d_timeout_default_s", "two_clock_margin",
                       "max_query_range_days_cap" }) do
    local x = p[k]
    need(type(x) == "number" and x == x and x > 0 and x < math.huge, src(k), "/" .. k,
         "must be a finite number > 0")
  end
end

local function check_vocab(v)
  for unit, scope in pairs(v.unit_scope) do
    need(contains(v.units, unit) and contains(v.scopes, scope), "vocab.yaml",
         "/unit_scope/" .. unit,
         "keys must be units and values scopes")
  end
  for _, unit in ipairs(v.units) do
    need(v.unit_scope[unit] ~= nil, "vocab.yaml", "/unit_scope", "unit '" .. unit .. "' has no " ..
      "scope")
  end
end

local function check_failure_modes(modes, class, method, vocab)
  for i, m in ipairs(modes) do
    local at = ("/failure_modes/%d"):format(i - 1)
    for _, c in ipairs(list_of(m.classes)) do
      need(class[c] ~= nil, "failure_modes.yaml", at .. "/classes", "unknown class '" .. c .. "'")
    end
    for _, key in ipairs({ "faithful", "emulations" }) do
      for _, e in ipairs(list_of(m[key])) do
        local c = class[e["for"]]
        need(c ~= nil and c.edges[e.method] == e.fidelity, "failure_modes.yaml", at .. "/" .. key,
             "no registry edge " .. tostring(e.method) .. " -> " .. tostring(e["for"]))
      end
    end
    for _, e in ipairs(list_of(m.not_faithful)) do
      need(method[e.method] ~= nil, "failure_modes.yaml", at .. "/not_faithful",
           "unknown method '" .. tostring(e.method) .. "'")
    end
    need(m.detection and contains(vocab.statistics, m.detection.statistic), "failure_modes.yaml",
         at .. "/detection/statistic", "statistic outside the vocabulary")
  end
end

local function load_registry()
  local reg = {}
  reg.vocab = engine.data("registry/vocab.yaml")
  check_vocab(reg.vocab)
  refuse_fixed_files()
  local policy_src
  reg.policy, policy_src = load_policy()
  reg.layers, reg.layer = load_layers()
  reg.methods, reg.method = load_methods(reg.layer)
  reg.classes, reg.class = load_classes(reg.layer, reg.method, reg.vocab.fidelity)
  reg.actuators, reg.actuator = load_actuators()
  check_policy(reg.policy, policy_src, reg.vocab, reg.method, reg.class, reg.layer)
  reg.failure_modes = list_of(engine.data("registry/failure_modes.yaml").failure_modes)
  check_failure_modes(reg.failure_modes, reg.class, reg.method, reg.vocab)
  reg.signals = engine.data("registry/signals.yaml")
  return reg
end

REG = load_registry()

-- Add or change one fidelity edge (mutations use it, keeping the edge order).
function CF.set_edge(class_id, method_id, fidelity)
  local c = REG.class[class_id]
  if not c.edges[method_id] then c.edge_order[#c.edge_order + 1] = method_id end
  c.edges[method_id] = fidelity
end

-- The faithful alternatives of a class: fidelity rank, then method id.
function CF.alternatives(class)
  local alts = {}
  for _, m in ipairs(class.edge_order) do
    alts[#alts + 1] = { method = m, fidelity = class.edges[m] }
  end
  table.sort(alts, function(a, b)
    local ra, rb = FIDELITY_RANK[a.fidelity], FIDELITY_RANK[b.fidelity]
    if ra ~= rb then return ra < rb end
    return a.method < b.method
  end)
  return alts
end

-- The strongest fidelity among a class's edges (nil when it has none).
function CF.best_available(class)
  local best
  for _, m in ipairs(class.edge_order) do
    local f = class.edges[m]
    if not best or FIDELITY_RANK[f] < FIDELITY_RANK[best] then best = f end
  end
  return best
end

-- ---- document helpers -----------------------------------------------------------------

-- Empty values count as missing (spec 4.1): nil, null, "", [] and {}.
local function present(v)
  if v == nil or engine.isnull(v) then return false end
  if type(v) == "string" then return v ~= "" end
  local t = engine.type(v)
  if t == "list" or t == "map" then return #v > 0 end
  return true
end
CF.present = present

local function strings(list)
  local t = {}
  if present(list) then
    for i, x in ipairs(list) do t[i] = x end
  end
  return t
end

local function array(list)
  local a = engine.array()
  for i, x in ipairs(list) do a[i] = x end
  return a
end
CF.array = array

local function num(x)
  return py.repr(x)
end

local function float(x)
  return x + 0.0
end

-- Two seconds figures with one decimal, more (up to 6) while they print equal (5.7).
local function seconds_pair(a, b)
  for d = 1, 6 do
    local fa, fb = py.fixed(a, d), py.fixed(b, d)
    if fa ~= fb or d == 6 then return fa, fb end
  end
end

local function param(doc, key)
  local p = doc.injection.parameters
  if not present(p) or engine.type(p) ~= "map" then return nil end
  local v = p[key]
  if v == nil or engine.isnull(v) then return nil end
  return v
end

-- The values of spec 5.1, computed once the registry stage passed.
local function derive(doc)
  local d = {}
  d.class = REG.class[doc.fault.class]
  d.method = REG.method[doc.injection.method]
  d.edge = d.class.edges[d.method.id]
  if d.edge == nil or d.edge == "real" then
    d.root_layer = d.class.layer
  else
    d.root_layer = d.method.origin
  end
  d.signal_names, d.signal_layers = {}, {}
  for i, s in ipairs(doc.observe.signals) do
    d.signal_names[i], d.signal_layers[i] = s.name, s.layer
  end
  d.acceptance_layers = {}
  for i, a in ipairs(doc.acceptance) do d.acceptance_layers[i] = a.layer end
  d.tested = strings(doc.claims.tested_layers)
  d.emits = strings(doc.evidence.emits)
  d.autonomy = present(doc.autonomy) and doc.autonomy or nil
  d.agent = d.autonomy and d.autonomy.agent or nil
  d.acting_agent = d.agent ~= nil and d.agent ~= "none"
  d.propagation = strings(doc.fault.expected_propagation)
  d.unit_scope = REG.vocab.unit_scope[doc.injection.targets.unit]
  d.transport = present(doc.injection.transport) and doc.injection.transport or nil
  local p = REG.policy
  d.pair = contains(p.two_clock_classes, d.class.id) and contains(p.two_clock_methods, d.method.id)
  d.applicable = d.pair and d.transport == "rdma"
  d.T = param(doc, "nccl_ib_timeout") or p.ib_default_timeout
  d.R = param(doc, "nccl_ib_retry_cnt") or p.ib_default_retry_cnt
  d.W = param(doc, "c10d_timeout_s") or p.c10d_timeout_default_s
  if d.applicable then d.clocks = CF.two_clocks(d.T, d.R, d.W, doc.injection.hold_s) end
  return d
end
CF.derive = derive

-- The two clocks (spec 5.2) with the policy unit and band and the mutation variant.
function CF.two_clocks(t, r, w, hold)
  return models.chaos.two_clocks({ timeout = t, retry_cnt = r, c10d_timeout_s = w, hold_s = hold,
                                   unit_s = REG.policy.ib_timeout_unit_s,
                                   margin = REG.policy.two_clock_margin }, VARIANT)
end

local function scope_index(s)
  return index_of(REG.vocab.scopes, s)
end

local function level_index(l)
  return index_of(REG.vocab.levels, l) - 1
end

-- A registry that breaks spec 3.1 stops the load with this id
-- (bad_registry above); declared so that --explain knows it.
engine.declare {
  id = "chaos.registry", stage = "input", severity = "error", program = true,
  summary = "the policy registry (rules/chaos/registry) breaks a well-formedness rule",
  fix = "correct the registry node the error names (file, line, column and pointer)",
}

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

local STRICT_PHASE = 4

-- Phase 2 passed: every registry reference of the document resolves.
local function refs_resolve(doc)
  if not REG.class[doc.fault.class] or not REG.method[doc.injection.method] then return false end
  local function layers_ok(list, key)
    for _, x in ipairs(strings(list)) do
      local id = key and x[key] or x
      if not REG.layer[id] then return false end
    end
    return true
  end
  return REG.layer[doc.fault.layer] ~= nil and layers_ok(doc.fault.expected_propagation)
         and layers_ok(doc.claims.tested_layers) and layers_ok(doc.observe.signals, "layer")
         and layers_ok(doc.acceptance, "layer")
end
CF.refs_resolve = refs_resolve

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
CF.STRICT_PHASE = STRICT_PHASE

-- ---- the experiment object of the lint JSON (spec 6.6) ------------------------------------------

function CF.experiment(doc, ran)
  local class, method = REG.class[doc.fault.class], REG.method[doc.injection.method]
  local resolved = refs_resolve(doc)
  local d = resolved and derive(doc) or nil
  local tc = engine.null
  if d and d.applicable and ran ~= false then
    local c = d.clocks
    tc = engine.object("nccl_ib_timeout", d.T, "nccl_ib_retry_cnt", d.R,
                       "ack_timeout_s", c.ack_timeout_s, "give_up_s", c.give_up_s,
                       "c10d_timeout_s", c.c10d_timeout_s, "hold_s", doc.injection.hold_s,
                       "outcome", c.outcome, "ended_by", c.ended_by)
  end
  local cert = engine.null
  if present(doc.autonomy) then cert = doc.autonomy.certifies_level end
  return engine.object(
    "id", doc.id, "fault_class", doc.fault.class,
    "class_layer", class and class.layer or engine.null,
    "method", doc.injection.method, "origin", method and method.origin or engine.null,
    "fidelity", doc.injection.fidelity,
    "registry_fidelity", d and d.edge or engine.null,
    "root_cause_layer", d and d.root_layer or engine.null,
    "tested_layers", array(strings(doc.claims.tested_layers)),
    "expects", doc.claims.expects, "environment", doc.scope.environment,
    "certifies_level", cert, "two_clocks", tc)
end

engine.report {
  kind = "chaos-experiment",
  key = "experiment",
  build = function(doc) return CF.experiment(doc) end,
}
