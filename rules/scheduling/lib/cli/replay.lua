-- infragate scheduling replay: conserving capacity ledger of one policy run.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local studies = require "studies"
local cli_options = require "cli.options"
local cli_input = require "cli.input"
local cli_edge = require "cli.edge"

local load_doc = cli_input.load_doc
local guarded = cli_edge.guarded
local strict_finding = cli_edge.strict_finding
local finish = cli_edge.finish
local findings_array = cli_edge.findings_array
local scenario_inputs = cli_shared.scenario_inputs

local function synthetic_findings(args, report, doc, file)
  local findings = {}
  for _, key in ipairs({ "inference", "training" }) do
    local w = report.workloads[key]
    if w and w.calibration.evidence_kind == "synthetic" then
      local where = engine.where(doc.workloads[key], "evidence_kind")
      findings[#findings + 1] = strict_finding(args, "scheduling.strict.synthetic-calibration",
        ("the %s calibration is synthetic: its %s projected %s rest on an invented rate")
          :format(key, py.repr(w.projected_units), w.calibration.unit),
        ("/workloads/%s/evidence_kind"):format(key),
        { file = file, line = where.line, column = where.column })
    end
  end
  return findings
end

local function report_text(r)
  local b = r.buckets_gpu_h
  local lines = {
    ("%s over %d h (%s), nominal %s GPU-h, envelope %s GPU-h\n")
      :format(r.provenance.policy, r.window_hours, r.unit, py.fixed(r.nominal_gpu_h, 1),
              py.fixed(r.envelope_gpu_h, 1)),
  }
  for _, k in ipairs({ "productive", "unavailable", "idle", "inference_reservation",
                       "training_overhead_and_discarded" }) do
    lines[#lines + 1] = ("  %-32s %14s GPU-h  %7s of nominal\n")
                        :format(k, py.fixed(b[k], 1), py.fixed(b[k] / r.nominal_gpu_h, 4))
  end
  lines[#lines + 1] = ("productive share: %s of nominal, %s of the envelope\n")
                      :format(py.fixed(r.productive_fraction_of_nominal, 4),
                              engine.isnull(r.productive_fraction_of_envelope) and "n/a"
                              or py.fixed(r.productive_fraction_of_envelope, 4))
  for _, key in ipairs({ "inference", "training" }) do
    local w = r.workloads[key]
    if w then
      lines[#lines + 1] = ("  %s: %s %s projected (a simulation)\n")
                          :format(key, py.fixed(w.projected_units, 1), w.calibration.unit)
    end
  end
  return table.concat(lines)
end

local REPORT_ORDER = { "schema_version", "evidence_kind", "run_id", "provenance", "unit",
                       "window_hours", "nominal_gpu_h", "envelope_gpu_h",
                       "productive_by_workload_gpu_h", "buckets_gpu_h",
                       "productive_fraction_of_nominal", "productive_fraction_of_envelope",
                       "workloads", "assumptions" }

local options = { cli_options.SET_OPT, cli_options.fmt_opt(), cli_options.STRICT_OPT }

local run = guarded("replay", function(args, out)
  local file = args.operands[1]
  local doc = load_doc(file, "capacity-replay", false)
  local cfg, policy, workloads = scenario_inputs(doc, file, args.set)
  local report = studies.replay_report(cfg, policy, workloads, file)
  local findings = synthetic_findings(args, report, doc, file)
  if args.format == "json" then
    local o = engine.object("pack", "scheduling")
    for _, k in ipairs(REPORT_ORDER) do o[k] = report[k] end
    o.findings = findings_array(findings)
    out:json(o)
  else
    out:write(report_text(report))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
