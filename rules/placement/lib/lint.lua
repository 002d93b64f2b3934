-- The per-kind analysis that every placement rule reads in lint (spec/
-- placement.md 9): the same resolution and findings the verbs use, one
-- document at a time. Required by the first rule that runs; pack.lua keeps
-- a stub.

local resolve_request = PL.resolve_request
local analyze_request = PL.analyze_request
local resolve_ladder = PL.resolve_ladder
local ladder_findings = PL.ladder_findings
local resolve_library = PL.resolve_library
local default_ladder = PL.default_ladder
local evaluate_ladder = PL.evaluate_ladder
local infeasible_findings = PL.infeasible_findings
local resolve_fleet = PL.resolve_fleet
local fleet_findings = PL.fleet_findings
local run_calls = PL.run_calls

-- Problems and findings of one linted document, by kind.
local function lint_analysis(doc, kind, file)
  local ps, out = {}, {}
  if kind == "placement-request" then
    local rc = resolve_request(doc, { file = file })
    if #rc.problems == 0 then out = analyze_request(rc).findings end
    ps = rc.problems
  elseif kind == "tier-ladder" then
    local tiers = resolve_ladder(doc, "tiers", file, ps)
    if tiers then ladder_findings(tiers, out) end
  elseif kind == "workload-library" then
    local ws = resolve_library(doc, file, ps)
    if ws then
      local tiers, rows = default_ladder(), {}
      for i, w in ipairs(ws) do rows[i] = evaluate_ladder(w, tiers) end
      infeasible_findings(ws, rows, out)
    end
  elseif kind == "fleet-pair" then
    local f = resolve_fleet(doc, file, ps)
    if #ps == 0 then fleet_findings(f, out) end
  elseif kind == "placement-model-calls" then
    run_calls(doc, file, ps)
  end
  return { problems = ps, findings = out }
end

return { lint_analysis = lint_analysis }
