-- luacheck: std +lua54 (math.type and math.tointeger tell ints from floats)
-- Figures of validation/network.yaml (spec/network.md 7): the Llama 3
-- calibration (throughput, interruptions, ETTR, kernel efficiency), the
-- scale-across behaviours (distance, placement, contention, the NIC cap)
-- and sanity properties of the tier model. A mutation sets switches in the
-- pack global VARIANT, which every model call of pack.lua and of this file
-- passes on; the figures themselves never change.
local N = models.network

-- ---- scenarios ------------------------------------------------------------------------------

local function preset(name)
  local scn = NW.convert(NW.preset_doc(name), {})
  return NW.resolve(scn)
end

local function with(scn, edits)
  local t = NW.copy(scn)
  for path, v in pairs(edits) do
    local sec, name = path:match("^(.-)%.(.*)$")
    if sec then t[sec][name] = v else t[path] = v end
  end
  if edits.n_pool == nil then t.n_pool = 0 end
  return NW.resolve(t)
end

-- The "trial-class" scenario of N accelerators (GPT-3 175B on H100, 7).
local function trial_class(n)
  local dp = n // 64
  return NW.resolve({
    name = ("trial-class-%d"):format(n),
    model = { name = "gpt3-175b", n_layers = 96, hidden = 12288, n_params = 1.75e11,
              seq_len = 2048, vocab = 50257, n_heads = 96, n_kv_heads = 96, ffn_multiplier = 4.0 },
    accelerator = { name = "H100-SXM", peak_flops_bf16 = 9.895e14, memory_gb = 80.0,
                    scaleup_bw_gbps = 3600.0, nic_bw_gbps = 400.0, accelerators_per_node = 8 },
    topology = { scaleup_domain = 8, pod_size = math.min(n, 3072), oversubscription = 1.0 },
    parallelism = { tp = 8, pp = 8, cp = 1, dp = dp, micro_batch = 1,
                    global_batch_seqs = math.max(1024, 8 * dp) },
    reliability = {}, kernel = {}, window_days = 30.0,
  })
end

local function settings(v)
  local s = v.settings
  return s, preset(s.scenario)
end

local function span(scn, cut, alpha, gbps, placement)
  return N.span(scn, cut, alpha, gbps, 2, placement or "hierarchical", VARIANT)
end

local function ratio(scn, cut, alpha, gbps, placement)
  return span(scn, cut, alpha, gbps, placement).step_ratio
end

local function indicator(ok)
  return ok and 1 or 0
end

-- ---- the Llama 3 calibration (points 1-4) ---------------------------------------------------

local function calibration(v)
  return v:once("calibration", function()
    local s8 = preset("llama3-405b-8k")
    local lo, hi = 0.05, 0.99
    for _ = 1, 200 do
      local mid = 0.5 * (lo + hi)
      s8.kernel.kernel_efficiency = mid
      if N.step(s8, VARIANT).tflops_per_gpu < 430.0 then lo = mid else hi = mid end
    end
    local eff = 0.5 * (lo + hi)
    local s16 = preset("llama3-405b-16k")
    s16.kernel.kernel_efficiency = eff
    local st = N.step(s16, VARIANT)
    local l = NW.ledger(s16)
    return { eff = eff, tflops = st.tflops_per_gpu, n_failures = l.n_failures, ettr = l.ettr }
  end)
end

engine.figure {
  id = "network.llama3-heldout-throughput",
  compute = function(v)
    local c = calibration(v)
    return math.abs(c.tflops - 400.0) / 400.0, { predicted_tflops_per_gpu = c.tflops }
  end,
}

engine.figure {
  id = "network.llama3-interruptions",
  compute = function(v)
    local c = calibration(v)
    return math.abs(c.n_failures - 419.0) / 419.0, { n_failures = c.n_failures }
  end,
}

engine.figure {
  id = "network.llama3-ettr-floor",
  compute = function(v)
    local c = calibration(v)
    return indicator(c.ettr >= 0.85), { ettr = c.ettr }
  end,
}

engine.figure {
  id = "network.llama3-kernel-efficiency",
  compute = function(v) return calibration(v).eff end,
}

-- ---- distance and the trial (points 5-6) ----------------------------------------------------

engine.figure {
  id = "network.distance-does-not-bind-below-ten-km",
  compute = function(v)
    local s, scn = settings(v)
    local worst = 0.0
    for _, placement in ipairs({ "hierarchical", "blind" }) do
      for _, cut in ipairs({ "pp", "dp" }) do
        for _, g in ipairs(s.reported_gbps) do
          local r = ratio(scn, cut, s.ten_km_us, g, placement)
                    / ratio(scn, cut, s.adjacent_us, g, placement) - 1
          if r > worst then worst = r end
        end
      end
    end
    return worst
  end,
}

engine.figure {
  id = "network.metro-two-site-floor",
  compute = function(v)
    local s = v.settings
    local t = trial_class(512)
    local pp = span(t, "pp", s.metro_120km_us, s.ofc_gbps).retention
    local dp = span(t, "dp", s.metro_120km_us, s.ofc_gbps).retention
    local low = math.min(pp, dp)
    return indicator(low >= 0.90), { pp = pp, dp = dp, min = low }
  end,
}

-- ---- emergent behaviours (points 7-13) ------------------------------------------------------

engine.figure {
  id = "network.exposed-bytes-order-the-cuts",
  compute = function(v)
    local s, scn = settings(v)
    local plans = { scn, trial_class(512), trial_class(2048), trial_class(8192) }
    local wrong = 0
    for _, p in ipairs(plans) do
      local bpp = N.bytes(p, "pp", 2, s.campus_gbps, VARIANT).exposed
      local bdp = N.bytes(p, "dp", 2, s.campus_gbps, VARIANT).exposed
      local fewer = bpp < bdp and "pp" or "dp"
      local rpp = span(p, "pp", s.campus_us, s.campus_gbps).retention
      local rdp = span(p, "dp", s.campus_us, s.campus_gbps).retention
      local better = rpp > rdp and "pp" or "dp"
      if fewer ~= better then wrong = wrong + 1 end
    end
    return wrong
  end,
}

engine.figure {
  id = "network.blind-penalty-grows-with-the-crossing-ring",
  compute = function(v)
    local s, scn = settings(v)
    local plans = { { 128, 8, 16 }, { 256, 8, 8 }, { 512, 8, 4 }, { 1024, 8, 2 } }
    local r, ok = {}, true
    for i, p in ipairs(plans) do
      local t = with(scn, { ["parallelism.dp"] = p[1], ["parallelism.tp"] = p[2],
                            ["parallelism.pp"] = p[3],
                            ["parallelism.global_batch_seqs"] = math.max(2048, 2 * p[1]) })
      r[i] = ratio(t, "dp", s.region_us, s.probe_gbps, "blind")
      if i > 1 and r[i] <= r[i - 1] then ok = false end
    end
    ok = ok and r[#r] / r[1] >= 2
    return indicator(ok), { ratios = r }
  end,
}

local function blind_dp_by_regime(v)
  return v:once("blind-dp-regimes", function()
    local s, scn = settings(v)
    local r = {}
    for i, reg in ipairs(NW.REGIMES) do
      r[i] = ratio(scn, "dp", reg.alpha_us, s.probe_gbps, "blind")
    end
    return r
  end)
end

engine.figure {
  id = "network.blind-penalty-grows-with-distance",
  compute = function(v)
    local r, ok = blind_dp_by_regime(v), true
    for i = 2, #r do
      if r[i] < r[i - 1] - 1e-12 then ok = false end
    end
    return indicator(ok and r[#r] / r[1] >= 1.5), { ratios = r }
  end,
}

engine.figure {
  id = "network.placement-not-distance-causes-the-cliff",
  compute = function(v)
    local s, scn = settings(v)
    local blind = ratio(scn, "dp", s.region_us, s.probe_gbps, "blind")
    local hier = ratio(scn, "dp", s.region_us, s.probe_gbps, "hierarchical")
    return indicator(blind - 1 >= 0.5 and blind - 1 >= 2 * (hier - 1)),
           { blind = blind, hierarchical = hier }
  end,
}

engine.figure {
  id = "network.pipeline-placement-costs-at-every-distance",
  compute = function(v)
    local s, scn = settings(v)
    local q, ok = {}, true
    for i, reg in ipairs(NW.REGIMES) do
      q[i] = ratio(scn, "pp", reg.alpha_us, s.campus_gbps, "blind")
             / ratio(scn, "pp", reg.alpha_us, s.campus_gbps, "hierarchical")
      if q[i] < 2 then ok = false end
    end
    return indicator(ok), { blind_over_hierarchical = q }
  end,
}

engine.figure {
  id = "network.a-metro-stitch-degrades-as-the-cluster-grows",
  compute = function(v)
    local s = v.settings
    local r = {}
    for i, n in ipairs({ 512, 2048, 8192 }) do
      r[i] = span(trial_class(n), "pp", s.metro_120km_us, s.ofc_gbps).retention
    end
    return indicator(r[1] > r[2] and r[2] > r[3]), { retentions = r }
  end,
}

engine.figure {
  id = "network.tensor-parallel-is-the-only-distance-bound-cut",
  compute = function(v)
    local s, scn = settings(v)
    local sens = {}
    for _, cut in ipairs({ "tp", "pp", "dp" }) do
      local near = span(scn, cut, s.campus_us, s.probe_gbps).retention
      local far = span(scn, cut, s.region_us, s.probe_gbps).retention
      sens[cut] = math.abs(near - far) / near
    end
    return indicator(sens.tp > 0.05 and sens.pp <= 0.05 and sens.dp <= 0.05),
           { tp = sens.tp, pp = sens.pp, dp = sens.dp }
  end,
}

-- ---- sanity of the machinery (points 14-20) -------------------------------------------------

local function local_step(scn)
  return N.step(with(scn, { ["topology.halls"] = 1, ["topology.span_dimension"] = "none",
                            ["topology.span_bw_gbps"] = 0.0 }), VARIANT).t_step_s
end

engine.figure {
  id = "network.hall-local-is-the-three-tier-model",
  compute = function(v)
    local _, scn = settings(v)
    local plain = N.step(scn, VARIANT).t_step_s
    return math.abs(local_step(scn) - plain)
  end,
}

engine.figure {
  id = "network.spanning-never-speeds-a-step-up",
  compute = function(v)
    local s, scn = settings(v)
    local t_local, count = local_step(scn), 0
    for _, cut in ipairs(NW.CUTS) do
      for _, reg in ipairs(NW.REGIMES) do
        for _, g in ipairs(s.reported_gbps) do
          for _, placement in ipairs({ "hierarchical", "blind" }) do
            local c = span(scn, cut, reg.alpha_us, g, placement)
            if c.applicable and c.step_ratio * t_local < t_local - 1e-9 then
              count = count + 1
            end
          end
        end
      end
    end
    return count
  end,
}

engine.figure {
  id = "network.widening-never-slows-a-step",
  compute = function(v)
    local s, scn = settings(v)
    local ladder = {}
    for i, g in ipairs(s.reported_gbps) do ladder[i] = g end
    for _, g in ipairs({ 6400.0, 12800.0, 25600.0, s.probe_gbps }) do ladder[#ladder + 1] = g end
    local count = 0
    for _, cut in ipairs(NW.CUTS) do
      for _, reg in ipairs(NW.REGIMES) do
        for _, placement in ipairs({ "hierarchical", "blind" }) do
          local prev, bad = nil, false
          for _, g in ipairs(ladder) do
            local c = span(scn, cut, reg.alpha_us, g, placement)
            if not c.applicable then break end
            if prev and c.step_ratio > prev + 1e-12 then bad = true end
            prev = c.step_ratio
          end
          if bad then count = count + 1 end
        end
      end
    end
    return count
  end,
}

engine.figure {
  id = "network.stitch-latency-survives-total-overlap",
  compute = function(v)
    local s, scn = settings(v)
    local t = with(scn, { ["parallelism.overlap_dp"] = 1.0, ["parallelism.overlap_tp"] = 1.0,
                          ["parallelism.overlap_pp"] = 1.0, ["parallelism.overlap_cp"] = 1.0 })
    local t_local = local_step(t)
    local spanned = ratio(t, "dp", s.region_us, s.probe_gbps, "hierarchical") * t_local
    return indicator(spanned > t_local + 1e-12), { t_step_s = spanned, local_s = t_local }
  end,
}

engine.figure {
  id = "network.no-rank-outruns-its-nic",
  compute = function(v)
    local _, scn = settings(v)
    local t = with(scn, { ["topology.halls"] = 2, ["topology.span_dimension"] = "dp",
                          ["topology.span_bw_gbps"] = 1e12 })
    local share = N.span_share(t, 1.0, VARIANT)
    local nic = 400 * 1e9 * scn.topology.net_efficiency / 8
    return share / nic, { share_Bps = share, nic_Bps = nic }
  end,
}

engine.figure {
  id = "network.widening-past-the-nic-cap-buys-nothing",
  compute = function(v)
    local s, scn = settings(v)
    local r1 = ratio(scn, "dp", s.region_us, s.probe_gbps, "blind")
    local r2 = ratio(scn, "dp", s.region_us, 2 * s.probe_gbps, "blind")
    return (r1 - r2) / r1
  end,
}

engine.figure {
  id = "network.no-stitch-no-stitch-latency",
  compute = function(v)
    local _, scn = settings(v)
    local l = N.layout(scn, "dp", VARIANT)
    return l.span_latency_allreduce_s, { members = scn.parallelism.dp, stride = 128 }
  end,
}

-- ---- mutations (7): each switches one formula of the C model --------------------------------

local SWITCHES = {
  ["delete-latency-exposure"] = "delete_latency_exposure",
  ["zero-the-stitch-latency"] = "zero_the_stitch_latency",
  ["contiguous-pipeline-always"] = "contiguous_pipeline_always",
  ["delete-nic-cap"] = "delete_nic_cap",
  ["delete-contention"] = "delete_contention",
  ["collapse-blind-placement"] = "collapse_blind_placement",
  ["delete-span-tier"] = "delete_span_tier",
  ["ignore-interleave"] = "ignore_interleave",
  ["failure-rate-per-accelerator"] = "failure_rate_per_accelerator",
  ["checkpoint-every-minute"] = "checkpoint_every_minute",
}

for name, switch in pairs(SWITCHES) do
  engine.mutation {
    name = name,
    apply = function(env) env.VARIANT[switch] = true end,
  }
end
