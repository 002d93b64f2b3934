-- The documents of spec/placement.md 5.1-5.6 as the model reads them: a
-- workload or a tier by name or as a mapping, a custom ladder, the
-- tier_overrides of a request, and the ladder rules of 9.3 on a custom
-- ladder. Problems are {file, at, key, on, message}: the schema has
-- accepted the document, and what is left is what it cannot say
-- (references, names, the fields a workload or tier without base must
-- give). Required by the first document a run reads; pack.lua keeps stubs.

local find_by_name = PL.find_by_name
local names_of = PL.names_of
local quoted_list = PL.quoted_list
local copy = PL.copy
local problem = PL.problem
local default_tier = PL.default_tier
local finding = PL.finding
local r = PL.r

local WORKLOAD_FIELDS = { "name", "note", "latency_sla_ms", "access_rtt_ms", "gpus",
                          "gpu_watts", "collective", "data_gravity", "ingest_gbps",
                          "sovereign", "resilience_class" }
local WORKLOAD_REQUIRED = { "name", "latency_sla_ms", "access_rtt_ms", "gpus", "gpu_watts",
                            "collective", "data_gravity" }
local TIER_FIELDS = { "name", "ai_power_kw", "max_fabric_gpus", "max_gpu_watts", "fabric",
                      "km_to_user", "transit_rtt_ms", "cooling", "km_to_parent", "staffed",
                      "in_region" }
local TIER_REQUIRED = { "name", "ai_power_kw", "max_fabric_gpus", "max_gpu_watts", "fabric",
                        "km_to_user", "transit_rtt_ms" }
local INTEGER_FIELDS = { gpus = true, max_fabric_gpus = true, sites = true }

-- A document value as the model uses it: ints become floats where a
-- number is meant (5.0).
local function field_value(k, v)
  if type(v) == "number" and not INTEGER_FIELDS[k] then return v + 0.0 end
  return v
end

local function is_map(v) return engine.type(v) == "map" end

-- The workload at parent[key] (a library name or a mapping), or nil.
local function resolve_workload(parent, key, file, ps)
  local v = parent[key]
  if not is_map(v) then
    local w = find_by_name(LIBRARY, v)
    if not w then
      problem(ps, file, parent, key, ("'%s' is not a library workload; the library has %s")
              :format(v, quoted_list(names_of(LIBRARY))))
      return nil
    end
    return copy(w)
  end
  local w
  if v.base ~= nil then
    local b = find_by_name(LIBRARY, v.base)
    if not b then
      problem(ps, file, v, "base", ("base '%s' is not a library workload; the library has %s")
              :format(v.base, quoted_list(names_of(LIBRARY))))
      return nil
    end
    w = copy(b)
  else
    w = { note = "", ingest_gbps = 0.0, sovereign = false, resilience_class = "R2" }
    local missing = false
    for _, f in ipairs(WORKLOAD_REQUIRED) do
      if v[f] == nil then
        missing = true
        problem(ps, file, v, f, ("a workload without 'base' must give '%s'"):format(f))
      end
    end
    if missing then return nil end
  end
  for _, f in ipairs(WORKLOAD_FIELDS) do
    if v[f] ~= nil then w[f] = field_value(f, v[f]) end
  end
  return w
end

-- The tier at parent[key] (a default tier name or a mapping), or nil. The
-- tier remembers where it was written, for the ladder rules.
local function resolve_tier(parent, key, file, ps)
  local v = parent[key]
  local t
  if not is_map(v) then
    t = default_tier(v)
    if not t then
      problem(ps, file, parent, key, ("'%s' is not a default tier; the defaults are %s")
              :format(v, quoted_list(names_of(DEFAULT_TIERS))))
      return nil
    end
  elseif v.base ~= nil then
    t = default_tier(v.base)
    if not t then
      problem(ps, file, v, "base", ("base '%s' is not a default tier; the defaults are %s")
              :format(v.base, quoted_list(names_of(DEFAULT_TIERS))))
      return nil
    end
  else
    local missing = false
    for _, f in ipairs(TIER_REQUIRED) do
      if v[f] == nil then
        missing = true
        problem(ps, file, v, f, ("a tier without 'base' must give '%s'"):format(f))
      end
    end
    if missing then return nil end
    t = { in_region_stated = false }
  end
  if is_map(v) then
    for _, f in ipairs(TIER_FIELDS) do
      if v[f] ~= nil then t[f] = field_value(f, v[f]) end
    end
    if v.in_region ~= nil then
      t.in_region_stated = true
    elseif not t.base then
      t.in_region = t.name ~= CENTRAL_TIER
    end
  end
  t.loc = { file = file, at = parent, key = key }
  return t
end

-- A custom ladder: the list at parent[key]; names must be unique.
local function resolve_ladder(parent, key, file, ps)
  local list, tiers, ok = parent[key], {}, true
  for i = 1, #list do
    local t = resolve_tier(list, i, file, ps)
    if not t then
      ok = false
    else
      local _, j = find_by_name(tiers, t.name)
      if j then
        ok = false
        local at, k = list, i
        if is_map(list[i]) and list[i].name ~= nil then at, k = list[i], "name" end
        problem(ps, file, at, k, ("tier name '%s' is used twice in the ladder (tiers %d and %d)")
                :format(t.name, j, i))
      end
      tiers[#tiers + 1] = t
    end
  end
  return ok and tiers or nil
end

-- tier_overrides applied to the ladder in use; keys are exact tier names.
local function apply_overrides(doc, tiers, file, ps)
  local o = doc.tier_overrides
  if o == nil then return end
  for name, fields in pairs(o) do
    local t = find_by_name(tiers, name)
    if not t then
      problem(ps, file, o, name, ("tier_overrides names '%s', which is not a tier of the "
              .. "ladder in use (%s)"):format(name, quoted_list(names_of(tiers))), "key")
    else
      for _, f in ipairs(TIER_FIELDS) do
        if fields[f] ~= nil then t[f] = field_value(f, fields[f]) end
      end
      if fields.in_region ~= nil then t.in_region_stated = true end
    end
  end
end

-- The ladder rules (9.3) on a custom ladder.
local function ladder_findings(tiers, out)
  local top = tiers[#tiers]
  if top.in_region and not top.in_region_stated then
    local how = top.base and ("is based on '%s'"):format(top.base)
                or ("has no base and is not named '%s'"):format(CENTRAL_TIER)
    finding(out, "placement.strict.residency-undeclared",
      ("top tier '%s' %s, so it is in region without saying so: sovereign workloads may run "
       .. "there; state in_region"):format(top.name, how), top.name, top.loc)
  end
  for i = 2, #tiers do
    if tiers[i].km_to_user < tiers[i - 1].km_to_user then
      finding(out, "placement.strict.ladder-order",
        ("tier '%s' is %s km from the user, nearer than the %s km of '%s' before it: "
         .. "the ladder must run edge first")
        :format(tiers[i].name, r(tiers[i].km_to_user), r(tiers[i - 1].km_to_user),
                tiers[i - 1].name),
        tiers[i].name, tiers[i].loc,
        engine.object("km_to_user", tiers[i].km_to_user,
                      "previous_km_to_user", tiers[i - 1].km_to_user))
    end
  end
end

return {
  resolve_workload = resolve_workload,
  resolve_tier = resolve_tier,
  resolve_ladder = resolve_ladder,
  apply_overrides = apply_overrides,
  ladder_findings = ladder_findings,
}
