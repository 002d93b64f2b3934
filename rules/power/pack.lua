-- The power pack (spec/power.md): move, stay, stitch or curtail, priced in
-- GPU-hours and dollars. This file holds the defaults and field tables of
-- the documents (3.1-3.4), the citation table of the constants (7.2 point
-- 16), document resolution, the checks of the three proposal kinds (6.2-6.4)
-- and the strict findings of the model verbs (6.5). commands.lua (the
-- `infragate power` verbs) and validation.lua (the registry's figures)
-- reach it through the globals below; every figure is computed by
-- models.power (core/models/power*.c).
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

local function add(items, rule, keys, message, figures, severity)
  items[#items + 1] = { rule = rule, keys = keys, message = message, figures = figures,
                        severity = severity }
end

local function add_missing(items, key, message)
  items[#items + 1] = { rule = "power.missing-field", keys = { key }, message = message,
                        missing = true }
  items.stop = true
end

local function r(x) return py.repr(x) end

-- ---- migration-proposal (6.2) ---------------------------------------------------

function PW.job_of(doc)
  return PW.resolve(JOB_FIELDS, doc and doc.job and engine.plain(doc.job) or nil)
end

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

function PW.fleet_of(src)
  return PW.resolve(FLEET_FIELDS, src)
end

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

local function option_row(L, name)
  for _, o in ipairs(L.options) do if o.option == name then return o end end
end

-- The findings of the ledger rules for a scenario s, ledger L and action.
function PW.span_items(s, L, action, has)
  local items = {}
  if action == nil then
    add_missing(items, "action", "the proposal has no 'action' (stay, stitch, move or escalate)")
    return items
  end
  if action == "stitch" and s.cut == "allreduce" then
    add(items, "power.stitch-allreduce", { "cut" },
        ("stitching through the data-parallel all-reduce puts the gradient exchange on the "
         .. "circuit every step: tax %s"):format(py.fixed(L.stitch_tax, 4)),
        engine.object("stitch_tax", L.stitch_tax))
  end
  if action == "stitch" and s.cut == "pipeline" and L.stitch_tax > 0.05 then
    local keys = has.activation and { "activation_gb_per_step" } or
                 (has.cut and { "cut" } or {})
    add(items, "power.stitch-tax", keys,
        ("the pipeline cut costs %s of every step on the circuit, %s"):format(
          py.fixed(L.stitch_tax, 4), L.stitch_tax >= 0.5 and "at or above the 0.5 limit"
          or "above the 1-5% band of a pipeline cut"),
        engine.object("stitch_tax", L.stitch_tax),
        L.stitch_tax >= 0.5 and "error" or "warning")
  end
  local decision = L.decision
  if decision == "escalate" and action ~= "escalate" then
    add(items, "power.escalate-required", { "action" },
        ("no option fits: stay, stitch and move are all infeasible%s, so the proposal must "
         .. "escalate, not %s"):format(s.job.deadline_h and
           (" under the " .. py.repr(s.job.deadline_h) .. " h deadline") or "", action))
  end
  if action == "escalate" and decision ~= "escalate" then
    local o = option_row(L, decision)
    add(items, "power.escalate-unneeded", { "action" },
        ("escalation is not needed: %s is feasible for %s $"):format(decision,
          PW.money(o.dollars)),
        engine.object("decision", decision, "dollars", o.dollars), "warning")
  end
  if action ~= "escalate" and decision ~= "escalate" then
    local o = option_row(L, action)
    if not o.feasible then
      add(items, "power.option-infeasible", { "action" },
          ("%s is infeasible (%s)"):format(action, o.reason),
          engine.object("option", action, "reason", o.reason))
    elseif action ~= decision then
      local best = option_row(L, decision)
      add(items, "power.option-not-cheapest", { "action" },
          ("%s costs %s $ (%s $/useful GPU-h), more than %s at %s $ (%s $/useful GPU-h)")
          :format(action, PW.money(o.dollars), py.fixed(o.dollars_per_useful_gpu_h, 4), decision,
                  PW.money(best.dollars), py.fixed(best.dollars_per_useful_gpu_h, 4)),
          engine.object("option", action, "dollars", o.dollars, "decision", decision,
                        "decision_dollars", best.dollars))
    end
  end
  if L.deadline_rounding then
    add(items, "power.strict.deadline-rounding", { "job", "deadline_h" },
        PW.deadline_message(s, L), engine.object("deadline_h", s.job.deadline_h))
  end
  return items
end

function PW.deadline_message(s, L)
  for _, o in ipairs(L.options) do
    if o.option ~= "buy" and o.feasible and o.unrounded.duration_h > s.job.deadline_h then
      return ("%s takes %s h, over the %s h deadline, and meets it only once rounded to %s h")
             :format(o.option, py.repr(o.unrounded.duration_h), py.repr(s.job.deadline_h),
                     py.fixed(o.duration_h, 1))
    end
  end
  return "an option meets the deadline only by rounding"
end

local function scale_items(doc)
  local s = PW.scenario_of(doc)
  local L = PW.ledger(s)
  return PW.span_items(s, L, doc.action, {
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
