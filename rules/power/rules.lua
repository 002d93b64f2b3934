-- The power pack's rules (spec/power.md 6.2-6.4) over migration proposals,
-- curtailment plans and scale-across proposals. Each kind is evaluated once
-- per document into a list of finding items (lib/items.lua) that every rule
-- of the kind reads its own from, so each condition is written once. The
-- engine compiles this file after pack.lua for a run that reads rules (a
-- lint, not `infragate power decide`); nothing else of the pack reads what
-- it defines.
local py = require "py"
local item_lib = require "items"

local add, add_missing = item_lib.add, item_lib.add_missing

local function r(x) return py.repr(x) end

-- ---- finding sites: a path of keys, the nearest present ancestor ----------------

-- Emit on ctx at the node doc[k1][k2]..., or at the nearest present
-- ancestor when a default stood in for an absent key (6.1).
local function emit(ctx, doc, keys, severity, message, figures)
  local at = doc
  for i, k in ipairs(keys) do
    local child = engine.type(at) == "map" and at[k] or
                  (engine.type(at) == "list" and at[k + 1]) or nil
    if child == nil then
      if i == 1 then
        ctx[severity](ctx, { at = nil, message = message, figures = figures })
      else
        local parent, pk = doc, keys[1]
        for j = 2, i - 1 do parent, pk = parent[pk], keys[j] end
        ctx[severity](ctx, { at = parent, key = pk, message = message, figures = figures })
      end
      return
    end
    if i == #keys then
      if engine.type(at) == "list" then
        ctx[severity](ctx, { at = at, key = k + 1, message = message, figures = figures })
      else
        ctx[severity](ctx, { at = at, key = k, message = message, figures = figures })
      end
      return
    end
    at = child
  end
  ctx[severity](ctx, { at = nil, message = message, figures = figures })
end

-- The evaluation of each kind, set below: a list of findings (rule, keys,
-- message, figures, severity), computed once per document (ctx:once) and
-- shared by the rules, so every condition is written once and the span
-- verb can reuse it. items.stop: a missing field ended the evaluation.
local EVALUATE = {}

local function shared_rule(kinds, spec)
  engine.rule {
    id = spec.id, kind = kinds, severity = spec.severity, summary = spec.summary,
    fix = spec.fix,
    check = function(doc, ctx)
      local items = ctx:once("power.items", function() return EVALUATE[ctx.kind](doc) end)
      for _, it in ipairs(items) do
        if it.rule == spec.id then
          local how = it.severity == "warning" and "warn" or "fail"
          if it.missing then
            ctx[how](ctx, { at = doc, key = it.keys[1], message = it.message })
          else
            emit(ctx, doc, it.keys, how, it.message, it.figures)
          end
        end
      end
      if items.stop then ctx:stop() end
    end,
  }
end

-- ---- migration-proposal (6.2) ---------------------------------------------------

-- The case figure a claim or a forgone saving compares with.
local function migration_items(doc)
  local items = {}
  local missing = {}
  if not engine.has(doc, "remaining_h") then missing[#missing + 1] = "remaining_h" end
  if not engine.has(doc, "action") then missing[#missing + 1] = "action" end
  if doc.action == "migrate" and not engine.has(doc, "reason") then
    missing[#missing + 1] = "reason"
  end
  if doc.reason == "scarcity" and not engine.has(doc, "spike") then
    missing[#missing + 1] = "spike"
  end
  for _, k in ipairs(missing) do
    add_missing(items, k, ("the proposal has no '%s'%s"):format(k,
        k == "reason" and " (a migration must say whether it is for price or scarcity)" or
        k == "spike" and " (a scarcity migration must describe the spike it dodges)" or ""))
  end
  if #missing > 0 then return items end
  local job = PW.job_of(doc)
  local mig = models.power.migration(job, VARIANT)
  local d = mig.downtime_h
  local L = doc.remaining_h + 0.0
  local dec = models.power.decide(job, L, VARIANT)
  local net = dec.unrounded.net_dollars
  local spike = doc.spike
  local sc = spike and models.power.scarcity(job, spike.price_mwh + 0.0, spike.hours + 0.0,
                                               VARIANT)
  local migrate, stay = doc.action == "migrate", doc.action == "stay"
  if migrate and doc.destination_free_gpus ~= nil and doc.destination_free_gpus < job.gpus then
    add(items, "power.destination-capacity", { "destination_free_gpus" },
        ("the destination has %d idle GPUs but the move needs %d: an equal idle fleet must "
         .. "wait there"):format(doc.destination_free_gpus, job.gpus),
        engine.object("destination_free_gpus", doc.destination_free_gpus, "gpus", job.gpus))
  end
  if migrate and doc.reason == "price" and net <= 0 then
    local spread = job.price_here_mwh - job.price_there_mwh
    local bl = models.power.breakeven_length(job, spread, VARIANT)
    local bs = models.power.breakeven_spread(job, L, VARIANT)
    add(items, "power.migration-unprofitable", { "action" },
        ("moving for price nets %s $ over %s h (the move costs %s $): it breaks even only "
         .. "after %s at this %s $/MWh spread, or at a spread of %s $/MWh over %s h")
        :format(PW.money(net), r(L), PW.money(mig.cost_dollars),
                bl and (py.fixed(bl, 2) .. " h") or "never", r(spread), py.fixed(bs, 2), r(L)),
        engine.object("net_dollars", net, "migration_cost_dollars", mig.cost_dollars,
                      "breakeven_length_h", bl or engine.null, "breakeven_spread_mwh", bs))
  end
  if migrate and doc.reason == "scarcity" and sc.unrounded.net_benefit_of_moving <= 0 then
    local u = sc.unrounded
    add(items, "power.scarcity-unprofitable", { "spike", "price_mwh" },
        ("dodging the %s $/MWh spike for %s h nets %s $: staying costs %s $, moving %s $")
        :format(r(spike.price_mwh), r(spike.hours), PW.money(u.net_benefit_of_moving),
                PW.money(u.stay_through_spike_dollars), PW.money(u.move_and_ride_it_out_dollars)),
        engine.object("net_benefit_dollars", u.net_benefit_of_moving,
                      "stay_dollars", u.stay_through_spike_dollars,
                      "move_dollars", u.move_and_ride_it_out_dollars))
  end
  if stay then
    local forgone = spike and sc.unrounded.net_benefit_of_moving or net
    if forgone > 0 then
      add(items, "power.forgone-saving", { "action" },
          ("staying forgoes %s $ that moving would net %s"):format(PW.money(forgone),
            spike and ("by dodging the " .. r(spike.price_mwh) .. " $/MWh spike")
                  or ("over the remaining " .. r(L) .. " h")),
          engine.object("forgone_dollars", forgone), "warning")
    end
  end
  if doc.claims and doc.claims.net_dollars ~= nil then
    local use_spike = doc.reason == "scarcity" or (stay and spike ~= nil)
    local case = use_spike and sc.unrounded.net_benefit_of_moving or net
    local rounded = engine.round(case, 0)
    if doc.claims.net_dollars > rounded then
      add(items, "power.net-claim", { "claims", "net_dollars" },
          ("the proposal claims %s $ net but its own case yields %s $"):format(
            PW.money(doc.claims.net_dollars), PW.money(rounded)),
          engine.object("claimed_dollars", doc.claims.net_dollars, "model_dollars", rounded))
    end
  end
  if (doc.reason == "scarcity" or (stay and spike ~= nil)) and spike.hours <= d then
    add(items, "power.strict.spike-within-migration", { "spike", "hours" },
        ("the spike lasts %s h, no longer than the %s h migration: the move cannot finish "
         .. "before it ends, yet the whole spike is credited as avoided")
        :format(r(spike.hours), r(d)),
        engine.object("spike_hours", spike.hours, "migration_downtime_h", d))
  end
  if migrate and L <= d then
    add(items, "power.strict.length-within-migration", { "remaining_h" },
        ("the job has %s h left, no more than the %s h migration: it ends before the move "
         .. "completes"):format(r(L), r(d)),
        engine.object("remaining_h", L, "migration_downtime_h", d))
  end
  return items
end

-- ---- curtailment-plan (6.3) --------------------------------------------------------

local function plan_items(doc)
  local items = {}
  local P = PW.fleet_of(doc.fleet and engine.plain(doc.fleet) or nil)
  local H = P.horizon_h
  local budget_h = PW.budget_hours(P.curtail_budget_frac, H)
  local commitment = doc.commitment and doc.commitment.max_curtailed_energy_share
  local max_share = (commitment or PLAN_DEFAULTS.max_curtailed_energy_share) + 0.0
  local seeds = doc.gate and doc.gate.seeds or PLAN_DEFAULTS.seeds
  local margin = (doc.gate and doc.gate.claim_margin or PLAN_DEFAULTS.claim_margin) + 0.0
  local mean_cache = {}
  local function mean_saving(order)
    if mean_cache[order] == nil then
      local cfg = {}
      for k, v in pairs(P) do cfg[k] = v end
      cfg.curtail_order = order
      mean_cache[order] = models.power.fleet_mean(cfg, "saving_pct", seeds, VARIANT)
    end
    return mean_cache[order]
  end
  if P.curtail_order ~= "most-expensive-first" then
    local declared, ranked = mean_saving(P.curtail_order), mean_saving("most-expensive-first")
    add(items, "power.curtail-order", { "fleet", "curtail_order" },
        ("curtail_order '%s' does not spend the budget on the dearest eligible hours: it saves "
         .. "%s of the bill on average over %d seeds, against %s for most-expensive-first")
        :format(P.curtail_order, r(declared), seeds, r(ranked)),
        engine.object("saving_pct_declared", declared, "saving_pct_ranked", ranked,
                      "seeds", seeds))
  end
  local share = (budget_h * P.flexible_fraction) / H
  if share > max_share then
    add(items, "power.curtailment-budget", { "fleet", "curtail_budget_frac" },
        ("the plan may curtail %s of the fleet's energy (%d of %d hours at a flexible share "
         .. "of %s), over the commitment of %s"):format(r(share), budget_h, H,
          r(P.flexible_fraction), r(max_share)),
        engine.object("energy_share", share, "max_curtailed_energy_share", max_share,
                      "budget_hours", budget_h))
  end
  local band = P.base_mwh + P.diurnal_amp_mwh + THRESHOLD_NOISE_SDS * NOISE_SD
  if P.curtail_threshold_mwh <= band then
    add(items, "power.curtail-threshold", { "fleet", "curtail_threshold_mwh" },
        ("curtail_threshold_mwh %s is within five noise deviations of the daily peak (%s "
         .. "$/MWh): ordinary peaks become eligible"):format(r(P.curtail_threshold_mwh), r(band)),
        engine.object("threshold_mwh", P.curtail_threshold_mwh, "daily_peak_band_mwh", band),
        "warning")
  end
  if doc.claims and doc.claims.saving_pct ~= nil then
    local m = mean_saving(P.curtail_order)
    if doc.claims.saving_pct > m + margin then
      add(items, "power.saving-claim", { "claims", "saving_pct" },
          ("the plan claims a saving of %s but its config saves %s on average over %d seeds "
           .. "(margin %s)"):format(r(doc.claims.saving_pct), r(m), seeds, r(margin)),
          engine.object("claimed", doc.claims.saving_pct, "mean_saving_pct", m,
                        "claim_margin", margin, "seeds", seeds))
    end
  end
  if doc.schedule then
    local F, flex = P.fleet_mw, P.fleet_mw * P.flexible_fraction
    local draw, prices = doc.schedule.draw_mw, doc.schedule.prices
    local n = #draw
    local total = 0.0
    for i = 1, n do total = total + draw[i] end
    local want = F * n
    if math.abs(total - want) > 1e-6 * F * n then
      add(items, "power.schedule-energy", { "schedule", "draw_mw" },
          ("the schedule draws %s MWh over %d hours, not the fleet's %s MWh: it %s work")
          :format(r(total), n, r(want), total < want and "drops" or "invents"),
          engine.object("scheduled_mwh", total, "fleet_mwh", want))
    end
    local first_env, count_env, curtailed, first_off = nil, 0, 0, nil
    for i = 1, n do
      local x = draw[i]
      if x < F - flex - 1e-9 or x > F + flex + 1e-9 then
        count_env = count_env + 1
        first_env = first_env or i
      end
      if x < F - 1e-9 then
        curtailed = curtailed + 1
        if not first_off and prices[i] <= P.curtail_threshold_mwh then first_off = i end
      end
    end
    if first_env then
      add(items, "power.schedule-envelope", { "schedule", "draw_mw", first_env - 1 },
          ("%d hour(s) draw outside the %s..%s MW envelope; the first, hour %d, draws %s MW")
          :format(count_env, r(F - flex), r(F + flex), first_env - 1, r(draw[first_env])),
          engine.object("hours_outside", count_env, "min_mw", F - flex, "max_mw", F + flex))
    end
    local allowed = PW.budget_hours(P.curtail_budget_frac, math.max(n, H))
    if curtailed > allowed then
      add(items, "power.schedule-budget", { "schedule", "draw_mw" },
          ("the schedule curtails %d hours, over the budget of %d"):format(curtailed, allowed),
          engine.object("curtailed_hours", curtailed, "budget_hours", allowed))
    end
    if first_off then
      add(items, "power.schedule-off-scarcity", { "schedule", "draw_mw", first_off - 1 },
          ("hour %d curtails at %s $/MWh, not above the threshold of %s $/MWh")
          :format(first_off - 1, r(prices[first_off]), r(P.curtail_threshold_mwh)),
          engine.object("price_mwh", prices[first_off], "threshold_mwh",
                        P.curtail_threshold_mwh), "warning")
    end
  end
  if P.curtail_budget_frac > 0 and budget_h == 0 then
    add(items, "power.strict.budget-truncated", { "fleet", "curtail_budget_frac" },
        PW.truncated_message(P.curtail_budget_frac, H),
        engine.object("curtail_budget_frac", P.curtail_budget_frac, "horizon_h", H))
  end
  return items
end

-- ---- scale-across-proposal (6.4) ----------------------------------------------------

local function scale_items(doc)
  local s = PW.scenario_of(doc)
  local L = PW.ledger(s)
  return item_lib.span_items(s, L, doc.action, {
    activation = engine.has(doc, "activation_gb_per_step"), cut = engine.has(doc, "cut") })
end

-- ---- the rules, in table order ------------------------------------------------------

local MISSING_RULE = { id = "power.missing-field", severity = "error",
    summary = "a proposal must state the fields its action needs",
    fix = "add remaining_h and action (and reason, spike) to a migration, action to a "
          .. "scale-across proposal" }

local MIGRATION_RULES = {
  { id = "power.destination-capacity", severity = "error",
    summary = "a migration needs as many idle GPUs at the destination as the job runs on",
    fix = "find a destination with enough idle accelerators, or stay" },
  { id = "power.migration-unprofitable", severity = "error",
    summary = "a price-driven migration must repay its cost over the remaining length",
    fix = "stay, or move only a job with more hours left or a wider price spread" },
  { id = "power.scarcity-unprofitable", severity = "error",
    summary = "a scarcity migration must avoid more than it costs",
    fix = "stay through the spike, or check the spike's price and length" },
  { id = "power.forgone-saving", severity = "warning",
    summary = "staying forgoes a saving the move-versus-stay model shows",
    fix = "consider migrating, or record why the job must stay" },
  { id = "power.net-claim", severity = "error",
    summary = "a claimed net saving must not exceed what the proposal's own case yields",
    fix = "claim at most the model's net figure" },
  { id = "power.strict.spike-within-migration", severity = "error",
    summary = "a spike no longer than the migration cannot be dodged by migrating",
    fix = "price the spike net of the migration window, or stay" },
  { id = "power.strict.length-within-migration", severity = "error",
    summary = "a job that ends before its migration completes must not migrate",
    fix = "stay: the job finishes before the move would" },
}

local PLAN_RULES = {
  { id = "power.curtail-order", severity = "error",
    summary = "a curtailment plan must spend its budget on the most expensive eligible hours",
    fix = "set curtail_order: most-expensive-first" },
  { id = "power.curtailment-budget", severity = "error",
    summary = "a curtailment plan must stay within its energy commitment",
    fix = "lower curtail_budget_frac or flexible_fraction, or renegotiate the commitment" },
  { id = "power.curtail-threshold", severity = "warning",
    summary = "a curtail threshold near the daily peak makes ordinary hours eligible",
    fix = "raise curtail_threshold_mwh above base + amplitude + five noise deviations" },
  { id = "power.saving-claim", severity = "error",
    summary = "a claimed saving must not exceed the seed-mean saving of the plan's config",
    fix = "claim at most the simulated mean saving plus the margin" },
  { id = "power.schedule-energy", severity = "error",
    summary = "a schedule must deliver the fleet's energy over its hours",
    fix = "defer curtailed energy into later hours instead of dropping it" },
  { id = "power.schedule-envelope", severity = "error",
    summary = "every hour of a schedule must draw within the flexible envelope",
    fix = "keep each draw within fleet_mw plus or minus the flexible share" },
  { id = "power.schedule-budget", severity = "error",
    summary = "a schedule must not curtail more hours than the budget allows",
    fix = "curtail fewer hours, or raise curtail_budget_frac within the commitment" },
  { id = "power.schedule-off-scarcity", severity = "warning",
    summary = "a schedule should curtail only in hours priced above the threshold",
    fix = "move the curtailment to a scarcity hour" },
  { id = "power.strict.budget-truncated", severity = "error",
    summary = "a curtailment budget must not truncate to zero hours",
    fix = "raise curtail_budget_frac or lengthen the horizon so the budget is at least one hour" },
}

local SPAN_RULES = {
  { id = "power.stitch-allreduce", severity = "error",
    summary = "a stitch must not cut through the data-parallel all-reduce",
    fix = "cut at a pipeline stage, or stay, move or escalate" },
  { id = "power.stitch-tax", severity = "error",
    summary = "a pipeline stitch should keep its tax within the 1-5% band",
    fix = "shrink the activations crossing the cut or use a faster circuit" },
  { id = "power.escalate-required", severity = "error",
    summary = "a scenario in which no option fits must escalate",
    fix = "set action: escalate" },
  { id = "power.escalate-unneeded", severity = "warning",
    summary = "an escalation is not needed when an option is feasible",
    fix = "choose the feasible option the ledger names" },
  { id = "power.option-infeasible", severity = "error",
    summary = "the chosen option must be feasible",
    fix = "choose the option the ledger names, or escalate" },
  { id = "power.option-not-cheapest", severity = "error",
    summary = "the chosen option must be the cheapest feasible one",
    fix = "choose the option the ledger names" },
  { id = "power.strict.deadline-rounding", severity = "error",
    summary = "an option must meet the deadline without rounding",
    fix = "loosen the deadline or choose an option that meets it unrounded" },
}

-- A schedule's two lists describe the same hours (3.6): unequal lengths
-- make the document unusable, like a schema violation.
engine.rule {
  id = "power.schedule-shape", kind = "curtailment-plan", severity = "error", stage = "input",
  summary = "a schedule's prices and draw_mw lists must be of equal length",
  fix = "give one price and one draw per hour",
  check = function(doc, ctx)
    local s = doc.schedule
    if s and #s.prices ~= #s.draw_mw then
      ctx:fail(s, "draw_mw", ("schedule has %d prices but %d draws: one of each per hour")
               :format(#s.prices, #s.draw_mw),
               engine.object("prices", #s.prices, "draws", #s.draw_mw))
    end
  end,
}

EVALUATE["migration-proposal"] = migration_items
EVALUATE["curtailment-plan"] = plan_items
EVALUATE["scale-across-proposal"] = scale_items

shared_rule({ "migration-proposal", "scale-across-proposal" }, MISSING_RULE)
for _, spec in ipairs(MIGRATION_RULES) do shared_rule("migration-proposal", spec) end
for _, spec in ipairs(PLAN_RULES) do shared_rule("curtailment-plan", spec) end
for _, spec in ipairs(SPAN_RULES) do shared_rule("scale-across-proposal", spec) end
