-- `infragate power VERB` (spec/power.md 2, 4): the model verbs decide,
-- breakeven, scarcity, prices, fleet, sweep, causal, span and hall-price,
-- plus validate and lint. Inputs resolve as built-in defaults, then
-- `--config FILE`, then each `--set KEY=VALUE` (typed by the YAML 1.1
-- resolver, as the same text in a document) and `--seed N`. Every input is
-- checked before any figure is computed; input errors end the verb with
-- exit 2 and the error document of 2.5 (which names the pack). The text
-- layouts are ours; only the figures and their rounding are contractual.
local py = require "py"
local verbs = require "verbs"

local FORMATS = { "text", "json" }
local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }
local MAX_SWEEP_HOURS = 2e9

local prog = engine.program {
  name    = "power",
  summary = "compute and power placement: move, stay, stitch or curtail, priced exactly",
  help    = "Prices the decisions a frontier training fleet faces when power prices differ by "
            .. "site and spike: move a job or stay, ride out or dodge a spike, curtail "
            .. "flexible load, stitch two halls over a circuit. Figures reproduce the "
            .. "reference models bit for bit.",
  syntax  = { abbrev = "none", negative_numbers = true, help_anywhere = true,
              before_verb = { "--format", "--help" } },
}

-- ---- errors (2.5) ---------------------------------------------------------------------------

local fail = verbs.failer("power")
local raise, usage, guarded = verbs.raise, verbs.usage, verbs.guard(fail)

-- ---- scalars: Python float()/int() text and YAML 1.1 plain scalars --------------------------

local pyfloat = verbs.pyfloat

local function sexagesimal(s)
  local sign, rest = s:match("^([+-]?)(.*)$")
  local v = 0
  for part in rest:gmatch("[^:]+") do v = v * 60 + tonumber((part:gsub("_", ""))) end
  return sign == "-" and -v or v
end

-- The value YAML 1.1 (PyYAML's resolver) gives a plain scalar.
local function yaml_scalar(s)
  if s == "" or s == "~" or s == "null" or s == "Null" or s == "NULL" then
    return engine.null
  end
  local bools = { yes = true, Yes = true, YES = true, no = false, No = false, NO = false,
                  ["true"] = true, True = true, TRUE = true, ["false"] = false,
                  False = false, FALSE = false, on = true, On = true, ON = true,
                  off = false, Off = false, OFF = false }
  if bools[s] ~= nil then return bools[s] end
  -- An integer that fits 64 bits, else nil (too long to convert safely).
  local function int_of(digits, base)
    local d = digits:gsub("_", "")
    local max_len = ({ [2] = 62, [8] = 20, [10] = 18, [16] = 15 })[base]
    if #d > max_len then return nil end
    return tonumber(d, base)
  end
  local sign, body = s:match("^([+-]?)(.+)$")
  local neg = sign == "-"
  local v
  if body:match("^0b[01_]+$") then
    v = int_of(body:sub(3), 2)
  elseif body:match("^0x[0-9a-fA-F_]+$") then
    v = int_of(body:sub(3), 16)
  elseif body:match("^0[0-7_]+$") then
    v = int_of(body, 8)
  elseif body == "0" or body:match("^[1-9][0-9_]*$") then
    v = int_of(body, 10)
  elseif body:match("^[1-9][0-9_]*:[0-5]?[0-9]") and body:match("^[0-9_:]+$") then
    v = sexagesimal(body)
  end
  if v then return neg and -v or v end
  if body:match("^[0-9][0-9_]*%.[0-9_]*$") or body:match("^[0-9][0-9_]*%.[0-9_]*[eE][-+][0-9]+$")
     or body:match("^%.[0-9_]+$") or body:match("^%.[0-9_]+[eE][-+][0-9]+$") then
    local f = tonumber((body:gsub("_", ""))) + 0.0
    return neg and -f or f
  end
  if body:match("^[0-9][0-9_]*:[0-5]?[0-9][0-9_:]*%.[0-9_]*$") then
    local whole, frac = body:match("^(.-)(%.[0-9_]*)$")
    local f = sexagesimal(whole) + (tonumber(frac:gsub("_", "")) or 0.0)
    return neg and -f or f
  end
  if body == ".inf" or body == ".Inf" or body == ".INF" then
    return neg and -math.huge or math.huge
  end
  if sign == "" and (s == ".nan" or s == ".NaN" or s == ".NAN") then return 0 / 0 end
  return s
end

-- Lua writes a float with a '.', an exponent, "inf" or "nan"; an integer
-- with digits only (math.type is outside the sandbox's minimal std).
local function is_integer(v)
  return type(v) == "number" and not tostring(v):find("[%.eEin]")
end

local function type_name(v)
  if v == engine.null then return "null" end
  if is_integer(v) then return "int" end
  if type(v) == "number" then return "float" end
  if type(v) == "boolean" then return "bool" end
  return "str"
end

-- The problem with value v for field f, or nil.
local function field_problem(f, v)
  local tn = type_name(v)
  if f.type == "number" then
    if tn ~= "int" and tn ~= "float" then
      return ("%s must be a number, got %s %s"):format(f.name, tn, py.repr(v))
    end
    if v ~= v or v == math.huge or v == -math.huge then
      return ("%s must be finite, got %s"):format(f.name, py.repr(v))
    end
  elseif f.type == "int" then
    if tn ~= "int" then
      return ("%s must be an integer, got %s %s"):format(f.name, tn, py.repr(v))
    end
  elseif f.type == "enum" then
    for _, c in ipairs(f.choices) do if v == c then return nil end end
    return ("%s must be one of %s, got %s"):format(f.name, table.concat(f.choices, ", "),
                                                 py.repr(v))
  elseif f.type == "string" then
    if tn ~= "str" then return ("%s must be a string, got %s"):format(f.name, tn) end
    return nil
  end
  local low_bad = f.lo and (f.lo_open and v <= f.lo or not f.lo_open and v < f.lo)
  local high_bad = f.hi and v > f.hi
  if low_bad or high_bad then
    return ("%s must be %s %s and <= %s (got %s)"):format(f.name, f.lo_open and ">" or ">=",
      py.repr(f.lo), py.repr(f.hi), py.repr(f.type == "number" and v + 0.0 or v))
  end
  return nil
end

local function field_named(fields, name)
  for _, f in ipairs(fields) do if f.name == name then return f end end
end

-- ---- inputs: defaults, --config, --set, --seed ----------------------------------------------

-- Resolve the input document of a verb. Returns the resolved plain table
-- and a map of where each key came from ({file, line, column} or "set").
local function resolve_input(args, kind, fields)
  local values, origin, errors = {}, {}, {}
  if args.config then
    local doc, findings = engine.load(args.config, { kind = kind, collect = true })
    if findings and #findings > 0 then
      for _, f in ipairs(findings) do
        errors[#errors + 1] = { rule = f.rule, message = f.message, file = f.file or args.config,
                                line = f.line, column = f.column, path = f.path }
      end
      raise(errors)
    end
    if engine.type(doc) == "map" then
      for k, v in pairs(doc) do
        if k ~= "kind" then
          values[k] = v
          local w = engine.where(doc, k)
          origin[k] = { file = args.config, line = w.line, column = w.column }
        end
      end
    end
  end
  local sets = {}
  for _, s in ipairs(args.set or {}) do sets[#sets + 1] = s end
  for _, s in ipairs(sets) do
    local key, text = s.text:match("^([^=]*)=(.*)$")
    if not key or key == "" then
      usage(s.option, ("%s takes KEY=VALUE, got '%s'"):format(s.option, s.text))
    end
    local f = field_named(fields, key)
    local v = s.value
    if v == nil then v = yaml_scalar(text) end
    if not f or key == "kind" then
      errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = s.option,
                              message = ("unknown field '%s' for %s"):format(key, kind) }
    else
      local problem = field_problem(f, v)
      if problem then
        errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = s.option,
                                message = problem }
      else
        values[key] = v
        origin[key] = "set"
      end
    end
  end
  if #errors > 0 then raise(errors) end
  return PW.resolve(fields, values), origin
end

-- Where a strict finding on `key` points (2.4).
local function site(origin, key, path)
  local o = origin[key]
  if type(o) == "table" then
    return { file = o.file, line = o.line, column = o.column, path = path or "/" .. key }
  end
  return { path = path or "/" .. key }
end

local function input_error_at(origin, key, message)
  local s = site(origin, key)
  local o = origin[key]
  return { rule = "input.type", message = message, file = s.file, line = s.line,
           column = s.column, path = s.path, argument = o == "set" and "--set" or nil }
end

-- A fleet config's cross-field and verb-specific bounds (3.2).
local function check_fleet(cfg, origin, causal)
  local errors = {}
  if cfg.spike_max_mwh < cfg.spike_min_mwh then
    errors[#errors + 1] = input_error_at(origin, "spike_max_mwh",
      ("spike_max_mwh %s is below spike_min_mwh %s"):format(py.repr(cfg.spike_max_mwh),
                                                           py.repr(cfg.spike_min_mwh)))
  end
  if causal and cfg.flexible_fraction <= 0 then
    errors[#errors + 1] = input_error_at(origin, "flexible_fraction",
      ("the causal controller needs flexible_fraction > 0 (got %s)")
      :format(py.repr(cfg.flexible_fraction)))
  end
  if causal and cfg.curtail_budget_frac >= 1 then
    errors[#errors + 1] = input_error_at(origin, "curtail_budget_frac",
      ("the causal controller needs curtail_budget_frac < 1 (got %s)")
      :format(py.repr(cfg.curtail_budget_frac)))
  end
  if #errors > 0 then raise(errors) end
end

local function set_list(args)
  local list = {}
  for i, s in ipairs(args.set or {}) do list[i] = { option = "--set", text = s } end
  return list
end

local function job_input(args)
  local saved = args.set
  args.set = set_list(args)
  local job, origin = resolve_input(args, "power-job", JOB_FIELDS)
  args.set = saved
  return job, origin
end

local function fleet_input(args, causal)
  local saved = args.set
  args.set = set_list(args)
  local cfg, origin = resolve_input(args, "fleet-config", FLEET_FIELDS)
  args.set = saved
  check_fleet(cfg, origin, causal)
  return cfg, origin
end

-- ---- strict findings (6.5) ------------------------------------------------------------------

local function finding(args, rule, message, where)
  local o = engine.object()
  o.rule = rule
  o.severity = args.strict and "error" or "warning"
  o.message = message
  o.file = where.file or engine.null
  o.line = where.line or engine.null
  o.column = where.column or engine.null
  o.path = where.path or engine.null
  return o
end

local finish = verbs.finish

local function truncated_finding(args, cfg, origin, hours)
  if cfg.curtail_budget_frac > 0 and PW.budget_hours(cfg.curtail_budget_frac, hours) == 0 then
    return finding(args, "power.strict.budget-truncated",
                   PW.truncated_message(cfg.curtail_budget_frac, hours),
                   site(origin, "curtail_budget_frac"))
  end
end

-- ---- options --------------------------------------------------------------------------------

local format_opt = verbs.format_opt_of(FORMATS)

local STRICT_OPT = { "--strict", type = "flag",
                     help = "strict findings become errors and make the exit status 1" }
local CONFIG_OPT = { "--config", type = "path", metavar = "FILE",
                     help = "the verb's input document" }
local SET_OPT = { "--set", type = "string", ["repeat"] = "append", metavar = "KEY=VALUE",
                  help = "override one field of the input document" }
-- `--seed N` arrives in args.set as "seed=N" at its argv place (3.2: each
-- --set/--seed in argv order).
local SEED_OPT = { "--seed", type = "int", min = 0, metavar = "N",
                   help = "shorthand for --set seed=N", expands_to = "--set seed=" }

local with = verbs.with

local JOB_OPTS = { CONFIG_OPT, SET_OPT, STRICT_OPT, format_opt() }
local FLEET_OPTS = { CONFIG_OPT, SET_OPT, SEED_OPT, STRICT_OPT, format_opt() }

local function float_list(option, text, lo, hi)
  local list = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = pyfloat(item)
    if v == nil then usage(option, ("%s: '%s' is not a number"):format(option, item)) end
    if v ~= v or v == math.huge or v == -math.huge or v < lo or v > hi then
      usage(option, ("%s: %s must be finite and within %s..%s"):format(option, item,
            py.repr(lo), py.repr(hi)))
    end
    list[#list + 1] = v
  end
  if #list < 1 or #list > 10000 then
    usage(option, ("%s takes 1 to 10,000 values"):format(option))
  end
  return list
end

local function job_json(job)
  return PW.object(JOB_FIELDS, job)
end

-- ---- decide (4.1) ---------------------------------------------------------------------------

prog:verb {
  name = "decide",
  summary = "move versus stay for one job and its remaining length",
  options = with(JOB_OPTS, { "--length-h", type = "float", required = true, min = 0,
                             max = 1e7, metavar = "L", help = "remaining length, h" }),
  run = guarded("decide", function(args, out)
    local job = job_input(args)
    local L = args.length_h + 0.0
    local dec = models.power.decide(job, L, VARIANT)
    local u = dec.unrounded
    local bl = models.power.breakeven_length(job, u.spread_mwh, VARIANT)
    local bs = models.power.breakeven_spread(job, L, VARIANT)
    local findings = engine.array()
    if L <= u.migration_downtime_h then
      findings[1] = finding(args, "power.strict.length-within-migration",
        ("the job has %s h left, no more than the %s h migration: it ends before the move "
         .. "completes"):format(py.repr(L), py.repr(u.migration_downtime_h)),
        { path = "/length_h" })
    end
    if args.format == "json" then
      out:json(engine.object("pack", "power", "job", job_json(job), "length_h", L,
        "decision", dec.decision, "net_dollars", dec.net_dollars,
        "energy_saving_dollars", dec.energy_saving_dollars,
        "migration_cost_dollars", dec.migration_cost_dollars,
        "migration_downtime_h", dec.migration_downtime_h, "state_gb", dec.state_gb,
        "energy_share_of_gpu_cost", dec.energy_share_of_gpu_cost,
        "unrounded", engine.object("net_dollars", u.net_dollars,
          "energy_saving_dollars", u.energy_saving_dollars,
          "migration_cost_dollars", u.migration_cost_dollars,
          "migration_downtime_h", u.migration_downtime_h, "state_gb", u.state_gb,
          "energy_share_of_gpu_cost", u.energy_share_of_gpu_cost, "remaining_h", u.remaining_h,
          "power_mw", u.power_mw, "spread_mwh", u.spread_mwh, "transfer_h", u.transfer_h,
          "idle_dollars", u.idle_dollars, "egress_dollars", u.egress_dollars),
        "breakeven_length_h", bl or engine.null, "breakeven_spread_mwh", bs,
        "findings", findings))
    else
      out:write(("decision: %s (%s h left)\n"):format(dec.decision, py.fixed(L, 2))
        .. ("  net:               %s $\n"):format(PW.money(dec.net_dollars))
        .. ("  energy saving:     %s $\n"):format(PW.money(dec.energy_saving_dollars))
        .. ("  migration cost:    %s $\n"):format(PW.money(dec.migration_cost_dollars))
        .. ("  migration downtime %s h\n"):format(py.fixed(dec.migration_downtime_h, 2))
        .. ("  training state:    %s GB\n"):format(py.fixed(dec.state_gb, 0))
        .. ("  energy share of the GPU-hour cost: %s%%\n")
           :format(py.fixed(dec.energy_share_of_gpu_cost * 100, 2))
        .. ("  break-even length at this spread: %s\n")
           :format(bl and (py.fixed(bl, 2) .. " h") or "never")
        .. ("  break-even spread over %s h: %s $/MWh\n"):format(py.fixed(L, 2),
           py.fixed(bs, 2)))
    end
    return finish(args, out, findings)
  end),
}

-- ---- breakeven (4.2) ------------------------------------------------------------------------

prog:verb {
  name = "breakeven",
  summary = "break-even spread for job lengths, break-even length for spreads",
  options = with(JOB_OPTS,
    { "--length-h", type = "string", metavar = "L1,L2,...", help = "job lengths, h" },
    { "--spread", type = "string", metavar = "S1,S2,...", help = "price spreads, $/MWh" }),
  run = guarded("breakeven", function(args, out)
    local lengths = args.length_h and float_list("--length-h", args.length_h, 0, 1e7) or nil
    local spreads = args.spread and float_list("--spread", args.spread, -1e6, 1e6) or nil
    local job = job_input(args)
    if not lengths and not spreads then
      lengths = { 24.0, 72.0, 168.0, 720.0 }
      spreads = { job.price_here_mwh - job.price_there_mwh }
    end
    lengths, spreads = lengths or {}, spreads or {}
    local mig = models.power.migration(job, VARIANT)
    local d = mig.downtime_h
    local findings, lrows, srows, text = engine.array(), engine.array(), engine.array(), {}
    for i, L in ipairs(lengths) do
      local within = L - d < 1e-9
      local s = models.power.breakeven_spread(job, L, VARIANT)
      lrows[i] = engine.object("length_h", L, "remaining_h", math.max(1e-9, L - d),
                               "within_migration", within, "spread_mwh", s)
      if within and #findings == 0 then
        findings[1] = finding(args, "power.strict.length-within-migration",
          ("length %s h is within the %s h migration: the break-even spread %s is the "
           .. "clamp's figure, not a break-even"):format(py.repr(L), py.repr(d), py.repr(s)),
          { path = "/lengths/" .. (i - 1) })
      end
      text[#text + 1] = ("length %s h: break-even spread %s $/MWh%s\n"):format(
        py.fixed(L, 2), py.fixed(s, 2), within and " (within the migration)" or "")
    end
    for i, S in ipairs(spreads) do
      local L = models.power.breakeven_length(job, S, VARIANT)
      srows[i] = engine.object("spread_mwh", S, "length_h", L or engine.null)
      text[#text + 1] = ("spread %s $/MWh: break-even length %s\n"):format(py.fixed(S, 2),
        L and (py.fixed(L, 2) .. " h") or "never")
    end
    if args.format == "json" then
      out:json(engine.object("pack", "power", "job", job_json(job),
        "migration_downtime_h", d, "migration_cost_dollars", mig.cost_dollars,
        "power_mw", mig.power_mw, "lengths", lrows, "spreads", srows, "findings", findings))
    else
      out:write(table.concat(text))
    end
    return finish(args, out, findings)
  end),
}

-- ---- scarcity (4.3) -------------------------------------------------------------------------

prog:verb {
  name = "scarcity",
  summary = "value of moving off a site before a price spike",
  options = with(JOB_OPTS,
    { "--spike-price", type = "float", default = 5000.0, min = -1e6, max = 1e6, metavar = "P",
      help = "spike price, $/MWh (default 5000)" },
    { "--spike-hours", type = "float", default = 12.0, min_exclusive = 0, max = 8760,
      metavar = "H", help = "spike length, h (default 12)" }),
  run = guarded("scarcity", function(args, out)
    local job = job_input(args)
    local P, H = args.spike_price + 0.0, args.spike_hours + 0.0
    local sc = models.power.scarcity(job, P, H, VARIANT)
    local mig = models.power.migration(job, VARIANT)
    local findings = engine.array()
    if H <= mig.downtime_h then
      findings[1] = finding(args, "power.strict.spike-within-migration",
        ("the spike lasts %s h, no longer than the %s h migration: the move cannot finish "
         .. "before it ends"):format(py.repr(H), py.repr(mig.downtime_h)),
        { path = "/spike_hours" })
    end
    local u = sc.unrounded
    if args.format == "json" then
      out:json(engine.object("pack", "power", "job", job_json(job), "spike_price_mwh", P,
        "spike_hours", H, "stay_through_spike_dollars", sc.stay_through_spike_dollars,
        "move_and_ride_it_out_dollars", sc.move_and_ride_it_out_dollars,
        "net_benefit_of_moving", sc.net_benefit_of_moving, "worth_moving", sc.worth_moving,
        "migration_downtime_h", mig.downtime_h, "migration_cost_dollars", mig.cost_dollars,
        "unrounded", engine.object("stay_through_spike_dollars", u.stay_through_spike_dollars,
          "move_and_ride_it_out_dollars", u.move_and_ride_it_out_dollars,
          "net_benefit_of_moving", u.net_benefit_of_moving),
        "findings", findings))
    else
      out:write(("a %s h spike at %s $/MWh\n"):format(py.repr(H), py.repr(P))
        .. ("  stay through it:       %s $\n"):format(PW.money(sc.stay_through_spike_dollars))
        .. ("  move and ride it out:  %s $\n"):format(PW.money(sc.move_and_ride_it_out_dollars))
        .. ("  net benefit of moving: %s $\n"):format(PW.money(sc.net_benefit_of_moving))
        .. ("  worth moving: %s\n"):format(sc.worth_moving and "yes" or "no"))
    end
    return finish(args, out, findings)
  end),
}

-- ---- prices, fleet (4.4, 4.5) ---------------------------------------------------------------

local function config_json(cfg)
  return PW.object(FLEET_FIELDS, cfg)
end

local RESULT_KEYS = { "seed", "hours_curtailed", "eligible_hours", "curtailed_frac_of_uptime",
  "curtailed_mwh", "deferred_mwh", "blind_cost_dollars", "aware_cost_dollars",
  "saving_dollars", "saving_pct", "gross_avoided_dollars", "saving_from_top1pct_hours_frac",
  "max_price_mwh" }
local DETAIL_KEYS = { "budget_hours", "top1pct_hours", "budget_binds", "flex_mw", "firm_mw",
  "blind_cost_dollars", "firm_cost_dollars", "flex_cost_dollars", "deferral_cost_dollars",
  "aware_cost_dollars", "saving_dollars", "saving_frac", "gross_avoided_dollars",
  "gross_from_top1pct_dollars" }
local NUMERIC_FIELDS = {}
for i = 2, #RESULT_KEYS do NUMERIC_FIELDS[#NUMERIC_FIELDS + 1] = RESULT_KEYS[i] end

local function keyed(t, keys)
  local o = engine.object()
  for _, k in ipairs(keys) do o[k] = t[k] end
  return o
end

PW.result_json = function(res) return keyed(res, RESULT_KEYS) end

prog:verb {
  name = "prices",
  summary = "the synthetic hourly price series of a fleet config",
  options = FLEET_OPTS,
  run = guarded("prices", function(args, out)
    local cfg, origin = fleet_input(args)
    local prices, spikes = models.power.prices(cfg)
    local findings = engine.array()
    findings[1] = truncated_finding(args, cfg, origin, cfg.horizon_h)
    local maxp = prices[1]
    for _, p in ipairs(prices) do if p > maxp then maxp = p end end
    if args.format == "json" then
      local sp = engine.array()
      for i, s in ipairs(spikes) do
        sp[i] = engine.object("start_h", s.start_h, "magnitude_mwh", s.magnitude_mwh)
      end
      out:json(engine.object("pack", "power", "config", config_json(cfg),
        "hours", cfg.horizon_h, "prices", PW.array(prices), "spikes", sp,
        "max_price_mwh", maxp, "findings", findings))
    else
      local lines = {}
      for h, p in ipairs(prices) do lines[h] = ("%d %s\n"):format(h - 1, py.fixed(p, 2)) end
      for _, s in ipairs(spikes) do
        lines[#lines + 1] = ("spike at hour %d: %s $/MWh\n"):format(s.start_h,
                                                                  py.fixed(s.magnitude_mwh, 2))
      end
      out:write(table.concat(lines))
    end
    return finish(args, out, findings)
  end),
}

prog:verb {
  name = "fleet",
  summary = "offline (full-foresight) curtailment of a fleet over one price series",
  options = FLEET_OPTS,
  run = guarded("fleet", function(args, out)
    local cfg, origin = fleet_input(args)
    local res, detail = models.power.fleet(cfg, nil, VARIANT)
    local findings = engine.array()
    findings[1] = truncated_finding(args, cfg, origin, cfg.horizon_h)
    if args.format == "json" then
      local d = keyed(detail, DETAIL_KEYS)
      d.curtailed_hours = PW.array(detail.curtailed_hours)
      out:json(engine.object("pack", "power", "config", config_json(cfg),
        "result", PW.result_json(res), "detail", d, "findings", findings))
    else
      local t = {}
      for _, k in ipairs(RESULT_KEYS) do
        local v = res[k]
        local shown = k:match("_dollars$") and (PW.money(v) .. " $") or py.repr(v)
        if k == "saving_pct" then shown = shown .. (" (%s%%)"):format(py.fixed(v * 100, 2)) end
        t[#t + 1] = ("%-32s %s\n"):format(k, shown)
      end
      out:write(table.concat(t))
    end
    return finish(args, out, findings)
  end),
}

-- ---- sweep (4.6) ----------------------------------------------------------------------------

prog:verb {
  name = "sweep",
  summary = "seed-mean of one fleet result field while one config field varies",
  options = with(FLEET_OPTS,
    { "--vary", type = "string", required = true, metavar = "KEY=V1,V2,...",
      help = "the config field to vary and its values" },
    { "--field", type = "choice", choices = NUMERIC_FIELDS, default = "saving_pct",
      help = "the result field to average (default saving_pct)" },
    { "--seeds", type = "int", default = 24, min = 1, max = 1000, metavar = "N",
      help = "seeds 0..N-1 (default 24)" }),
  run = guarded("sweep", function(args, out)
    local key, list = args.vary:match("^([^=]+)=(.*)$")
    if not key then usage("--vary", "--vary takes KEY=V1,V2,...") end
    if key == "seed" or key == "kind" or not field_named(FLEET_FIELDS, key) then
      usage("--vary", ("--vary: '%s' is not a fleet-config field that can vary"):format(key))
    end
    local texts = {}
    for item in (list .. ","):gmatch("([^,]*),") do texts[#texts + 1] = item end
    if #texts < 1 or #texts > 1000 then usage("--vary", "--vary takes 1 to 1,000 values") end
    local base, origin = fleet_input(args)
    local f = field_named(FLEET_FIELDS, key)
    local rows, findings, errors, seen = engine.array(), engine.array(), {}, {}
    local cfgs = {}
    for i, text in ipairs(texts) do
      local v = yaml_scalar(text)
      local problem = field_problem(f, v)
      if problem then
        errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = "--vary",
                                message = problem }
      else
        local cfg = {}
        for k, x in pairs(base) do cfg[k] = x end
        cfg[key] = f.type == "number" and v + 0.0 or v
        local o2 = {}
        for k, x in pairs(origin) do o2[k] = x end
        o2[key] = "set"
        check_fleet(cfg, o2, false)
        cfgs[i] = cfg
        local tf = truncated_finding(args, cfg, o2, cfg.horizon_h)
        if tf and not seen[tf.message] then
          seen[tf.message] = true
          findings[#findings + 1] = tf
        end
      end
    end
    if #errors > 0 then raise(errors) end
    -- 5.10: the whole sweep's simulated hours, before any run.
    local hours = 0
    for _, cfg in ipairs(cfgs) do hours = hours + args.seeds * cfg.horizon_h end
    if hours > MAX_SWEEP_HOURS then
      raise({ { rule = "input.limit", argument = "--vary",
                message = ("the sweep would simulate %d hours (%d values x %d seeds), over the "
                           .. "limit of 2e9"):format(hours, #cfgs, args.seeds) } })
    end
    local best_lo, best_hi
    for i, cfg in ipairs(cfgs) do
      local m = models.power.fleet_mean(cfg, args.field, args.seeds, VARIANT)
      rows[i] = engine.object("value", cfg[key], "mean", m)
      if not best_lo or m < rows[best_lo].mean then best_lo = i end
      if not best_hi or m > rows[best_hi].mean then best_hi = i end
    end
    if args.format == "json" then
      out:json(engine.object("pack", "power", "field", args.field, "seeds", args.seeds,
        "vary", key, "rows", rows, "argmin", rows[best_lo].value,
        "argmax", rows[best_hi].value, "findings", findings))
    else
      local t = {}
      for _, row in ipairs(rows) do
        t[#t + 1] = ("%s %s\n"):format(py.str(row.value), ("%.6g"):format(row.mean))
      end
      t[#t + 1] = ("argmin %s\nargmax %s\n"):format(py.str(rows[best_lo].value),
                                                  py.str(rows[best_hi].value))
      out:write(table.concat(t))
    end
    return finish(args, out, findings)
  end),
}

-- ---- causal (4.7) ---------------------------------------------------------------------------

local LIMITATIONS = {
  "the prices are synthetic (the model's own process) unless the caller supplied observed "
    .. "prices with --prices",
  "catching up draws up to the flexible share above the fleet load: that extra headroom is "
    .. "an assumption of the model, not a measured capacity",
  "deferred energy is assumed to turn into useful work at a constant rate; no migration, "
    .. "service-level or restart cost is modelled",
}

local CAUSAL_FILE_KEYS = { fleet_mw = true, flexible_fraction = true,
                           curtail_threshold_mwh = true, curtail_budget_frac = true }

local function load_prices(path)
  local doc, findings = engine.load(path, { kind = "price-series", collect = true })
  if findings and #findings > 0 then
    local errors = {}
    for _, f in ipairs(findings) do
      errors[#errors + 1] = { rule = f.rule, message = f.message, file = f.file or path,
                              line = f.line, column = f.column, path = f.path }
    end
    raise(errors)
  end
  local list = engine.type(doc) == "map" and doc.prices or doc
  local prices = {}
  for i = 1, #list do prices[i] = list[i] + 0.0 end
  return prices
end

prog:verb {
  name = "causal",
  summary = "online curtailment controller over a price list (file or generated)",
  options = with(FLEET_OPTS,
    { "--prices", type = "path", metavar = "FILE", help = "a price-series document" },
    { "--cheap-threshold", type = "float", default = 50.0, min = 0, max = 1e6, metavar = "X",
      help = "catch-up price, $/MWh (default 50)" },
    { "--actions", type = "flag", help = "list every hour's action" }),
  run = guarded("causal", function(args, out)
    local cfg, origin = fleet_input(args, true)
    local prices, source
    if args.prices then
      for k, o in pairs(origin) do
        if not CAUSAL_FILE_KEYS[k] then
          usage(o == "set" and (k == "seed" and args.seed and "--seed" or "--set") or "--config",
                ("%s has no effect with --prices: the prices come from the file"):format(k))
        end
      end
      prices = load_prices(args.prices)
      source = "file"
    else
      prices = models.power.prices(cfg)
      source = "generated"
    end
    local n = #prices
    local opts = { fleet_mw = cfg.fleet_mw, flexible_fraction = cfg.flexible_fraction,
                   threshold = cfg.curtail_threshold_mwh,
                   budget_fraction = cfg.curtail_budget_frac,
                   cheap_threshold = args.cheap_threshold + 0.0, actions = args.actions }
    local res = models.power.causal(prices, opts, VARIANT)
    local oracle, oracle_detail
    if source == "generated" then oracle, oracle_detail = models.power.fleet(cfg, nil, VARIANT) end
    local ratio = engine.null
    if res.saving_dollars and oracle_detail and oracle_detail.saving_dollars > 0 then
      ratio = res.saving_dollars / oracle_detail.saving_dollars
    end
    local findings = engine.array()
    findings[1] = truncated_finding(args, cfg, origin, n)
    local saving = res.saving_dollars or engine.null
    local frac = res.saving_dollars and res.saving_dollars / res.blind_cost_dollars or engine.null
    if args.format == "json" then
      local doc = engine.object("pack", "power",
        "inputs", engine.object("source", source,
          "file", args.prices or engine.null,
          "config", source == "generated" and config_json(cfg) or engine.null,
          "hours", n, "fleet_mw", cfg.fleet_mw, "flexible_fraction", cfg.flexible_fraction,
          "threshold_mwh", cfg.curtail_threshold_mwh,
          "budget_fraction", cfg.curtail_budget_frac,
          "cheap_threshold_mwh", opts.cheap_threshold, "budget_hours", res.budget_hours),
        "evidence_class", "simulated", "input_class", "scenario",
        "cost_dollars", res.cost_dollars, "blind_cost_dollars", res.blind_cost_dollars,
        "saving_dollars", saving, "served_mwh", res.served_mwh,
        "unserved_mwh", res.unserved_mwh, "extra_headroom_mw", res.extra_headroom_mw,
        "curtailed_hours", res.curtailed_hours, "saving_frac", frac)
      if args.actions then
        local acts = engine.array()
        for i, a in ipairs(res.actions) do
          acts[i] = engine.object("hour", a.hour, "price", a.price, "draw_mw", a.draw_mw,
                                  "backlog_mwh", a.backlog_mwh, "curtailed", a.curtailed)
        end
        doc.actions = acts
      end
      doc.limitations = PW.array(LIMITATIONS)
      doc.oracle = oracle and PW.result_json(oracle) or engine.null
      doc.ratio_to_oracle = ratio
      doc.findings = findings
      out:json(doc)
    else
      local t = {
        ("cost            %s $\n"):format(PW.money(res.cost_dollars)),
        ("blind cost      %s $\n"):format(PW.money(res.blind_cost_dollars)),
        ("saving          %s\n"):format(res.saving_dollars
                                        and (PW.money(res.saving_dollars) .. " $")
                                        or "none (energy left unserved)"),
        ("served          %s MWh\n"):format(py.fixed(res.served_mwh, 3)),
        ("unserved        %s MWh\n"):format(py.fixed(res.unserved_mwh, 3)),
        ("curtailed hours %d\n"):format(res.curtailed_hours),
      }
      if oracle then
        t[#t + 1] = ("oracle saving   %s $\n"):format(PW.money(oracle.saving_dollars))
        t[#t + 1] = ("ratio to oracle %s\n"):format(ratio == engine.null and "n/a"
                                                    or py.fixed(ratio, 3))
      end
      if args.actions then
        for _, a in ipairs(res.actions) do
          t[#t + 1] = ("hour %d price %s draw %s MW backlog %s MWh%s\n"):format(a.hour,
            py.fixed(a.price, 2), py.fixed(a.draw_mw, 3), py.fixed(a.backlog_mwh, 3),
            a.curtailed and " curtailed" or "")
        end
      end
      out:write(table.concat(t))
    end
    return finish(args, out, findings)
  end),
}

-- ---- span (4.8) -----------------------------------------------------------------------------

local CUT_NAMES = { pipeline = "pipeline-stage", allreduce = "data-parallel all-reduce" }

local function load_scenario(path)
  local doc, findings = engine.load(path, { kind = "scale-across-proposal", collect = true })
  local errors = {}
  for _, f in ipairs(findings or {}) do
    errors[#errors + 1] = { rule = f.rule, message = f.message, file = f.file or path,
                            line = f.line, column = f.column, path = f.path }
  end
  if #errors == 0 and doc.cut == "allreduce" and engine.has(doc, "activation_gb_per_step") then
    local w = engine.where(doc, "activation_gb_per_step")
    errors[1] = { rule = "input.type", file = path, line = w.line, column = w.column,
                  path = w.path, message = "activation_gb_per_step applies only to "
                  .. "cut: pipeline (an all-reduce cut exchanges the gradients)" }
  end
  if #errors > 0 then raise(errors) end
  return doc
end

local function option_json(o)
  local u = o.unrounded
  return engine.object("option", o.option, "feasible", o.feasible,
    "dollars", o.dollars or engine.null, "duration_h", o.duration_h or engine.null,
    "dollars_per_useful_gpu_h", o.dollars_per_useful_gpu_h or engine.null,
    "reference", o.reference, "reason", o.reason or engine.null,
    "home_gpus", o.home_gpus, "away_gpus", o.away_gpus,
    "unrounded", u and engine.object("dollars", u.dollars, "duration_h", u.duration_h)
                 or engine.null)
end

local function hall_json(h, expected)
  local o = PW.object(HALL_FIELDS, h)
  o.expected_price_mwh = expected
  return o
end

prog:verb {
  name = "span",
  summary = "stay / stitch / move ledger for a scale-across scenario",
  options = { { "--scenario", type = "path", required = true, metavar = "FILE",
                help = "a scale-across-proposal document" },
              STRICT_OPT, format_opt() },
  run = guarded("span", function(args, out)
    local doc = load_scenario(args.scenario)
    local s = PW.scenario_of(doc)
    local L = PW.ledger(s)
    local check = engine.null
    local has = { activation = engine.has(doc, "activation_gb_per_step"),
                  cut = engine.has(doc, "cut") }
    local items = PW.span_items(s, L, doc.action, has)
    if doc.action ~= nil then
      local rule = engine.null
      for _, it in ipairs(items) do
        if it.severity ~= "warning" and it.rule ~= "power.missing-field" and
           not it.rule:match("^power%.strict%.") then
          rule = it.rule
          break
        end
      end
      check = engine.object("action", doc.action, "ok", rule == engine.null, "rule", rule)
    end
    local findings = engine.array()
    if L.deadline_rounding then
      local w = engine.where(doc.job, "deadline_h")
      findings[1] = finding(args, "power.strict.deadline-rounding", PW.deadline_message(s, L),
        { file = args.scenario, line = w.line, column = w.column, path = "/job/deadline_h" })
    end
    local opts = engine.array()
    for i, o in ipairs(L.options) do opts[i] = option_json(o) end
    if args.format == "json" then
      local job = PW.object(SPAN_JOB_FIELDS, s.job)
      out:json(engine.object("pack", "power", "file", args.scenario,
        "name", doc.name or engine.null,
        "inputs", engine.object("job", job,
          "home", hall_json(s.home, L.home_expected_price_mwh),
          "away", hall_json(s.away, L.away_expected_price_mwh),
          "circuit", PW.object(CIRCUIT_FIELDS, s.circuit),
          "cut", engine.object("kind", s.cut, "name", CUT_NAMES[s.cut],
                               "gb_per_step", L.cut_gb_per_step,
                               "crossings_per_step", L.cut_crossings)),
        "decision", L.decision, "stitch_tax", engine.round(L.stitch_tax, 4),
        "cut", CUT_NAMES[s.cut], "capacity_deficit_gpus", L.capacity_deficit_gpus,
        "options", opts,
        "unrounded", engine.object("stitch_tax", L.stitch_tax, "useful_gpu_h", L.useful_gpu_h,
          "migration_downtime_h", L.migration_downtime_h,
          "migration_cost_dollars", L.migration_cost_dollars),
        "check", check, "findings", findings))
    else
      local t = {
        ("decision: %s\n"):format(L.decision),
        ("stitch tax %s (%s%%) through the %s cut\n"):format(py.fixed(L.stitch_tax, 4),
          py.fixed(L.stitch_tax * 100, 1), CUT_NAMES[s.cut]),
        ("capacity deficit %d GPUs\n"):format(L.capacity_deficit_gpus),
      }
      for _, o in ipairs(L.options) do
        t[#t + 1] = ("  %-7s %-22s %14s  %8s h  %s $/useful GPU-h\n"):format(o.option,
          o.feasible and "feasible" or o.reason,
          o.feasible and (PW.money(o.dollars) .. " $") or "-",
          o.feasible and py.fixed(o.duration_h, 1) or "-",
          o.feasible and py.fixed(o.dollars_per_useful_gpu_h, 4) or "-")
      end
      out:write(table.concat(t))
    end
    return finish(args, out, findings)
  end),
}

-- ---- hall-price (4.9) -----------------------------------------------------------------------

prog:verb {
  name = "hall-price",
  summary = "expected price of halls with weekly spike hours folded in",
  options = { format_opt() },
  operands = { name = "ITEM", min = 1, max = 10000 },
  run = guarded("hall-price", function(args, out)
    local rows, t = engine.array(), {}
    for i, item in ipairs(args.operands) do
      local parts = {}
      for part in (item .. ":"):gmatch("([^:]*):") do parts[#parts + 1] = part end
      if #parts ~= 1 and #parts ~= 3 then
        usage(item, ("'%s' is not PRICE or PRICE:SPIKE_PRICE:SPIKE_HOURS"):format(item))
      end
      local v = {}
      for j, part in ipairs(parts) do
        local x = pyfloat(part)
        local hi, lo = j == 3 and 168 or 1e6, j == 3 and 0 or -1e6
        if x == nil or x ~= x or x == math.huge or x == -math.huge or x < lo or x > hi then
          usage(item, ("'%s' in '%s' must be a finite number within %s..%s"):format(part, item,
                py.repr(lo), py.repr(hi)))
        end
        v[j] = x
      end
      local hall = { price_mwh = v[1], spike_price_mwh = v[2] or 0.0,
                     spike_hours_per_week = v[3] or 0.0 }
      local hp = models.power.hall_price(hall)
      rows[i] = engine.object("price_mwh", hall.price_mwh, "spike_price_mwh", hall.spike_price_mwh,
        "spike_hours_per_week", hall.spike_hours_per_week, "spike_fraction", hp.spike_fraction,
        "expected_price_mwh", hp.expected_price_mwh)
      t[#t + 1] = ("%s %s\n"):format(item, ("%.6g"):format(hp.expected_price_mwh))
    end
    if args.format == "json" then
      out:json(engine.object("pack", "power", "rows", rows, "findings", engine.array()))
    else
      out:write(table.concat(t))
    end
    return 0
  end),
}

-- ---- validate (4.10) ------------------------------------------------------------------------

-- The registry runs through engine.validate; the model label of each point
-- (7.2 column `model`) and the references of 7.1 are the pack's own (the
-- generic registry document carries neither).
-- The model each point exercises (7.2 column `model`).
local POINT_MODELS = {
  ["state-size-405b"] = "calc", ["energy-share-of-gpu-cost"] = "calc",
  ["curtailed-vs-dc-load-ratio"] = "-", ["weight-transfer-arithmetic"] = "-",
  ["ranking-beats-unranked-in-every-price-year"] = "fleet",
  ["ranking-beats-inverted-in-every-price-year"] = "fleet",
  ["headline-saving-at-5000-ceiling"] = "fleet", ["headline-saving-at-rt-cap-2000"] = "fleet",
  ["spike-ceiling-is-a-model-input"] = "fleet",
  ["concentration-is-a-property-of-the-price-process"] = "fleet",
  ["curtailment-share-of-fleet-energy"] = "fleet", ["spikes-off-policy-is-inert"] = "fleet",
  ["scarcity-headline-arithmetic"] = "calc", ["breakeven-job-length"] = "calc",
  ["breakeven-function-matches-closed-form"] = "calc", ["every-ref-resolves"] = "-",
  ["pipeline-stitch-tax"] = "span", ["allreduce-stitch-tax"] = "span",
  ["allreduce-tax-is-payload-not-latency"] = "span",
  ["causal-controller-clears-its-backlog"] = "causal",
  ["causal-recovers-most-of-the-oracle"] = "causal",
}

local REFERENCES = {
  "US ISO nodal price maps (ERCOT, EIA, GridStatus); ERCOT RTC+B: $5,000 day-ahead, "
    .. "$2,000 real-time caps",
  "~20 TWh of US wind and solar curtailed in 2024 (Amperon); US data centers 176 TWh in "
    .. "2023 (LBNL)",
  "ERCOT large-load queue ~226 GW; PJM capacity price record $329.17/MW-day",
  "a burdened H100 draws ~1.2-1.4 kW; energy ~3-4% of a ~$2-3 GPU-hour at $60/MWh",
  "16 bytes/parameter (ZeRO, arXiv:1910.02054), ~6.5 TB for 405B; WAN egress $0.02-0.09/GB",
  "Duke Nicholas Institute, Rethinking Load Growth (2025): 76 GW at 0.25% curtailed energy",
  "inference as relocatable demand (arXiv:2604.27855); wind within 50 ms RTT "
    .. "(arXiv:2605.23348)",
  "multi-datacenter training (Gemini, SemiAnalysis): 400 TB in 0.64 s at 5 Pbit/s",
  "DiLoCo, Streaming DiLoCo, INTELLECT-1",
  "Google carbon-aware spatial load shifting (arXiv:2106.11750)",
  "EPRI DCFlex (Oct 2024)",
  "power-seeking operators: Crusoe, Lancium, Soluna",
  "Emerald AI Phoenix trial (arXiv:2507.00909); the 96 MW Aurora AI Factory",
  "geographic load balancing: Qureshi et al. 2009; Liu et al. 2011",
  "the scheduling study of the same series",
}

local function g4(x)
  if x == nil or x == engine.null then return "null" end
  return ("%.4g"):format(x)
end

local function validate_output(res, args, out)
  local reg = res -- the registry entry of core.md 11.4
  local points, counts = engine.array(), { exercising = 0 }
  for i, p in ipairs(reg.points) do
    local model = POINT_MODELS[p.id] or "-"
    if model ~= "-" then counts.exercising = counts.exercising + 1 end
    points[i] = engine.object("id", p.id, "kind", p.kind, "model", model, "figure", p.figure,
      "expected", p.expected, "tolerance", p.tolerance, "actual", p.actual, "ok", p.ok,
      "refs", PW.array(p.refs), "source", p.source, "note", p.note, "detail", p.detail)
  end
  local refs = engine.array()
  for i, s in ipairs(REFERENCES) do refs[i] = engine.object("id", i, "source", s) end
  local sm = reg.summary
  local summary = engine.object("points", sm.points, "passed", sm.passed, "failed", sm.failed,
    "calibrated", sm.calibrated, "emergent", sm.emergent, "sanity", sm.sanity,
    "exercising_model", counts.exercising)
  if args.format == "json" then
    local declined = engine.array()
    for i, d in ipairs(reg.declined) do
      declined[i] = engine.object("what", d.what, "why", d.why)
    end
    out:json(engine.object("pack", "power", "mutation", args.mutate or engine.null, "ok", res.ok,
      "settings", reg.settings, "points", points, "declined", declined, "references", refs,
      "summary", summary))
  else
    local t = { ("power validation registry%s\n"):format(args.mutate and
                (" under mutation " .. args.mutate) or "") }
    for _, p in ipairs(points) do
      local r = {}
      for j, x in ipairs(p.refs) do r[j] = "[" .. py.str(x) .. "]" end
      t[#t + 1] = ("%-50s %-10s %-6s %-6s expected %-10s actual %-10s tol %-8s %s\n"):format(
        p.id, p.kind, #r > 0 and table.concat(r) or "-", p.model, g4(p.expected), g4(p.actual),
        g4(p.tolerance), p.ok and "PASS" or "FAIL")
    end
    t[#t + 1] = "declined anchors:\n"
    for _, d in ipairs(reg.declined) do t[#t + 1] = ("  %s: %s\n"):format(d.what, d.why) end
    t[#t + 1] = ("%d points: %d passed, %d failed; %d calibrated, %d emergent, %d sanity; %d "
                 .. "exercise a model\n"):format(sm.points, sm.passed, sm.failed, sm.calibrated,
                                                sm.emergent, sm.sanity, counts.exercising)
    out:write(table.concat(t))
  end
  return res.ok and 0 or 1
end

prog:verb {
  name = "validate",
  summary = "the validation registry (spec/power.md 7)",
  options
= { { "--mutate", type = "string", metavar = "NAME",
                help = "run with a mutation that must turn its points red" },
              format_opt() },
  run = function(args, out)
    local res = engine.validate { pack = "power", mutation = args.mutate }
    return validate_output(res, args, out)
  end,
}

-- ---- lint (4.11) ----------------------------------------------------------------------------

prog:verb {
  name = "lint",
  summary = "rules over migration proposals, curtailment plans, scale-across proposals",
  lint = true,
  options = {
    { "--strict", type = "flag", help = "run strict rules (the default)" },
    { "--no-strict", type = "flag", help = "do not run strict rules" },
    format_opt(LINT_FORMATS),
  },
  operands = { name = "PATH", min = 1 },
  run = function(args)
    return engine.lint { operands = args.operands, strict = verbs.strict_choice(args),
                         format = args.format }
  end,
}
