-- infragate scheduling compare: difference of two capacity reports made on
-- identical inputs.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"
local studies = require "studies"
local cli_options = require "cli.options"
local cli_input = require "cli.input"
local cli_edge = require "cli.edge"

local CONFIG = cli_base.CONFIG
local input_error = cli_input.input_error
local load_doc = cli_input.load_doc
local close = studies.close
local digest = studies.digest
local guarded = cli_edge.guarded
local scenario_inputs = cli_shared.scenario_inputs

local function refuse(file, path, message)
  input_error({ { message = message, file = file, path = path } })
end

-- The report checks of 5.9.4 beyond the schema's types.
local function check_report(r, file)
  local c = r.provenance.config
  local given = {}
  for _, f in ipairs(CONFIG) do
    if c[f[1]] == nil then
      refuse(file, "/provenance/config/" .. f[1],
             ("provenance.config lacks %s: a report names its whole config"):format(f[1]))
    end
    given[f[1]] = c[f[1]]
  end
  local cfg = SCHED.resolved(CONFIG, given)
  for _, p in ipairs(SCHED.config_cross(cfg)) do
    refuse(file, "/provenance/config/" .. p[1], p[2])
  end
  local b = r.buckets_gpu_h
  local productive = b.productive
  local checks = {
    { close(r.window_hours, 24 * cfg.horizon_days), "/window_hours",
      "window_hours is not 24 x horizon_days" },
    { close(r.nominal_gpu_h, cfg.gpus * r.window_hours), "/nominal_gpu_h",
      "nominal_gpu_h is not gpus x window_hours" },
    { r.envelope_gpu_h <= r.nominal_gpu_h, "/envelope_gpu_h", "the envelope exceeds nominal" },
    { close((((b.productive + b.unavailable) + b.idle) + b.inference_reservation)
            + b.training_overhead_and_discarded, r.nominal_gpu_h), "/buckets_gpu_h",
      "the buckets do not sum to nominal" },
    { close(b.unavailable, r.nominal_gpu_h - r.envelope_gpu_h), "/buckets_gpu_h/unavailable",
      "unavailable is not nominal - envelope" },
    { close(r.productive_by_workload_gpu_h.training + r.productive_by_workload_gpu_h.inference,
            productive), "/productive_by_workload_gpu_h",
      "the workload credits do not sum to the productive bucket" },
    { close(r.productive_fraction_of_nominal, productive / r.nominal_gpu_h),
      "/productive_fraction_of_nominal", "the nominal fraction is not productive / nominal" },
  }
  local fe = r.productive_fraction_of_envelope
  if r.envelope_gpu_h == 0 then
    checks[#checks + 1] = { engine.isnull(fe), "/productive_fraction_of_envelope",
                            "the envelope fraction must be null when the envelope is 0" }
  else
    checks[#checks + 1] = { not engine.isnull(fe) and close(fe, productive / r.envelope_gpu_h),
                            "/productive_fraction_of_envelope",
                            "the envelope fraction is not productive / envelope" }
  end
  for _, ck in ipairs(checks) do
    if not ck[1] then refuse(file, ck[2], "the report fails its accounting: " .. ck[3]) end
  end
  local credit = { training = r.productive_by_workload_gpu_h.training,
                   inference = r.productive_by_workload_gpu_h.inference }
  for key, w in pairs(r.workloads) do
    local plain = engine.plain(w.calibration)
    if digest(plain) ~= w.calibration_id then
      refuse(file, ("/workloads/%s/calibration_id"):format(key),
             "calibration_id is not the digest of its calibration")
    end
    if not close(w.projected_units, credit[key] * plain.units_per_productive_gpu_h) then
      refuse(file, ("/workloads/%s/projected_units"):format(key),
             "projected_units is not the credit times the calibration's rate")
    end
  end
  local wl = engine.plain(r.workloads)
  if digest({ provenance = engine.plain(r.provenance), workloads = wl }) ~= r.run_id then
    refuse(file, "/run_id", "run_id is not the digest of provenance and workloads")
  end
end

-- An operand of compare as a report: a report document, or a scenario replayed.
local function compare_operand(file)
  local probe = load_doc(file, nil, true)
  if engine.type(probe) == "map" and probe.schema_version == nil and probe.policy ~= nil then
    local doc = file == "-" and engine.view("capacity-replay", engine.plain(probe))
                or load_doc(file, "capacity-replay")
    local cfg, policy, workloads = scenario_inputs(doc, file, nil)
    local rep = studies.replay_report(cfg, policy, workloads, file)
    return rep, true
  end
  local doc = file == "-" and engine.view("capacity-report", engine.plain(probe))
              or load_doc(file, "capacity-report", true)
  check_report(doc, file)
  return doc, false
end

local function same(a, b)
  return digest(engine.type(a) == "lua" and a or engine.plain(a))
         == digest(engine.type(b) == "lua" and b or engine.plain(b))
end

local options = { cli_options.fmt_opt() }

local run = guarded("compare", function(args, out)
  local fb, fc = args.operands[1], args.operands[2]
  local base = compare_operand(fb)
  local cand = compare_operand(fc)
  for _, k in ipairs({ "config", "model", "implementation" }) do
    if not same(base.provenance[k], cand.provenance[k]) then
      refuse(fc, "/provenance/" .. k,
             ("the two reports differ in provenance.%s: they were not made on identical "
              .. "inputs"):format(k))
    end
  end
  local keys = {}
  for k in pairs(base.workloads) do keys[#keys + 1] = k end
  table.sort(keys)
  local ck = 0
  for _ in pairs(cand.workloads) do ck = ck + 1 end
  if ck ~= #keys then refuse(fc, "/workloads", "the two reports project different workloads") end
  local deltas = engine.object()
  for _, k in ipairs(keys) do
    local bw, cw = base.workloads[k], cand.workloads[k]
    if cw == nil then refuse(fc, "/workloads/" .. k, "the candidate lacks workload " .. k) end
    if not same(bw.calibration, cw.calibration) then
      refuse(fc, ("/workloads/%s/calibration"):format(k),
             ("the calibrations of workload %s differ"):format(k))
    end
    deltas[k] = engine.object("unit", bw.calibration.unit,
                              "delta_projected_units", cw.projected_units - bw.projected_units)
  end
  local delta = cand.buckets_gpu_h.productive - base.buckets_gpu_h.productive
  if args.format == "json" then
    out:json(engine.object("pack", "scheduling", "evidence_kind", "simulation",
                           "baseline_run_id", base.run_id, "candidate_run_id", cand.run_id,
                           "delta_productive_gpu_h", delta, "workloads", deltas,
                           "findings", engine.array()))
  else
    local lines = { ("candidate minus baseline: %s productive GPU-h\n")
                    :format(py.fixed(delta, 1)) }
    for _, k in ipairs(keys) do
      lines[#lines + 1] = ("  %s: %s %s\n"):format(k,
                                                   py.fixed(deltas[k].delta_projected_units, 1),
                                                  deltas[k].unit)
    end
    out:write(table.concat(lines))
  end
  return 0
end)

return { options = options, run = run }
