-- The findings the power pack's documents produce, as items {rule, keys,
-- message, figures, severity}: how rules.lua and the verbs add them, and
-- the ledger findings of a scale-across scenario (6.4), which the rules and
-- `infragate power span` both report. Compiled by the first run that
-- evaluates a document or a scenario, never by `decide` or `fleet`.
local py = require "py"

local M = {}

function M.add(items, rule, keys, message, figures, severity)
  items[#items + 1] = { rule = rule, keys = keys, message = message, figures = figures,
                        severity = severity }
end

function M.add_missing(items, key, message)
  items[#items + 1] = { rule = "power.missing-field", keys = { key }, message = message,
                        missing = true }
  items.stop = true
end

local function option_row(L, name)
  for _, o in ipairs(L.options) do if o.option == name then return o end end
end

-- The findings of the ledger rules for a scenario s, ledger L and action.
function M.span_items(s, L, action, has)
  local items = {}
  if action == nil then
    M.add_missing(items, "action", "the proposal has no 'action' (stay, stitch, move or escalate)")
    return items
  end
  if action == "stitch" and s.cut == "allreduce" then
    M.add(items, "power.stitch-allreduce", { "cut" },
        ("stitching through the data-parallel all-reduce puts the gradient exchange on the "
         .. "circuit every step: tax %s"):format(py.fixed(L.stitch_tax, 4)),
        engine.object("stitch_tax", L.stitch_tax))
  end
  if action == "stitch" and s.cut == "pipeline" and L.stitch_tax > 0.05 then
    local keys = has.activation and { "activation_gb_per_step" } or
                 (has.cut and { "cut" } or {})
    M.add(items, "power.stitch-tax", keys,
        ("the pipeline cut costs %s of every step on the circuit, %s"):format(
          py.fixed(L.stitch_tax, 4), L.stitch_tax >= 0.5 and "at or above the 0.5 limit"
          or "above the 1-5% band of a pipeline cut"),
        engine.object("stitch_tax", L.stitch_tax),
        L.stitch_tax >= 0.5 and "error" or "warning")
  end
  local decision = L.decision
  if decision == "escalate" and action ~= "escalate" then
    M.add(items, "power.escalate-required", { "action" },
        ("no option fits: stay, stitch and move are all infeasible%s, so the proposal must "
         .. "escalate, not %s"):format(s.job.deadline_h and
           (" under the " .. py.repr(s.job.deadline_h) .. " h deadline") or "", action))
  end
  if action == "escalate" and decision ~= "escalate" then
    local o = option_row(L, decision)
    M.add(items, "power.escalate-unneeded", { "action" },
        ("escalation is not needed: %s is feasible for %s $"):format(decision,
          PW.money(o.dollars)),
        engine.object("decision", decision, "dollars", o.dollars), "warning")
  end
  if action ~= "escalate" and decision ~= "escalate" then
    local o = option_row(L, action)
    if not o.feasible then
      M.add(items, "power.option-infeasible", { "action" },
          ("%s is infeasible (%s)"):format(action, o.reason),
          engine.object("option", action, "reason", o.reason))
    elseif action ~= decision then
      local best = option_row(L, decision)
      M.add(items, "power.option-not-cheapest", { "action" },
          ("%s costs %s $ (%s $/useful GPU-h), more than %s at %s $ (%s $/useful GPU-h)")
          :format(action, PW.money(o.dollars), py.fixed(o.dollars_per_useful_gpu_h, 4), decision,
                  PW.money(best.dollars), py.fixed(best.dollars_per_useful_gpu_h, 4)),
          engine.object("option", action, "dollars", o.dollars, "decision", decision,
                        "decision_dollars", best.dollars))
    end
  end
  if L.deadline_rounding then
    M.add(items, "power.strict.deadline-rounding", { "job", "deadline_h" },
        M.deadline_message(s, L), engine.object("deadline_h", s.job.deadline_h))
  end
  return items
end

function M.deadline_message(s, L)
  for _, o in ipairs(L.options) do
    if o.option ~= "buy" and o.feasible and o.unrounded.duration_h > s.job.deadline_h then
      return ("%s takes %s h, over the %s h deadline, and meets it only once rounded to %s h")
             :format(o.option, py.repr(o.unrounded.duration_h), py.repr(s.job.deadline_h),
                     py.fixed(o.duration_h, 1))
    end
  end
  return "an option meets the deadline only by rounding"
end

return M
