-- The check functions of the resiliency pack's rules (declared in pack.lua), and the
-- helpers only they use. Compiled on the first document a rule checks.

local py = require "py"
local CLAIMS = RS.CLAIMS
local CLAIM_FIGURES = RS.CLAIM_FIGURES
local CLASSES = RS.CLASSES
local builtin = RS.builtin
local effective_dual = RS.effective_dual
local float = RS.float
local index_of = RS.index_of
local seed_text = RS.seed_text

local SHORT_HORIZON = 2000                -- the registry's own standard (7.1)

local UNDERPOWERED_EPISODES = 10

local FRONTHAUL_KINDS = { leo = true, cellular = true }

-- The effective horizon of a lint run: ctx.settings carries a lint verb's
-- --years/--seed (nil in `infragate lint`).
local function lint_horizon(doc, ctx)
  local s = ctx.settings
  return RS.horizon(doc, s and { years = s.years, seed = s.seed } or nil)
end

local function meets(spec, value, claim)
  if spec.floor then return value >= claim end
  return value <= claim
end

-- The document's simulation, shared by the claim rules of one document.
local function simulated(doc, ctx)
  return ctx:once("simulation", function()
    local over = ctx.settings
    local r = RS.resolve(doc, over and { years = over.years, seed = over.seed } or nil)
    r.result = RS.simulate(r)
    return r
  end)
end

-- Call fn(class, key, spec, claim_view_parent, claimed, figures) for every
-- claim of the document, in class then figure order.
local function each_claim(doc, fn)
  for _, c in ipairs(CLASSES) do
    local cl = doc.claims[c]
    if cl then
      for _, k in ipairs(CLAIM_FIGURES) do
        if cl[k] ~= nil then fn(c, k, CLAIMS[k], cl, float(cl[k])) end
      end
    end
  end
end

local function run_text(r)
  return ("%d years, seed %s"):format(r.years, seed_text(r.seed))
end

local checks = {}

checks["resiliency.fronthaul-eligibility"] = function(doc, ctx)
  if not doc.catalog then return end
  for name, e in pairs(doc.catalog) do
    local base = e.base and builtin(e.base) or {}
    local kind = e.kind or base.kind
    local carries = e.carries or base.carries or {}
    local r0 = index_of(carries, "R0")
    if FRONTHAUL_KINDS[kind] and r0 then
      local msg = ("transport '%s' is of kind '%s' yet carries R0: fronthaul needs ~100 us "
                   .. "and +/-1.5 us phase, which a %s path cannot hold")
                  :format(name, kind, kind == "leo" and "25-60 ms LEO" or "cellular")
      if e.carries then
        ctx:fail(e.carries, r0, msg)
      elseif e.kind then
        ctx:fail(e, "kind", msg)
      else
        ctx:fail(doc.catalog, name, msg)
      end
    end
  end
end

checks["resiliency.r0-unserved"] = function(doc, ctx)
  local pol = RS.policy(doc.policy)
  for _, t in ipairs(RS.instance_entries(RS.catalog(doc), pol)) do
    if index_of(t.carries, "R0") then return end
  end
  local names = RS.instances(pol)
  local msg = ("no instance of policy '%s' (%s) carries R0: R0 availability will be 0 "
               .. "over every horizon"):format(pol.name,
                                               #names > 0 and table.concat(names, ", ")
                                               or "no transports")
  if doc.policy.transports then
    ctx:warn(doc.policy, "transports", msg)
  else
    ctx:warn(doc.policy, "base", msg)
  end
end

checks["resiliency.strict.srlg-unaudited"] = function(doc, ctx)
  local p = doc.policy
  local dual, from = effective_dual(p)
  if not dual or p.shared_cut_fraction ~= nil then return end
  local msg = ("dual fiber is on but shared_cut_fraction is not stated, so the unaudited "
               .. "planning default %s decides what the second fiber is worth")
              :format(py.repr(DEFAULTS.shared_cut_fraction))
  ctx:fail(p, from == "document" and "dual_fiber" or "base", msg)
end

checks["resiliency.strict.short-horizon"] = function(doc, ctx)
  if not doc.claims then return end
  local years, _, from = lint_horizon(doc, ctx)
  if years >= SHORT_HORIZON then return end
  local msg = ("claims are checked over %d simulated years, fewer than the %d the "
               .. "validation registry uses"):format(years, SHORT_HORIZON)
  if from == "document" then
    ctx:fail(doc.simulation, "years", msg)
  else
    ctx:fail(doc, "claims", msg)
  end
end

checks["resiliency.claim-unmet"] = function(doc, ctx)
  if not doc.claims then return end
  local r = simulated(doc, ctx)
  each_claim(doc, function(c, k, spec, cl, claimed)
    local f = r.result.classes[c]
    local value = f[spec.figure]
    if not meets(spec, value, claimed) then
      ctx:fail(cl, k, ("%s claims %s %s %s, the simulation gives %s (%s)")
                      :format(c, spec.what, spec.floor and ">=" or "<=", py.repr(claimed),
                              py.repr(value), run_text(r)),
               engine.object("claimed", claimed, "simulated", value,
                             "unrounded", f[spec.unrounded]))
    end
  end)
end

checks["resiliency.claim-underpowered"] = function(doc, ctx)
  if not doc.claims then return end
  local r = simulated(doc, ctx)
  each_claim(doc, function(c, k, spec, cl, claimed)
    if k == "retention" then return end
    local f = r.result.classes[c]
    local value, episodes = f[spec.figure], f.totals.episodes
    if meets(spec, value, claimed) and episodes < UNDERPOWERED_EPISODES then
      ctx:warn(cl, k, ("%s claim on %s holds (%s against %s) but rests on %d down "
                       .. "episode(s), fewer than %d (%s)")
                      :format(c, spec.what, py.repr(value), py.repr(claimed), episodes,
                              UNDERPOWERED_EPISODES, run_text(r)),
               engine.object("claimed", claimed, "simulated", value,
                             "unrounded", f[spec.unrounded], "episodes", episodes))
    end
  end)
end

checks["resiliency.budget-exceeded"] = function(doc, ctx)
  if not doc.claims or doc.claims.monthly_usd_max == nil then return end
  local r = simulated(doc, ctx)
  local cost, max = r.result.monthly_usd, float(doc.claims.monthly_usd_max)
  if cost > max then
    ctx:fail(doc.claims, "monthly_usd_max",
             ("policy '%s' costs %s USD/month, over the budget of %s USD/month")
             :format(r.policy.name, py.repr(cost), py.repr(max)),
             engine.object("claimed", max, "simulated", cost))
  end
end

checks["resiliency.strict.sentinel-nines"] = function(doc, ctx)
  if not doc.claims then return end
  local r = simulated(doc, ctx)
  each_claim(doc, function(c, k, spec, cl, claimed)
    if k ~= "nines" and k ~= "availability" then return end
    local f = r.result.classes[c]
    if f.totals.down_h == 0 and meets(spec, f[spec.figure], claimed) then
      ctx:fail(cl, k, ("%s claim on %s is met only because the class was never down "
                       .. "(%s reads %s, the no-downtime sentinel; %s)")
                      :format(c, spec.what, spec.what, py.repr(f[spec.figure]), run_text(r)),
               engine.object("claimed", claimed, "simulated", f[spec.figure],
                             "unrounded", f[spec.unrounded]))
    end
  end)
end

checks["resiliency.strict.rounded-claim"] = function(doc, ctx)
  if not doc.claims then return end
  local r = simulated(doc, ctx)
  each_claim(doc, function(c, k, spec, cl, claimed)
    if k == "availability" then return end
    local f = r.result.classes[c]
    if k == "nines" and f.totals.down_h == 0 then return end -- the sentinel's case
    if meets(spec, f[spec.figure], claimed) and not meets(spec, f[spec.unrounded], claimed)
    then
      ctx:fail(cl, k, ("%s claim %s %s %s holds on the rounded %s but not on the "
                       .. "unrounded %s (%s)")
                      :format(c, spec.what, spec.floor and ">=" or "<=", py.repr(claimed),
                              py.repr(f[spec.figure]), py.repr(f[spec.unrounded]),
                              run_text(r)),
               engine.object("claimed", claimed, "simulated", f[spec.figure],
                             "unrounded", f[spec.unrounded]))
    end
  end)
end

return checks
