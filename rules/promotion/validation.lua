-- The latency-hierarchy exhibit (spec/promotion.md 9): the promotion pack's
-- own registry format (core.md 11.5). The engine has validated the file
-- against schemas/promotion-registry.yaml; this function checks what a
-- schema cannot (duplicate ids, a point's own keys), computes every point
-- and returns the registry entry of 9.5.
local INF = math.huge

local function arr(list)
  local a = engine.array()
  for i, v in ipairs(list) do a[i] = v end
  return a
end

local function nul(v)
  if v == nil then return engine.null end
  return v
end

local function finite_or_null(x)
  if x == nil or x == INF or x == -INF then return engine.null end
  return x
end

local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- A malformed registry: exit 2 at the node 'path' names (the schema
-- already caught the shapes); the engine reports it under the pack's
-- registry_error id with the node's line and column.
local function malformed(path, message)
  engine.input_error({ { rule = "promotion.registry-malformed", path = path,
                         message = message } })
end

-- The pointer of each point, for need() inside the checks.
local point_path = {}

local function need(p, key, kind)
  local v = p[key]
  local at = (point_path[p] or "/points") .. (v == nil and "" or "/" .. key)
  if kind == "number" and type(v) ~= "number" then
    malformed(at, ("point '%s' needs a number '%s'"):format(p.id, key))
  elseif kind == "string" and type(v) ~= "string" then
    malformed(at, ("point '%s' needs a string '%s'"):format(p.id, key))
  end
  return v
end

-- The rungs whose label is exactly 'label'.
local function lookup(reg, label)
  local found = {}
  for _, r in ipairs(reg.rungs) do
    if r.label == label then found[#found + 1] = r end
  end
  return found
end

local CHECKS = {}

function CHECKS.band(reg, p)
  local label, lo, hi, ref = need(p, "rung", "string"), need(p, "lo", "number"),
                             need(p, "hi", "number"), need(p, "ref", "number")
  local m = lookup(reg, label)
  local r = #m == 1 and m[1] or nil
  local pass = r ~= nil and lo <= r.seconds and r.seconds <= hi and r.ref == ref
  return pass, r and r.seconds, { "rung", label, "matches", #m, "lo", finite_or_null(lo),
                                  "hi", finite_or_null(hi), "ref", ref,
                                  "cited_ref", nul(r and r.ref) }
end

function CHECKS.arithmetic(reg, p)
  local label, expected, abs, ref = need(p, "rung", "string"), need(p, "expected", "number"),
                                    need(p, "abs", "number"), need(p, "ref", "number")
  local m = lookup(reg, label)
  local r = #m == 1 and m[1] or nil
  local dev = r and math.abs(r.seconds - expected)
  local pass = r ~= nil and dev <= abs and r.ref == ref
  return pass, r and r.seconds, { "rung", label, "matches", #m, "expected", expected,
                                  "abs", abs, "deviation", nul(dev), "ref", ref,
                                  "cited_ref", nul(r and r.ref) }
end

CHECKS["refs-resolve"] = function(reg)
  local used, defined, unresolved = {}, {}, {}
  for _, s in ipairs(reg.sources) do defined[s.ref] = true end
  for _, r in ipairs(reg.rungs) do
    used[r.ref] = true
    if not defined[r.ref] then unresolved[r.ref] = true end
  end
  return next(unresolved) == nil, nil, { "used", arr(sorted(used)), "defined", arr(sorted(defined)),
                                         "unresolved", arr(sorted(unresolved)) }
end

CHECKS["labels-unique"] = function(reg)
  local count, distinct, dups = {}, 0, {}
  for _, r in ipairs(reg.rungs) do
    count[r.label] = (count[r.label] or 0) + 1
    if count[r.label] == 1 then distinct = distinct + 1 end
    if count[r.label] == 2 then dups[r.label] = true end
  end
  return next(dups) == nil, distinct, { "duplicates", arr(sorted(dups)) }
end

CHECKS["tier-partition"] = function(reg)
  local present, grouped, unknown, absent = {}, {}, {}, {}
  for _, r in ipairs(reg.rungs) do present[r.tier] = true end
  for _, group in ipairs({ "deliberative", "mechanism", "sensing" }) do
    for _, t in ipairs(reg.tiers[group]) do grouped[t] = true end
  end
  for t in pairs(present) do if not grouped[t] then unknown[t] = true end end
  for t in pairs(grouped) do if not present[t] then absent[t] = true end end
  return next(unknown) == nil and next(absent) == nil, nil,
         { "present", arr(sorted(present)), "unknown", arr(sorted(unknown)),
           "absent", arr(sorted(absent)) }
end

-- coverage and tier-ratio need the other points' verdicts or the groups.
local function coverage(reg, verdicts)
  local covered, declined = 0, 0
  for i, p in ipairs(reg.points) do
    if p.kind == "calibrated" and verdicts[i] then covered = covered + 1 end
  end
  for _, d in ipairs(reg.declined or {}) do
    if d.rung ~= nil then declined = declined + 1 end
  end
  return covered + declined == #reg.rungs, covered + declined,
         { "covered", covered, "declined", declined, "rungs", #reg.rungs }
end

CHECKS["tier-ratio"] = function(reg, p)
  local min = need(p, "min", "number")
  local delib, mech = {}, {}
  for _, t in ipairs(reg.tiers.deliberative) do delib[t] = true end
  for _, t in ipairs(reg.tiers.mechanism) do mech[t] = true end
  local fastest, slowest
  for _, r in ipairs(reg.rungs) do
    if delib[r.tier] and (fastest == nil or r.seconds < fastest) then fastest = r.seconds end
    if mech[r.tier] and (slowest == nil or r.seconds > slowest) then slowest = r.seconds end
  end
  local ratio
  if fastest and slowest and slowest > 0 then ratio = fastest / slowest end
  local pass = ratio ~= nil and ratio >= min
  return pass, ratio, { "min", min, "fastest_deliberative", nul(fastest),
                        "slowest_mechanism", nul(slowest) }
end

local function check_ids(reg)
  local seen = {}
  for i, p in ipairs(reg.points) do
    point_path[p] = "/points/" .. (i - 1)
    if seen[p.id] then
      malformed(point_path[p] .. "/id",
                ("point id '%s' appears twice (first at %s)"):format(p.id, seen[p.id]))
    end
    seen[p.id] = point_path[p]
  end
  for i, d in ipairs(reg.declined or {}) do
    local at = "/declined/" .. (i - 1)
    if seen[d.id] then
      malformed(at .. "/id", ("id '%s' appears twice (first at %s)"):format(d.id, seen[d.id]))
    end
    seen[d.id] = at
  end
  local refs = {}
  for i, s in ipairs(reg.sources) do
    local at = "/sources/" .. (i - 1)
    if refs[s.ref] then
      malformed(at .. "/ref",
                ("source ref %d appears twice (first at %s)"):format(s.ref, refs[s.ref]))
    end
    refs[s.ref] = at
  end
  for i, r in ipairs(reg.rungs) do
    if r.seconds ~= r.seconds or r.seconds == INF then
      malformed("/rungs/" .. (i - 1) .. "/seconds",
                ("rung '%s' needs finite seconds"):format(r.label))
    end
  end
end

return function(reg)
  check_ids(reg)
  local verdicts, results = {}, {}
  for i, p in ipairs(reg.points) do
    if p.check ~= "coverage" then
      local pass, value, extra = CHECKS[p.check](reg, p)
      verdicts[i], results[i] = pass, { value, extra }
    end
  end
  for i, p in ipairs(reg.points) do
    if p.check == "coverage" then
      local pass, value, extra = coverage(reg, verdicts)
      verdicts[i], results[i] = pass, { value, extra }
    end
  end
  local points, failed = engine.array(), {}
  for i, p in ipairs(reg.points) do
    local o = engine.object("id", p.id, "kind", p.kind, "check", p.check,
                            "verdict", verdicts[i] and "pass" or "fail",
                            "value", nul(results[i][1]))
    local extra = results[i][2]
    for k = 1, #extra, 2 do o[extra[k]] = extra[k + 1] end
    points[i] = o
    if not verdicts[i] then failed[#failed + 1] = p.id end
  end
  local declined = engine.array()
  for i, d in ipairs(reg.declined or {}) do
    declined[i] = engine.object("id", d.id, "rung", nul(d.rung), "ref", nul(d.ref),
                                "reason", d.reason)
  end
  local rungs = engine.array()
  for i, r in ipairs(reg.rungs) do
    rungs[i] = engine.object("label", r.label, "seconds", r.seconds, "tier", r.tier, "ref", r.ref)
  end
  local ok = #failed == 0
  return engine.object("pack", "promotion", "ok", ok, "points", points, "declined", declined,
                       "rungs", rungs,
                       "summary", engine.object("points", #reg.points,
                                                "passed", #reg.points - #failed,
                                                "failed", #failed,
                                                "declined", #(reg.declined or {}),
                                                "failed_points", arr(failed)))
end
