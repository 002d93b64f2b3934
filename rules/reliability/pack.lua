-- luacheck: read globals math.tointeger math.type math.maxinteger table.unpack
-- The reliability pack (spec/reliability.md): recovery economics of gang
-- training jobs. This file holds what the rules, the verbs (commands.lua)
-- and the registry (validation.lua) share: the config fields of 3.1 with
-- their defaults and constraints, the derived quantities of 5.7 and 5.8,
-- the strict checks of 7.3 and the cross-field checks the rules of section 7
-- share with the verbs; the rules themselves, and what only they use, are
-- rules.lua, compiled only by a run that reads rules (a lint, not
-- `reliability simulate`). The arithmetic of the simulation is in
-- C (core/models/reliability*.c), reached as models.reliability.*.
local py = require "py"

engine.pack {
  summary   = "recovery economics of gang training jobs: policies, spares, checkpoint cadence",
  help_base = "https://infragate.invalid/rules/reliability/",
}

REL = {}

REL.POLICIES = { "manual", "auto-restart", "auto-spares", "auto-spares-ckpt", "elastic" }
REL.SPARES = { ["auto-spares"] = true, ["auto-spares-ckpt"] = true }
REL.OVERLAPPED = { ["auto-spares-ckpt"] = true, elastic = true }
REL.RESULT_FIELDS = { "ettr", "availability", "mttf_h", "mttr_h", "interruptions",
                      "reserved_spare_gpu_h", "productive_gpu_h", "waste_gpu_h",
                      "waste_dollars" }
REL.MAX_EXPECTED_EVENTS = 2000000
REL.MAX_SIMULATIONS = 100000
-- Our addition to 5.10: the expected events of all simulations of one
-- invocation, so that 100,000 simulations of 2,000,000 events each cannot
-- hang the program (README, Divergences).
REL.MAX_TOTAL_EVENTS = 200000000

-- The fields of 3.1 in order: type, default, bounds. `hi_field` and
-- `lo_field` are cross-field bounds checked after resolution.
REL.FIELDS = {
  { name = "nodes", type = "int", default = 2048, lo = 1, hi = 1000000 },
  { name = "horizon_h", type = "number", default = 720.0, lo = 0, lo_open = true, hi = 87600 },
  { name = "seed", type = "int", default = 0, lo = 0, hi = math.maxinteger },
  { name = "dollars_per_gpu_h", type = "number", default = 2.5, lo = 0 },
  { name = "single_rate_per_node_h", type = "number", default = 1.58e-4, lo = 0 },
  { name = "burst_rate_per_h", type = "number", default = 0.0, lo = 0 },
  { name = "burst_blast", type = "int", default = 1, lo = 1, hi_field = "nodes" },
  { name = "detect_h", type = "number", default = 0.033, lo = 0 },
  { name = "reload_h", type = "number", default = 0.25, lo = 0 },
  { name = "repair_h", type = "number", default = 4.0, lo = 0 },
  { name = "requal_h", type = "number", default = 1.0, lo = 0 },
  { name = "operator_h", type = "number", default = 1.0, lo = 0 },
  { name = "reshard_h", type = "number", default = 0.5, lo = 0 },
  { name = "ckpt_interval_h", type = "number", default = 0.5, lo = 0, lo_open = true },
  { name = "ckpt_write_h", type = "number", default = 0.02, lo = 0,
    hi_field = "ckpt_interval_h" },
  { name = "ckpt_overlap_interval_h", type = "number", default = 0.1, lo = 0, lo_open = true },
  { name = "ckpt_overlap_write_h", type = "number", default = 0.003, lo = 0,
    hi_field = "ckpt_overlap_interval_h" },
  { name = "spare_nodes", type = "int", default = 0, lo = 0, hi = 1000000 },
  { name = "legal_shape_nodes", type = "int", default = 8, lo = 1 },
}

REL.FIELD = {}
for _, f in ipairs(REL.FIELDS) do REL.FIELD[f.name] = f end

-- The defaults every resolution starts from. A validation mutation edits
-- this table (validation.lua), never a document.
REL.DEFAULTS = {}
for _, f in ipairs(REL.FIELDS) do REL.DEFAULTS[f.name] = f.default end

-- The formula switches of the C model (spec/core.md 11.2); nil is the
-- shipped model. Only validation mutations set it.
REL.VARIANT = nil

-- The registry's mutations (validation/reliability.yaml, 8.3), for the
-- choices of `validate --mutate`.
REL.MUTATIONS = { "zero-recovery-latency", "slow-reload", "free-reshard", "rate-drift",
                  "full-interval-loss" }

function REL.contains(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

-- A resolved config: defaults, then the given values (a plain table or a
-- view), number fields as floats and int fields as integers.
function REL.resolve(values)
  local c = {}
  for _, f in ipairs(REL.FIELDS) do
    local v = values and values[f.name]
    if v == nil then v = REL.DEFAULTS[f.name] end
    if f.type == "number" then v = v + 0.0 end
    c[f.name] = v
  end
  return c
end

function REL.copy(c, over)
  local out = {}
  for k, v in pairs(c) do out[k] = v end
  for k, v in pairs(over or {}) do out[k] = v end
  return out
end

-- The resolved config as JSON, in 3.1 order.
function REL.config_object(c)
  local o = engine.object()
  for _, f in ipairs(REL.FIELDS) do o[f.name] = c[f.name] end
  return o
end

-- ---- derived quantities (5.2, 5.7, 5.8) ----------------------------------------------

function REL.single_rate(c)
  local total = c.single_rate_per_node_h * c.nodes
  local burst_node = c.burst_rate_per_h * c.burst_blast
  return math.max(0.0, total - burst_node)
end

-- Event rate lambda of 5.7.
function REL.event_rate(c)
  return REL.single_rate(c) + c.burst_rate_per_h
end

function REL.expected_events(c)
  return REL.event_rate(c) * c.horizon_h
end

-- The checkpoint pair (interval, write, their keys) a policy uses (5.1).
function REL.pair(c, policy)
  if REL.OVERLAPPED[policy] then
    return c.ckpt_overlap_interval_h, c.ckpt_overlap_write_h, "ckpt_overlap_interval_h",
           "ckpt_overlap_write_h", "overlapped"
  end
  return c.ckpt_interval_h, c.ckpt_write_h, "ckpt_interval_h", "ckpt_write_h", "blocking"
end

-- 5.8: spares out for repair by Little's law, the pool needed, and the
-- size past which the pool counts as oversized.
function REL.spare_need(c)
  local nu = REL.single_rate(c) + c.burst_rate_per_h * c.burst_blast
  local m = nu * (c.repair_h + c.requal_h)
  -- math.ceil gives a float past 2^63; the comparisons still hold.
  local k_min = math.max(1, math.ceil(m))
  local b = c.burst_rate_per_h > 0 and c.burst_blast or 1
  return { nu = nu, m = m, k_min = k_min, b = b, oversize = 8 * math.max(k_min, b) }
end

-- 5.7 with w > 0 and M > 0 (the caller handles w = 0 and no failures).
function REL.checkpoint(w, m, r, c)
  return models.reliability.checkpoint { write_h = w, mtbf_h = m, reload_h = r,
                                         interval_h = c }
end

function REL.cadence(ratio)
  if ratio >= 0.8 and ratio <= 1.25 then return "near-optimal" end
  if ratio >= 0.5 and ratio <= 2 then return "acceptable" end
  return "off-optimum"
end

-- ---- simulations ----------------------------------------------------------------------

function REL.simulate(c, policy)
  return models.reliability.simulate({ config = c, policy = policy }, REL.VARIANT)
end

-- Exact seed means of the named policies over seeds 0..n-1 (5.9).
-- Means of integer fields stay integers when integral, as Python's
-- statistics.mean of ints gives them.
function REL.means(c, policies, n)
  local m = models.reliability.means({ config = c, policies = policies, seeds = n }, REL.VARIANT)
  for _, p in ipairs(policies) do
    for _, k in ipairs({ "interruptions", "events" }) do
      m[p][k] = math.tointeger(m[p][k]) or m[p][k]
    end
  end
  return m
end

-- ---- strict checks (7.3), shared by lint and the model verbs ---------------------------

-- The recovery clocks of a policy, in the order the message names them.
local function clocks(policy)
  if policy == "manual" then return { "operator_h", "reload_h" } end
  if policy == "elastic" then return { "reshard_h" } end
  return { "detect_h", "reload_h" }
end

-- Each check returns nil or {key = the offending field, message = ...}.
REL.STRICT = {
  { id = "reliability.strict.burst-budget",
    check = function(c)
      local total = c.single_rate_per_node_h * c.nodes
      local burst_node = c.burst_rate_per_h * c.burst_blast
      if burst_node > total then
        return { key = "burst_rate_per_h",
          message = ("bursts ask for %s node failures/h (burst_rate_per_h %s x burst_blast %d), "
                     .. "above the configured %s (single_rate_per_node_h %s x %d nodes): the "
                     .. "single stream is clamped to 0 and the failure rate rises to %s/h")
                    :format(py.repr(burst_node), py.repr(c.burst_rate_per_h), c.burst_blast,
                            py.repr(total), py.repr(c.single_rate_per_node_h), c.nodes,
                            py.repr(burst_node)) }
      end
    end },
  { id = "reliability.strict.write-fills-interval",
    check = function(c, policy)
      local interval, write, _, wkey, pair = REL.pair(c, policy)
      if write == interval then
        return { key = wkey,
          message = ("the %s checkpoint write stall %s h equals its interval %s h: no "
                     .. "training progress at all, ETTR 0"):format(pair, py.repr(write),
                                                                    py.repr(interval)) }
      end
    end },
  { id = "reliability.strict.zero-recovery-latency",
    check = function(c, policy)
      local keys, sum, first = clocks(policy), 0.0, nil
      for _, k in ipairs(keys) do
        sum = sum + c[k]
        if c[k] == 0 and not first then first = k end
      end
      if sum == 0 then
        return { key = first,
          message = ("recovery takes no time (%s = 0 h): a model that recovers instantly "
                     .. "scores above the published bound"):format(table.concat(keys, " + ")) }
      end
    end },
  { id = "reliability.strict.unused-spares",
    check = function(c, policy)
      if c.spare_nodes > 0 and not REL.SPARES[policy] then
        return { key = "spare_nodes",
          message = ("%d spare nodes with policy '%s', which neither uses nor charges them: "
                     .. "comparisons with the spares policies are skewed")
                    :format(c.spare_nodes, policy) }
      end
    end },
}

-- The strict problems of configs x policies, in rule-table order, each
-- distinct (rule, key, message) once. `which` names the checks to run
-- (a set of ids); `unused_for` the policies rule 10 applies to.
function REL.strict_problems(configs, policies, which, unused_policies)
  local out, seen = {}, {}
  for _, s in ipairs(REL.STRICT) do
    if which[s.id] then
      local list = s.id == "reliability.strict.unused-spares" and unused_policies or policies
      for _, c in ipairs(configs) do
        for _, p in ipairs(list) do
          local r = s.check(c, p)
          if r then
            local tag = s.id .. "\0" .. r.key .. "\0" .. r.message
            if not seen[tag] then
              seen[tag] = true
              out[#out + 1] = { rule = s.id, key = r.key, message = r.message }
            end
          end
        end
      end
    end
  end
  return out
end

-- Cross-field constraints of 3.1 and the limit of 5.10 over a resolved
-- config: a list of {key, message, limit}. Shared with the verbs.
function REL.cross_problems(c)
  local out = {}
  for _, f in ipairs(REL.FIELDS) do
    if f.hi_field and c[f.name] > c[f.hi_field] then
      out[#out + 1] = { key = f.name,
        message = ("%s must be <= %s (%s), got %s"):format(f.name, f.hi_field,
                  py.repr(c[f.hi_field]), py.repr(c[f.name])) }
    end
  end
  if #out == 0 and REL.expected_events(c) > REL.MAX_EXPECTED_EVENTS then
    out[#out + 1] = { key = "horizon_h", limit = true,
      message = ("(single rate %s + burst rate %s) x horizon_h %s = %s expected latent events, "
                 .. "over the limit of 2,000,000"):format(py.repr(REL.single_rate(c)),
                py.repr(c.burst_rate_per_h), py.repr(c.horizon_h),
                py.repr(REL.expected_events(c))) }
  end
  return out
end
