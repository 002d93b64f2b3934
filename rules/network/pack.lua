-- luacheck: std +lua54 (math.type and math.tointeger tell ints from floats)
-- The network pack (spec/network.md): what a fabric change buys in
-- accelerators. This file turns documents (scenarios, interventions,
-- capacity proposals, fabric plans) into the tables the C model takes
-- (models.network, core/models/network*.c), and the model's figures into
-- findings (section 6). commands.lua (`infragate network VERB`) and
-- validation.lua reuse everything through the pack global NW; VARIANT is
-- the formula switch table a validation mutation sets (empty: the shipped
-- model), passed to every model call.
local py = require "py"

engine.pack {
  summary   = "interconnect versus more accelerators: capacity ledger, SEA and scale-across",
  help_base = "https://infragate.invalid/rules/network/",
  order     = "position",
}

VARIANT = {}
NW = {}

-- ---- the scenario fields (spec 3.1), from the C model's own table ---------------------------

local FIELDS = models.network.fields()
local FIELD = {}      -- "topology.halls" -> field
local SECTION = {}    -- "topology" -> {name -> field}
for _, f in ipairs(FIELDS) do
  FIELD[f.path] = f
  local s = f.section ~= "" and f.section or ""
  SECTION[s] = SECTION[s] or {}
  SECTION[s][f.name] = f
end
NW.FIELD = FIELD

-- The sections of a scenario, in document order, and which must be present.
local SECTIONS = { "model", "accelerator", "topology", "parallelism", "reliability", "kernel" }
local SECTION_REQUIRED = { model = true, accelerator = true, topology = true, parallelism = true,
                           reliability = true }
-- String fields the model does not read: required names, free text.
local STRINGS = { [""] = { name = true, notes = false, kind = false },
                  model = { name = true }, accelerator = { name = true } }
local TOP_KEYS = { kind = true, name = true, notes = true, model = true, accelerator = true,
                   topology = true, parallelism = true, reliability = true, kernel = true }
for name in pairs(SECTION[""]) do TOP_KEYS[name] = true end

NW.CUTS = { "tp", "cp", "pp", "dp", "checkpoint" }
NW.REGIMES = models.network.regimes()
NW.PRESET_NAMES = { "llama3-405b-16k", "llama3-405b-8k", "reference-405b-16k" }
NW.DEFAULT_PRESET = "reference-405b-16k"
NW.MAX_CURVE_FACTOR = 64.0  -- the widest pool multiple SEA considers (5.7.4)
NW.ENVELOPE = 0.25          -- recovery-pressure scope guard (5.5)
NW.SMALL_JOB = 4096         -- the failure model is indicative below this (6.2 #7)
NW.REPORTED_GBPS = 3200.0   -- retention is reported up to 3.2 Tbit/s (6.3 #5)

local PRESET_DOCS = {}
for _, name in ipairs(NW.PRESET_NAMES) do
  PRESET_DOCS[name] = engine.data("presets/" .. name .. ".yaml", { plain = true })
end

function NW.regime(name)
  for _, r in ipairs(NW.REGIMES) do
    if r.name == name then return r end
  end
  return nil
end

function NW.regime_names()
  local t = {}
  for i, r in ipairs(NW.REGIMES) do t[i] = r.name end
  return t
end

-- ---- plain copies ---------------------------------------------------------------------------

local function copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = copy(x) end
  return t
end
NW.copy = copy

function NW.preset_doc(name)
  return copy(PRESET_DOCS[name])
end

local function is_null(v)
  return v == nil or engine.isnull(v)
end

-- ---- numbers as the reference model's loader reads them (spec 3) ----------------------------

local FLOAT_TEXT = re.compile([[^\s*[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)]]
                              .. [[(?:[eE][+-]?\d(?:_?\d)*)?\s*$]])

-- Python float() text over ASCII -> a finite float, or nil.
local function float_text(s)
  if not FLOAT_TEXT:test(s) then return nil end
  local v = tonumber((s:gsub("_", ""):match("^%s*(.-)%s*$")))
  if v == nil or v ~= v or v == math.huge or v == -math.huge then return nil end
  return v + 0.0
end
NW.float_text = float_text

local function is_finite(v)
  return v == v and v ~= math.huge and v ~= -math.huge
end

local function type_name(v)
  if is_null(v) then return "null" end
  if type(v) == "table" and v[1] ~= nil then return "a list" end
  if type(v) == "boolean" then return "a boolean" end
  if math.type(v) == "integer" then return "an integer" end
  if math.type(v) == "float" then return "a float" end
  if type(v) == "string" then return "a string" end
  return "a " .. type(v)
end

local function show(v)
  if type(v) == "string" then return py.repr(v) end
  if is_null(v) then return "null" end
  return py.str(v)
end

-- Check one value against a field: the converted value, or nil and why.
-- strings_ok: numeric strings accepted (network-scenario documents only).
local function field_value(f, v, strings_ok)
  if f.nullable and is_null(v) then return engine.null end
  if f.type == "enum" then
    if type(v) == "string" then
      for _, c in ipairs(f.choices) do
        if c == v then return v end
      end
    end
    return nil, ("must be one of %s (got %s)"):format(table.concat(f.choices, ", "), show(v))
  end
  if f.type == "bool" then
    if type(v) == "boolean" then return v end
    return nil, ("must be a boolean (got %s)"):format(type_name(v))
  end
  local x = v
  if type(v) == "string" and strings_ok then
    x = float_text(v)
    if x == nil then
      return nil, ("must be a number; %s is not a finite number's text"):format(py.repr(v))
    end
    if f.type == "int" then
      if x ~= math.floor(x) then
        return nil, ("must be an integer (got the string %s)"):format(py.repr(v))
      end
    end
  elseif math.type(v) == nil then
    return nil, ("must be %s (got %s)"):format(f.type == "int" and "an integer" or "a number",
                                              type_name(v))
  elseif f.type == "int" and math.type(v) == "float" then
    return nil, ("must be an integer (got the float %s)"):format(py.repr(v))
  end
  if not is_finite(x) then
    return nil, ("must be a finite number (got %s)"):format(py.repr(x))
  end
  local function bound(b)
    if f.type == "int" then return tostring(math.tointeger(b) or b) end
    return py.repr(b + 0.0)
  end
  local low_ok = f.lo_open and x > f.lo or (not f.lo_open and x >= f.lo)
  if not low_ok then
    return nil, ("must be %s %s (got %s)"):format(f.lo_open and ">" or ">=", bound(f.lo),
                                                 py.repr(x))
  end
  if x > f.hi then
    return nil, ("must be <= %s (got %s)"):format(bound(f.hi), py.repr(x))
  end
  if f.type == "int" then return math.tointeger(x) end
  return x + 0.0
end
NW.field_value = field_value

-- ---- scenario documents -> model tables -----------------------------------------------------

local function pointer(parts)
  local t = {}
  for i, p in ipairs(parts) do t[i] = "/" .. tostring(p):gsub("~", "~0"):gsub("/", "~1") end
  return table.concat(t)
end
NW.pointer = pointer

local function is_map(v)
  local t = engine.type(v)
  if t == "map" then return true end
  if t ~= "lua" or type(v) ~= "table" then return false end
  return v[1] == nil
end

-- Convert the plain scenario table `doc` (from a document, a preset or a
-- proposal) into the model's table. Problems are {parent, key, message,
-- on_key}: parent a pointer list below `base` (a pointer list too).
-- origin(pointer) tells whether a value came from --set (for the error's
-- argument).
-- A problem list and the function that adds {parent, key, message, on_key}
-- to it, with parent a pointer list below `base`.
local function problem_list(base)
  local problems = {}
  return problems, function(parent, key, message, on_key)
    local p = {}
    for i, x in ipairs(base) do p[i] = x end
    for _, x in ipairs(parent) do p[#p + 1] = x end
    problems[#problems + 1] = { parent = p, key = key, message = message, on_key = on_key }
  end
end

function NW.convert(doc, base, opts)
  opts = opts or {}
  local problems, problem = problem_list(base)
  local out = {}
  if not is_map(doc) then
    problem({}, nil, ("a scenario must be a mapping (got %s)"):format(type_name(doc)))
    return nil, problems
  end
  for k in pairs(doc) do
    if type(k) ~= "string" or not TOP_KEYS[k] or (k == "kind" and opts.no_kind) then
      problem({}, k, ("unknown scenario key %s"):format(show(k)), true)
    end
  end
  local function strings(sec, src, parent)
    for name, required in pairs(STRINGS[sec] or {}) do
      local v = src[name]
      if v == nil then
        if required then problem(parent, name, ("%s is required"):format(name)) end
      elseif name == "kind" then
        if v ~= "network-scenario" then
          problem(parent, name, ("kind must be network-scenario (got %s)"):format(show(v)))
        end
      elseif type(v) ~= "string" then
        problem(parent, name, ("%s must be a string (got %s)"):format(name, type_name(v)))
      elseif name ~= "notes" and ((utf8.len(v) or 0) < 1 or (utf8.len(v) or 0) > 128) then
        problem(parent, name, ("%s must have 1 to 128 characters"):format(name))
      end
    end
  end
  local function fields(sec, src, dst, parent)
    for name, f in pairs(SECTION[sec]) do
      local v = src[name]
      if v == nil then
        if f.required then problem(parent, name, ("%s is required"):format(f.path)) end
      else
        local x, why = field_value(f, v, true)
        if x == nil then
          problem(parent, name, ("%s %s"):format(f.path, why))
        elseif not engine.isnull(x) then
          dst[name] = x
        end
      end
    end
  end
  strings("", doc, {})
  fields("", doc, out, {})
  out.name = type(doc.name) == "string" and doc.name or nil
  for _, sec in ipairs(SECTIONS) do
    local src = doc[sec]
    out[sec] = {}
    if src == nil then
      if SECTION_REQUIRED[sec] then problem({}, sec, ("section %s is required"):format(sec)) end
    elseif not is_map(src) then
      problem({}, sec, ("section %s must be a mapping (got %s)"):format(sec, type_name(src)))
    else
      for k in pairs(src) do
        if type(k) ~= "string" or not (SECTION[sec][k] or (STRINGS[sec] or {})[k] ~= nil) then
          problem({ sec }, k, ("unknown key %s in %s"):format(show(k), sec), true)
        end
      end
      strings(sec, src, { sec })
      fields(sec, src, out[sec], { sec })
      if STRINGS[sec] and type(src.name) == "string" then out[sec].name = src.name end
    end
  end
  if #problems > 0 then
    table.sort(problems, function(a, b) return pointer(a.parent) .. "/" .. tostring(a.key)
                                            < pointer(b.parent) .. "/" .. tostring(b.key) end)
    return nil, problems
  end
  local cross = models.network.check(out)
  if cross then
    local sec, name = cross.path:match("^(.-)%.(.*)$")
    if sec then
      problem({ sec }, name, ("%s %s"):format(cross.path, cross.message))
    else
      problem({}, cross.path, ("%s %s"):format(cross.path, cross.message))
    end
    problems[#problems].cross = true
    return nil, problems
  end
  return out, {}
end

-- The resolved scenario (defaults filled, n_pool derived, world_size).
function NW.resolve(scn)
  return models.network.scenario(scn)
end

-- lib/scenario_sets.lua, compiled on the first call: its definition replaces this.
function NW.apply_sets(...) require("scenario_sets") return NW.apply_sets(...) end

-- ---- interventions (spec 3.2) ---------------------------------------------------------------

local function iv(name, category, multipliers, overrides)
  return { name = name, category = category, multipliers = multipliers or {},
           overrides = overrides or {} }
end

NW.BUILTIN_INTERVENTIONS = {
  iv("bandwidth_2x", "network", { ["accelerator.nic_bw_gbps"] = 2.0 }),
  iv("bandwidth_4x", "network", { ["accelerator.nic_bw_gbps"] = 4.0 }),
  iv("flat_fabric", "network", nil, { ["topology.oversubscription"] = 1.0 }),
  iv("scaleup_2x", "network", { ["topology.scaleup_domain"] = 2.0 }),
  iv("reliability_2x", "reliability", { ["reliability.failure_rate_per_node_day"] = 0.5 }),
  iv("fast_detection", "recovery", nil, { ["reliability.detect_time_s"] = 20.0 }),
  iv("fast_restart", "recovery", nil, { ["reliability.restart_time_s"] = 60.0 }),
  iv("fast_checkpoint", "recovery", nil, { ["reliability.checkpoint_write_s"] = 5.0 }),
  iv("add_spares", "pool", nil, { ["reliability.spare_fraction"] = 0.05 }),
  iv("straggler_control", "jitter", { ["reliability.straggler_cv"] = 0.5 }),
}

-- lib/interventions.lua, compiled on the first call: its definitions replace these.
function NW.convert_intervention(...)
  require("interventions")
  return NW.convert_intervention(...)
end
function NW.check_intervention(...) require("interventions") return NW.check_intervention(...) end

-- ---- figures shared by the verbs, the rules and the registry --------------------------------

function NW.ledger(scn, opts)
  return models.network.ledger(scn, opts, VARIANT)
end

function NW.winner(scn, set)
  return models.network.winner(scn, set or NW.BUILTIN_INTERVENTIONS, VARIANT)
end

function NW.span(scn, cut, alpha_us, gbps, halls, placement)
  return models.network.span(scn, cut, alpha_us, gbps, halls or 2, placement or "hierarchical",
                             VARIANT)
end

-- Sort rows by SEA (or SEA per cost), an unattainable SEA as +infinity;
-- stable (5.7.5). Returns the names in rank order and sets row.rank.
function NW.rank(rows)
  local order = {}
  for i, r in ipairs(rows) do
    local key = r.sea or math.huge
    if r.cost_accelerator_equivalents and r.cost_accelerator_equivalents > 0 then
      key = r.sea and r.sea / r.cost_accelerator_equivalents or math.huge
    end
    order[i] = { i = i, key = key }
  end
  table.sort(order, function(a, b)
    if a.key ~= b.key then return a.key > b.key end
    return a.i < b.i
  end)
  local names = {}
  for rank, o in ipairs(order) do
    rows[o.i].rank = rank
    names[rank] = rows[o.i].name
  end
  return names
end

-- ---- documents of 3.3-3.5: the scenario a proposal or plan names ----------------------------

-- Resolve the scenario reference of a proposal or plan view: the model
-- table, the node for envelope findings, and problems (pointer lists).
local function referenced_scenario(doc)
  local has_s, has_p = engine.has(doc, "scenario"), engine.has(doc, "preset")
  if has_s == has_p then
    return nil, { { parent = {}, key = nil,
                    message = "name the job by exactly one of scenario: (a mapping) or preset: "
                              .. "(a built-in name)" } }
  end
  if has_s then
    if engine.has(doc, "set") then
      return nil, { { parent = {}, key = "set", on_key = true,
                      message = "set: applies to preset: only" } }
    end
    return NW.convert(engine.plain(doc.scenario), { "scenario" }, { no_kind = true })
  end
  local plain = NW.preset_doc(doc.preset)
  if plain == nil then
    return nil, { { parent = {}, key = "preset",
                    message = ("preset must be one of %s (got %s)")
                              :format(table.concat(NW.PRESET_NAMES, ", "), show(doc.preset)) } }
  end
  if engine.has(doc, "set") then
    local sets = {}
    if not is_map(doc.set) then
      return nil, { { parent = {}, key = "set", message = "set must be a mapping of PATH: VALUE" } }
    end
    for k, v in pairs(engine.plain(doc.set)) do
      sets[#sets + 1] = { path = tostring(k), value = v }
    end
    local touched, bad = NW.apply_sets(plain, sets)
    if not touched then
      return nil, { { parent = { "set" }, key = bad.path, on_key = true,
                      message = ("set names no scenario field %s"):format(show(bad.path)) } }
    end
    local scn, problems = NW.convert(plain, {})
    if not scn then
      -- A preset is valid: any problem comes from set:, reported at its key.
      for _, p in ipairs(problems) do
        local path = table.concat(p.parent, ".") .. (p.key and ((#p.parent > 0 and "." or "")
                                                                .. p.key) or "")
        p.parent, p.key = { "set" }, engine.has(doc.set, path) and path or nil
      end
      return nil, problems
    end
    return scn
  end
  return NW.convert(plain, {})
end

local function report_problems(doc, ctx, problems)
  for _, p in ipairs(problems) do
    local at = #p.parent > 0 and (engine.get(doc, pointer(p.parent)) or pointer(p.parent)) or doc
    if type(at) == "string" then
      ctx:fail { at = at, message = p.message }
    elseif p.key ~= nil and engine.type(at) == "map" then
      ctx:fail { at = at, key = p.key, on = p.on_key and "key" or nil, message = p.message }
    else
      ctx:fail { at = at, message = p.message }
    end
  end
end
NW.report_problems = report_problems

-- The rules' checks are lib/checks.lua, compiled on the first document a rule
-- checks: a run that lints nothing never compiles them.
local function check_of(id)
  return function(doc, ctx) return require("checks")[id](doc, ctx) end
end

-- ---- input-stage rules: what the schemas cannot say -----------------------------------------

engine.rule {
  id       = "network.invalid-scenario",
  kind     = { "network-capacity-proposal", "network-fabric-plan", "network-scenario" },
  severity = "error",
  stage    = "input",
  summary  = "the scenario a document names must satisfy the network-scenario fields",
  description = "Types, ranges and cross-field rules of spec/network.md 3.1 that a schema "
                .. "cannot state, numeric strings included (\"4.05e11\").",
  fix      = "correct the field the finding names; see rules/network/README.md for each range",
  check    = check_of("network.invalid-scenario"),
}

-- ---- 6.2 network-capacity-proposal ----------------------------------------------------------

local function fmt4(x) return py.fixed(x, 4) end

engine.rule {
  id       = "network.expansion-unrealizable",
  kind     = "network-capacity-proposal",
  severity = "error",
  summary  = "the target pool cannot host a whole number of replicas the global batch can feed",
  fix      = "add enough accelerators for one more data-parallel replica, or raise the batch",
  check    = check_of("network.expansion-unrealizable"),
}

engine.rule {
  id       = "network.no-marginal-gain",
  kind     = "network-capacity-proposal",
  severity = "error",
  summary  = "past the scaling peak, more accelerators deliver no more productive throughput",
  fix      = "buy interconnect, reliability or recovery instead (infragate network sea)",
  check    = check_of("network.no-marginal-gain"),
}

engine.rule {
  id       = "network.gain-overclaimed",
  kind     = "network-capacity-proposal",
  severity = "error",
  summary  = "the proposal claims more productive-throughput gain than the model gives",
  fix      = "claim at most the modelled gain (infragate network expand --add N)",
  check    = check_of("network.gain-overclaimed"),
}

engine.rule {
  id       = "network.dominated-by-intervention",
  kind     = "network-capacity-proposal",
  severity = "error",
  summary  = "a cheaper listed intervention buys at least the expansion's throughput",
  fix      = "fund the intervention instead, or show why its SEA does not apply",
  check    = check_of("network.dominated-by-intervention"),
}

engine.rule {
  id       = "network.network-bound",
  kind     = "network-capacity-proposal",
  severity = "warning",
  summary  = "the fabric, not the accelerator count, is the best marginal buy for this job",
  fix      = "price the fabric interventions first (infragate network sea)",
  check    = check_of("network.network-bound"),
}

engine.rule {
  id       = "network.strict.outside-validity-envelope",
  kind     = { "network-capacity-proposal", "network-fabric-plan", "network-scenario" },
  severity = "error",
  summary  = "recovery pressure at or above 0.25: the figures are outside the model's envelope",
  fix      = "treat the figures as indicative, or reduce the failure or recovery time",
  check    = check_of("network.strict.outside-validity-envelope"),
}

engine.rule {
  id       = "network.strict.small-job",
  kind     = "network-capacity-proposal",
  severity = "error",
  summary  = "the failure model is indicative only below 4,096 accelerators",
  fix      = "use measured interruption data for small jobs",
  check    = check_of("network.strict.small-job"),
}

engine.rule {
  id       = "network.strict.unpriced-alternative",
  kind     = "network-capacity-proposal",
  severity = "error",
  summary  = "an alternative without a cost cannot be judged against the expansion",
  fix      = "give cost_accelerator_equivalents for every alternative",
  check    = check_of("network.strict.unpriced-alternative"),
}

-- ---- 6.3 network-fabric-plan ----------------------------------------------------------------

function NW.plan_stitch(doc)
  local s = doc.stitch
  local alpha = engine.has(s, "alpha_us") and s.alpha_us + 0.0 or NW.regime(s.regime).alpha_us
  return { cut = s.cut, alpha_us = alpha, gbps = s.circuit_gbps + 0.0,
           placement = engine.has(s, "placement") and s.placement or "hierarchical",
           halls = engine.has(s, "halls") and s.halls or 2 }
end

function NW.plan_cell(doc, ctx)
  return ctx:once("cell", function()
    local scn = NW.resolve(referenced_scenario(doc))
    local st = NW.plan_stitch(doc)
    local cell = NW.span(scn, st.cut, st.alpha_us, st.gbps, st.halls, st.placement)
    cell.stitch = st
    if st.placement == "blind" then
      cell.hierarchical = NW.span(scn, st.cut, st.alpha_us, st.gbps, st.halls, "hierarchical")
    end
    return cell
  end)
end

engine.rule {
  id       = "network.cut-not-splittable",
  kind     = "network-fabric-plan",
  severity = "error",
  summary  = "the cut's parallel degree is below the number of halls it spans",
  fix      = "cut a dimension whose degree is at least the number of halls",
  check    = check_of("network.cut-not-splittable"),
}

engine.rule {
  id       = "network.retention-below-floor",
  kind     = "network-fabric-plan",
  severity = "error",
  summary  = "the useful capacity the stitch keeps is below the plan's floor",
  fix      = "cut another dimension, shorten the distance, widen the circuit or place ranks "
             .. "hall by hall",
  check    = check_of("network.retention-below-floor"),
}

engine.rule {
  id       = "network.retention-overclaimed",
  kind     = "network-fabric-plan",
  severity = "error",
  summary  = "the plan claims more retention than the model gives",
  fix      = "claim at most the modelled retention (infragate network span)",
  check    = check_of("network.retention-overclaimed"),
}

engine.rule {
  id       = "network.blind-placement",
  kind     = "network-fabric-plan",
  severity = "error",
  summary  = "topology-blind rank order loses capacity that hierarchical placement keeps",
  fix      = "order ranks by hall (hierarchical placement)",
  check    = check_of("network.blind-placement"),
}

engine.rule {
  id       = "network.strict.width-beyond-reported",
  kind     = "network-fabric-plan",
  severity = "error",
  summary  = "retention is reported only up to a 3.2 Tbit/s circuit",
  fix      = "treat the retention as unvalidated above 3,200 Gbit/s",
  check    = check_of("network.strict.width-beyond-reported"),
}

engine.rule {
  id       = "network.strict.more-than-two-halls",
  kind     = { "network-fabric-plan", "network-scenario" },
  severity = "error",
  summary  = "no published measurement validates more than two halls",
  fix      = "treat figures for three or more halls as unvalidated",
  check    = check_of("network.strict.more-than-two-halls"),
}

-- ---- 6.4 network-scenario -------------------------------------------------------------------

engine.rule {
  id       = "network.strict.memory-exceeds-capacity",
  kind     = "network-scenario",
  severity = "error",
  summary  = "model state and activations do not fit the accelerator's memory",
  fix      = "raise tp or pp, shard with ZeRO, or recompute activations",
  check    = check_of("network.strict.memory-exceeds-capacity"),
}

engine.rule {
  id       = "network.strict.param-inconsistent",
  kind     = "network-scenario",
  severity = "error",
  summary  = "the declared parameter count disagrees with the shape by more than 25%",
  fix      = "correct n_params, n_layers, hidden, vocab or ffn_multiplier",
  check    = check_of("network.strict.param-inconsistent"),
}

-- ---- the strict findings of model verbs (6.5) -----------------------------------------------

-- Each returns a finding table {rule, message, path} or nil.
NW.STRICT = {
  ["memory-exceeds-capacity"] = function(c)
    local need = c.step.memory_total_gb
    if need > c.scn.accelerator.memory_gb then
      return { path = "/accelerator/memory_gb",
               message = ("state and activations need %s GB, more than the %s GB per accelerator")
                         :format(py.fixed(need, 2), py.repr(c.scn.accelerator.memory_gb)) }
    end
  end,
  ["param-inconsistent"] = function(c)
    if c.step.param_disagreement > 0.25 then
      return { path = "/model/n_params",
               message = ("n_params disagrees with the shape by %s (limit 0.25)")
                         :format(fmt4(c.step.param_disagreement)) }
    end
  end,
  ["more-than-two-halls"] = function(c)
    local halls = c.halls or c.scn.topology.halls
    if halls > 2 then
      return { path = c.halls and "/halls" or "/topology/halls",
               message = ("%d halls: only two-hall stitches are validated"):format(halls) }
    end
  end,
  ["outside-validity-envelope"] = function(c)
    if c.ledger.recovery_pressure >= NW.ENVELOPE then
      return { path = "/reliability",
               message = ("recovery pressure %s is at or above the envelope of 0.25")
                         :format(fmt4(c.ledger.recovery_pressure)) }
    end
  end,
  ["small-job"] = function(c)
    if c.scn.world_size < NW.SMALL_JOB then
      return { path = "/parallelism",
               message = ("world size %d is below %d: the failure model is indicative only")
                         :format(c.scn.world_size, NW.SMALL_JOB) }
    end
  end,
  ["width-beyond-reported"] = function(c)
    if c.gbps and c.gbps > NW.REPORTED_GBPS then
      return { path = "/circuit_gbps",
               message = ("circuit %s Gbit/s is above the reported 3200"):format(py.repr(c.gbps)) }
    end
  end,
}

-- What lib/checks.lua reads from this file.
NW.fmt4 = fmt4
NW.referenced_scenario = referenced_scenario

-- What lib/interventions.lua reads from this file.
NW.is_finite = is_finite
NW.is_map = is_map
NW.problem_list = problem_list
NW.show = show
NW.type_name = type_name

-- What lib/scenario_sets.lua reads from this file.
NW.STRINGS = STRINGS
