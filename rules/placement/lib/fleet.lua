-- The fleet comparison of spec/placement.md 7.6: a fleet-pair document (or the
-- defaults) resolved, checked against its tiers' envelopes and compared.
-- Required by fleet and lint only; pack.lua keeps stubs.

local INF = PL.INF
local default_tier = PL.default_tier
local evaluate = PL.evaluate
local finding = PL.finding
local power_gpus = PL.power_gpus
local problem = PL.problem
local quoted_list = PL.quoted_list
local r = PL.r
local resolve_tier = PL.resolve_tier

-- Resolve a fleet-pair document (or the defaults when doc is nil).
local function resolve_fleet(doc, file, ps)
  local gpus = { order = {} }
  for _, k in ipairs(GPU_TABLE.order) do
    gpus[k] = GPU_TABLE[k]
    gpus.order[#gpus.order + 1] = k
  end
  if doc and doc.gpus ~= nil then
    for k, g in pairs(doc.gpus) do
      if GPU_TABLE[k] then
        problem(ps, file, doc.gpus, k, ("GPU '%s' is built in and cannot be redefined"):format(k),
                "key")
      else
        gpus[k] = { watts = g.watts + 0.0, tflops_fp8 = g.tflops_fp8 + 0.0 }
        gpus.order[#gpus.order + 1] = k
      end
    end
  end
  local sides = {}
  for _, side in ipairs({ "tower", "hub" }) do
    local dflt = FLEET_DEFAULTS[side]
    local s = { side = side, sites = dflt.sites, gpu = dflt.gpu,
                gpu_loc = { file = file, at = doc, key = side, ptr = "/" .. side .. "/gpu" } }
    local v = doc and doc[side]
    local t
    if v ~= nil and v.tier ~= nil then
      t = resolve_tier(v, "tier", file, ps)
    else
      t = default_tier(dflt.tier)
    end
    if v ~= nil then
      if v.sites ~= nil then s.sites = v.sites end
      s.gpu_loc = { file = file, at = v, key = "gpu" }
      if v.gpu ~= nil then
        s.gpu = v.gpu
        if not gpus[v.gpu] then
          problem(ps, file, v, "gpu", ("GPU '%s' is not in the GPU table (%s)")
                  :format(v.gpu, quoted_list(gpus.order)))
        end
      end
    end
    if not doc then s.gpu_loc = nil end
    s.tier = t
    sides[side] = s
  end
  return { gpus = gpus, tower = sides.tower, hub = sides.hub }
end

local function fleet_side(s, gpus)
  local t, g = s.tier, gpus[s.gpu]
  local per_power = power_gpus(t.ai_power_kw, g.watts)
  local per_fabric = t.max_fabric_gpus
  local per = per_power < per_fabric and per_power or per_fabric
  local bound = per_fabric < per_power and "fabric" or per_power < per_fabric and "power"
                or "both"
  local gpus_n = per * s.sites
  local ai_mw = (t.ai_power_kw * s.sites) / 1000.0
  local consumed = ((gpus_n * g.watts) * CONST.POWER_OVERHEAD) / 1e6
  local stranded = ai_mw == 0 and 0.0 or 1.0 - consumed / ai_mw
  local pflops = (gpus_n * g.tflops_fp8) / 1000.0
  local ppmw = ai_mw == 0 and 0.0 or pflops / ai_mw
  local hostable = {}
  for _, w in ipairs(LIBRARY) do
    if evaluate(w, t).status ~= "BLOCKED" then hostable[#hostable + 1] = w.name end
  end
  return { tier = t.name, sites = s.sites, gpu = s.gpu, gpu_watts = g.watts,
           gpu_tflops_fp8 = g.tflops_fp8, power_gpus_per_site = per_power,
           fabric_gpus_per_site = per_fabric, gpus_per_site = per, bound_by = bound,
           gpus = gpus_n, ai_mw = ai_mw, consumed_mw = consumed, stranded_fraction = stranded,
           pflops_fp8 = pflops, pflops_per_mw = ppmw, hostable = hostable,
           max_gpu_watts = t.max_gpu_watts }
end

local function fleet_findings(f, out)
  for _, side in ipairs({ "tower", "hub" }) do
    local s, g = f[side], f.gpus[f[side].gpu]
    if g.watts > s.tier.max_gpu_watts then
      finding(out, "placement.strict.fleet-envelope",
        ("%s fleet: GPU '%s' draws %s W, over tier '%s''s %s W envelope (max_gpu_watts)")
        :format(side, s.gpu, r(g.watts), s.tier.name, r(s.tier.max_gpu_watts)),
        s.tier.name, s.gpu_loc,
        engine.object("gpu_watts", g.watts, "max_gpu_watts", s.tier.max_gpu_watts))
    end
  end
end

-- The fleet comparison: both sides, the ratio and the rounded summary.
local function compare_fleet(f)
  local tw, hb = fleet_side(f.tower, f.gpus), fleet_side(f.hub, f.gpus)
  local ratio = tw.pflops_per_mw == 0 and INF or hb.pflops_per_mw / tw.pflops_per_mw
  local rnd = engine.round
  local summary = {}
  for _, p in ipairs({ { "tower", tw }, { "hub", hb } }) do
    local k, s = p[1], p[2]
    summary[k] = { sites = s.sites, gpus = s.gpus, ai_mw = rnd(s.ai_mw, 1),
                   consumed_mw = rnd(s.consumed_mw, 1),
                   stranded_pct = rnd(s.stranded_fraction * 100, 0),
                   pflops_fp8 = rnd(s.pflops_fp8, 0), pflops_per_mw = rnd(s.pflops_per_mw, 0),
                   quantum = s.gpus_per_site, hostable = #s.hostable }
  end
  summary.ratio = ratio ~= INF and rnd(ratio, 1) or INF
  return { tower = tw, hub = hb, ratio = ratio, summary = summary }
end

return {
  resolve_fleet = resolve_fleet,
  fleet_side = fleet_side,
  fleet_findings = fleet_findings,
  compare_fleet = compare_fleet,
}
