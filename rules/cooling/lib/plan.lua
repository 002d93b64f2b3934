-- A cooling-plan document read into the model's plan, and the admission's
-- reasons worded (ours), with the figures of spec/cooling.md 6.3 and the
-- nodes they point at (6.2). The pack's rules and `admit --plan` require
-- it; a run that reads no plan never compiles it.
local py = require "py"

local PLAN = {}
local list_text, array_of = COOL.list_text, COOL.array_of

-- ---- wording -----------------------------------------------------------------------

-- Two compared figures at distinguishing precision (spec 6.3): 'decimals'
-- first, more (up to 6) while they print equal, then both in repr.
function PLAN.compared(a, b, decimals)
  for d = decimals, 6 do
    local x, y = py.fixed(a, d, true), py.fixed(b, d, true)
    if x ~= y then return x, y end
  end
  return engine.repr(a), engine.repr(b)
end


-- The message of a reason; 'r' carries rule, hall, feeder, the figures of
-- 6.3 and, for hall rules, the hall's rung.
local MESSAGES = {
  ["cooling.rung-ceiling"] = function(r, f)
    return ("hall '%s' runs %s kW per rack on %s, over that rung's ceiling of %s kW; %s")
           :format(r.hall, engine.repr(f.kw_per_rack), r.rung, py.fixed(f.max_kw_per_rack, 0),
                   list_text(f.feasible))
  end,
  ["cooling.ride-through"] = function(r, f)
    local held, need = PLAN.compared(f.held_s, f.need_s, 0)
    return ("hall '%s' (%s at %s kW per rack) rides through %s s of total cooling loss, "
            .. "less than the %s s the job needs"):format(r.hall, r.rung,
           engine.repr(f.kw_per_rack), held, need)
  end,
  ["cooling.hall-headroom"] = function(r, f)
    local step, left = PLAN.compared(f.step_mw, f.headroom_mw, 2)
    return ("hall '%s': the start draws %s MW of facility power but only %s MW of the "
            .. "hall's feed is left"):format(r.hall, step, left)
  end,
  ["cooling.feeder-ceiling"] = function(r, f)
    local total, limit = PLAN.compared(f.carried_mw + f.step_mw, f.limit_mw, 2)
    return ("feeder '%s' already carries %s MW and the start adds %s MW: %s MW is over "
            .. "its %s MW ceiling"):format(r.feeder, py.fixed(f.carried_mw, 2),
           py.fixed(f.step_mw, 2), total, limit)
  end,
  ["cooling.feeder-step"] = function(r, f)
    local step, limit = PLAN.compared(f.step_mw, f.max_step_mw, 2)
    return ("feeder '%s': hall '%s' alone steps %s MW, over the %s MW step limit, so no "
            .. "start order helps (the whole start steps %s MW)"):format(r.feeder, r.hall,
           step, limit, py.fixed(f.feeder_step_mw, 2))
  end,
  ["cooling.stagger"] = function(r, f)
    local step, limit = PLAN.compared(f.step_mw, f.max_step_mw, 2)
    return ("feeder '%s': %d halls together step %s MW, over the %s MW step limit, though "
            .. "each fits alone; light them one after another"):format(r.feeder, f.halls,
           step, limit)
  end,
}

local FIGURE_KEYS = {
  ["cooling.rung-ceiling"] = { "kw_per_rack", "max_kw_per_rack", "feasible" },
  ["cooling.ride-through"] = { "held_s", "need_s", "kw_per_rack" },
  ["cooling.hall-headroom"] = { "step_mw", "headroom_mw" },
  ["cooling.feeder-ceiling"] = { "carried_mw", "step_mw", "limit_mw" },
  ["cooling.feeder-step"] = { "step_mw", "feeder_step_mw", "max_step_mw" },
  ["cooling.stagger"] = { "halls", "step_mw", "max_step_mw" },
}


-- The figures of a model reason as an ordered object.
local function figures_of(raw)
  local f = engine.object()
  for _, k in ipairs(FIGURE_KEYS[raw.rule]) do
    local v = raw[k]
    if k == "feasible" then v = array_of(COOL.feasible(raw.kw_per_rack)) end
    f[k] = v
  end
  return f
end

-- Reasons of one admission in algorithm order: {rule, severity, hall,
-- feeder, hall_index, figures, message}. 'plan' is the model input.
function PLAN.reasons(plan, res)
  local out = {}
  for i, raw in ipairs(res.reasons) do
    local r = { rule = raw.rule, severity = "error", hall = raw.hall, feeder = raw.feeder,
                hall_index = raw.hall_index }
    if raw.hall_index then r.rung = plan.halls[raw.hall_index].rung end
    r.figures = figures_of(raw)
    r.message = MESSAGES[raw.rule](r, r.figures)
    out[i] = r
  end
  return out
end

-- ---- documents -------------------------------------------------------------------

-- The model's plan from a schema-valid cooling-plan view, or nil and the
-- reference problems (unknown halls in start order, then unknown feeders
-- in hall order). Values are read from one plain copy (views cost a C call
-- per access, and plans may hold thousands of halls); positions from the
-- view.
function PLAN.plan_of(doc)
  local d = engine.plain(doc)
  local halls, feeders, tenants, racks, problems = {}, {}, {}, {}, {}
  local feeder_ids, hall_ids = {}, {}
  for id, f in pairs(d.feeders) do
    feeders[#feeders + 1] = { id = id, limit_mw = f.limit_mw + 0.0,
                              max_step_mw = f.max_step_mw + 0.0 }
    feeder_ids[id] = true
  end
  for id, h in pairs(d.halls) do
    hall_ids[id] = true
    halls[#halls + 1] = {
      id = id, feeder = h.feeder, rung = h.rung, kw_per_rack = h.kw_per_rack + 0.0,
      racks_running = h.racks_running or 0, feed_mw = h.feed_mw + 0.0,
      climate = h.climate or COOL.DEFAULT_CLIMATE, water_mode = h.water_mode or COOL.DEFAULT_MODE,
    }
  end
  for id, n in pairs(d.start.racks) do
    if not hall_ids[id] then
      problems[#problems + 1] = {
        rule = "cooling.unknown-hall", hall = id, at = doc.start.racks, key = id,
        message = ("the start lights racks in hall '%s', which is not among the plan's halls")
                  :format(id) }
    end
    racks[#racks + 1] = { hall = id, racks = n }
  end
  for _, h in ipairs(halls) do
    if not feeder_ids[h.feeder] then
      problems[#problems + 1] = {
        rule = "cooling.unknown-feeder", hall = h.id, feeder = h.feeder, at = doc.halls[h.id],
        key = "feeder",
        message = ("hall '%s' draws from feeder '%s', which is not among the plan's feeders")
                  :format(h.id, h.feeder) }
    end
  end
  for id, mw in pairs(d.running_mw or {}) do tenants[#tenants + 1] = { id = id, mw = mw + 0.0 } end
  if #problems > 0 then return nil, problems end
  return { halls = halls, feeders = feeders, running_mw = tenants,
           start = { racks = racks, need_s = (d.start.min_ride_through_s or 0.0) + 0.0 } }
end

-- Where a reason points (spec 6.2): a view and a key.
function PLAN.node(doc, r)
  local rule = r.rule
  if rule == "cooling.rung-ceiling" then return doc.halls[r.hall], "kw_per_rack" end
  if rule == "cooling.ride-through" or rule == "cooling.hall-headroom" then
    return doc.start.racks, r.hall
  end
  if rule == "cooling.feeder-ceiling" then return doc.feeders[r.feeder], "limit_mw" end
  return doc.feeders[r.feeder], "max_step_mw"
end

local OUTCOME_RULE = { ceiling = "cooling.feeder-ceiling", ["alone-step"] = "cooling.feeder-step",
                       stagger = "cooling.stagger" }

-- The strict findings of spec 6.4, in its order; each with at and key.
function PLAN.strict_findings(doc, plan, res)
  local out = {}
  local known = {}
  for _, f in ipairs(plan.feeders) do known[f.id] = true end
  if engine.has(doc, "running_mw") then
    for id, mw in pairs(doc.running_mw) do
      if not known[id] then
        out[#out + 1] = {
          rule = "cooling.strict.unknown-tenant-feeder", severity = "error", feeder = id,
          at = doc.running_mw, key = id, figures = engine.object("running_mw", mw + 0.0),
          message = ("running_mw names '%s', which is not a feeder of the plan: its %s MW of "
                     .. "other tenants' load is ignored by the admission"):format(id,
                    engine.repr(mw + 0.0)) }
      end
    end
  end
  if not engine.has(doc.start, "min_ride_through_s") then
    out[#out + 1] = {
      rule = "cooling.strict.ride-through-unstated", severity = "warning", at = doc, key = "start",
      figures = engine.object(),
      message = "start states no min_ride_through_s, so the need defaults to 0 s and no rung "
                .. "can fail the ride-through check (direct-to-chip holds about 11 s)" }
  end
  if res.verdict == "DENY" then
    local reported, order = {}, {}
    for _, r in ipairs(res.reasons) do
      if r.feeder then reported[r.feeder .. "\0" .. r.rule] = true end
    end
    for i, f in ipairs(res.feeders) do
      local rule = OUTCOME_RULE[f.outcome or ""]
      local id = plan.feeders[i].id
      if rule and not reported[id .. "\0" .. rule] then order[#order + 1] = i end
    end
    table.sort(order, function(a, b) return plan.feeders[a].id < plan.feeders[b].id end)
    for _, i in ipairs(order) do
      local f, fd = res.feeders[i], plan.feeders[i]
      local raw = { rule = OUTCOME_RULE[f.outcome], feeder = fd.id, hall = f.biggest_hall }
      if f.outcome == "ceiling" then
        raw.carried_mw, raw.step_mw, raw.limit_mw = f.carried_mw, f.start_step_mw, fd.limit_mw
      elseif f.outcome == "alone-step" then
        raw.step_mw, raw.feeder_step_mw = f.biggest_mw, f.start_step_mw
        raw.max_step_mw = fd.max_step_mw
      else
        raw.halls, raw.step_mw, raw.max_step_mw = f.start_count, f.start_step_mw, fd.max_step_mw
      end
      local inner = figures_of(raw)
      local figures = engine.object("outcome", f.outcome)
      for _, k in ipairs(FIGURE_KEYS[raw.rule]) do figures[k] = inner[k] end
      out[#out + 1] = {
        rule = "cooling.strict.masked-feeder", severity = "warning", feeder = fd.id,
        at = doc.feeders[fd.id], key = f.outcome == "ceiling" and "limit_mw" or "max_step_mw",
        figures = figures,
        message = ("the DENY hides what feeder '%s' would report (%s): %s")
                  :format(fd.id, f.outcome, MESSAGES[raw.rule](raw, inner)) }
    end
  end
  return out
end

-- Everything a plan document yields: problems (phase 2) or the admission,
-- its reasons and the strict findings. 'plan' and 'problems' may come from
-- an earlier PLAN.plan_of of the same document.
function PLAN.evaluate(doc, plan, problems)
  if not plan and not problems then plan, problems = PLAN.plan_of(doc) end
  if not plan then return { problems = problems } end
  local res = COOL.admit(plan)
  return { plan = plan, result = res, reasons = PLAN.reasons(plan, res),
           strict = PLAN.strict_findings(doc, plan, res) }
end

return PLAN
