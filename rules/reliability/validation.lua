-- luacheck: read globals math.tointeger math.type math.maxinteger table.unpack
-- Figures of validation/reliability.yaml (spec/reliability.md 8.1): every
-- simulation runs over seeds 0..settings.seeds-1 with exact means, from
-- REL.DEFAULTS. Mutations (8.3) change REL.DEFAULTS or REL.VARIANT of
-- pack.lua for the validation run only; no document reaches them.

local LLAMA3_INTERRUPTIONS, LLAMA3_HOURS = 419, 54 * 24.0

local function seeds(v) return v.settings.seeds or 8 end

local function defaults(over)
  return REL.copy(REL.resolve(nil), over)
end

-- The 54-day run shared by points 2, 3 and 6.
local function llama3_run(v)
  return v:once("llama3", function()
    return REL.means(defaults { horizon_h = LLAMA3_HOURS, spare_nodes = 16 }, REL.POLICIES,
                     seeds(v))
  end)
end

local function ettr_ckpt(v, over)
  return REL.means(defaults(REL.copy({ horizon_h = LLAMA3_HOURS, spare_nodes = 16 }, over)),
                   { "auto-spares-ckpt" }, seeds(v))["auto-spares-ckpt"].ettr
end

engine.figure {
  id = "llama3-fault-rate",
  compute = function()
    return REL.DEFAULTS.single_rate_per_node_h * 1e4, engine.object()
  end,
}

engine.figure {
  id = "llama3-latent-fault-count",
  compute = function(v)
    return llama3_run(v)["auto-spares-ckpt"].events,
           engine.object("poisson_sd", math.sqrt(LLAMA3_INTERRUPTIONS))
  end,
}

engine.figure {
  id = "ettr-approaches-published-bound-from-below",
  compute = function(v)
    local c = REL.DEFAULTS
    local e = llama3_run(v)["auto-spares-ckpt"].ettr
    local detail = engine.object("ettr", e,
      "ettr_zero_latency", ettr_ckpt(v, { detect_h = 0.0, reload_h = 0.0 }),
      "ettr_detect_x3", ettr_ckpt(v, { detect_h = c.detect_h * 3 }),
      "ettr_reload_x2", ettr_ckpt(v, { reload_h = c.reload_h * 2 }))
    return (e >= 0.85 and e < 0.90) and 1.0 or 0.0, detail
  end,
}

engine.figure {
  id = "young-daly-optimal-interval",
  compute = function(v)
    local best, best_waste
    for i = 100, 1000, 25 do
      local interval = i / 1000
      local w = REL.means(defaults { spare_nodes = 16, ckpt_interval_h = interval },
                          { "auto-spares" }, seeds(v))["auto-spares"].waste_gpu_h
      if not best_waste or w < best_waste then best, best_waste = interval, w end
    end
    local c = defaults()
    local m = 1 / (c.single_rate_per_node_h * c.nodes)
    local k = REL.checkpoint(c.ckpt_write_h, m, c.reload_h, c.ckpt_interval_h)
    return best / k.young_h, engine.object("argmin_h", best, "young_h", k.young_h,
                                           "daly_h", k.daly_h,
                                           "young_daly_mr_h", k.young_daly_mr_h)
  end,
}

engine.figure {
  id = "rsc-failure-rate-in-published-range",
  compute = function()
    local r = REL.DEFAULTS.single_rate_per_node_h * 24 * 1000
    return (r >= 2.5 and r <= 17.5) and 1.0 or 0.0, engine.object("per_1000_node_days", r)
  end,
}

engine.figure {
  id = "automation-surfaces-nearly-every-latent-fault",
  compute = function(v)
    local run = llama3_run(v)
    local surfaced, latent = run["auto-spares-ckpt"].interruptions, run["auto-spares-ckpt"].events
    return surfaced / latent, engine.object("surfaced", surfaced, "latent", latent,
                                            "naive", run["auto-restart"].interruptions)
  end,
}

engine.figure {
  id = "mttf-degradation-steepens-past-linear",
  compute = function(v)
    local widths, mttf, ratios, steep = { 512, 1024, 2048, 4096, 8192 }, {}, {}, 0
    for i, n in ipairs(widths) do
      mttf[i] = REL.means(defaults { nodes = n }, { "elastic" }, seeds(v)).elastic.mttf_h
    end
    for i = 1, #widths - 1 do
      if mttf[i + 1] == 0 then return nil end
      ratios[i] = mttf[i] / mttf[i + 1]
      if ratios[i] >= 2.0 then steep = steep + 1 end
    end
    return steep + 0.0, engine.object("mttf_h", engine.array(table.unpack(mttf)),
                                      "ratios", engine.array(table.unpack(ratios)))
  end,
}

-- ---- mutations (8.3) ------------------------------------------------------------------

engine.mutation {
  name = "zero-recovery-latency",
  apply = function(env)
    env.REL.DEFAULTS.detect_h = 0.0
    env.REL.DEFAULTS.reload_h = 0.0
  end,
}

engine.mutation {
  name = "slow-reload",
  apply = function(env) env.REL.DEFAULTS.reload_h = 0.5 end,
}

engine.mutation {
  name = "free-reshard",
  apply = function(env) env.REL.DEFAULTS.reshard_h = 0.0 end,
}

engine.mutation {
  name = "rate-drift",
  apply = function(env)
    env.REL.DEFAULTS.single_rate_per_node_h = env.REL.DEFAULTS.single_rate_per_node_h * 1.1
  end,
}

engine.mutation {
  name = "full-interval-loss",
  apply = function(env) env.REL.VARIANT = { full_interval_loss = true } end,
}
