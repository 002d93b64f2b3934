-- The resiliency pack (spec/resiliency.md): last-mile site plans of the
-- kind `resiliency-site`, their input checks, the static plan rules and the
-- claim rules that simulate the plan. The Monte Carlo itself is C
-- (models.resiliency, core/models/resiliency*.c); this file only resolves a
-- document into the model's input, and the model's output into findings.
-- commands.lua (airan-resiliency) and validation.lua reuse the tables and
-- functions below through the pack globals RS, BUILTINS, RUNGS, DEFAULTS
-- and VARIANT, which are also what a validation mutation may change.
local py = require "py"

engine.pack {
  summary   = "last-mile resiliency Monte Carlo: site plans, claims and the policy ladder",
  help_base = "https://infragate.invalid/rules/resiliency/",
  order     = "position",
}

-- The rules' checks are lib/checks.lua, compiled on the first document a rule
-- checks: a run that lints nothing never compiles them.
local function check_of(id)
  return function(doc, ctx) return require("checks")[id](doc, ctx) end
end

-- The constants of the spec live in the C model; these are copies a
-- validation mutation may edit (never reachable from a document).
BUILTINS = models.resiliency.catalog()  -- fiber, microwave, 5g-fwa, leo
DEFAULTS = models.resiliency.defaults()
RUNGS = DEFAULTS.rungs                   -- P0..P4
VARIANT = {}                             -- formula switches of mutations

RS = {}

local CLASSES = DEFAULTS.classes          -- R0, R1, R2
local CLAIM_FIGURES = { "nines", "availability", "downtime_h_yr", "episodes_per_year",
                        "ettr_h", "retention" }
local TRANSPORT_REQUIRED = { "kind", "capacity_gbps", "rtt_ms", "carries", "monthly_usd",
                             "modes" }
local POWER_FIELDS = { "battery_h", "has_generator", "generator_fuel_h",
                       "generator_start_fail_p", "routine_outages_per_year",
                       "routine_outage_h" }
local TIMING_FIELDS = { "holdover", "gnss_events_per_year", "gnss_event_h" }
local STORM_FIELDS = { "rate_per_year", "mean_duration_h", "grid_outage_p",
                       "neighbor_battery_h" }
RS.CLASSES = CLASSES
RS.CLAIM_FIGURES = CLAIM_FIGURES
RS.POWER_FIELDS = POWER_FIELDS
RS.STORM_FIELDS = STORM_FIELDS

-- ---- small helpers ------------------------------------------------------

local function float(x)
  return x + 0.0
end

local function copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = copy(x) end
  return t
end
RS.copy = copy

local function builtin(name)
  for _, t in ipairs(BUILTINS) do
    if t.name == name then return t end
  end
  return nil
end

local function rung(name)
  for _, r in ipairs(RUNGS) do
    if r.name == name then return r end
  end
  return nil
end
RS.rung = rung

local function builtin_names()
  local names = {}
  for _, t in ipairs(BUILTINS) do names[#names + 1] = t.name end
  return table.concat(names, ", ")
end

local function index_of(list, value)
  for i, x in ipairs(list) do
    if x == value then return i end
  end
  return nil
end

-- The seed as text for messages; the seed as a JSON value is an integer.
local function seed_text(seed)
  return type(seed) == "string" and seed or ("%d"):format(seed)
end
RS.seed_text = seed_text

-- ---- resolution (spec 3.8) ----------------------------------------------

local function resolve_mode(m)
  return {
    name = m.name,
    rate_per_year = float(m.rate_per_year),
    mttr_h = float(m.mttr_h),
    capacity_factor = float(m.capacity_factor or 0),
    storm_rate_mult = float(m.storm_rate_mult or 1),
    storm_mttr_mult = float(m.storm_mttr_mult or 1),
    physical_cut = m.physical_cut == true,
  }
end

-- Classes in class order, whatever order the document wrote them in.
local function class_list(carries)
  local has, out = {}, {}
  for _, c in ipairs(carries) do has[c] = true end
  for _, c in ipairs(CLASSES) do
    if has[c] then out[#out + 1] = c end
  end
  return out
end

local function resolve_entry(name, e, origin)
  local base = e.base and builtin(e.base) or {}
  local t = { name = name, origin = origin }
  t.kind = e.kind or base.kind
  t.capacity_gbps = float(e.capacity_gbps or base.capacity_gbps)
  t.rtt_ms = float(e.rtt_ms or base.rtt_ms)
  t.carries = e.carries and class_list(e.carries) or copy(base.carries)
  t.monthly_usd = float(e.monthly_usd or base.monthly_usd)
  if e.grid_dependent ~= nil then
    t.grid_dependent = e.grid_dependent
  else
    t.grid_dependent = base.grid_dependent == true
  end
  if e.modes then
    t.modes = {}
    for i, m in ipairs(e.modes) do t.modes[i] = resolve_mode(m) end
  else
    t.modes = copy(base.modes)
  end
  return t
end

-- The effective catalog: built-ins with overrides in place, then custom
-- entries in document order.
function RS.catalog(doc)
  local list, at = {}, {}
  for i, t in ipairs(BUILTINS) do
    list[i] = copy(t)
    list[i].origin = "builtin"
    at[t.name] = i
  end
  if doc and doc.catalog then
    for name, e in pairs(doc.catalog) do
      if at[name] then
        list[at[name]] = resolve_entry(name, e, "override")
      else
        list[#list + 1] = resolve_entry(name, e, "custom")
        at[name] = #list
      end
    end
  end
  return list
end

local function merged_block(fields, given, base)
  local t = {}
  for _, k in ipairs(fields) do
    local v = given and given[k]
    if v == nil then v = base[k] end
    t[k] = type(v) == "number" and float(v) or v
  end
  return t
end

-- The policy with defaults filled in (3.3): a copy of the base rung, or
-- the defaults, with every given key replacing it (power and timing field
-- by field).
function RS.policy(p)
  local base = p.base and rung(p.base)
  local pol = {}
  pol.name = p.name or (base and base.name)
  pol.label = p.label or (base and base.label) or pol.name
  pol.transports = {}
  local list = p.transports or (base and base.transports) or {}
  for i, n in ipairs(list) do pol.transports[i] = n end
  local function pick(k, dflt)
    if p[k] ~= nil then return p[k] end
    if base then return base[k] end
    return dflt
  end
  pol.dual_fiber = pick("dual_fiber", false)
  pol.shared_cut_fraction = float(pick("shared_cut_fraction", DEFAULTS.shared_cut_fraction))
  pol.local_autonomy = pick("local_autonomy", false)
  pol.power = merged_block(POWER_FIELDS, p.power, base and base.power or DEFAULTS.power)
  pol.timing = merged_block(TIMING_FIELDS, p.timing, base and base.timing or DEFAULTS.timing)
  pol.timing.holdover_h = DEFAULTS.holdover_h[pol.timing.holdover]
  return pol
end

function RS.storm(s)
  return merged_block(STORM_FIELDS, s, DEFAULTS.storm)
end

-- Instance names in simulation order: the listed ones, then fiber-b.
function RS.instances(pol)
  local names = {}
  for i, n in ipairs(pol.transports) do names[i] = n end
  if pol.dual_fiber then names[#names + 1] = "fiber-b" end
  return names
end

-- Horizon and seed: the command line, else the document, else 2000 and 7.
-- Returns years, seed, and where each came from ("cli", "document", "default").
function RS.horizon(doc, over)
  over = over or {}
  local sim = doc.simulation
  local years, ysrc, seed, ssrc
  if over.years then
    years, ysrc = over.years, "cli"
  elseif sim and sim.years then
    years, ysrc = sim.years, "document"
  else
    years, ysrc = DEFAULTS.years, "default"
  end
  if over.seed ~= nil then
    seed, ssrc = over.seed, "cli"
  elseif sim and sim.seed then
    seed, ssrc = sim.seed, "document"
  else
    seed, ssrc = DEFAULTS.seed, "default"
  end
  return years, seed, ysrc, ssrc
end

-- Everything a simulation of the document needs.
function RS.resolve(doc, over)
  local r = {}
  r.catalog = RS.catalog(doc)
  r.policy = RS.policy(doc.policy)
  r.storm = RS.storm(doc.storm)
  r.years, r.seed, r.years_from, r.seed_from = RS.horizon(doc, over)
  return r
end

-- The model's run table.
function RS.run(catalog, policy, storm, years, seed)
  return { catalog = catalog, policy = policy, storm = storm, years = years, seed = seed }
end

function RS.simulate(r)
  return models.resiliency.simulate(RS.run(r.catalog, r.policy, r.storm, r.years, r.seed),
                                    VARIANT)
end

-- ---- JSON shapes (spec 4.2) -----------------------------------------------

function RS.class_json(f)
  return engine.object(
    "availability", f.availability,
    "nines", f.nines,
    "nines_unrounded", f.nines_unrounded,
    "downtime_h_yr", f.downtime_h_yr,
    "ettr_h", f.ettr_h,
    "episodes_per_year", f.episodes_per_year,
    "retention", f.retention,
    "totals", engine.object(
      "down_h", f.totals.down_h,
      "episodes", f.totals.episodes,
      "degraded_h", f.totals.degraded_h,
      "capacity_loss_h", f.totals.capacity_loss_h))
end

function RS.policy_json(pol, res)
  local classes = engine.object()
  for _, c in ipairs(CLASSES) do classes[c] = RS.class_json(res.classes[c]) end
  return engine.object("name", pol.name, "label", pol.label,
                       "monthly_usd", res.monthly_usd, "classes", classes)
end

-- ---- input checks (spec 3.9) ------------------------------------------------
-- Each check calls emit(at, key, message) per problem, in document order.
-- The input-stage rules below and the verbs of commands.lua share them.

local function check_missing(doc, emit)
  local p = doc.policy
  if p.base == nil then
    for _, k in ipairs({ "name", "transports" }) do
      if p[k] == nil then
        emit(p, k, ("policy names no 'base' rung, so it must state '%s'"):format(k))
      end
    end
  end
  if not doc.catalog then return end
  for name, e in pairs(doc.catalog) do
    if e.base == nil then
      for _, k in ipairs(TRANSPORT_REQUIRED) do
        if e[k] == nil then
          emit(e, k, ("catalog entry '%s' has no 'base', so it must state '%s'")
                     :format(name, k))
        end
      end
    end
  end
end

local function check_storm_rates(doc, emit)
  if not doc.catalog then return end
  for name, e in pairs(doc.catalog) do
    for _, m in ipairs(e.modes or {}) do
      local mult = m.storm_rate_mult or 1
      local extra = m.rate_per_year * (mult - 1.0)
      if extra > DEFAULTS.limits.max_rate then
        emit(m, "storm_rate_mult",
             ("mode '%s' of '%s': rate_per_year %s x (storm_rate_mult %s - 1) = %s extra "
              .. "arrivals per year inside storms, over the ceiling of %s")
             :format(m.name, name, py.repr(m.rate_per_year), py.repr(mult), py.repr(extra),
                     py.repr(DEFAULTS.limits.max_rate)))
      end
    end
  end
end

local function catalog_names(doc)
  local known = {}
  for _, t in ipairs(BUILTINS) do known[t.name] = true end
  if doc.catalog then
    for name in pairs(doc.catalog) do known[name] = true end
  end
  return known
end

local function check_unknown(doc, emit)
  if doc.catalog then
    for name, e in pairs(doc.catalog) do
      if e.base ~= nil and not builtin(e.base) then
        emit(e, "base", ("catalog entry '%s' starts from '%s', which is not a built-in "
                         .. "transport (%s)"):format(name, e.base, builtin_names()))
      end
    end
  end
  local p = doc.policy
  if p.transports then
    local known = catalog_names(doc)
    for i, n in ipairs(p.transports) do
      if not known[n] then
        emit(p.transports, i, ("policy lists transport '%s', which is neither built in (%s) "
                               .. "nor in the document's catalog"):format(n, builtin_names()))
      end
    end
  end
end

local function effective_dual(p)
  if p.dual_fiber ~= nil then return p.dual_fiber, "document" end
  local base = p.base and rung(p.base)
  return base and base.dual_fiber or false, "base"
end

local function check_duplicates(doc, emit)
  local p = doc.policy
  local base = p.base and rung(p.base)
  local list = p.transports or (base and base.transports) or {}
  local seen = {}
  for i, n in ipairs(list) do
    if seen[n] then
      if p.transports then
        emit(p.transports, i, ("transport '%s' is listed twice (first as item %d); each "
                               .. "instance is simulated once"):format(n, seen[n] - 1))
      else
        emit(p, "base", ("rung %s lists transport '%s' twice"):format(p.base, n))
      end
    else
      seen[n] = i
    end
  end
  local dual, from = effective_dual(p)
  if dual and seen["fiber-b"] then
    emit(p, from == "document" and "dual_fiber" or "base",
         "dual fiber adds an instance named 'fiber-b', but the policy already lists "
         .. "a transport of that name")
  end
end

local function check_dual_fiber(doc, emit)
  local p = doc.policy
  local dual, from = effective_dual(p)
  if not dual then return end
  local base = p.base and rung(p.base)
  local list = p.transports or (base and base.transports) or {}
  if not index_of(list, "fiber") then
    if from == "document" then
      emit(p, "dual_fiber", "dual_fiber is true but the policy lists no 'fiber' "
                            .. "instance for the second fiber to back up")
    else
      emit(p, "transports", ("rung %s brings dual fiber, but the listed transports have "
                             .. "no 'fiber' instance for the second fiber to back up")
                            :format(p.base))
    end
  end
end

-- In stage order: a later stage runs only when the earlier found nothing.
RS.INPUT_CHECKS = {
  { id = "resiliency.missing-field", stage = 1, check = check_missing },
  { id = "resiliency.range", stage = 1, check = check_storm_rates },
  { id = "resiliency.unknown-transport", stage = 2, check = check_unknown },
  { id = "resiliency.duplicate-instance", stage = 2, check = check_duplicates },
  { id = "resiliency.dual-fiber-without-fiber", stage = 2, check = check_dual_fiber },
}

-- Ids that only the schema emits.
engine.declare {
  id       = "resiliency.unknown-field",
  severity = "error",
  summary  = "a site document may only use the keys the spec defines",
  fix      = "remove or correct the key; the message names the closest allowed one",
}

engine.declare {
  id       = "resiliency.enum",
  severity = "error",
  summary  = "kind, base rung, holdover, transport kind and carried classes take fixed values",
  fix      = "use one of the values the message lists",
}

local SUMMARIES = {
  ["resiliency.missing-field"] = "a key the site document needs is absent",
  ["resiliency.range"] = "a value is outside its range, or a name or list breaks its form",
  ["resiliency.unknown-transport"] = "a policy or catalog entry names a transport that "
                                     .. "does not exist",
  ["resiliency.duplicate-instance"] = "each transport instance of a policy occurs once",
  ["resiliency.dual-fiber-without-fiber"] = "dual fiber needs a 'fiber' instance to back up",
}

local FIXES = {
  ["resiliency.missing-field"] = "state the key, or start from a rung or built-in with 'base'",
  ["resiliency.range"] = "bring the value inside the range the message states",
  ["resiliency.unknown-transport"] = "define the transport under 'catalog', or fix its name",
  ["resiliency.duplicate-instance"] = "list each transport once; dual fiber adds 'fiber-b'",
  ["resiliency.dual-fiber-without-fiber"] = "list 'fiber', or turn dual_fiber off",
}

for _, c in ipairs(RS.INPUT_CHECKS) do
  local check, stage = c.check, c.stage
  engine.rule {
    id       = c.id,
    kind     = "resiliency-site",
    severity = "error",
    stage    = "input",
    summary  = SUMMARIES[c.id],
    fix      = FIXES[c.id],
    check    = function(doc, ctx)
      if stage == 2 and (ctx:fired("resiliency.missing-field") or ctx:fired("resiliency.range"))
      then
        return
      end
      check(doc, function(at, key, message) ctx:fail(at, key, message) end)
    end,
  }
end

-- Run the input checks on a view: a list of {rule, at, key, message} of
-- the first stage that found anything (for the verbs).
function RS.input_problems(doc)
  local out = {}
  for stage = 1, 2 do
    for _, c in ipairs(RS.INPUT_CHECKS) do
      if c.stage == stage then
        c.check(doc, function(at, key, message)
          out[#out + 1] = { rule = c.id, at = at, key = key, message = message }
        end)
      end
    end
    if #out > 0 then return out end
  end
  return out
end

-- ---- static plan rules (spec 6.1 step 3) --------------------------------------

engine.rule {
  id       = "resiliency.fronthaul-eligibility",
  kind     = "resiliency-site",
  severity = "error",
  summary  = "R0 fronthaul must not ride a LEO or cellular transport",
  rationale = "R0 needs ~100 us one-way and +/-1.5 us phase; a 25-60 ms LEO path or a "
              .. "jittery cellular one cannot carry it",
  fix      = "drop R0 from the entry's carries, or use a fiber or microwave kind",
  check    = check_of("resiliency.fronthaul-eligibility"),
}

-- The catalog entries of a policy's instances, in instance order (fiber-b
-- is the effective fiber entry).
function RS.instance_entries(catalog, pol)
  local by, out = {}, {}
  for _, t in ipairs(catalog) do by[t.name] = t end
  for i, n in ipairs(pol.transports) do out[i] = by[n] end
  if pol.dual_fiber then out[#out + 1] = by.fiber end
  return out
end

engine.rule {
  id       = "resiliency.r0-unserved",
  kind     = "resiliency-site",
  severity = "warning",
  summary  = "no transport of the policy carries R0, so R0 is down the whole year",
  fix      = "add a fiber or microwave transport, or accept that the site has no fronthaul",
  check    = check_of("resiliency.r0-unserved"),
}

engine.rule {
  id       = "resiliency.strict.srlg-unaudited",
  kind     = "resiliency-site",
  severity = "error",
  summary  = "a dual-fiber plan must state its shared-cut fraction instead of the 15% guess",
  rationale = "the SRLG fraction alone decides what a second fiber is worth, and its "
              .. "default is a declined planning assumption",
  fix      = "audit the duct routes and write policy.shared_cut_fraction",
  check    = check_of("resiliency.strict.srlg-unaudited"),
}

-- ---- claims (spec 6.1 step 4, 6.3) ---------------------------------------------

engine.rule {
  id       = "resiliency.strict.short-horizon",
  kind     = "resiliency-site",
  severity = "error",
  summary  = "claims must be checked over at least 2000 simulated years",
  rationale = "the rare long events that dominate the top rungs are invisible in short runs",
  fix      = "raise simulation.years to 2000 or more",
  check    = check_of("resiliency.strict.short-horizon"),
}

-- The claim semantics of 6.3: the compat figure, the strict figure, and
-- whether a claim is a floor (>=) or a ceiling (<=).
local CLAIMS = {
  nines = { figure = "nines", unrounded = "nines_unrounded", floor = true,
            what = "nines" },
  availability = { figure = "availability", unrounded = "availability", floor = true,
                   what = "availability" },
  downtime_h_yr = { figure = "downtime_h_yr", unrounded = "down_yr", floor = false,
                    what = "downtime h/yr" },
  episodes_per_year = { figure = "episodes_per_year", unrounded = "episodes_unrounded",
                        floor = false, what = "down episodes per year" },
  ettr_h = { figure = "ettr_h", unrounded = "ettr_unrounded", floor = false,
             what = "mean restore time h" },
  retention = { figure = "retention", unrounded = "retention_unrounded", floor = true,
                what = "usable-capacity retention" },
}
RS.CLAIMS = CLAIMS

engine.rule {
  id       = "resiliency.claim-unmet",
  kind     = "resiliency-site",
  severity = "error",
  summary  = "the simulated figure of a class must satisfy the plan's claim",
  fix      = "raise the policy (a rung up the ladder, a generator, a second transport) or "
             .. "lower the claim",
  check    = check_of("resiliency.claim-unmet"),
}

engine.rule {
  id       = "resiliency.claim-underpowered",
  kind     = "resiliency-site",
  severity = "warning",
  summary  = "a met claim rests on fewer than 10 simulated down episodes",
  rationale = "with so few episodes the figure is mostly Monte Carlo noise",
  fix      = "simulate more years (simulation.years) before relying on the claim",
  check    = check_of("resiliency.claim-underpowered"),
}

engine.rule {
  id       = "resiliency.budget-exceeded",
  kind     = "resiliency-site",
  severity = "error",
  summary  = "the policy's monthly cost must not exceed the plan's budget",
  fix      = "choose a cheaper policy, or raise claims.monthly_usd_max",
  check    = check_of("resiliency.budget-exceeded"),
}

engine.rule {
  id       = "resiliency.strict.sentinel-nines",
  kind     = "resiliency-site",
  severity = "error",
  summary  = "a nines or availability claim must not be met by a run that saw no downtime",
  rationale = "9.0 nines is the sentinel for 'no downtime observed', not a measurement",
  fix      = "simulate enough years for the class to fail at least once",
  check    = check_of("resiliency.strict.sentinel-nines"),
}

engine.rule {
  id       = "resiliency.strict.rounded-claim",
  kind     = "resiliency-site",
  severity = "error",
  summary  = "a claim must hold on the unrounded figure, not only on its rounded display",
  rationale = "2-dp nines let a 3.006 plan claim 3.01",
  fix      = "lower the claim to what the unrounded figure supports",
  check    = check_of("resiliency.strict.rounded-claim"),
}

-- What lib/checks.lua reads from this file.
RS.builtin = builtin
RS.effective_dual = effective_dual
RS.float = float
RS.index_of = index_of
