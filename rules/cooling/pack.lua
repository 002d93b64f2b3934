-- The cooling pack (spec/cooling.md): the five-rung cooling ladder, the
-- capacity a PUE change frees behind a fixed feed, and the admission of a
-- job start (ADMIT / STAGGER / DENY). Every figure comes from
-- models.cooling (core/models/cooling*.c); this file turns a cooling-plan
-- document into the model's plan (lib/plan.lua, compiled on the first
-- plan a run reads), and registers the rules. commands.lua (the pue-ladder
-- verbs) and validation.lua (the registry's figures) reach the model
-- through the one global COOL.
engine.pack {
  summary   = "cooling ladder, capacity and admission gates",
  help_base = "https://infragate.invalid/rules/cooling/",
}

local M = models.cooling

COOL = {
  -- The mutation switches of spec 7.4 (a validation run sets them; no
  -- document, option or rule can).
  variant = nil,
}

-- The ladder as the model states it: names in table order.
local LADDER = M.ladder()
local function names_of(list)
  local out = {}
  for i, x in ipairs(list) do out[i] = x.name end
  return out
end
COOL.RUNGS = names_of(LADDER.rungs)
COOL.CLIMATES = names_of(LADDER.climates)
COOL.MODES = names_of(LADDER.water_modes)
COOL.DEFAULT_CLIMATE = "temperate"
COOL.DEFAULT_MODE = "evaporative"
COOL.NEW_BUILD_USD_PER_MW = 10000000.0

-- ---- model calls, with the running mutation ----------------------------------

function COOL.ladder() return M.ladder(COOL.variant) end
function COOL.pue(rung, climate, mode) return M.pue(rung, climate, mode, COOL.variant) end
function COOL.feasible(kw) return M.feasible(kw, COOL.variant) end
function COOL.ride_through(rung, kw) return M.ride_through(rung, kw, COOL.variant) end
function COOL.thinnest() return M.thinnest(COOL.variant) end
function COOL.admit(plan) return M.admit(plan, COOL.variant) end
function COOL.simulate(seed, first, last, n)
  return M.simulate(seed, first, last, n, COOL.variant)
end

-- Seeds 0..seeds-1 at once (the validation's sweep), on a few threads.
function COOL.simulate_seeds(seeds, first, last, n)
  return M.simulate_seeds(seeds, first, last, n, COOL.variant)
end
function COOL.cost_per_freed(feed, from, rung, climate, mode)
  return M.cost_per_freed(feed, from, rung, climate, mode, COOL.variant)
end

-- ---- shared by the verbs -------------------------------------------------------

local function list_text(names)
  if #names == 0 then return "no rung on the ladder cools it" end
  return "rungs that can cool it: " .. table.concat(names, ", ")
end
COOL.list_text = list_text

local function array_of(list)
  local a = engine.array()
  for i, v in ipairs(list) do a[i] = v end
  return a
end
COOL.array_of = array_of

-- ---- rules -------------------------------------------------------------------------

local KIND = "cooling-plan"

local function emit(ctx, f)
  local spec = { at = f.at, key = f.key, message = f.message, figures = f.figures }
  if f.severity == "warning" then ctx:warn(spec) else ctx:fail(spec) end
end

-- One reading of the document for all the pack's rules.
local function plan_once(doc, ctx)
  local r = ctx:once("plan", function()
    local plan, problems = require("plan").plan_of(doc)
    return { plan = plan, problems = problems }
  end)
  return r.plan, r.problems
end

local INPUT_RULES = {
  { id = "cooling.unknown-hall",
    summary = "every hall the start lights must be one of the plan's halls",
    fix = "add the hall under halls:, or correct its id in start.racks" },
  { id = "cooling.unknown-feeder",
    summary = "every hall must draw from one of the plan's feeders",
    fix = "add the feeder under feeders:, or correct the hall's feeder id" },
}

for _, spec in ipairs(INPUT_RULES) do
  engine.rule {
    id = spec.id, kind = KIND, severity = "error", stage = "input", summary = spec.summary,
    fix = spec.fix,
    check = function(doc, ctx)
      local _, problems = plan_once(doc, ctx)
      for _, p in ipairs(problems or {}) do
        if p.rule == ctx.rule then ctx:fail{ at = p.at, key = p.key, message = p.message } end
      end
    end,
  }
end

local function evaluation(doc, ctx)
  return ctx:once("admission", function()
    return require("plan").evaluate(doc, plan_once(doc, ctx))
  end)
end

local CHECK_RULES = {
  { id = "cooling.rung-ceiling", severity = "error",
    summary = "a hall's rack density must not exceed its cooling rung's ceiling",
    fix = "move the hall to a rung that carries the density, or lower kw_per_rack" },
  { id = "cooling.ride-through", severity = "error",
    summary = "a start hall's rung must ride through the job's stated cooling-loss need",
    fix = "start on a rung with more thermal buffer per kW, or lower the density" },
  { id = "cooling.hall-headroom", severity = "error",
    summary = "a start must fit the feed left in each of its halls",
    fix = "light fewer racks, or raise the hall's feed" },
  { id = "cooling.feeder-ceiling", severity = "error",
    summary = "a start must not push a feeder over its steady ceiling",
    fix = "move halls to another feeder, or wait for load to come off this one" },
  { id = "cooling.feeder-step", severity = "error",
    summary = "no single hall's step may exceed its feeder's step limit",
    fix = "light fewer racks in that hall per step" },
  { id = "cooling.stagger", severity = "error",
    summary = "halls that each fit a feeder's step limit alone must not start together over it",
    fix = "light the halls one after another in the stagger order" },
  { id = "cooling.strict.unknown-tenant-feeder", severity = "error",
    summary = "running_mw must name only feeders of the plan",
    fix = "correct the feeder id, or remove the entry" },
  { id = "cooling.strict.ride-through-unstated", severity = "warning",
    summary = "a start should state the ride-through it needs",
    fix = "write start.min_ride_through_s (0 only when the job can lose cooling instantly)" },
  { id = "cooling.strict.masked-feeder", severity = "warning",
    summary = "a DENY should not hide a feeder that would also refuse or stagger the start",
    fix = "fix the reported reasons, then the feeder this finding names" },
}

for _, spec in ipairs(CHECK_RULES) do
  local strict = spec.id:match("^cooling%.strict%.") ~= nil
  engine.rule {
    id = spec.id, kind = KIND, severity = spec.severity, summary = spec.summary, fix = spec.fix,
    check = function(doc, ctx)
      local ev = evaluation(doc, ctx)
      if not ev.plan then return end
      if strict then
        for _, f in ipairs(ev.strict) do
          if f.rule == ctx.rule then emit(ctx, f) end
        end
        return
      end
      for _, r in ipairs(ev.reasons) do
        if r.rule == ctx.rule then
          local at, key = require("plan").node(doc, r)
          ctx:fail{ at = at, key = key, message = r.message, figures = r.figures }
        end
      end
    end,
  }
end
