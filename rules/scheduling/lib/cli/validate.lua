-- infragate scheduling validate: the validation registry: 17 points, declined
-- anchors, mutations.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local array = cli_base.array
local guarded = cli_edge.guarded

-- The model each point exercises and the references of 7.1 (the pack's
-- own validate verb prints both; 4a and 4b are cited by no point).
local POINT_MODELS = {
  ["meta-most-jobs-small"] = "workload", ["meta-most-gpu-time-large"] = "workload",
  ["rsc1-failure-rate-constant"] = "-", ["meta-ettr-band"] = "sim",
  ["philly-large-jobs-wait-longer"] = "sim", ["scheduler-work-reclaims-capacity"] = "sim",
  ["emergency-kills-lose-work"] = "sim", ["queueing-grows-with-load"] = "sim",
  ["demand-tracking-cuts-reservation-waste"] = "sim",
  ["preset-alibaba-recovered-allocation"] = "calc",
  ["preset-harvard-aug2026-scheduler-layer"] = "calc",
  ["preset-meta-ettr-productivity-layer"] = "calc",
  ["expected-work-uses-capped-mean"] = "workload",
  ["preset-alibaba-before-allocation-layer"] = "calc",
  ["typical-composite-realized-share"] = "calc",
  ["allocation-gap-per-gpu-vs-outage"] = "calc",
  ["tracking-and-elasticity-each-help"] = "sens",
}

local REFERENCES = {
  { id = 1, source = "Harvard FASRC status page, 'Cannon cluster down', 29 May - 1 Jun 2026" },
  { id = 4, source = "Harvard FASRC cluster computing service page: Cannon has 1,000+ GPUs" },
  { id = "4a", source = "Harvard FASRC status page, emergency Slurm patch, 18 Aug 2026" },
  { id = "4b", source = "SchedMD bug 25685 (Slurm memory leak, fixed in 26.05.3)" },
  { id = 25, source = "Verma et al., Large-scale cluster management at Google with Borg, "
                      .. "EuroSys 2015" },
  { id = 34, source = "Kokolis et al. (Meta), Revisiting Reliability in Large-Scale ML Research "
                      .. "Clusters, arXiv:2410.21680" },
  { id = 35, source = "Jeon et al. (Microsoft), Analysis of Large-Scale Multi-Tenant GPU Clusters, "
                      .. "USENIX ATC 2019" },
  { id = 37, source = "Li et al. (Alibaba), Heterogeneity at Hyperscale, OSDI 2026" },
  { id = 41, source = "US 11,128,536 B2, intent-based traffic management" },
}

local function refs_text(refs)
  if #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do parts[i] = ("[%s]"):format(py.str(r)) end
  return table.concat(parts)
end

local function g4(x)
  if x == nil or engine.isnull(x) then return "none" end
  return ("%.4g"):format(x)
end

-- The registry's mutations (7.3), in the order --help lists them.
local MUTATIONS = { "intent-is-rigid", "tiered-kills", "flat-sizes", "rsc1-rate-13",
                    "checkpoint-every-step", "equal-loads", "small-vs-small",
                    "intent-peak-provisioned", "alibaba-after-unoptimized",
                    "medians-as-means", "no-elasticity" }

local options = {
  { "--mutate", type = "choice", choices = MUTATIONS, metavar = "NAME",
    help = "break one mechanism on purpose: " .. table.concat(MUTATIONS, ", ") },
  cli_options.fmt_opt(),
}

local run = guarded("validate", function(args, out)
  local entry = engine.validate { mutation = args.mutate }
  local counts = { calibrated = 0, emergent = 0, sanity = 0 }
  local passed, exercising = 0, 0
  local points = engine.array()
  for i, p in ipairs(entry.points) do
    local model = POINT_MODELS[p.id] or "-"
    counts[p.kind] = counts[p.kind] + 1
    if p.ok then passed = passed + 1 end
    if model ~= "-" then exercising = exercising + 1 end
    points[i] = engine.object("id", p.id, "kind", p.kind, "model", model, "figure", p.figure,
                              "expected", p.expected, "tolerance", p.tolerance,
                              "actual", p.actual == nil and engine.null or p.actual,
                              "ok", p.ok, "refs", array(p.refs),
                              "source", p.source or engine.null, "note", p.note or engine.null,
                              "detail", p.detail or engine.object())
  end
  if args.format == "json" then
    local declined, refs = engine.array(), engine.array()
    for i, d in ipairs(entry.declined) do
      declined[i] = engine.object("what", d.what, "why", d.why)
    end
    for i, r in ipairs(REFERENCES) do refs[i] = engine.object("id", r.id, "source", r.source) end
    out:json(engine.object(
      "pack", "scheduling", "mutation", args.mutate or engine.null, "ok", entry.ok,
      "settings", entry.settings, "points", points, "declined", declined, "references", refs,
      "summary", engine.object("points", #points, "passed", passed, "failed", #points - passed,
                               "calibrated", counts.calibrated, "emergent", counts.emergent,
                               "sanity", counts.sanity, "exercising_model", exercising)))
    return entry.ok and 0 or 1
  end
  local lines = { ("scheduling validation registry%s\n")
                  :format(args.mutate and (" under mutation " .. args.mutate) or "") }
  for _, p in ipairs(points) do
    lines[#lines + 1] = ("%-44s %-10s %-9s %-8s expected %10s  actual %10s  tol %-8s %s\n")
                        :format(p.id, p.kind, refs_text(p.refs), p.model, g4(p.expected),
                                g4(p.actual), g4(p.tolerance), p.ok and "PASS" or "FAIL")
  end
  lines[#lines + 1] = "declined anchors:\n"
  for _, d in ipairs(entry.declined) do
    lines[#lines + 1] = ("  %s: %s\n"):format(d.what, d.why)
  end
  lines[#lines + 1] = ("%d points: %d passed, %d failed (%d calibrated, %d emergent, %d sanity; "
                       .. "%d exercise a model)\n"):format(#points, passed, #points - passed,
    counts.calibrated, counts.emergent, counts.sanity, exercising)
  out:write(table.concat(lines))
  return entry.ok and 0 or 1
end)

return { options = options, run = run }
