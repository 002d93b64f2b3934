-- The check functions of the network pack's rules (declared in pack.lua), and the
-- helpers only they use. Compiled on the first document a rule checks.

local py = require "py"
local fmt4 = NW.fmt4
local referenced_scenario = NW.referenced_scenario
local report_problems = NW.report_problems

-- Everything the rules of one document need, computed once per document.
local function proposal_model(doc, ctx)
  return ctx:once("network-model", function()
    local scn = referenced_scenario(doc)
    return { scn = NW.resolve(scn) }
  end)
end

local function capacity(doc, ctx)
  return ctx:once("capacity", function()
    local m = proposal_model(doc, ctx)
    local scn = m.scn
    m.expand = models.network.expand(scn, doc.add_accelerators, VARIANT)
    m.p0 = m.expand.baseline_productive_accelerators
    return m
  end)
end

local function alternatives_sea(doc, ctx)
  return ctx:once("alternatives", function()
    local m = capacity(doc, ctx)
    local set, nodes = {}, {}
    if engine.type(doc.alternatives) == "list" then
      for i, e in ipairs(doc.alternatives) do
        local entry = NW.convert_intervention(engine.plain(e), {})
        set[#set + 1] = entry
        nodes[#nodes + 1] = i
      end
    end
    local rows = #set > 0 and models.network.sea(m.scn, set, VARIANT) or {}
    return { rows = rows, nodes = nodes }
  end)
end

local function fmt1(x) return py.fixed(x, 1) end

local function envelope_node(doc)
  if engine.has(doc, "scenario") and engine.type(doc.scenario) == "map"
     and engine.has(doc.scenario, "reliability") then
    return doc.scenario, "reliability"
  end
  if engine.has(doc, "set") then return doc, "set" end
  return doc, nil
end

local checks = {}

checks["network.invalid-scenario"] = function(doc, ctx)
  local problems
  if ctx.kind == "network-scenario" then
    local _, p = NW.convert(engine.plain(doc), {})
    problems = p
  else
    local _, p = referenced_scenario(doc)
    problems = p or {}
  end
  report_problems(doc, ctx, problems)
  if ctx.kind == "network-capacity-proposal" and engine.has(doc, "alternatives")
     and engine.type(doc.alternatives) == "list" then
    local seen = {}
    for i, e in ipairs(doc.alternatives) do
      local entry, p = NW.convert_intervention(engine.plain(e), { "alternatives", i - 1 })
      report_problems(doc, ctx, p)
      if entry then
        if seen[entry.name] then
          ctx:fail { at = e, key = "name",
                     message = ("alternative %s is listed twice"):format(entry.name) }
        end
        seen[entry.name] = true
      end
    end
    if #problems == 0 then
      local scn = NW.resolve(referenced_scenario(doc))
      for _, e in ipairs(doc.alternatives) do
        local entry = NW.convert_intervention(engine.plain(e), {})
        local bad = entry and NW.check_intervention(scn, entry)
        if bad then
          ctx:fail { at = e, message = ("alternative %s makes %s %s on this job")
                                        :format(entry.name, bad.path, bad.message) }
        end
      end
    end
  end
  if ctx.kind == "network-fabric-plan" and engine.type(doc.stitch) == "map" then
    local has_r, has_a = engine.has(doc.stitch, "regime"), engine.has(doc.stitch, "alpha_us")
    if has_r == has_a then
      ctx:fail { at = doc, key = "stitch",
                 message = "stitch needs exactly one of regime (a named distance) or alpha_us" }
    end
  end
end

checks["network.expansion-unrealizable"] = function(doc, ctx)
  local m = capacity(doc, ctx)
  if not m.expand.realizable then
    ctx:fail(doc, "add_accelerators",
             ("adding %d accelerators to the pool of %d (target %d) cannot host a whole number "
              .. "of replicas of %d accelerators that the global batch of %d sequences can feed")
             :format(doc.add_accelerators, m.scn.n_pool, m.expand.target_pool,
                     m.scn.parallelism.tp * m.scn.parallelism.pp * m.scn.parallelism.cp,
                     m.scn.parallelism.global_batch_seqs),
             { add_accelerators = doc.add_accelerators, n_pool = m.scn.n_pool,
               target_pool = m.expand.target_pool })
    ctx:stop()
  end
end

checks["network.no-marginal-gain"] = function(doc, ctx)
  local m = capacity(doc, ctx)
  local e = m.expand
  if e.expanded_productive_accelerators <= m.p0 then
    ctx:fail(doc, "add_accelerators",
             ("the expanded pool of %d delivers %s productive accelerators, no more than the %s "
              .. "of today's pool of %d")
             :format(e.expanded_pool, fmt1(e.expanded_productive_accelerators), fmt1(m.p0),
                     m.scn.n_pool),
             { expanded_pool = e.expanded_pool, n_pool = m.scn.n_pool,
               expanded_productive_accelerators = e.expanded_productive_accelerators,
               baseline_productive_accelerators = m.p0 })
  end
end

checks["network.gain-overclaimed"] = function(doc, ctx)
  if not engine.has(doc, "claimed_gain_fraction") then return end
  local m = capacity(doc, ctx)
  local gain = m.expand.gain_fraction
  if doc.claimed_gain_fraction > gain then
    ctx:fail(doc, "claimed_gain_fraction",
             ("claimed gain %s is above the modelled %s for %d more accelerators")
             :format(py.repr(doc.claimed_gain_fraction), fmt4(gain), doc.add_accelerators),
             { claimed_gain_fraction = doc.claimed_gain_fraction, gain_fraction = gain })
  end
end

checks["network.dominated-by-intervention"] = function(doc, ctx)
  local a = alternatives_sea(doc, ctx)
  local n = doc.add_accelerators
  for i, row in ipairs(a.rows) do
    local c = row.cost_accelerator_equivalents
    if c and c < n and (row.sea == nil or row.sea >= n) then
      ctx:fail(doc.alternatives, a.nodes[i],
               ("%s is worth %s accelerators (SEA) at a cost of %s, at least the %d the "
                .. "proposal buys for fewer")
               :format(row.name, row.sea and fmt1(row.sea) or "unbounded", fmt1(c), n),
               { sea = row.sea or engine.null, cost_accelerator_equivalents = c,
                 add_accelerators = n })
    end
  end
end

checks["network.network-bound"] = function(doc, ctx)
  local m = capacity(doc, ctx)
  local l = NW.ledger(m.scn)
  if not l.within_validity_envelope then return end
  local w = NW.winner(m.scn)
  if w.category == "network" then
    ctx:warn(doc, "add_accelerators",
             ("the best marginal buy for this job is %s (SEA %s accelerators), a network "
              .. "intervention"):format(w.name, w.sea and fmt1(w.sea) or "unbounded"),
             { winner = w.name, sea = w.sea or engine.null })
  end
end

checks["network.strict.outside-validity-envelope"] = function(doc, ctx)
  local pressure, at, key
  if ctx.kind == "network-scenario" then
    local scn = NW.convert(engine.plain(doc), {})
    pressure = NW.ledger(NW.resolve(scn)).recovery_pressure
    at, key = doc, "reliability"
  elseif ctx.kind == "network-fabric-plan" then
    local cell = NW.plan_cell(doc, ctx)
    if not cell.applicable then return end
    pressure = cell.recovery_pressure
    at, key = doc, "stitch"
  else
    pressure = NW.ledger(capacity(doc, ctx).scn).recovery_pressure
    at, key = envelope_node(doc)
  end
  if pressure >= NW.ENVELOPE then
    ctx:fail(at, key, ("recovery pressure %s is at or above the envelope of 0.25")
                      :format(fmt4(pressure)),
             { recovery_pressure = pressure, envelope = NW.ENVELOPE })
  end
end

checks["network.strict.small-job"] = function(doc, ctx)
  local scn = capacity(doc, ctx).scn
  if scn.world_size < NW.SMALL_JOB then
    local at, key = doc, nil
    if engine.type(doc.scenario) == "map" and engine.has(doc.scenario, "parallelism") then
      at, key = doc.scenario, "parallelism"
    end
    ctx:fail(at, key, ("world size %d is below %d: the per-node failure model misses "
                       .. "small-job MTTF"):format(scn.world_size, NW.SMALL_JOB),
             { world_size = scn.world_size, limit = NW.SMALL_JOB })
  end
end

checks["network.strict.unpriced-alternative"] = function(doc, ctx)
  if engine.type(doc.alternatives) ~= "list" then return end
  for i, e in ipairs(doc.alternatives) do
    if not engine.has(e, "cost_accelerator_equivalents") then
      ctx:fail(doc.alternatives, i, ("alternative %s has no cost_accelerator_equivalents")
                                    :format(py.str(e.name)))
    end
  end
end

checks["network.cut-not-splittable"] = function(doc, ctx)
  local cell = NW.plan_cell(doc, ctx)
  if not cell.applicable then
    ctx:fail(doc.stitch, "cut", ("the %s cut cannot be split across %d halls: its degree is "
                                 .. "below that"):format(cell.stitch.cut, cell.stitch.halls),
             { cut = cell.stitch.cut, halls = cell.stitch.halls })
    ctx:stop()
  end
end

checks["network.retention-below-floor"] = function(doc, ctx)
  local cell = NW.plan_cell(doc, ctx)
  local floor = engine.has(doc, "min_retention") and doc.min_retention or 0.90
  if cell.retention < floor then
    local at, key = doc, "stitch"
    if engine.has(doc, "min_retention") then key = "min_retention" end
    ctx:fail(at, key, ("the %s cut at %s us over %s Gbit/s keeps %s of useful capacity, below "
                       .. "the floor %s"):format(cell.stitch.cut, py.repr(cell.stitch.alpha_us),
                                                 py.repr(cell.stitch.gbps), fmt4(cell.retention),
                                                 py.repr(floor)),
             { retention = cell.retention, min_retention = floor })
  end
end

checks["network.retention-overclaimed"] = function(doc, ctx)
  if not engine.has(doc, "claimed_retention") then return end
  local cell = NW.plan_cell(doc, ctx)
  if doc.claimed_retention > cell.retention then
    ctx:fail(doc, "claimed_retention",
             ("claimed retention %s is above the modelled %s")
             :format(py.repr(doc.claimed_retention), fmt4(cell.retention)),
             { claimed_retention = doc.claimed_retention, retention = cell.retention })
  end
end

checks["network.blind-placement"] = function(doc, ctx)
  local cell = NW.plan_cell(doc, ctx)
  if cell.hierarchical and cell.hierarchical.retention > cell.retention then
    ctx:fail(doc.stitch, "placement",
             ("blind placement keeps %s; hierarchical placement of the same cut keeps %s")
             :format(fmt4(cell.retention), fmt4(cell.hierarchical.retention)),
             { retention = cell.retention, hierarchical_retention = cell.hierarchical.retention })
  end
end

checks["network.strict.width-beyond-reported"] = function(doc, ctx)
  if doc.stitch.circuit_gbps > NW.REPORTED_GBPS then
    ctx:fail(doc.stitch, "circuit_gbps", ("circuit %s Gbit/s is above the reported 3200")
                                         :format(py.repr(doc.stitch.circuit_gbps)),
             { circuit_gbps = doc.stitch.circuit_gbps, limit = NW.REPORTED_GBPS })
  end
end

checks["network.strict.more-than-two-halls"] = function(doc, ctx)
  local at, halls
  if ctx.kind == "network-fabric-plan" then
    at, halls = doc.stitch, engine.has(doc.stitch, "halls") and doc.stitch.halls or 2
  else
    local scn = NW.convert(engine.plain(doc), {})
    at, halls = doc.topology, scn.topology.halls or 1
  end
  if halls > 2 then
    ctx:fail(at, "halls", ("%d halls: only two-hall stitches are validated"):format(halls),
             { halls = halls, limit = 2 })
  end
end

checks["network.strict.memory-exceeds-capacity"] = function(doc, ctx)
  local scn = NW.resolve(NW.convert(engine.plain(doc), {}))
  local st = models.network.step(scn, VARIANT)
  local need = st.memory_total_gb
  if need > scn.accelerator.memory_gb then
    ctx:fail(doc.accelerator, "memory_gb",
             ("state %s GB + activations %s GB need %s GB, more than the %s GB per accelerator")
             :format(py.fixed(st.memory_state_gb, 2), py.fixed(st.memory_activation_gb, 2),
                     py.fixed(need, 2), py.repr(scn.accelerator.memory_gb)),
             { state_gb = st.memory_state_gb, activation_gb = st.memory_activation_gb,
               memory_gb = scn.accelerator.memory_gb })
  end
end

checks["network.strict.param-inconsistent"] = function(doc, ctx)
  local scn = NW.resolve(NW.convert(engine.plain(doc), {}))
  local d = models.network.step(scn, VARIANT).param_disagreement
  if d > 0.25 then
    ctx:fail(doc.model, "n_params", ("n_params disagrees with the shape-derived count by %s "
                                     .. "(limit 0.25)"):format(fmt4(d)),
             { param_disagreement = d, limit = 0.25 })
  end
end

return checks
