-- The scheduling pack (spec/scheduling.md): stranded capacity priced layer
-- by layer, the scheduler simulation, and the two documents CI gates:
-- capacity requests (buy N GPUs) and scheduler policies. The arithmetic is
-- C (models.scheduling, core/models/scheduling*.c); this file resolves
-- documents into model inputs and model outputs into findings. The helpers
-- under SCHED are shared with commands.lua, rules.lua and validation.lua;
-- VARIANT is the formula change a validation mutation passes to every model
-- call. The rules are rules.lua, compiled only by a run that reads rules (a
-- lint, not `scheduling stranded`).
local py = require "py"

engine.pack {
  summary   = "stranded capacity, scheduler simulation, capacity requests and scheduler policies",
  help_base = "https://infragate.invalid/rules/scheduling/",
}

VARIANT = {}
SCHED = {}

local function float(x) return x + 0.0 end
SCHED.float = float

-- ---- the fields of 3.1 and 3.2, in the reference's order --------------------

-- {name, type, default, min, max, min_open, max_open, ...}
SCHED.STRANDED_FIELDS = {
  { "name", "string", "custom", minlen = 1, maxlen = 64 },
  { "description", "string", nil, maxlen = 1000 },
  { "gpus", "int", nil, 1, 100000000 },
  { "window_hours", "number", 720.0, 0, 876000, min_open = true },
  { "hard_outage_hours", "number", 0.0, 0, 876000 },
  { "degraded_hours", "number", 0.0, 0, 876000 },
  { "degradation_weight", "number", 0.15, 0, 1 },
  { "allocation_efficiency", "number", 1.0, 0, 1 },
  { "productive_ratio", "number", 1.0, 0, 1 },
  { "usd_per_gpu_hour", "number", 2.0, 0, 100000 },
}

SCHED.CONFIG_FIELDS = {
  { "gpus", "int", 1024, 8, 1048576, mult = 8 },
  { "horizon_days", "int", 30, 1, 366 },
  { "seed", "int", 42, 0, math.maxinteger - 20000 },
  { "offered_load", "number", 0.95, 0, 100 },
  { "inf_base", "number", 280.0, 0, nil },
  { "inf_diurnal_amp", "number", 80.0, 0, nil },
  { "inf_surges", "bool", false },
  { "failures", "bool", false },
  { "failures_per_1000_node_days", "number", 6.5, 0, 288000, max_open = true },
  { "power_envelope", "bool", false },
  { "power_frac", "number", 0.75, 0, 1, min_open = true },
  { "power_start_hour", "int", 16, 0, 23 },
  { "power_hours", "int", 4, 0, 24 },
}

SCHED.POLICIES = { "rigid-fifo", "tiered-preemption", "intent-closed-loop" }
SCHED.METRICS = {
  "nominal_gpu_h", "envelope_gpu_h", "productive_gpu_h", "stranded_gpu_h",
  "stranded_idle_gpu_h", "stranded_reservation_gpu_h", "stranded_train_overhead_gpu_h",
  "capacity_realization", "slo_attainment", "train_ettr", "jobs_submitted",
  "jobs_completed", "preemptions", "emergency_kills", "resizes", "work_lost_gpu_h",
  "mean_wait_h",
}
SCHED.INT_METRICS = { jobs_submitted = true, jobs_completed = true, preemptions = true,
                      emergency_kills = true, resizes = true }
SCHED.LEDGER = {
  "nominal_gpu_h", "envelope_gpu_h", "inf_alloc_gpu_h", "inf_productive_gpu_h",
  "inf_demand_gpu_h", "train_alloc_gpu_h", "train_productive_gpu_h", "work_lost_gpu_h",
  "wait_steps_sum", "slo_ok_steps", "total_steps", "waited_jobs",
}

function SCHED.field(fields, name)
  for _, f in ipairs(fields) do
    if f[1] == name then return f end
  end
  return nil
end

local TYPE_WORDS = { int = "an integer", number = "a number", bool = "a boolean",
                     string = "a string" }

-- Why v is not a valid value of field f, or nil. Values come from a document
-- view or from lua/yaml11.lua (a --set value), so ints are Lua integers, or
-- yaml11.BIGINT past 64 bits. That sentinel is a table: only a table can be
-- it, so only then is yaml11 compiled to compare (a run without --set never
-- compiles it).
function SCHED.bad_value(f, v)
  local ty, name = f[2], f[1]
  if type(v) == "table" and (ty == "int" or ty == "number")
     and v == require("yaml11").BIGINT then
    return ("%s must be within its range; the value is beyond 64 bits"):format(name)
  end
  local ok
  if ty == "int" then ok = math.type(v) == "integer"
  elseif ty == "number" then ok = type(v) == "number" and v == v and v ~= math.huge
                                  and v ~= -math.huge
  elseif ty == "bool" then ok = type(v) == "boolean"
  else ok = type(v) == "string" end
  if not ok then
    local got = type(v) == "number" and py.repr(v) or engine.isnull(v) and "null"
                or type(v) == "string" and ("the string '%s'"):format(v) or tostring(v)
    return ("%s must be %s (got %s)"):format(name, TYPE_WORDS[ty], got)
  end
  if ty == "string" then
    local n = utf8.len(v) or #v
    if f.minlen and n < f.minlen then
      return ("%s must have at least %d characters"):format(name, f.minlen)
    end
    if f.maxlen and n > f.maxlen then
      return ("%s must have at most %d characters (got %d)"):format(name, f.maxlen, n)
    end
    return nil
  end
  if ty == "bool" then return nil end
  local lo, hi = f[4], f[5]
  if lo and ((f.min_open and not (v > lo)) or (not f.min_open and not (v >= lo))) then
    return ("%s must be %s %s (got %s)"):format(name, f.min_open and ">" or ">=",
                                               py.repr(lo), py.repr(v))
  end
  if hi and ((f.max_open and not (v < hi)) or (not f.max_open and not (v <= hi))) then
    return ("%s must be %s %s (got %s)"):format(name, f.max_open and "<" or "<=",
                                               py.repr(hi), py.repr(v))
  end
  if f.mult and v % f.mult ~= 0 then
    return ("%s must be a multiple of %d (got %s)"):format(name, f.mult, py.repr(v))
  end
  return nil
end

-- ---- resolving documents -----------------------------------------------------

-- A plain table of fields from a document mapping (views or plain tables).
function SCHED.plain_fields(fields, src, into)
  into = into or {}
  if src == nil then return into end
  for _, f in ipairs(fields) do
    local v = src[f[1]]
    if v ~= nil and not engine.isnull(v) then into[f[1]] = v end
  end
  return into
end

-- Defaults filled, numbers as floats where the field is a number.
function SCHED.resolved(fields, given)
  local out = {}
  for _, f in ipairs(fields) do
    local v = given[f[1]]
    if v == nil then v = f[3] end
    if v ~= nil and f[2] == "number" then v = float(v) end
    out[f[1]] = v
  end
  return out
end

function SCHED.ordered(fields, resolved)
  local o = engine.object()
  for _, f in ipairs(fields) do
    if resolved[f[1]] ~= nil then o[f[1]] = resolved[f[1]] end
  end
  return o
end

-- Cross-field problems of a resolved stranded scenario (3.1): {key, message}.
function SCHED.stranded_cross(s)
  local lost = s.hard_outage_hours + s.degraded_hours * s.degradation_weight
  if not (lost <= s.window_hours) then
    return { { "hard_outage_hours",
               ("hard_outage_hours %s plus degraded_hours %s x degradation_weight %s is %s h, "
                .. "more than window_hours %s"):format(py.repr(s.hard_outage_hours),
                 py.repr(s.degraded_hours), py.repr(s.degradation_weight), py.repr(lost),
                 py.repr(s.window_hours)) } }
  end
  return {}
end

-- Cross-field problems of a resolved scheduler config (3.2).
function SCHED.config_cross(c)
  local out = {}
  if not (c.inf_base + c.inf_diurnal_amp < c.gpus) then
    out[#out + 1] = { "inf_base", ("inf_base %s + inf_diurnal_amp %s leaves no training "
                      .. "capacity on %d GPUs"):format(py.repr(c.inf_base),
                      py.repr(c.inf_diurnal_amp), c.gpus) }
  end
  if c.power_start_hour + c.power_hours > 24 then
    out[#out + 1] = { "power_start_hour", ("power_start_hour %d + power_hours %d is past "
                      .. "midnight (the model's window cannot wrap)"):format(
                      c.power_start_hour, c.power_hours) }
  end
  if c.power_envelope and math.floor(c.gpus * c.power_frac) < 1 then
    out[#out + 1] = { "power_frac", ("power_frac %s leaves no GPU of %d powered")
                      :format(py.repr(c.power_frac), c.gpus) }
  end
  return out
end

-- models.scheduling.* with the mutation's variant.
function SCHED.stranded(s)
  return models.scheduling.stranded({
    gpus = float(s.gpus), window_hours = s.window_hours,
    hard_outage_hours = s.hard_outage_hours, degraded_hours = s.degraded_hours,
    degradation_weight = s.degradation_weight,
    allocation_efficiency = s.allocation_efficiency,
    productive_ratio = s.productive_ratio, usd_per_gpu_hour = s.usd_per_gpu_hour })
end

function SCHED.simulate(cfg, policy, opts)
  return models.scheduling.simulate(cfg, policy, opts or {}, VARIANT)
end

-- Independent runs {config =, policy =, opts =} at once, on threads; the
-- results in run order, each that run's alone.
function SCHED.simulate_batch(runs)
  return models.scheduling.simulate_batch(runs, VARIANT)
end

-- A copy of a config with another seed (batch runs must not share one).
function SCHED.with_seed(cfg, seed)
  local c = {}
  for k, v in pairs(cfg) do c[k] = v end
  c.seed = seed
  return c
end

function SCHED.mean(xs) return models.scheduling.mean(xs) end

-- The presets of 5.2.3 (pack data, presets.yaml), each scenario with
-- defaults filled, in byte order of their names (3.7). Read on first use
-- by a verb or a validation figure, so that a run that names no preset
-- never parses the file; a validation mutation may edit what this returns.
local presets
function SCHED.presets()
  if presets then return presets end
  local list = {}
  for _, p in ipairs(engine.data("presets.yaml", { plain = true })) do
    local given = SCHED.plain_fields(SCHED.STRANDED_FIELDS, p.scenario)
    given.name, given.description = p.name, p.description
    list[#list + 1] = { name = p.name, description = p.description,
                        scenario = SCHED.resolved(SCHED.STRANDED_FIELDS, given) }
  end
  table.sort(list, function(a, b) return a.name < b.name end)
  presets = list
  return presets
end

function SCHED.preset(name)
  for _, p in ipairs(SCHED.presets()) do
    if p.name == name then return p end
  end
  return nil
end

-- ---- findings shared by rules and verbs ----------------------------------------

function SCHED.money(x)
  local text = py.fixed(x, 0)
  local sign, digits = text:match("^(-?)(%d+)$")
  if not digits then return text end
  digits = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  if digits:sub(1, 1) == "," then digits = digits:sub(2) end
  return sign .. digits
end

-- The strict calculator checks shared with `stranded` (6.4): {key, message}.
function SCHED.windows_exceed(s)
  if s.hard_outage_hours + s.degraded_hours > s.window_hours then
    return ("hard_outage_hours %s and degraded_hours %s add up to more than window_hours %s")
           :format(py.repr(s.hard_outage_hours), py.repr(s.degraded_hours),
                   py.repr(s.window_hours))
  end
  return nil
end

function SCHED.assumed_weight(s, weight_given)
  if s.degraded_hours > 0 and not weight_given then
    return ("degraded_hours %s are weighted by the assumed default 0.15, not a measured "
            .. "share"):format(py.repr(s.degraded_hours))
  end
  return nil
end
