-- The power pack (spec/power.md): move, stay, stitch or curtail, priced in
-- GPU-hours and dollars. This file holds what the rules, the verbs and the
-- registry share: the defaults and field tables of the documents (3.1-3.4),
-- the citation table of the constants (7.2 point 16) and document
-- resolution. The rules of the three proposal kinds (6.2-6.4) are rules.lua,
-- compiled only by a run that reads rules (a lint, not `infragate power
-- decide`), and the finding items they share with the span verb are
-- lib/items.lua. commands.lua (the `infragate power` verbs) and
-- validation.lua (the registry's figures) reach this file through the
-- globals below; every figure is computed by models.power
-- (core/models/power*.c).
local py = require "py"

engine.pack {
  summary   = "compute and power placement: move, stay, stitch or curtail, priced exactly",
  help_base = "https://infragate.invalid/rules/power/",
}

-- ---- field tables (3.1-3.4): name, type, default, bounds -------------------------
-- type: "number" or "int" or "enum"; lo/hi inclusive unless lo_open/hi_open.
-- Pack globals, so that a validation mutation can change a default.

local function field(name, ty, default, lo, hi, opts)
  local f = { name = name, type = ty, default = default, lo = lo, hi = hi }
  for k, v in pairs(opts or {}) do f[k] = v end
  return f
end

JOB_FIELDS = {
  field("params_b", "number", 405.0, 0, 1e6, { lo_open = true }),
  field("gpus", "int", 16384, 1, 10000000),
  field("kw_per_gpu", "number", 1.4, 0, 100, { lo_open = true }),
  field("dollars_per_gpu_h", "number", 2.5, 0, 10000, { lo_open = true }),
  field("wan_gbps", "number", 100.0, 0, 1e9, { lo_open = true }),
  field("reload_h", "number", 0.5, 0, 1000),
  field("egress_per_gb", "number", 0.02, 0, 1000),
  field("price_here_mwh", "number", 60.0, -1e6, 1e6),
  field("price_there_mwh", "number", 30.0, -1e6, 1e6),
}

CURTAIL_ORDERS = { "most-expensive-first", "least-expensive-first", "random" }

FLEET_FIELDS = {
  field("horizon_h", "int", 720, 1, 87600),
  field("fleet_mw", "number", 100.0, 0, 1e6, { lo_open = true }),
  field("flexible_fraction", "number", 0.30, 0, 1),
  field("seed", "int", 0, 0, 0x7fffffffffffffff),
  field("base_mwh", "number", 50.0, -1e6, 1e6),
  field("diurnal_amp_mwh", "number", 20.0, 0, 1e6),
  field("spike_rate_per_h", "number", 0.004, 0, 1),
  field("spike_len_h", "int", 4, 1, 8760),
  field("spike_min_mwh", "number", 500.0, 0, 1e6),
  field("spike_max_mwh", "number", 5000.0, 0, 1e6),
  field("curtail_threshold_mwh", "number", 200.0, 0, 1e6),
  field("curtail_budget_frac", "number", 0.005, 0, 1),
  field("curtail_order", "enum", "most-expensive-first", nil, nil, { choices = CURTAIL_ORDERS }),
}

SPAN_JOB_FIELDS = {
  field("params_b", "number", 405.0, 0, 1e6, { lo_open = true }),
  field("gpus_needed", "int", 16384, 1, 10000000),
  field("hours_at_full", "number", 168.0, 0, 87600, { lo_open = true }),
  field("step_time_s", "number", 5.0, 0, 86400, { lo_open = true }),
  field("kw_per_gpu", "number", 1.4, 0, 100, { lo_open = true }),
  field("dollars_per_gpu_h", "number", 2.5, 0, 10000, { lo_open = true }),
  field("deadline_h", "number", nil, 0, 1e7, { lo_open = true }),
  field("wan_gbps", "number", 100.0, 0, 1e9, { lo_open = true }),
  field("reload_h", "number", 0.5, 0, 1000),
  field("egress_per_gb", "number", 0.02, 0, 1000),
}

HALL_FIELDS = {
  field("hall_id", "string", nil),
  field("free_gpus", "int", nil, 0, 10000000),
  field("price_mwh", "number", 60.0, -1e6, 1e6),
  field("spike_price_mwh", "number", 0.0, -1e6, 1e6),
  field("spike_hours_per_week", "number", 0.0, 0, 168),
}

CIRCUIT_FIELDS = {
  field("rtt_ms", "number", 2.0, 0, 1e4),
  field("gbps", "number", 400.0, 0, 1e9, { lo_open = true }),
  field("hold_dollars_per_h", "number", 15.0, 0, 1e7),
}

SPAN_DEFAULTS = { cut = "pipeline", activation_gb_per_step = 4.0 }

PLAN_DEFAULTS = { max_curtailed_energy_share = 0.0025, seeds = 24, claim_margin = 0.005 }

-- The noise band of the curtail-threshold rule (6.3 #3): five standard
-- deviations of the hourly noise (NOISE_SD of 5.1) above the daily peak.
THRESHOLD_NOISE_SDS, NOISE_SD = 5, 4.0

-- The formula switches of validation mutations (spec/power.md 7.4).
VARIANT = {}

-- ---- citations of the constants and defaults (7.2 point 16) ----------------------
-- Each entry names a constant or default and the references of 7.1 it
-- rests on; a mutation may add one that cites an undeclared reference.
SOURCES = {
  { what = "BYTES_PER_PARAM = 16 (ZeRO)", refs = { 5 } },
  { what = "kw_per_gpu default 1.4 kW burdened", refs = { 4 } },
  { what = "dollars_per_gpu_h default 2.5", refs = { 4 } },
  { what = "egress_per_gb default 0.02", refs = { 5 } },
  { what = "price_here_mwh default 60; negative prices are legal", refs = { 4, 1 } },
  { what = "max_curtailed_energy_share default 0.0025 (Duke)", refs = { 6 } },
}
DECLARED_REFERENCES = {}
for i = 1, 15 do DECLARED_REFERENCES[i] = true end

-- ---- small helpers shared with commands.lua --------------------------------------

PW = {}

function PW.money(x)
  local text = py.fixed(x, 0)
  local sign, digits = text:match("^(-?)(%d+)$")
  if not digits then return text end
  digits = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  if digits:sub(1, 1) == "," then digits = digits:sub(2) end
  return sign .. digits
end

function PW.array(list)
  local a = engine.array()
  for i, x in ipairs(list) do a[i] = x end
  return a
end

function PW.float(x)
  return x + 0.0
end

-- A plain table of the fields with defaults filled, from a view or plain
-- table (nil: all defaults). Numbers of number fields become floats.
function PW.resolve(fields, src)
  local out = {}
  for _, f in ipairs(fields) do
    local v = src and src[f.name]
    if v == nil then v = f.default end
    if v ~= nil and f.type == "number" then v = v + 0.0 end
    out[f.name] = v
  end
  return out
end

-- The same as an engine.object in field order (for JSON echoes).
function PW.object(fields, t, skip)
  local o = engine.object()
  for _, f in ipairs(fields) do
    if not (skip and skip[f.name]) and t[f.name] ~= nil then o[f.name] = t[f.name] end
  end
  return o
end

-- The fleet-config table the models read.
function PW.fleet_model(cfg)
  return cfg
end

function PW.budget_hours(frac, hours)
  return math.floor(frac * hours)
end

-- ---- migration-proposal (6.2) ---------------------------------------------------

function PW.job_of(doc)
  return PW.resolve(JOB_FIELDS, doc and doc.job and engine.plain(doc.job) or nil)
end

-- ---- curtailment-plan (6.3) --------------------------------------------------------

function PW.fleet_of(src)
  return PW.resolve(FLEET_FIELDS, src)
end

function PW.truncated_message(frac, hours)
  return ("curtail_budget_frac %s of %d hours truncates to 0 hours: the plan can never "
          .. "curtail"):format(py.repr(frac), hours)
end

-- ---- scale-across-proposal (6.4) ----------------------------------------------------

-- The resolved scenario the ledger model reads.
function PW.scenario_of(doc)
  local p = engine.plain(doc)
  local s = {
    job = PW.resolve(SPAN_JOB_FIELDS, p.job),
    home = PW.resolve(HALL_FIELDS, p.home),
    away = PW.resolve(HALL_FIELDS, p.away),
    circuit = PW.resolve(CIRCUIT_FIELDS, p.circuit),
    cut = p.cut or SPAN_DEFAULTS.cut,
    activation_gb_per_step = (p.activation_gb_per_step or SPAN_DEFAULTS.activation_gb_per_step)
                             + 0.0,
  }
  return s
end

function PW.ledger(s)
  return models.power.ledger(s, VARIANT)
end
