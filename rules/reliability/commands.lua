-- luacheck: read globals math.tointeger math.type math.maxinteger table.unpack
-- `infragate reliability VERB` (spec/reliability.md 2, 4): simulate, events,
-- sweep, phase, checkpoint, legal-loss, band, validate and lint. Model
-- inputs resolve as built-in defaults, then `--config FILE` (a
-- reliability-config document), then each `--set KEY=VALUE` (typed by the
-- YAML 1.1 resolver, as the same text in a document) and `--seed N`. Every
-- argument and document is checked, and every limit of 5.10, before the
-- first simulation runs; an input error ends the verb with exit 2 and the
-- error document of section 2. Text layouts are ours; only their figures
-- and the rounding of those figures are contractual.
local py = require "py"
local verbs = require "verbs"

local FORMATS = { "text", "json" }
local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }
local MAX_LISTED = 1000000
local NUMBER_MAX = 1e15 -- the schema's cap on unbounded number fields

local prog = engine.program {
  name    = "reliability",
  summary = "recovery economics of gang training jobs: policies, spares, checkpoint cadence",
  help    = "Simulates how a gang training job recovers from node faults (operator, automatic "
            .. "restart, warm spares, elastic shrink), prices the lost GPU-hours, finds the "
            .. "checkpoint optimum and gates declared training-recovery plans.",
  syntax  = { abbrev = "none", negative_numbers = true, help_anywhere = true },
}

-- ---- errors (2) ---------------------------------------------------------------------------

-- One-line synopses, added under our own usage errors in text mode.
local CONFIG_SYNOPSIS = "[--config FILE] [--set KEY=VALUE]... [--seed N] [--strict] " ..
                        "[--format text|json]"
local SYNOPSIS = {
  simulate = "[--policy NAME|all] " .. CONFIG_SYNOPSIS,
  events = "[--first N] [--last N] [--all] " .. CONFIG_SYNOPSIS,
  sweep = "--vary KEY=V1,V2,... [--policy NAME] [--field FIELD] [--seeds N] " .. CONFIG_SYNOPSIS,
  phase = "[--blasts LIST] [--pools LIST] [--seeds N] [--corr-fraction F] " .. CONFIG_SYNOPSIS,
  checkpoint = "[--pair blocking|overlapped] [--write-h W] [--mtbf-h M] [--reload-h R] " ..
               "[--interval-h C] " .. CONFIG_SYNOPSIS,
  ["legal-loss"] = "[--granularity G] [--format text|json] ITEM...",
  band = "[--floor F] [--bound B] [--format text|json] VALUE...",
  validate = "[--mutate NAME] [--format text|json]",
}

local fail = verbs.failer("reliability", { synopsis = SYNOPSIS })
local raise, usage, guarded = verbs.raise, verbs.usage, verbs.guard(fail)

-- ---- scalars: Python int()/float() text and YAML 1.1 plain scalars -----------------------

local pyint, pyfloat = verbs.pyint, verbs.pyfloat

local function sexagesimal(s)
  local v = 0
  for part in s:gmatch("[^:]+") do v = v * 60 + tonumber((part:gsub("_", ""))) end
  return v
end

local BOOLS = { yes = true, Yes = true, YES = true, no = false, No = false, NO = false,
                ["true"] = true, True = true, TRUE = true, ["false"] = false,
                False = false, FALSE = false, on = true, On = true, ON = true,
                off = false, Off = false, OFF = false }

-- An integer scalar beyond 64 bits.
local BIGINT = setmetatable({}, { __tostring = function() return "an integer beyond 64 bits" end })

-- The value PyYAML's YAML 1.1 resolver gives a plain scalar.
local function yaml_scalar(s)
  if s == "" or s == "~" or s == "null" or s == "Null" or s == "NULL" then return engine.null end
  if BOOLS[s] ~= nil then return BOOLS[s] end
  local sign, body = s:match("^([+-]?)(.+)$")
  if not body then return s end
  local neg = sign == "-"
  -- Digits in a base, or BIGINT when the value leaves 64 bits (Python's
  -- int has no such bound; every field here has a smaller one).
  local function int_of(digits, base)
    local v = 0
    for ch in digits:gsub("_", ""):gmatch(".") do
      local d = tonumber(ch, 16)
      if v > (math.maxinteger - d) // base then return BIGINT end
      v = v * base + d
    end
    return v
  end
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
  if v == BIGINT then return BIGINT end
  if v then return neg and -v or v end
  if body:match("^[0-9][0-9_]*%.[0-9_]*$") or body:match("^[0-9][0-9_]*%.[0-9_]*[eE][-+][0-9]+$")
     or body:match("^%.[0-9_]+$") or body:match("^%.[0-9_]+[eE][-+][0-9]+$") then
    local f = tonumber((body:gsub("_", ""))) + 0.0
    return neg and -f or f
  end
  if body == ".inf" or body == ".Inf" or body == ".INF" then
    return neg and -math.huge or math.huge
  end
  if sign == "" and (s == ".nan" or s == ".NaN" or s == ".NAN") then return 0 / 0 end
  return s
end

local function type_name(v)
  if v == BIGINT then return "int" end
  if v == engine.null then return "null" end
  local t = math.type(v)
  if t == "integer" then return "int" end
  if t == "float" then return "float" end
  if type(v) == "boolean" then return "bool" end
  return "str"
end

-- The problem with value v for config field f (3.1), or nil.
local function field_problem(f, v)
  if v == BIGINT then
    return ("%s must be within its range; the value is beyond 64 bits"):format(f.name)
  end
  local tn = type_name(v)
  if f.type == "number" then
    if tn ~= "int" and tn ~= "float" then
      return ("%s must be a number, got %s %s"):format(f.name, tn, py.repr(v))
    end
    if v ~= v or v == math.huge or v == -math.huge then
      return ("%s must be a finite number, got %s"):format(f.name, py.repr(v))
    end
  elseif tn ~= "int" then
    return ("%s must be an integer, got %s %s"):format(f.name, tn, py.repr(v))
  end
  local hi = f.hi or (f.type == "number" and NUMBER_MAX or nil)
  if (f.lo_open and v <= f.lo) or (not f.lo_open and v < f.lo) then
    return ("%s must be %s %s (got %s)"):format(f.name, f.lo_open and ">" or ">=",
                                                 py.repr(f.lo), py.repr(v))
  end
  if hi and v > hi then
    return ("%s must be <= %s (got %s)"):format(f.name, py.repr(hi), py.repr(v))
  end
  return nil
end

-- ---- config: defaults, --config, --set, --seed (2, 3.1) ------------------------------------

local FIELD_LIST = (function()
  local names = {}
  for i, f in ipairs(REL.FIELDS) do names[i] = f.name end
  return table.concat(names, ", ")
end)()

-- The resolved config and the origin of each field: {file, line, column}
-- for --config, "set" for --set/--seed, nil for a default.
local function resolve_config(args)
  local values, origin, errors = {}, {}, {}
  if args.config then
    local doc, findings = engine.load(args.config, { kind = "reliability-config", collect = true })
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
  -- `--seed N` arrives in args.set as "seed=N" at its argv place (3.1:
  -- each --set/--seed in argv order; the option's expands_to).
  local sets = {}
  for _, s in ipairs(args.set or {}) do sets[#sets + 1] = { option = "--set", text = s } end
  for _, s in ipairs(sets) do
    local key, text = s.text:match("^([^=]*)=(.*)$")
    if not key or key == "" then
      usage(s.option, ("%s takes KEY=VALUE, got '%s'"):format(s.option, s.text))
    end
    local f = REL.FIELD[key]
    local v = s.value
    if v == nil then v = yaml_scalar(text) end
    if not f then
      errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = s.option,
        message = ("unknown field '%s' of reliability-config; the fields are %s")
                  :format(key, FIELD_LIST) }
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
  return REL.resolve(values), origin
end

-- Where a problem or finding on field `key` points.
local function site(origin, key)
  local o = origin[key]
  local s = { path = "/" .. key }
  if type(o) == "table" then
    s.file, s.line, s.column = o.file, o.line, o.column
  elseif o == "set" or o == "vary" then
    s.argument = "--" .. o
  end
  return s
end

-- Raise the cross-field and limit problems of a resolved config.
local function check_config(c, origin)
  local errors = {}
  for _, p in ipairs(REL.cross_problems(c)) do
    local s = site(origin, p.key)
    errors[#errors + 1] = { rule = p.limit and "input.limit" or "input.type",
                            message = p.message, file = s.file, line = s.line,
                            column = s.column, path = s.path,
                            argument = s.argument }
  end
  if #errors > 0 then raise(errors) end
end

local function config_input(args)
  local c, origin = resolve_config(args)
  check_config(c, origin)
  return c, origin
end

-- The simulation budget of 5.10 (and our total-events cap), before any run.
local function check_budget(sims, events, argument)
  if sims > REL.MAX_SIMULATIONS then
    raise({ { rule = "input.limit", argument = argument,
              message = ("%s simulations requested, over the limit of 100,000")
                        :format(py.thousands(sims)) } })
  end
  if events > REL.MAX_TOTAL_EVENTS then
    raise({ { rule = "input.limit", argument = argument,
              message = ("the simulations draw about %s latent events in all, over the limit "
                         .. "of 200,000,000"):format(py.thousands(math.floor(events))) } })
  end
end

-- ---- strict findings (7.3) -------------------------------------------------------------------

local function findings_of(args, problems, origin)
  local list = engine.array()
  for i, p in ipairs(problems) do
    local s = site(origin, p.key)
    local o = engine.object()
    o.rule = p.rule
    o.severity = args.strict and "error" or "warning"
    o.message = p.message
    o.file = s.file or engine.null
    o.line = s.line or engine.null
    o.column = s.column or engine.null
    o.path = s.path
    list[i] = o
  end
  return list
end

-- Stderr lines in text mode; the exit status.
local finish = verbs.finish

local MODEL_STRICT = { ["reliability.strict.burst-budget"] = true,
                       ["reliability.strict.write-fills-interval"] = true,
                       ["reliability.strict.zero-recovery-latency"] = true,
                       ["reliability.strict.unused-spares"] = true }

-- ---- options ----------------------------------------------------------------------------------

local format_opt = verbs.format_opt_of(FORMATS)

local STRICT_OPT = { "--strict", type = "flag",
                     help = "strict findings become errors and make the exit status 1" }
local CONFIG_OPTS = {
  { "--config", type = "path", metavar = "FILE", help = "a reliability-config document" },
  { "--set", type = "string", ["repeat"] = "append", metavar = "KEY=VALUE",
    help = "override one config field" },
  { "--seed", type = "int", min = 0, metavar = "N", help = "shorthand for --set seed=N",
    expands_to = "--set seed=" },
  STRICT_OPT, format_opt(),
}

local with = verbs.with

local function policy_opt(default, all)
  local choices = {}
  for i, p in ipairs(REL.POLICIES) do choices[i] = p end
  if all then choices[#choices + 1] = "all" end
  return { "--policy", type = "choice", choices = choices, default = default, metavar = "NAME",
           help = "recovery policy" .. (all and " (or all)" or "") }
end

-- A comma-separated list of integers >= lo.
local function int_list(option, text, lo)
  local list = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = pyint(item)
    if v == nil or v < lo then
      usage(option, ("%s: '%s' is not an integer >= %d"):format(option, item, lo))
    end
    list[#list + 1] = v
  end
  if #list > 1000 then usage(option, ("%s takes at most 1,000 values"):format(option)) end
  return list
end

local function fmt6(x)
  return ("%.6g"):format(x)
end

-- ---- simulate (4.1) ---------------------------------------------------------------------------

local function result_object(r)
  return engine.object("policy", r.policy, "seed", r.seed, "ettr", r.ettr,
    "availability", r.availability, "mttf_h", r.mttf_h, "mttr_h", r.mttr_h,
    "interruptions", r.interruptions, "reserved_spare_gpu_h", r.reserved_spare_gpu_h,
    "productive_gpu_h", r.productive_gpu_h, "waste_gpu_h", r.waste_gpu_h,
    "waste_dollars", r.waste_dollars)
end

prog:verb {
  name = "simulate",
  summary = "run one recovery policy, or all five on one shared fault timeline",
  options = with(CONFIG_OPTS, policy_opt("all", true)),
  run = guarded("simulate", function(args, out)
    local c, origin = config_input(args)
    local policies = args.policy == "all" and REL.POLICIES or { args.policy }
    local sim = REL.simulate(c, args.policy)
    local findings = findings_of(args, REL.strict_problems({ c }, policies, MODEL_STRICT,
      args.policy == "all" and {} or policies), origin)
    if args.format == "json" then
      local results = engine.array()
      for i, r in ipairs(sim.results) do results[i] = result_object(r) end
      out:json(engine.object("pack", "reliability", "config", REL.config_object(c),
                             "events", sim.events, "results", results, "findings", findings))
    else
      local lines = { ("seed %d: %d latent events over %s h on %d nodes\n")
                      :format(c.seed, sim.events, fmt6(c.horizon_h), c.nodes),
                      ("%-17s %7s %7s %8s %8s %6s %14s %12s\n"):format("policy", "ETTR",
                      "avail", "MTTF h", "MTTR h", "intr", "waste GPU-h", "waste $") }
      for _, r in ipairs(sim.results) do
        lines[#lines + 1] = ("%-17s %7s %7s %8s %8s %6d %14s %12s\n"):format(r.policy,
          py.fixed(r.ettr, 4), py.fixed(r.availability, 4), py.fixed(r.mttf_h, 2),
          py.fixed(r.mttr_h, 2), r.interruptions, py.fixed(r.waste_gpu_h, 1),
          py.fixed(r.waste_dollars, 0))
      end
      out:write(table.concat(lines))
    end
    return finish(args, out, findings)
  end),
}

-- ---- events (4.2) -----------------------------------------------------------------------------

local function pairs_array(list)
  local a = engine.array()
  for i, e in ipairs(list) do a[i] = engine.array(e[1], e[2]) end
  return a
end

prog:verb {
  name = "events",
  summary = "the latent fault timeline of a config",
  options = with(CONFIG_OPTS,
    { "--first", type = "int", default = 5, min = 0, max = MAX_LISTED, metavar = "N",
      help = "list the first N events (default 5)" },
    { "--last", type = "int", default = 2, min = 0, max = MAX_LISTED, metavar = "N",
      help = "list the last N events (default 2)" },
    { "--all", type = "flag", help = "list every event" }),
  run = guarded("events", function(args, out)
    local c, origin = config_input(args)
    if args.all and REL.expected_events(c) > MAX_LISTED then
      raise({ { rule = "input.limit", argument = "--all",
                message = ("--all would list about %s events, over the limit of 1,000,000")
                          :format(py.thousands(math.floor(REL.expected_events(c)))) } })
    end
    local ev = models.reliability.events { config = c, first = args.first, last = args.last,
                                           all = args.all }
    if args.all and ev.count > MAX_LISTED then
      raise({ { rule = "input.limit", argument = "--all",
                message = ("--all would list %s events, over the limit of 1,000,000")
                          :format(py.thousands(ev.count)) } })
    end
    local findings = findings_of(args, REL.strict_problems({ c }, { "manual" },
      { ["reliability.strict.burst-budget"] = true }, {}), origin)
    local configured = c.single_rate_per_node_h * c.nodes
    local burst_node = c.burst_rate_per_h * c.burst_blast
    local single = REL.single_rate(c)
    if args.format == "json" then
      local o = engine.object("pack", "reliability", "count", ev.count,
        "nodes_failed", ev.nodes_failed, "configured_node_rate_per_h", configured + 0.0,
        "burst_node_rate_per_h", burst_node + 0.0, "single_node_rate_per_h", single + 0.0,
        "first", pairs_array(ev.first), "last", pairs_array(ev.last))
      if args.all then o.events = pairs_array(ev.events) end
      o.findings = findings
      out:json(o)
    else
      local lines = { ("%d latent events, %d nodes failed\n"):format(ev.count, ev.nodes_failed),
        ("configured node rate %s /h, burst node rate %s /h, single-node rate %s /h\n")
        :format(fmt6(configured), fmt6(burst_node), fmt6(single)) }
      local function list(title, l)
        lines[#lines + 1] = title .. ":\n"
        for _, e in ipairs(l) do lines[#lines + 1] = ("%.6f %d\n"):format(e[1], e[2]) end
      end
      if args.all then
        list("events", ev.events)
      else
        list("first", ev.first)
        list("last", ev.last)
      end
      out:write(table.concat(lines))
    end
    return finish(args, out, findings)
  end),
}

-- ---- sweep (4.3) ------------------------------------------------------------------------------

local FIELD_CHOICES = REL.RESULT_FIELDS

-- Parse --vary KEY=V1,V2,...: the field and its typed, validated values.
local function parse_vary(text)
  local key, list = text:match("^([^=]*)=(.*)$")
  if not key or key == "" then
    usage("--vary", ("--vary takes KEY=V1,V2,..., got '%s'"):format(text))
  end
  local f = REL.FIELD[key]
  if not f or key == "seed" then
    raise({ { rule = "input.type", argument = "--vary", path = "/" .. key,
              message = ("--vary: '%s' is not a reliability-config field that can vary (any "
                         .. "field of 3.1 except seed)"):format(key) } })
  end
  local values = {}
  for item in (list .. ","):gmatch("([^,]*),") do
    local v = yaml_scalar(item)
    local problem = field_problem(f, v)
    if problem then
      raise({ { rule = "input.type", argument = "--vary", path = "/" .. key,
                message = "--vary: " .. problem } })
    end
    values[#values + 1] = f.type == "number" and v + 0.0 or v
  end
  if #values > 1000 then usage("--vary", "--vary takes 1 to 1,000 values") end
  return key, values
end

local function arg_extreme(rows, better)
  local pick
  for _, r in ipairs(rows) do
    if not pick or better(r.mean, pick.mean) then pick = r end
  end
  return pick.value
end

prog:verb {
  name = "sweep",
  summary = "seed-mean of one result field while one config field varies",
  options = with(CONFIG_OPTS,
    { "--vary", type = "string", required = true, metavar = "KEY=V1,V2,...",
      help = "the config field to vary and its values" },
    policy_opt("auto-spares-ckpt", false),
    { "--field", type = "choice", choices = FIELD_CHOICES, default = "ettr", metavar = "FIELD",
      help = "the result field to average (default ettr)" },
    { "--seeds", type = "int", default = 8, min = 1, max = 1000, metavar = "N",
      help = "seeds 0..N-1 (default 8)" }),
  run = guarded("sweep", function(args, out)
    local key, values = parse_vary(args.vary)
    local base, origin = resolve_config(args)
    local configs, events = {}, 0
    for i, v in ipairs(values) do
      local c = REL.copy(base, { [key] = v })
      check_config(c, REL.copy(origin, { [key] = "vary" }))
      configs[i] = c
      events = events + REL.expected_events(c) * args.seeds
    end
    check_budget(#values * args.seeds, events, "--vary")
    local rows, text = engine.array(), {}
    for i, c in ipairs(configs) do
      local m = REL.means(c, { args.policy }, args.seeds)[args.policy][args.field]
      rows[i] = engine.object("value", values[i], "mean", m)
      text[#text + 1] = ("%s %s\n"):format(py.repr(values[i]), fmt6(m))
    end
    local argmin = arg_extreme(rows, function(a, b) return a < b end)
    local argmax = arg_extreme(rows, function(a, b) return a > b end)
    local vary_origin = REL.copy(origin)
    vary_origin[key] = nil
    local findings = findings_of(args, REL.strict_problems(configs, { args.policy },
      MODEL_STRICT, { args.policy }), vary_origin)
    if args.format == "json" then
      out:json(engine.object("pack", "reliability", "policy", args.policy, "field", args.field,
        "seeds", args.seeds, "vary", key, "rows", rows, "argmin", argmin, "argmax", argmax,
        "findings", findings))
    else
      text[#text + 1] = ("argmin %s\nargmax %s\n"):format(py.repr(argmin), py.repr(argmax))
      out:write(("%s of %s over %d seeds, %s varied:\n"):format(args.field, args.policy,
                args.seeds, key) .. table.concat(text))
    end
    return finish(args, out, findings)
  end),
}

-- ---- phase (4.4) ------------------------------------------------------------------------------

prog:verb {
  name = "phase",
  summary = "where warm spares beat elastic shrink: blast radius x pool size",
  options = with(CONFIG_OPTS,
    { "--blasts", type = "string", default = "1,2,4,8,16,32", metavar = "LIST",
      help = "blast radii, nodes (default 1,2,4,8,16,32)" },
    { "--pools", type = "string", default = "0,2,4,8,16,32,64", metavar = "LIST",
      help = "spare pool sizes, nodes (default 0,2,4,8,16,32,64)" },
    { "--seeds", type = "int", default = 8, min = 1, max = 100000, metavar = "N",
      help = "seeds 0..N-1 (default 8)" },
    { "--corr-fraction", type = "float", default = 0.5, min = 0, max = 1, metavar = "F",
      help = "share of the node-failure budget that arrives in bursts (default 0.5)" }),
  run = guarded("phase", function(args, out)
    local blasts = int_list("--blasts", args.blasts, 1)
    local pools = int_list("--pools", args.pools, 0)
    local base, origin = config_input(args)
    local F = args.corr_fraction + 0.0
    local per_blast, events = {}, 0
    for j, b in ipairs(blasts) do
      local burst = 0.0
      if b > 1 then burst = (F * (base.single_rate_per_node_h * base.nodes)) / b end
      local c = REL.copy(base, { burst_rate_per_h = burst, burst_blast = b })
      for _, k in ipairs(pools) do
        local ck = REL.copy(c, { spare_nodes = k })
        for _, p in ipairs(REL.cross_problems(ck)) do
          local s = site(origin, p.key)
          raise({ { rule = p.limit and "input.limit" or "input.type", argument = "--blasts",
                    path = s.path, message = ("blast %d: %s"):format(b, p.message) } })
        end
      end
      per_blast[j] = c
      events = events + REL.expected_events(c) * args.seeds * (#pools + 1)
    end
    check_budget(#blasts * (#pools + 1) * args.seeds, events, "--seeds")
    local elastic, S, A, W = engine.array(), engine.array(), engine.array(), engine.array()
    for j, c in ipairs(per_blast) do
      elastic[j] = REL.means(c, { "elastic" }, args.seeds).elastic.ettr
    end
    for i, k in ipairs(pools) do
      S[i], A[i], W[i] = engine.array(), engine.array(), engine.array()
      for j, c in ipairs(per_blast) do
        local s = REL.means(REL.copy(c, { spare_nodes = k }), { "auto-spares-ckpt" },
                            args.seeds)["auto-spares-ckpt"].ettr
        local a = s - elastic[j]
        S[i][j], A[i][j] = s, a
        W[i][j] = a > 0 and "spares" or (a < 0 and "elastic" or "tie")
      end
    end
    local findings = engine.array()
    if args.format == "json" then
      out:json(engine.object("pack", "reliability", "seeds", args.seeds, "corr_fraction", F,
        "blasts", engine.array(table.unpack(blasts)), "pools", engine.array(table.unpack(pools)),
        "elastic_ettr", elastic, "spares_ckpt_ettr", S, "advantage", A, "winner", W,
        "findings", findings))
    else
      local lines = { ("advantage of auto-spares-ckpt over elastic (ETTR points), %d seeds, "
                       .. "burst share %s\n"):format(args.seeds, py.repr(F)) }
      local head = { ("%-12s"):format("k \\ b") }
      for _, b in ipairs(blasts) do head[#head + 1] = ("%8d"):format(b) end
      lines[#lines + 1] = table.concat(head) .. "\n"
      local row = { ("%-12s"):format("elastic") }
      for j in ipairs(blasts) do row[#row + 1] = ("%8s"):format(py.fixed(elastic[j], 4)) end
      lines[#lines + 1] = table.concat(row) .. "\n"
      for i, k in ipairs(pools) do
        row = { ("%-12d"):format(k) }
        for j in ipairs(blasts) do row[#row + 1] = ("%+8.3f"):format(A[i][j]) end
        lines[#lines + 1] = table.concat(row) .. "\n"
      end
      out:write(table.concat(lines))
    end
    return finish(args, out, findings)
  end),
}

-- ---- checkpoint (4.5) -------------------------------------------------------------------------

prog:verb {
  name = "checkpoint",
  summary = "Young / Daly optimum interval and the overhead of a declared interval",
  options = with(CONFIG_OPTS,
    { "--pair", type = "choice", choices = { "blocking", "overlapped" }, default = "blocking",
      help = "the config's checkpoint pair (default blocking)" },
    { "--write-h", type = "float", min = 0, metavar = "W", help = "write stall, h" },
    { "--mtbf-h", type = "float", min_exclusive = 0, metavar = "M", help = "event MTBF, h" },
    { "--reload-h", type = "float", min = 0, metavar = "R", help = "restart time, h" },
    { "--interval-h", type = "float", min_exclusive = 0, metavar = "C",
      help = "checkpoint interval, h" }),
  run = guarded("checkpoint", function(args, out)
    local c = config_input(args)
    local policy = args.pair == "overlapped" and "elastic" or "manual"
    local pc, pw = REL.pair(c, policy)
    local W = (args.write_h or pw) + 0.0
    local C = (args.interval_h or pc) + 0.0
    local R = (args.reload_h or c.reload_h) + 0.0
    local M = args.mtbf_h and args.mtbf_h + 0.0 or nil
    if not M and REL.event_rate(c) > 0 then M = 1 / REL.event_rate(c) end
    local nul = engine.null
    local f = { young_h = nul, daly_h = nul, young_daly_mr_h = nul, ratio_to_young = nul,
                overhead = nul, optimal_overhead = nul, overhead_excess = nul, cadence = nul }
    if M and W > 0 then
      local k = REL.checkpoint(W, M, R, C)
      for key, v in pairs(k) do f[key] = v end
      f.cadence = REL.cadence(k.ratio_to_young)
    elseif M then
      f.young_h, f.daly_h, f.young_daly_mr_h = 0.0, 0.0, 0.0
      f.overhead = W / C + C / (2 * M)
      f.optimal_overhead = math.sqrt((2 * W) / M)
    end
    local findings = engine.array()
    if args.format == "json" then
      out:json(engine.object("pack", "reliability", "pair", args.pair, "write_h", W,
        "interval_h", C, "mtbf_h", M or nul, "reload_h", R, "young_h", f.young_h,
        "daly_h", f.daly_h, "young_daly_mr_h", f.young_daly_mr_h,
        "ratio_to_young", f.ratio_to_young, "overhead", f.overhead,
        "optimal_overhead", f.optimal_overhead, "overhead_excess", f.overhead_excess,
        "cadence", f.cadence, "findings", findings))
    else
      local function h(x) return x == nul and "n/a" or ("%.4f"):format(x) end
      out:write(("%s pair: write %s h, interval %s h, reload %s h\n"):format(args.pair, h(W),
                  h(C), h(R))
        .. ("MTBF              %s h\n"):format(M and h(M) or "n/a (no failures)")
        .. ("young_h           %s h\n"):format(h(f.young_h))
        .. ("daly_h            %s h\n"):format(h(f.daly_h))
        .. ("young_daly_mr_h   %s h\n"):format(h(f.young_daly_mr_h))
        .. ("ratio_to_young    %s\n"):format(h(f.ratio_to_young))
        .. ("overhead          %s\n"):format(h(f.overhead))
        .. ("optimal_overhead  %s\n"):format(h(f.optimal_overhead))
        .. ("overhead_excess   %s\n"):format(h(f.overhead_excess))
        .. ("cadence           %s\n"):format(f.cadence == nul and "n/a" or f.cadence))
    end
    return finish(args, out, findings)
  end),
}

-- ---- legal-loss (4.6) -------------------------------------------------------------------------

prog:verb {
  name = "legal-loss",
  summary = "elastic legal-shape loss for given down-node counts",
  options = { { "--granularity", type = "int", default = 8, min = 1, metavar = "G",
                help = "nodes per data-parallel replica (default 8)" },
              STRICT_OPT, format_opt() },
  operands = { name = "ITEM", min = 1, max = 100000 },
  run = guarded("legal-loss", function(args, out)
    local rows, text = engine.array(), {}
    for i, item in ipairs(args.operands) do
      local dtext, gtext = item:match("^([^:]*):(.*)$")
      dtext = dtext or item
      local d, g = pyint(dtext), gtext and pyint(gtext) or args.granularity
      if d == nil or d < 0 or d > 1e15 then
        usage("ITEM", ("down-node count '%s' must be an integer >= 0"):format(dtext))
      end
      if g == nil or g < 1 or g > 1e15 then
        usage("ITEM", ("granularity '%s' of '%s' must be an integer >= 1"):format(gtext, item))
      end
      local loss = math.tointeger(models.reliability.legal_loss(d, g))
      rows[i] = engine.object("down", d, "granularity", g, "loss", loss)
      text[i] = ("%d %d %d\n"):format(d, g, loss)
    end
    local findings = engine.array()
    if args.format == "json" then
      out:json(engine.object("pack", "reliability", "rows", rows, "findings", findings))
    else
      out:write(table.concat(text))
    end
    return finish(args, out, findings)
  end),
}

-- ---- band (4.7) -------------------------------------------------------------------------------

prog:verb {
  name = "band",
  summary = "check ETTR values against the one-sided published band [0.85, 0.90)",
  options = { { "--floor", type = "float", default = 0.85, metavar = "F",
                help = "lowest value in band (default 0.85)" },
              { "--bound", type = "float", default = 0.90, metavar = "B",
                help = "the published bound, excluded (default 0.90)" },
              STRICT_OPT, format_opt() },
  operands = { name = "VALUE", min = 1, max = 100000 },
  run = guarded("band", function(args, out)
    local F, B = args.floor + 0.0, args.bound + 0.0
    if F >= B then
      usage("--floor", ("--floor %s must be below --bound %s"):format(py.repr(F), py.repr(B)))
    end
    local rows, text, all = engine.array(), {}, true
    for i, item in ipairs(args.operands) do
      local x = pyfloat(item)
      if x == nil or x ~= x or x == math.huge or x == -math.huge then
        usage("VALUE", ("value '%s' must be a finite number"):format(item))
      end
      local inside = F <= x and x < B
      all = all and inside
      rows[i] = engine.object("value", x, "in_band", inside)
      text[i] = ("%s %s\n"):format(py.repr(x), inside and "in" or "out")
    end
    local findings = engine.array()
    if args.format == "json" then
      out:json(engine.object("pack", "reliability", "floor", F, "bound", B, "rows", rows,
                             "all_in_band", all, "findings", findings))
    else
      out:write(table.concat(text))
    end
    return finish(args, out, findings, all and 0 or 1)
  end),
}

-- ---- validate (4.8) ---------------------------------------------------------------------------

local function ref_text(refs)
  if not refs or #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do
    parts[i] = math.type(r) == "integer" and ("[" .. r .. "]") or tostring(r)
  end
  return table.concat(parts)
end

prog:verb {
  name = "validate",
  summary = "the validation registry (section 8)",
  options = { { "--mutate", type = "choice", choices = REL.MUTATIONS, metavar = "NAME",
                help = "run under a mutation that must turn its points red" },
              STRICT_OPT, format_opt() },
  run = guarded("validate", function(args, out)
    local res = engine.validate { pack = "reliability", mutation = args.mutate }
    local points, declined = engine.array(), engine.array()
    local counts = { points = 0, passed = 0, failed = 0, calibrated = 0, emergent = 0,
                     sanity = 0 }
    local lines = { ("validation registry of reliability%s\n")
                    :format(args.mutate and (" under mutation " .. args.mutate) or "") }
    for i, p in ipairs(res.points) do
      points[i] = engine.object("id", p.id, "kind", p.kind, "ref", ref_text(p.refs),
        "model", "-", "expected", p.expected, "tolerance", p.tolerance,
        "actual", p.actual or engine.null, "ok", p.ok, "detail", p.detail or engine.object())
      counts.points = counts.points + 1
      counts[p.ok and "passed" or "failed"] = counts[p.ok and "passed" or "failed"] + 1
      counts[p.kind] = counts[p.kind] + 1
      lines[#lines + 1] = ("%-46s %-10s %-10s expected %10.4f actual %10s tol %-6s %s\n")
        :format(p.id, p.kind, ref_text(p.refs), p.expected,
                p.actual and ("%.4f"):format(p.actual) or "none", py.repr(p.tolerance),
                p.ok and "PASS" or "FAIL")
    end
    lines[#lines + 1] = "declined anchors:\n"
    for i, d in ipairs(res.declined) do
      declined[i] = engine.object("anchor", d.what, "reason", d.why)
      lines[#lines + 1] = ("  %s: %s\n"):format(d.what, d.why)
    end
    lines[#lines + 1] = ("%d points: %d passed, %d failed (%d calibrated, %d emergent, "
                         .. "%d sanity)\n"):format(counts.points, counts.passed, counts.failed,
                         counts.calibrated, counts.emergent, counts.sanity)
    local ok = counts.failed == 0
    if args.format == "json" then
      out:json(engine.object("pack", "reliability", "ok", ok,
        "mutation", args.mutate or engine.null, "points", points, "declined", declined,
        "summary", engine.object("points", counts.points, "passed", counts.passed,
          "failed", counts.failed, "calibrated", counts.calibrated,
          "emergent", counts.emergent, "sanity", counts.sanity)))
    else
      out:write(table.concat(lines))
    end
    return ok and 0 or 1
  end),
}

-- ---- lint (4.9) -------------------------------------------------------------------------------

prog:verb {
  name = "lint",
  summary = "rules over training-recovery-plan documents (section 7)",
  lint = true,
  options = {
    { "--strict", type = "flag", help = "run strict rules (the default)" },
    { "--no-strict", type = "flag", help = "do not run strict rules" },
    format_opt(LINT_FORMATS),
  },
  operands = { name = "PATH", min = 1 },
  run = function(args)
    return engine.lint { operands = args.operands, pack = "reliability",
                         strict = verbs.strict_choice(args), format = args.format }
  end,
}
