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

-- A registry that breaks spec 3.1 stops the load with this id
-- (bad_registry above); declared so that --explain knows it.
engine.declare {
  id = "chaos.registry", stage = "input", severity = "error", program = true,
  summary = "the policy registry (rules/chaos/registry) breaks a well-formedness rule",
  fix = "correct the registry node the error names (file, line, column and pointer)",
}

-- What rules.lua reads of the helpers above (it sees the pack's globals,
-- not this file's locals).
CF.strings, CF.num, CF.float = strings, num, float
CF.param, CF.seconds_pair = param, seconds_pair

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
