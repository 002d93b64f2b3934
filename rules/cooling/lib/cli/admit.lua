-- pue-ladder admit (spec/cooling.md 3.5): ADMIT, STAGGER or DENY for a job
-- start, from flags (one row per feasible rung) or from a cooling-plan
-- document (--plan).
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local common = require "cli.common"
local PLAN = require "plan"

local pad = common.pad
local lpad = common.lpad
local null_if_nil = common.null_if_nil
local positive = common.positive
local finite_or_null = require("json_values").finite_or_null
local array_of = COOL.array_of
local INT_MAX_EXACT = 9007199254740992 -- 2^53
local MAX_HALLS = 55199                 -- hall ids stay below the surrogate block

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
    local reasons = PLAN.reasons(plan, res)
    local ride = res.halls[1].ride_through_s
    admitted = admitted or res.verdict == "ADMIT"
    local steps, rj = engine.array(), engine.array()
    for k, s in ipairs(res.steps) do
      steps[k] = engine.object("hall", s.hall, "step_mw", s.step_mw)
    end
    for k, r in ipairs(reasons) do rj[k] = reason_json(r) end
    rungs[i] = engine.object("rung", rung, "pue", res.halls[1].pue,
                             "ride_through_s", finite_or_null(ride),
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
  if not at then at, key = PLAN.node(doc, f) end
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
                             "pue", o.pue, "ride_through_s", finite_or_null(o.ride_through_s),
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
  local ev = PLAN.evaluate(doc)
  if ev.problems then raise_problems(file, ev.problems) end
  ev.job = doc.start.job or "job"
  ev.active = args.strict and ev.strict or {}
  local strict_error = false
  for _, f in ipairs(ev.active) do strict_error = strict_error or f.severity == "error" end
  if args.format == "json" then out:json(plan_json(file, doc, ev))
  else out:write(plan_text(file, doc, ev)) end
  return (ev.result.verdict == "ADMIT" and not strict_error) and 0 or 1
end

return function(args, out)
  if args.plan then return admit_plan(args, out) end
  return admit_flags(args, out)
end
