-- Figures of validation/chaos.yaml (spec/chaos.md 10): the two-clock figures
-- from the model at the policy's defaults, reference facts the registry data
-- must agree with, properties of the bundled catalog, and six probes that run
-- the compatible rules on in-memory edits of catalog specs. Mutations change
-- the registry tables (REG), the model's variant (VARIANT), the rule switch
-- table (RULES_OFF) or the catalog edits below, for the validation run only.

-- Edits applied to catalog specs as the validation figures read them
-- (file stem -> function(plain table)); a mutation fills it.
CATALOG_EDITS = {}

-- ---- the catalog, read as validation data ------------------------------------------------

local function catalog_names()
  return engine.data_list("catalog")
end

local function catalog_table(name)
  local t = engine.data("catalog/" .. name, { plain = true })
  local edit = CATALOG_EDITS[name:gsub("%.yaml$", "")]
  if edit then edit(t) end
  return t
end

local function view_of(t)
  return engine.view("chaos-experiment", t)
end

-- Lint every catalog spec once per run (strict or not): the verdict and the
-- fields coverage needs, as the lint verb would give them.
local function catalog_results(v, strict)
  return v:once("catalog-" .. tostring(strict), function()
    local results, seen = {}, {}
    for _, name in ipairs(catalog_names()) do
      local view = view_of(catalog_table(name))
      local findings = engine.check(view, { strict = strict })
      local r = { display = name, findings = findings,
                  verdict = #findings == 0 and "pass" or "fail" }
      if strict then
        if seen[view.id] then r.verdict = "fail" end
        seen[view.id] = true
      end
      r.fields = { id = view.id, class = view.fault.class, fidelity = view.injection.fidelity,
                   tested = {} }
      for j, l in ipairs(view.claims.tested_layers) do r.fields.tested[j] = l end
      r.stem_ok = name == view.id .. ".yaml"
      local d = CF.refs_resolve(view) and CF.derive(view) or nil
      r.two_clocks = d and d.applicable and (d.clocks.outcome == view.claims.expects) or nil
      results[#results + 1] = r
    end
    return results
  end)
end

local function count(results, pred)
  local n = 0
  for _, r in ipairs(results) do
    if pred(r) then n = n + 1 end
  end
  return n
end

-- ---- two clocks ------------------------------------------------------------------------------

local function give_up(t, r)
  return CF.two_clocks(t, r, REG.policy.c10d_timeout_default_s, nil).give_up_s
end

engine.figure {
  id = "chaos.ib-give-up-default",
  compute = function()
    return give_up(REG.policy.ib_default_timeout, REG.policy.ib_default_retry_cnt)
  end,
}

engine.figure {
  id = "chaos.ib-give-up-t18",
  compute = function() return give_up(18, 7) end,
}

engine.figure {
  id = "chaos.c10d-watchdog-default",
  compute = function() return REG.policy.c10d_timeout_default_s + 0.0 end,
}

-- ---- registry facts ----------------------------------------------------------------------------

local RDMA_LAYERS = { "nic-transport", "fabric" }

engine.figure {
  id = "chaos.netem-cannot-reach-rdma",
  compute = function()
    local n = 0
    for _, m in ipairs(REG.methods) do
      if m.kernel_path then
        for _, l in ipairs(RDMA_LAYERS) do
          if CF.contains(m.certifiable, l) then n = n + 1; break end
        end
      end
    end
    for _, c in ipairs(REG.classes) do
      if CF.contains(RDMA_LAYERS, c.layer) then
        for _, m in ipairs(c.edge_order) do
          if REG.method[m].kernel_path then n = n + 1 end
        end
      end
    end
    return n
  end,
}

-- dcgm_fields.h [E4], the NVML clocks event reasons [E20] and the Xid buckets
-- [E1][E2], written down here so the data file cannot drift from them.
local DCGM_FIELDS = {
  [84] = "DCGM_FI_DEV_INFOROM_CONFIG_VALID", [202] = "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
  [230] = "DCGM_FI_DEV_XID_ERRORS", [235] = "DCGM_FI_DEV_PCIE_MAX_LINK_GEN",
  [236] = "DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH", [237] = "DCGM_FI_DEV_PCIE_LINK_GEN",
  [238] = "DCGM_FI_DEV_PCIE_LINK_WIDTH", [310] = "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
  [311] = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
}
local NVML_REASONS = {
  GpuIdle = 0x1, ApplicationsClocksSetting = 0x2, SwPowerCap = 0x4, HwSlowdown = 0x8,
  SyncBoost = 0x10, SwThermalSlowdown = 0x20, HwThermalSlowdown = 0x40, HwPowerBrakeSlowdown = 0x80,
}
local XID_CLASSES = {
  [13] = "gpu-app-fault-xid", [31] = "gpu-app-fault-xid", [43] = "gpu-app-fault-xid",
  [48] = "gpu-uncorrectable-ecc", [63] = "gpu-uncorrectable-ecc", [64] = "gpu-uncorrectable-ecc",
  [94] = "gpu-uncorrectable-ecc", [95] = "gpu-uncorrectable-ecc", [74] = "nvlink-error",
  [79] = "gpu-fell-off-bus",
}

-- Entries of a reference table the data does not state exactly, plus data
-- entries the reference does not know.
local function mismatches(reference, entries, key_of, value_of)
  local seen, n = {}, 0
  for _, e in ipairs(entries or {}) do
    local k = key_of(e)
    if reference[k] == nil or reference[k] ~= value_of(e) then n = n + 1 end
    seen[k] = true
  end
  for k in pairs(reference) do
    if not seen[k] then n = n + 1 end
  end
  return n
end

engine.figure {
  id = "chaos.dcgm-field-ids",
  compute = function()
    return mismatches(DCGM_FIELDS, REG.signals.dcgm_fields, function(e) return e.id end,
                      function(e) return e.name end)
  end,
}

engine.figure {
  id = "chaos.nvml-clock-reasons",
  compute = function()
    return mismatches(NVML_REASONS, REG.signals.nvml_clocks_event_reasons,
                      function(e) return e.name end, function(e) return e.bit end)
  end,
}

engine.figure {
  id = "chaos.xid-classes",
  compute = function()
    return mismatches(XID_CLASSES, REG.signals.xids, function(e) return e.code end,
                      function(e) return e.fault_class end)
  end,
}

-- ---- the catalog -------------------------------------------------------------------------------

local function passes(r) return r.verdict == "pass" end

engine.figure {
  id = "chaos.catalog-valid",
  compute = function(v) return count(catalog_results(v, false), passes) end,
}

engine.figure {
  id = "chaos.catalog-strict-clean",
  compute = function(v) return count(catalog_results(v, true), passes) end,
}

engine.figure {
  id = "chaos.catalog-ids",
  compute = function(v)
    return count(catalog_results(v, false), function(r) return r.stem_ok end)
  end,
}

local function catalog_summary(v)
  return v:once("coverage", function()
    local cov = CF.coverage(catalog_results(v, false), "any")
    return CF.coverage_summary(cov)
  end)
end

engine.figure {
  id = "chaos.catalog-layers-covered",
  compute = function(v) return catalog_summary(v).layers end,
}

engine.figure {
  id = "chaos.catalog-failure-modes-covered",
  compute = function(v) return catalog_summary(v).modes end,
}

engine.figure {
  id = "chaos.catalog-best-fidelity",
  compute = function(v) return #catalog_summary(v).below end,
}

engine.figure {
  id = "chaos.catalog-two-clocks-agree",
  compute = function(v)
    return count(catalog_results(v, false), function(r) return r.two_clocks == true end)
  end,
}

-- ---- probes (spec 10.2) -------------------------------------------------------------------------

-- Set the value at a JSON Pointer of a plain table (list indices 0-based).
local function set_pointer(t, pointer, value)
  local function step(node, k)
    local i = tonumber(k)
    if i and node[1] ~= nil then return i + 1 end
    return k
  end
  local parts = {}
  for p in pointer:gmatch("/([^/]*)") do parts[#parts + 1] = (p:gsub("~1", "/"):gsub("~0", "~")) end
  for i = 1, #parts - 1 do t = t[step(t, parts[i])] end
  t[step(t, parts[#parts])] = value
end

local function probe(id, spec, replacements, must_fire)
  engine.figure {
    id = id,
    compute = function()
      local t = catalog_table(spec .. ".yaml")
      for _, r in ipairs(replacements) do set_pointer(t, r[1], r[2]) end
      local fired = {}
      for _, f in ipairs(engine.check(view_of(t), { strict = false })) do fired[f.rule] = true end
      local n = 0
      for _, rule in ipairs(must_fire) do
        if fired[rule] then n = n + 1 end
      end
      return n
    end,
  }
end

probe("chaos.probe-pod-kill-is-not-an-xid", "dcgm-ecc-dbe-inject",
      { { "/injection/method", "pod-kill" }, { "/injection/fidelity", "real" } },
      { "chaos.wrong-layer" })
probe("chaos.probe-netem-is-not-an-ib-flap", "ib-link-flap",
      { { "/injection/method", "tc-netem" } },
      { "chaos.wrong-layer", "chaos.kernel-path" })
probe("chaos.probe-mean-hides-a-straggler", "gpu-clock-lock-straggler",
      { { "/observe/detection/statistic", "threshold" } }, { "chaos.tail-statistic" })
probe("chaos.probe-idle-downtrain", "pcie-link-downtrain", { { "/observe/under_load", false } },
      { "chaos.under-load" })
probe("chaos.probe-signal-cannot-certify-recovery", "dcgm-ecc-dbe-inject",
      { { "/claims/tested_layers/0", "framework" } }, { "chaos.uncertifiable-layer" })
probe("chaos.probe-flap-outlasts-give-up", "ib-link-flap", { { "/injection/hold_s", 31 } },
      { "chaos.two-clocks" })

-- ---- mutations (spec 10.4) ----------------------------------------------------------------------

local function certify(pack, method, layer)
  local list = pack.REG.method[method].certifiable
  list[#list + 1] = layer
end

local MUTATIONS = {
  none = function() end,
  ["netem-reaches-rdma"] = function(pack)
    certify(pack, "tc-netem", "nic-transport")
    certify(pack, "tc-netem", "fabric")
    pack.CF.set_edge("link-flap", "tc-netem", "real")
  end,
  ["pod-kill-raises-xid"] = function(pack)
    pack.CF.set_edge("gpu-uncorrectable-ecc", "pod-kill", "real")
    certify(pack, "pod-kill", "accelerator")
  end,
  ["give-up-r-plus-one"] = function(pack) pack.VARIANT.r_plus_one = true end,
  ["timeout-unit-ms"] = function(pack)
    pack.REG.policy.ib_timeout_unit_s = pack.REG.policy.ib_timeout_unit_s * 1000
  end,
  ["default-timeout-18"] = function(pack) pack.REG.policy.ib_default_timeout = 18 end,
  ["drop-tail-requirement"] = function(pack)
    for _, c in ipairs(pack.REG.classes) do c.tail_required = false end
  end,
  ["drop-needs-load"] = function(pack)
    for _, c in ipairs(pack.REG.classes) do c.needs_load = false end
  end,
  ["dcgm-certifies-framework"] = function(pack) certify(pack, "dcgmi-inject", "framework") end,
  ["two-clocks-off"] = function(pack) pack.RULES_OFF["chaos.two-clocks"] = true end,
  ["c10d-3600"] = function(pack) pack.REG.policy.c10d_timeout_default_s = 3600 end,
  ["catalog-spec-drops-abort-evidence"] = function(pack)
    pack.CATALOG_EDITS["training-rank-kill"] = function(t)
      local kept = {}
      for _, p in ipairs(t.evidence.emits) do
        if p ~= "abort_never_missed" then kept[#kept + 1] = p end
      end
      t.evidence.emits = kept
    end
  end,
  ["aer-inject-certifies-pcie"] = function(pack) certify(pack, "aer-inject", "pcie") end,
}

for _, name in ipairs({ "none", "netem-reaches-rdma", "pod-kill-raises-xid", "give-up-r-plus-one",
                        "timeout-unit-ms", "default-timeout-18", "drop-tail-requirement",
                        "drop-needs-load", "dcgm-certifies-framework", "two-clocks-off",
                        "c10d-3600",
                        "catalog-spec-drops-abort-evidence", "aer-inject-certifies-pcie" }) do
  engine.mutation { name = name, apply = MUTATIONS[name] }
end
