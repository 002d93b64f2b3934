-- infragate power validate: the validation registry (spec/power.md 7).
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"

-- The registry runs through engine.validate; the model label of each point
-- (7.2 column `model`) and the references of 7.1 are the pack's own (the
-- generic registry document carries neither).
-- The model each point exercises (7.2 column `model`).
local POINT_MODELS = {
  ["state-size-405b"] = "calc", ["energy-share-of-gpu-cost"] = "calc",
  ["curtailed-vs-dc-load-ratio"] = "-", ["weight-transfer-arithmetic"] = "-",
  ["ranking-beats-unranked-in-every-price-year"] = "fleet",
  ["ranking-beats-inverted-in-every-price-year"] = "fleet",
  ["headline-saving-at-5000-ceiling"] = "fleet", ["headline-saving-at-rt-cap-2000"] = "fleet",
  ["spike-ceiling-is-a-model-input"] = "fleet",
  ["concentration-is-a-property-of-the-price-process"] = "fleet",
  ["curtailment-share-of-fleet-energy"] = "fleet", ["spikes-off-policy-is-inert"] = "fleet",
  ["scarcity-headline-arithmetic"] = "calc", ["breakeven-job-length"] = "calc",
  ["breakeven-function-matches-closed-form"] = "calc", ["every-ref-resolves"] = "-",
  ["pipeline-stitch-tax"] = "span", ["allreduce-stitch-tax"] = "span",
  ["allreduce-tax-is-payload-not-latency"] = "span",
  ["causal-controller-clears-its-backlog"] = "causal",
  ["causal-recovers-most-of-the-oracle"] = "causal",
}

local REFERENCES = {
  "US ISO nodal price maps (ERCOT, EIA, GridStatus); ERCOT RTC+B: $5,000 day-ahead, "
    .. "$2,000 real-time caps",
  "~20 TWh of US wind and solar curtailed in 2024 (Amperon); US data centers 176 TWh in "
    .. "2023 (LBNL)",
  "ERCOT large-load queue ~226 GW; PJM capacity price record $329.17/MW-day",
  "a burdened H100 draws ~1.2-1.4 kW; energy ~3-4% of a ~$2-3 GPU-hour at $60/MWh",
  "16 bytes/parameter (ZeRO, arXiv:1910.02054), ~6.5 TB for 405B; WAN egress $0.02-0.09/GB",
  "Duke Nicholas Institute, Rethinking Load Growth (2025): 76 GW at 0.25% curtailed energy",
  "inference as relocatable demand (arXiv:2604.27855); wind within 50 ms RTT "
    .. "(arXiv:2605.23348)",
  "multi-datacenter training (Gemini, SemiAnalysis): 400 TB in 0.64 s at 5 Pbit/s",
  "DiLoCo, Streaming DiLoCo, INTELLECT-1",
  "Google carbon-aware spatial load shifting (arXiv:2106.11750)",
  "EPRI DCFlex (Oct 2024)",
  "power-seeking operators: Crusoe, Lancium, Soluna",
  "Emerald AI Phoenix trial (arXiv:2507.00909); the 96 MW Aurora AI Factory",
  "geographic load balancing: Qureshi et al. 2009; Liu et al. 2011",
  "the scheduling study of the same series",
}

local function g4(x)
  if x == nil or x == engine.null then return "null" end
  return ("%.4g"):format(x)
end

local function validate_output(res, args, out)
  local reg = res -- the registry entry of core.md 11.4
  local points, counts = engine.array(), { exercising = 0 }
  for i, p in ipairs(reg.points) do
    local model = POINT_MODELS[p.id] or "-"
    if model ~= "-" then counts.exercising = counts.exercising + 1 end
    points[i] = engine.object("id", p.id, "kind", p.kind, "model", model, "figure", p.figure,
      "expected", p.expected, "tolerance", p.tolerance, "actual", p.actual, "ok", p.ok,
      "refs", PW.array(p.refs), "source", p.source, "note", p.note, "detail", p.detail)
  end
  local refs = engine.array()
  for i, s in ipairs(REFERENCES) do refs[i] = engine.object("id", i, "source", s) end
  local sm = reg.summary
  local summary = engine.object("points", sm.points, "passed", sm.passed, "failed", sm.failed,
    "calibrated", sm.calibrated, "emergent", sm.emergent, "sanity", sm.sanity,
    "exercising_model", counts.exercising)
  if args.format == "json" then
    local declined = engine.array()
    for i, d in ipairs(reg.declined) do
      declined[i] = engine.object("what", d.what, "why", d.why)
    end
    out:json(engine.object("pack", "power", "mutation", args.mutate or engine.null, "ok", res.ok,
      "settings", reg.settings, "points", points, "declined", declined, "references", refs,
      "summary", summary))
  else
    local t = { ("power validation registry%s\n"):format(args.mutate and
                (" under mutation " .. args.mutate) or "") }
    for _, p in ipairs(points) do
      local r = {}
      for j, x in ipairs(p.refs) do r[j] = "[" .. py.str(x) .. "]" end
      t[#t + 1] = ("%-50s %-10s %-6s %-6s expected %-10s actual %-10s tol %-8s %s\n"):format(
        p.id, p.kind, #r > 0 and table.concat(r) or "-", p.model, g4(p.expected), g4(p.actual),
        g4(p.tolerance), p.ok and "PASS" or "FAIL")
    end
    t[#t + 1] = "declined anchors:\n"
    for _, d in ipairs(reg.declined) do t[#t + 1] = ("  %s: %s\n"):format(d.what, d.why) end
    t[#t + 1] = ("%d points: %d passed, %d failed; %d calibrated, %d emergent, %d sanity; %d "
                 .. "exercise a model\n"):format(sm.points, sm.passed, sm.failed, sm.calibrated,
                                                sm.emergent, sm.sanity, counts.exercising)
    out:write(table.concat(t))
  end
  return res.ok and 0 or 1
end

local options = {
  { "--mutate", type = "string", metavar = "NAME",
    help = "run with a mutation that must turn its points red" },
  cli_base.format_opt(),
}

local function run(args, out)
  local res = engine.validate { pack = "power", mutation = args.mutate }
  return validate_output(res, args, out)
end

return { options = options, run = run }
