-- pue-ladder: the published tool's six verbs (ladder, gate, capacity, fleet,
-- admit, validate) with its options, defaults, exit codes, verdicts and
-- printed figures (spec/cooling.md 2-3), plus our options (--format,
-- --rung-to, --climate and --water-mode on capacity, fleet years and
-- sites, --plan and --strict on admit). Sentences are ours; the figures
-- keep the reference's formats in text and print in full in JSON. Every
-- value is checked before the first byte of the result is assembled.
local py = require "py"

local array_of = COOL.array_of
local INT_MAX_EXACT = 9007199254740992 -- 2^53
local MAX_FEED_MW = 1e12
local MAX_HALLS = 55199                 -- hall ids stay below the surrogate block

local prog = engine.program {
  name    = "pue-ladder",
  summary = "cooling ladder, capacity and admission gates",
  help    = "Checks whether a cooling rung carries a rack density (gate), what a PUE change "
            .. "frees behind a fixed utility feed (capacity), whether a job start may light "
            .. "racks now (admit), and shows the ladder, a synthetic fleet and the validation "
            .. "registry. gate and admit exit 1 when the start is refused.",
  syntax  = { abbrev = "unique-prefix", negative_numbers = true, help_anywhere = true },
}

-- ---- options ---------------------------------------------------------------------

local function format_opt()
  return { "--format", type = "choice", choices = { "text", "json" }, default = "text",
           group = "added", metavar = "FORMAT", help = "output format: text or json" }
end

local function climate_opt(group, dflt)
  return { "--climate", type = "choice", choices = { "cold", "hot-dry", "hot-humid", "temperate" },
           group = group, metavar = "NAME",
           help = "climate archetype (default " .. dflt .. ")" }
end

local function mode_opt()
  return { "--water-mode", type = "choice", choices = COOL.MODES, group = "added",
           metavar = "NAME", help = "heat-rejection mode (default evaporative)" }
end

local function positive(args, key, option, what)
  if args[key] <= 0 then
    engine.usage(option, ("%s %s: %s must be > 0"):format(option, engine.repr(args[key]), what))
  end
end

-- ---- text helpers -------------------------------------------------------------------

local pad, lpad = py.ljust, py.rjust

-- Python "{:,.0f}".
local function grouped_fixed(x)
  return py.grouped_fixed(x, 0)
end

-- Python "{:+.2f}" (the sign kept on -0.00).
local function signed2(x)
  return ("%+.2f"):format(x)
end

local null_if_nil = require("json_values").null

-- ---- ladder ----------------------------------------------------------------------------

local function pue_grid(r, ladder)
  local grid = engine.object()
  for _, c in ipairs(ladder.climates) do
    local row = engine.object()
    for _, m in ipairs(ladder.water_modes) do row[m.name] = r.pue[c.name][m.name] end
    grid[c.name] = row
  end
  return grid
end

local RUNG_KEYS = { "index", "name", "max_kw_per_rack", "pue_floor", "mech_penalty",
                    "economizer_capable", "heat_capture", "thermal_buffer_kj",
                    "retrofit_usd_per_kw", "pue_cold", "pue_hot_humid", "ride_through_at_max_s" }

local function ladder_json(ladder)
  local rungs = engine.array()
  for i, r in ipairs(ladder.rungs) do
    local o = engine.object()
    for _, k in ipairs(RUNG_KEYS) do o[k] = r[k] end
    o.pue = pue_grid(r, ladder)
    rungs[i] = o
  end
  local climates, modes, fc = engine.array(), engine.array(), engine.object()
  for i, c in ipairs(ladder.climates) do
    climates[i] = engine.object("name", c.name, "free_cooling", c.free_cooling)
    local row = engine.object()
    for _, m in ipairs(ladder.water_modes) do row[m.name] = ladder.free_cooling[c.name][m.name] end
    fc[c.name] = row
  end
  for i, m in ipairs(ladder.water_modes) do
    modes[i] = engine.object("name", m.name, "free_cooling_shift", m.free_cooling_shift,
                             "wue_l_per_kwh", m.wue_l_per_kwh)
  end
  return engine.object("rungs", rungs, "climates", climates, "water_modes", modes,
                       "free_cooling", fc, "thinnest_rung", ladder.thinnest_rung)
end

local function ladder_text(ladder)
  local lines = {
    pad("rung", 16) .. lpad("kW/rack", 8) .. lpad("PUE cold", 10) .. lpad("PUE hot-humid", 15)
      .. lpad("to liquid", 11) .. lpad("ride-through", 14) .. lpad("retrofit USD/kW", 17),
  }
  for _, r in ipairs(ladder.rungs) do
    lines[#lines + 1] = pad(r.name, 16) .. lpad(py.fixed(r.max_kw_per_rack, 0), 8)
      .. lpad(py.fixed(r.pue_cold, 3), 10) .. lpad(py.fixed(r.pue_hot_humid, 3), 15)
      .. lpad(py.fixed(r.heat_capture * 100, 0) .. "%", 11)
      .. lpad(py.fixed(r.ride_through_at_max_s, 0) .. " s", 14)
      .. lpad(grouped_fixed(r.retrofit_usd_per_kw), 17)
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "PUE = floor + (1 - free-cooling fraction of the year) x mechanical penalty; "
    .. "the two PUE columns assume evaporative heat rejection. Ride-through is the thermal "
    .. "buffer divided by the rung's own ceiling."
  return table.concat(lines, "\n") .. "\n"
end

prog:verb {
  name = "ladder",
  summary = "the five cooling rungs: ceilings, PUE, heat capture, ride-through, retrofit price",
  options = { format_opt() },
  run = function(args, out)
    local ladder = COOL.ladder()
    if args.format == "json" then
      out:json(ladder_json(ladder))
    else
      out:write(ladder_text(ladder))
    end
    return 0
  end,
}

-- ---- gate ------------------------------------------------------------------------------

local function contains(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

prog:verb {
  name = "gate",
  summary = "block a rack density no cooling rung (or not the named rung) can carry",
  options = {
    { "--density", type = "float", required = true, metavar = "KW",
      help = "rack density, kW per rack (> 0)" },
    { "--rung", type = "choice", choices = COOL.RUNGS, metavar = "NAME",
      help = "the rung the racks would sit on" },
    format_opt(),
  },
  run = function(args, out)
    positive(args, "density", "--density", "the rack density")
    local kw = args.density
    local feasible = COOL.feasible(kw)
    local ceiling, ok
    if args.rung then
      for _, r in ipairs(COOL.ladder().rungs) do
        if r.name == args.rung then ceiling = r.max_kw_per_rack end
      end
      ok = contains(feasible, args.rung)
    else
      ok = #feasible > 0
    end
    if args.format == "json" then
      out:json(engine.object("density_kw", kw, "rung", null_if_nil(args.rung),
                             "rung_max_kw", null_if_nil(ceiling), "feasible", array_of(feasible),
                             "verdict", ok and "OK" or "BLOCKED",
                             "rule", ok and engine.null or "cooling.rung-ceiling"))
    else
      local d = engine.repr(kw)
      if args.rung and ok then
        out:write(("OK: %s cools %s kW per rack (its ceiling is %s kW)\n")
                  :format(args.rung, d, py.fixed(ceiling, 0)))
      elseif args.rung then
        out:write(("BLOCKED [cooling.rung-ceiling]: %s tops out at %s kW per rack, below %s kW; "
                   .. "%s\n")
                  :format(args.rung, py.fixed(ceiling, 0), d, COOL.list_text(feasible)))
      elseif ok then
        out:write(("OK: %s kW per rack can be cooled by %s\n")
                  :format(d, table.concat(feasible, ", ")))
      else
        out:write(("BLOCKED [cooling.rung-ceiling]: no rung on the ladder cools %s kW per rack\n")
                  :format(d))
      end
    end
    return ok and 0 or 1
  end,
}

-- ---- capacity ----------------------------------------------------------------------------

prog:verb {
  name = "capacity",
  summary = "IT megawatts a PUE change frees behind a fixed utility feed, as H100 equivalents",
  options = {
    { "--feed-mw", type = "float", default = 10.0, metavar = "MW",
      help = "utility feed, MW of facility power (default 10.0)" },
    { "--pue-from", type = "float", required = true, metavar = "PUE", help = "PUE today (>= 1.0)" },
    { "--pue-to", type = "float", metavar = "PUE", help = "PUE after the change (>= 1.0)" },
    { "--rung-to", type = "choice", choices = COOL.RUNGS, group = "added", metavar = "NAME",
      help = "move to this rung instead of --pue-to, with a retrofit costing" },
    climate_opt("added", "temperate; with --rung-to"),
    mode_opt(),
    format_opt(),
  },
  run = function(args, out)
    if args.rung_to and args.pue_to then
      engine.usage("--rung-to", "give --rung-to or --pue-to, not both")
    end
    if not args.rung_to and not args.pue_to then
      engine.usage("--pue-to", "give --pue-to, or --rung-to to move to a rung")
    end
    if not args.rung_to and (args.climate or args.water_mode) then
      engine.usage(args.climate and "--climate" or "--water-mode",
                   "--climate and --water-mode apply only with --rung-to")
    end
    local feed = args.feed_mw
    if feed <= 0 then
      engine.usage("--feed-mw", ("--feed-mw %s: the feed must be > 0 MW"):format(engine.repr(feed)))
    end
    if feed > MAX_FEED_MW then
      engine.usage("--feed-mw", ("--feed-mw %s: the feed must be at most 1e12 MW")
                   :format(engine.repr(feed)))
    end
    local climate = args.climate or COOL.DEFAULT_CLIMATE
    local mode = args.water_mode or COOL.DEFAULT_MODE
    local to = args.pue_to
    if args.rung_to then to = COOL.pue(args.rung_to, climate, mode) end
    if to < 1.0 then
      engine.usage("--pue-to", ("--pue-to: the destination PUE %s is below 1.0, the least a PUE "
                               .. "can be")
                   :format(engine.repr(to)))
    end
    if args.pue_from < 1.0 then
      engine.usage("--pue-from", ("--pue-from %s: the origin PUE is below 1.0, the least a PUE "
                                 .. "can be")
                   :format(engine.repr(args.pue_from)))
    end
    local it_from = models.cooling.it_mw(feed, args.pue_from)
    local it_to = models.cooling.it_mw(feed, to)
    local freed = models.cooling.freed_mw(feed, args.pue_from, to)
    local h100 = math.floor(models.cooling.h100(freed > 0 and freed or 0.0))
    local retro, cost, per
    if args.rung_to then
      local _
      _, cost, per = COOL.cost_per_freed(feed, args.pue_from, args.rung_to, climate, mode)
      retro = engine.object("rung", args.rung_to, "climate", climate, "water_mode", mode,
                            "cost_usd", cost, "frees_capacity", freed > 0,
                            "cost_per_freed_mw_usd", null_if_nil(per),
                            "new_build_usd_per_mw", COOL.NEW_BUILD_USD_PER_MW)
    end
    if args.format == "json" then
      out:json(engine.object("feed_mw", feed, "pue_from", args.pue_from, "pue_to", to,
                             "it_mw_from", it_from, "it_mw_to", it_to, "freed_mw", freed,
                             "h100_equivalents", h100, "retrofit", null_if_nil(retro)))
      return 0
    end
    local lines = {
      ("a %s MW feed moving from PUE %s to PUE %s frees %s MW of IT power, about %s H100 GPUs [11]")
        :format(py.fixed(feed, 1), engine.repr(args.pue_from), engine.repr(to), signed2(freed),
                py.thousands(h100)),
      "this is derived IT-power headroom only: deployment and interconnection lead times "
        .. "are not modelled",
    }
    if args.rung_to then
      lines[#lines + 1] = ("destination: %s in a %s climate with %s heat rejection")
                          :format(args.rung_to, climate, mode)
      lines[#lines + 1] = ("retrofit cost: %s USD for all IT capacity cooled at the destination")
                          :format(grouped_fixed(cost))
      if per then
        lines[#lines + 1] = ("cost per freed MW: %s USD/MW"):format(grouped_fixed(per))
      else
        lines[#lines + 1] = "the move frees no capacity, so there is no cost per freed MW"
      end
      lines[#lines + 1] = ("for comparison, a new build costs about %s USD per MW [14]")
                          :format(grouped_fixed(COOL.NEW_BUILD_USD_PER_MW))
    end
    out:write(table.concat(lines, "\n") .. "\n")
    return 0
  end,
}

-- ---- fleet --------------------------------------------------------------------------------

-- A --seed as JSON: an integer when it fits 64 bits, else its canonical
-- decimal text written as a bare number (spec 3.4).
local function seed_json(seed)
  if type(seed) == "number" then return seed, false end
  if #seed:gsub("^%-", "") <= 18 then return math.floor(tonumber(seed)), false end
  return "@@bigint:" .. seed .. "@@", true
end

local function emit(out, verb, obj, big)
  if not big then return out:json(obj) end
  local text = engine.json(obj):gsub('"@@bigint:(%-?%d+)@@"', "%1")
  out:write(('{"tool": "infragate", "version": %s, "verb": %s, %s\n')
            :format(engine.json(engine.version), engine.json(verb), text:sub(2)))
end

prog:verb {
  name = "fleet",
  summary = "synthetic fleet: the survey average stays high while the energy-weighted PUE falls",
  options = {
    { "--seed", type = "bigint", default = 7, metavar = "INT",
      help = "seed of CPython's generator, any integer (default 7)" },
    { "--start-year", type = "int", default = 2014, group = "added", metavar = "YEAR",
      help = "first year, 1900..2200 (default 2014)" },
    { "--end-year", type = "int", default = 2024, group = "added", metavar = "YEAR",
      help = "last year, at most 49 after the first (default 2024)" },
    { "--legacy-sites", type = "int", default = 400, min = 1, max = 10000, group = "added",
      metavar = "N", help = "legacy sites at the start, 1..10000 (default 400)" },
    format_opt(),
  },
  run = function(args, out)
    local first, last = args.start_year, args.end_year
    if first < 1900 or first > 2200 then
      engine.usage("--start-year", ("--start-year %d: the first year must be 1900..2200")
                   :format(first))
    end
    if last < first or last > 2200 then
      engine.usage("--end-year", ("--end-year %d: the last year must be %d..2200")
                   :format(last, first))
    end
    if last - first > 49 then
      engine.usage("--end-year", ("--end-year %d: at most 50 years from --start-year %d, got %d")
                   :format(last, first, last - first + 1))
    end
    local seed = args.seed
    local years = COOL.simulate(seed, first, last, args.legacy_sites)
    if args.format == "json" then
      local list = engine.array()
      for i, y in ipairs(years) do
        list[i] = engine.object("year", y.year, "survey_avg", y.survey_avg,
                                "energy_weighted", y.energy_weighted, "gap", y.gap,
                                "sites", y.sites, "surveyed_sites", y.surveyed_sites,
                                "it_mw", y.it_mw)
      end
      local s, big = seed_json(seed)
      emit(out, "fleet", engine.object("seed", s, "start_year", first, "end_year", last,
                                       "legacy_sites", args.legacy_sites, "years", list), big)
      return 0
    end
    local lines = { pad("year", 6) .. lpad("survey avg", 11) .. lpad("energy-weighted", 17) }
    for _, y in ipairs(years) do
      lines[#lines + 1] = pad(tostring(y.year), 6) .. lpad(py.fixed(y.survey_avg, 3), 11)
                          .. lpad(py.fixed(y.energy_weighted, 3), 17)
    end
    lines[#lines + 1] = ""
    lines[#lines + 1] = "The survey average counts every site alike and stays high; the "
      .. "energy-weighted PUE follows the megawatts, which land in new builds, where PUE "
      .. "progress ships [2][3][7]."
    lines[#lines + 1] = ("This is one draw of the synthetic fleet for seed %s; validate reports "
                         .. "means over 24 seeds."):format(tostring(seed))
    out:write(table.concat(lines, "\n") .. "\n")
    return 0
  end,
}

-- ---- admit ---------------------------------------------------------------------------------

local FLAG_DEFAULTS = {
  need_ride_through = 0.0, racks = 10, halls = 1, feed_mw = 8.0, feeder_limit_mw = 40.0,
  feeder_step_mw = 1.5, climate = "temperate", water_mode = "evaporative",
}
local FLAG_ORDER = { "density", "need_ride_through", "racks", "halls", "feed_mw",
                     "feeder_limit_mw", "feeder_step_mw", "climate", "water_mode" }

local function option_name(key) return "--" .. key:gsub("_", "-") end

local function flag_values(args)
  local v = {}
  for _, k in ipairs(FLAG_ORDER) do
    if args[k] == nil then v[k] = FLAG_DEFAULTS[k] else v[k] = args[k] end
  end
  if v.density == nil then engine.usage("--density", "--density is required (or give --plan)") end
  positive(v, "density", "--density", "the rack density")
  if v.need_ride_through < 0 then
    engine.usage("--need-ride-through", ("--need-ride-through %s: the ride-through need must be "
                                         .. ">= 0 s")
                 :format(engine.repr(v.need_ride_through)))
  end
  if v.racks < 1 or v.racks > INT_MAX_EXACT then
    engine.usage("--racks", ("--racks %d: racks per hall must be 1..2^53"):format(v.racks))
  end
  if v.halls < 1 or v.halls > MAX_HALLS then
    engine.usage("--halls", ("--halls %d: halls must be 1..%d"):format(v.halls, MAX_HALLS))
  end
  positive(v, "feed_mw", "--feed-mw", "the hall feed")
  positive(v, "feeder_limit_mw", "--feeder-limit-mw", "the feeder limit")
  positive(v, "feeder_step_mw", "--feeder-step-mw", "the feeder step")
  return v
end

-- The plan of the flag form for one rung (spec 3.5).
local function flag_plan(v, rung)
  local halls, racks = {}, {}
  for i = 0, v.halls - 1 do
    local id = "hall-" .. utf8.char(0x61 + i)
    halls[#halls + 1] = { id = id, feeder = "F1", rung = rung, kw_per_rack = v.density,
                          racks_running = 0, feed_mw = v.feed_mw, climate = v.climate,
                          water_mode = v.water_mode }
    racks[#racks + 1] = { hall = id, racks = v.racks }
  end
  return { halls = halls,
           feeders = { { id = "F1", limit_mw = v.feeder_limit_mw,
                         max_step_mw = v.feeder_step_mw } },
           running_mw = {}, start = { racks = racks, need_s = v.need_ride_through } }
end

local function reason_json(r, loc)
  local o = engine.object("rule", r.rule, "severity", r.severity, "hall", null_if_nil(r.hall),
                          "feeder", null_if_nil(r.feeder), "figures", r.figures,
                          "message", r.message)
  if loc then
    o.line = null_if_nil(loc.line)
    o.column = null_if_nil(loc.column)
    o.path = loc.path
  end
  return o
end

local function admit_flags(args, out)
  local v = flag_values(args)
  local feasible = COOL.feasible(v.density)
  local rungs, text, admitted = engine.array(), {}, false
  text[1] = ("admitting %d racks of %s kW in each of %d hall(s), ride-through need %s s")
            :format(v.racks, engine.repr(v.density), v.halls, engine.repr(v.need_ride_through))
  for i, rung in ipairs(feasible) do
    local plan = flag_plan(v, rung)
    local res = COOL.admit(plan)
    local reasons = COOL.reasons(plan, res)
    local ride = res.halls[1].ride_through_s
    admitted = admitted or res.verdict == "ADMIT"
    local steps, rj = engine.array(), engine.array()
    for k, s in ipairs(res.steps) do
      steps[k] = engine.object("hall", s.hall, "step_mw", s.step_mw)
    end
    for k, r in ipairs(reasons) do rj[k] = reason_json(r) end
    rungs[i] = engine.object("rung", rung, "pue", res.halls[1].pue, "ride_through_s", ride,
                             "total_step_mw", res.total_step_mw, "verdict", res.verdict,
                             "admitted", res.verdict == "ADMIT", "steps", steps,
                             "stagger_order", array_of(res.stagger_order), "reasons", rj)
    text[#text + 1] = ("  %s %s %s  %s"):format(pad(rung, 15), lpad(py.fixed(ride, 0) .. " s", 8),
                                                lpad(py.fixed(res.total_step_mw, 2) .. " MW", 11),
                                                res.verdict)
    for _, r in ipairs(reasons) do text[#text + 1] = ("      [%s] %s"):format(r.rule, r.message) end
    if res.verdict == "STAGGER" then
      text[#text + 1] = "      stagger order: " .. table.concat(res.stagger_order, " then ")
    end
  end
  if #feasible == 0 then
    text[#text + 1] = ("no rung on the ladder cools %s kW per rack"):format(engine.repr(v.density))
  else
    text[#text + 1] = "Ride-through and hall headroom belong to the destination hall; only the "
      .. "feeder step can be sequenced. Exit 1 means no rung admits the start as submitted."
  end
  if args.format == "json" then
    out:json(engine.object("mode", "flags", "density_kw", v.density,
                           "need_ride_through_s", v.need_ride_through, "racks", v.racks,
                           "halls", v.halls, "feed_mw", v.feed_mw,
                           "feeder_limit_mw", v.feeder_limit_mw,
                           "feeder_step_mw", v.feeder_step_mw, "climate", v.climate,
                           "water_mode", v.water_mode, "feasible", array_of(feasible),
                           "admitted", admitted, "rungs", rungs))
  else
    out:write(table.concat(text, "\n") .. "\n")
  end
  return admitted and 0 or 1
end

-- Raise the reference problems of a plan as input errors (exit 2).
local function raise_problems(file, problems)
  local fs = {}
  for i, p in ipairs(problems) do
    local w = engine.where(p.at, p.key)
    fs[i] = { rule = p.rule, severity = "error", message = p.message, file = file,
              line = w.line, column = w.column, path = w.path }
  end
  engine.input_error(fs)
end

local function located(doc, f)
  local at, key = f.at, f.key
  if not at then at, key = COOL.node(doc, f) end
  return engine.where(at, key)
end

local function plan_json(file, doc, ev)
  local plan, res = ev.plan, ev.result
  local reasons, findings, seen, rules = engine.array(), engine.array(), {}, {}
  local errors, warnings = 0, 0
  local function count(f)
    if not seen[f.rule] then seen[f.rule] = true; rules[#rules + 1] = f.rule end
    if f.severity == "error" then errors = errors + 1 else warnings = warnings + 1 end
  end
  for i, r in ipairs(ev.reasons) do
    reasons[i] = reason_json(r, located(doc, r))
    count(r)
  end
  for i, f in ipairs(ev.active) do
    findings[i] = reason_json(f, located(doc, f))
    count(f)
  end
  table.sort(rules)
  local steps = engine.array()
  for i, s in ipairs(res.steps) do
    steps[i] = engine.object("hall", s.hall, "feeder", s.feeder, "racks", s.racks,
                             "step_mw", s.step_mw)
  end
  local halls = engine.array()
  for i, h in ipairs(plan.halls) do
    local o = res.halls[i]
    halls[i] = engine.object("id", h.id, "feeder", h.feeder, "rung", h.rung,
                             "kw_per_rack", h.kw_per_rack, "racks_running", h.racks_running,
                             "feed_mw", h.feed_mw, "climate", h.climate, "water_mode", h.water_mode,
                             "pue", o.pue, "ride_through_s", null_if_nil(o.ride_through_s),
                             "running_mw", o.running_mw, "headroom_mw", o.headroom_mw,
                             "start_racks", o.start_racks)
  end
  local feeders = engine.array()
  for i, f in ipairs(plan.feeders) do
    local o = res.feeders[i]
    feeders[i] = engine.object("id", f.id, "limit_mw", f.limit_mw + 0.0,
                               "max_step_mw", f.max_step_mw + 0.0, "tenant_mw", o.tenant_mw,
                               "carried_mw", o.carried_mw, "start_halls", array_of(o.start_halls),
                               "start_step_mw", o.start_step_mw,
                               "outcome", null_if_nil(o.outcome), "checked", o.checked)
  end
  return engine.object("mode", "plan", "file", file, "job", ev.job, "verdict", res.verdict,
                       "admitted", res.verdict == "ADMIT", "total_step_mw", res.total_step_mw,
                       "steps", steps, "stagger_order", array_of(res.stagger_order),
                       "reasons", reasons, "findings", findings, "rules", array_of(rules),
                       "halls", halls, "feeders", feeders,
                       "summary", engine.object("errors", errors, "warnings", warnings))
end

local function plan_text(file, doc, ev)
  local res = ev.result
  local head = ("%s: job '%s': %s"):format(file, ev.job, res.verdict)
  if res.verdict == "ADMIT" then
    head = head .. (" (the start steps %s MW)"):format(py.fixed(res.total_step_mw, 2))
  end
  local lines = { head }
  local function diag(f)
    local w = located(doc, f)
    lines[#lines + 1] = ("%s:%d:%d: %s[%s]: %s"):format(file, w.line, w.column, f.severity,
                                                       f.rule, f.message)
  end
  for _, r in ipairs(ev.reasons) do diag(r) end
  for _, f in ipairs(ev.active) do diag(f) end
  if res.verdict == "STAGGER" then
    lines[#lines + 1] = "stagger order: " .. table.concat(res.stagger_order, " then ")
  end
  return table.concat(lines, "\n") .. "\n"
end

local function admit_plan(args, out)
  for _, k in ipairs(FLAG_ORDER) do
    if args[k] ~= nil then
      engine.usage(option_name(k), option_name(k) .. " does not apply with --plan: the plan "
                   .. "states the halls, feeders and start")
    end
  end
  local file = args.plan
  -- Every schema problem, not only the first (spec 8 item 6).
  local doc, findings = engine.load(file, { kind = "cooling-plan", collect = true })
  if findings and #findings > 0 then
    for _, f in ipairs(findings) do f.file = file end
    engine.input_error(findings)
  end
  local ev = COOL.evaluate(doc)
  if ev.problems then raise_problems(file, ev.problems) end
  ev.job = doc.start.job or "job"
  ev.active = args.strict and ev.strict or {}
  local strict_error = false
  for _, f in ipairs(ev.active) do strict_error = strict_error or f.severity == "error" end
  if args.format == "json" then out:json(plan_json(file, doc, ev))
  else out:write(plan_text(file, doc, ev)) end
  return (ev.result.verdict == "ADMIT" and not strict_error) and 0 or 1
end

prog:verb {
  name = "admit",
  summary = "may a job start light racks now: ADMIT, STAGGER or DENY per feasible rung or plan",
  options = {
    { "--density", type = "float", metavar = "KW", help = "rack density, kW per rack (required "
      .. "without --plan)" },
    { "--need-ride-through", type = "float", metavar = "S",
      help = "seconds of total cooling loss the job must survive (default 0.0)" },
    { "--racks", type = "int", metavar = "N", help = "racks lit per hall (default 10)" },
    { "--halls", type = "int", metavar = "N", help = "identical halls on one feeder (default 1)" },
    { "--feed-mw", type = "float", metavar = "MW", help = "utility feed per hall (default 8.0)" },
    { "--feeder-limit-mw", type = "float", metavar = "MW",
      help = "the feeder's steady ceiling (default 40.0)" },
    { "--feeder-step-mw", type = "float", metavar = "MW",
      help = "the feeder's largest load step (default 1.5)" },
    climate_opt("reference", "temperate"),
    mode_opt(),
    { "--plan", type = "path", group = "added", metavar = "FILE",
      help = "admit the start of a cooling-plan document ('-' reads stdin)" },
    { "--strict", type = "flag", group = "added",
      help = "with --plan, also run the strict rules" },
    format_opt(),
  },
  run = function(args, out)
    if args.plan then return admit_plan(args, out) end
    return admit_flags(args, out)
  end,
}

-- ---- validate --------------------------------------------------------------------------------

local function ref_text(refs)
  if #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do parts[i] = "[" .. tostring(r) .. "]" end
  return table.concat(parts)
end

prog:verb {
  name = "validate",
  summary = "the validation registry: calibrated, emergent and sanity points, declined anchors",
  options = { format_opt() },
  run = function(args, out)
    local entry = engine.validate { pack = "cooling" }
    local passed = 0
    for _, p in ipairs(entry.points) do if p.ok then passed = passed + 1 end end
    if args.format == "json" then
      local points, declined = engine.array(), engine.array()
      for i, p in ipairs(entry.points) do
        points[i] = engine.object("name", p.id, "kind", p.kind, "ref", ref_text(p.refs),
                                  "expected", p.expected + 0.0, "tolerance", p.tolerance + 0.0,
                                  "actual", p.actual and p.actual + 0.0 or engine.null,
                                  "ok", p.ok, "source", null_if_nil(p.source),
                                  "note", null_if_nil(p.note))
      end
      for i, d in ipairs(entry.declined) do
        declined[i] = engine.object("what", d.what, "why", d.why)
      end
      out:json(engine.object("ok", entry.ok, "seeds", entry.settings.seeds, "points", points,
                             "declined", declined,
                             "summary", engine.object("points", #entry.points, "passed", passed,
                                                      "failed", #entry.points - passed)))
      return entry.ok and 0 or 1
    end
    local lines = { pad("point", 50) .. pad("kind", 12) .. pad("ref", 11) .. lpad("expected", 9)
                    .. lpad("actual", 9) .. lpad("tol", 7) .. "  result" }
    for _, p in ipairs(entry.points) do
      lines[#lines + 1] = pad(p.id, 50) .. pad(p.kind, 12) .. pad(ref_text(p.refs), 11)
        .. lpad(py.fixed(p.expected, 3), 9)
        .. lpad(p.actual and py.fixed(p.actual, 3) or "-", 9)
        .. lpad(py.fixed(p.tolerance, 3), 7) .. "  " .. (p.ok and "PASS" or "FAIL")
    end
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Declined anchors (not validated, and why):"
    for i, d in ipairs(entry.declined) do
      lines[#lines + 1] = ("  %d. %s: %s"):format(i, d.what, d.why)
    end
    lines[#lines + 1] = ""
    lines[#lines + 1] = (entry.ok and ("all %d points reproduced"):format(#entry.points)
                         or ("%d of %d points failed"):format(#entry.points - passed,
                                                              #entry.points))
      .. "; calibrated points compare constants tuned to published figures, emergent points "
      .. "test behaviour nothing was tuned to produce, sanity points test the model's own "
      .. "machinery"
    out:write(table.concat(lines, "\n") .. "\n")
    return entry.ok and 0 or 1
  end,
}
