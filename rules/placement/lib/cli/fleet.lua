-- edge-placement fleet: a tower fleet against an aggregation-hub fleet: power, GPUs, capability.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local INF = cli_shared.INF
local array_of = cli_shared.array_of
local finite_or_null = cli_shared.finite_or_null
local pad = cli_shared.pad
local raise_problems = cli_shared.raise_problems
local active = cli_shared.active
local has_error = cli_shared.has_error
local add_findings_json = cli_shared.add_findings_json
local findings_text = cli_shared.findings_text
local load = cli_shared.load

local SIDE_KEYS = { "tier", "sites", "gpu", "gpu_watts", "gpu_tflops_fp8",
                    "power_gpus_per_site", "fabric_gpus_per_site", "gpus_per_site",
                    "bound_by", "gpus", "ai_mw", "consumed_mw", "stranded_fraction",
                    "pflops_fp8", "pflops_per_mw" }

local function side_json(s)
  local o = engine.object()
  for _, k in ipairs(SIDE_KEYS) do o[k] = s[k] end
  o.hostable = array_of(s.hostable)
  o.hostable_count = #s.hostable
  return o
end

local SUMMARY_ROWS = {
  { "sites", "sites" },
  { "AI power provisioned (MW)", "ai_mw" },
  { "AI power consumed (MW)", "consumed_mw" },
  { "envelope stranded (%)", "stranded_pct" },
  { "GPUs", "gpus" },
  { "dense FP8 PFLOPS", "pflops_fp8" },
  { "PFLOPS per MW", "pflops_per_mw" },
  { "quantum (GPUs per site)", "quantum" },
  { "workload classes hosted", "hostable" },
}

-- The summary's JSON keys, in the order of 6.5: {summary field, key}.
local SUMMARY_JSON = {
  { "sites", "sites" }, { "gpus", "gpus" }, { "ai_mw", "ai_mw" },
  { "consumed_mw", "consumed_mw" }, { "stranded_pct", "stranded_pct" },
  { "pflops_fp8", "pflops_fp8" }, { "pflops_per_mw", "pflops_per_mw" },
  { "quantum", "scheduling_quantum_gpus" }, { "hostable", "hostable" },
}

local function fleet_text(c, findings)
  local s = c.summary
  local lines = { pad("fleet", 25) .. " " .. pad("tower", 16) .. " hub\n" }
  for _, row in ipairs(SUMMARY_ROWS) do
    lines[#lines + 1] = ("%s %s %s\n"):format(pad(row[1], 25),
      pad(py.thousands(s.tower[row[2]]), 16), py.thousands(s.hub[row[2]]))
  end
  lines[#lines + 1] = "\n"
  local ratio = s.ratio == INF and "inf" or engine.repr(s.ratio)
  lines[#lines + 1] = ("per provisioned MW the hub fleet carries %sx the tower fleet's dense "
                       .. "FP8 capability\n"):format(ratio)
  lines[#lines + 1] = ("per watt drawn the tower's silicon holds its own; what the tower fleet "
                       .. "pays for is the %d%% of its envelope that its %d-GPU quantum per "
                       .. "site leaves unused\n")
    :format(engine.round(c.tower.stranded_fraction * 100), c.tower.gpus_per_site)
  return table.concat(lines) .. findings_text(findings)
end

return function(args, out)
  local doc
  if args.pair then doc = load(args.pair, "fleet-pair") end
  local ps = {}
  local f = PL.resolve_fleet(doc, args.pair, ps)
  if #ps > 0 then raise_problems(ps) end
  local c = PL.compare_fleet(f)
  local findings = {}
  PL.fleet_findings(f, findings)
  findings = active(findings, args.strict)
  local rc = args.strict and has_error(findings) and 1 or 0
  if args.format == "json" then
    local summary = engine.object()
    for _, side in ipairs({ "tower", "hub" }) do
      for _, k in ipairs(SUMMARY_JSON) do
        summary[side .. "_" .. k[2]] = c.summary[side][k[1]]
      end
    end
    summary.hub_capability_per_mw_x = finite_or_null(c.summary.ratio)
    local obj = engine.object("tower", side_json(c.tower), "hub", side_json(c.hub),
                              "capability_per_mw_x", finite_or_null(c.ratio),
                              "summary", summary)
    add_findings_json(obj, findings)
    out:json(obj)
  else
    out:write(fleet_text(c, findings))
  end
  return rc
end
