-- A workload-library document's workloads (spec/placement.md 5.4) and the
-- strict infeasible finding of each. Required by matrix --workloads and lint
-- only; pack.lua keeps stubs.

local find_by_name = PL.find_by_name
local finding = PL.finding
local problem = PL.problem
local resolve_workload = PL.resolve_workload

-- The workloads of a workload-library document, or nil with problems.
local function resolve_library(doc, file, ps)
  local list, out, ok = doc.workloads, {}, true
  for i = 1, #list do
    local w = resolve_workload(list, i, file, ps)
    if not w then
      ok = false
    else
      local _, j = find_by_name(out, w.name)
      if j then
        ok = false
        problem(ps, file, list, i, ("workload name '%s' is used twice in the library "
                .. "(workloads %d and %d)"):format(w.name, j, i))
      end
      w.loc = { file = file, at = list, key = i }
      out[#out + 1] = w
    end
  end
  return ok and out or nil
end

local function infeasible_findings(workloads, rows, out)
  for i, w in ipairs(workloads) do
    if not rows[i].rec then
      finding(out, "placement.strict.infeasible",
        ("no tier of the ladder accepts workload '%s'"):format(w.name), nil, w.loc)
    end
  end
end

return {
  resolve_library = resolve_library,
  infeasible_findings = infeasible_findings,
}
