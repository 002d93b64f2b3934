-- infragate power span: stay / stitch / move ledger for a scale-across
-- scenario.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local item_lib = require "items"
local cli_base = require "cli.base"

local raise = cli_shared.raise
local guarded = cli_shared.guarded
local finding = cli_shared.finding
local finish = cli_shared.finish

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

local options = {
  { "--scenario", type = "path", required = true, metavar = "FILE",
    help = "a scale-across-proposal document" },
  cli_base.STRICT_OPT, cli_base.format_opt(),
}

local run = guarded("span", function(args, out)
  local doc = load_scenario(args.scenario)
  local s = PW.scenario_of(doc)
  local L = PW.ledger(s)
  local check = engine.null
  local has = { activation = engine.has(doc, "activation_gb_per_step"),
                cut = engine.has(doc, "cut") }
  local items = item_lib.span_items(s, L, doc.action, has)
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
    findings[1] = finding(args, "power.strict.deadline-rounding", item_lib.deadline_message(s, L),
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
end)

return { options = options, run = run }
