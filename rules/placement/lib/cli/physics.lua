-- edge-placement physics: the WAN physics behind the gates for one link.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local grouped_fixed = cli_shared.grouped_fixed
local raise_problems = cli_shared.raise_problems
local load = cli_shared.load

-- The reference tool's physics defaults (4.3).
local PHYSICS_DEFAULTS = { rate = 400.0, km = 600.0, buffer_mb = 64.0 }

-- Python "{:g}".
local function g(x)
  return ("%g"):format(x)
end

local function physics_figures(rate, km, buffer)
  local M = models.placement
  return {
    one_way_us = M.one_way_us(km), rtt_ms = M.rtt_ms(km), bdp_mb = M.bdp_mb(rate, km),
    pfc_headroom_mb = M.pfc_headroom_mb(rate, km),
    latency_domain = DOMAIN_NAMES[math.floor(M.latency_domain(km)) + 1],
    collectives_allowed = M.collectives_allowed(km) == 1,
    lossless_max_km = M.pfc_max_lossless_km(rate, buffer),
    ib_credit_max_km = M.ib_credit_max_km(rate),
  }
end

-- The options whose values can put a figure past the range of a double
-- (lua/overflow.lua), in the order a usage error names them.
local PHYSICS_OPTIONS = { { "rate", "--rate" }, { "km", "--km" }, { "buffer_mb", "--buffer-mb" } }

local function physics_text(rate, km, buffer, f)
  return table.concat({
    ("link                 %s Gbps over %s km of SMF\n"):format(g(rate), g(km)),
    ("one-way propagation  %s µs\n"):format(grouped_fixed(f.one_way_us, 0)),
    ("round trip           %s ms\n"):format(py.fixed(f.rtt_ms, 2)),
    ("one-way BDP          %s MB\n"):format(grouped_fixed(f.bdp_mb, 1)),
    ("lossless headroom    %s MB per port (about 2x the one-way BDP)\n")
      :format(grouped_fixed(f.pfc_headroom_mb, 1)),
    ("latency domain       %s\n"):format(f.latency_domain),
    ("RDMA collectives     %s\n"):format(f.collectives_allowed and "engineerable" or "NO"),
    "\n",
    ("lossless ceiling     ~%s km with %s MB per port at %s Gbps\n")
      :format(grouped_fixed(f.lossless_max_km, 1), g(buffer), g(rate)),
    ("IB credit ceiling    ~%s km with %d KB per VL at %s Gbps\n")
      :format(grouped_fixed(f.ib_credit_max_km, 2), CONST.IB_VL_BUFFER_KB, g(rate)),
  })
end

local function call_value_text(v)
  if type(v) == "boolean" then return v and "true" or "false" end
  if type(v) == "string" then return v end
  return engine.repr(v)
end

local function calls_output(args, out)
  local doc = load(args.calls, "placement-model-calls")
  local ps = {}
  local results = PL.run_calls(doc, args.calls, ps)
  if #ps > 0 then raise_problems(ps) end
  if args.format == "json" then
    local list = engine.array()
    for i, c in ipairs(results) do
      local a = engine.object()
      for k, name in ipairs(c.names) do a[name] = c.values[k] end
      list[i] = engine.object("model", c.model, "args", a, "value", c.value)
    end
    out:json(engine.object("results", list))
  else
    local lines = {}
    for i, c in ipairs(results) do
      local parts = {}
      for k, name in ipairs(c.names) do
        parts[k] = name .. "=" .. engine.repr(c.values[k])
      end
      lines[i] = ("%s(%s) = %s\n"):format(c.model, table.concat(parts, ", "),
                                          call_value_text(c.value))
    end
    out:write(table.concat(lines))
  end
  return 0
end

return function(args, out)
  if args.calls then
    for _, k in ipairs({ "rate", "km", "buffer_mb" }) do
      if args[k] ~= nil then
        engine.usage("--calls", ("--calls evaluates its own calls; it cannot be combined "
                                 .. "with --%s"):format((k:gsub("_", "-"))))
      end
    end
    return calls_output(args, out)
  end
  local rate = args.rate or PHYSICS_DEFAULTS.rate
  local km = args.km or PHYSICS_DEFAULTS.km
  local buffer = args.buffer_mb or PHYSICS_DEFAULTS.buffer_mb
  local f = require("overflow").call(args, PHYSICS_OPTIONS, "a figure of the link",
    "give a rate, a distance and a buffer within physical reach", physics_figures, rate, km,
    buffer)
  if args.format == "json" then
    out:json(engine.object(
      "rate_gbps", rate, "km", km, "buffer_mb", buffer,
      "us_per_km", CONST.FIBER_US_PER_KM, "pfc_mult", CONST.PFC_HEADROOM_BDP_MULT,
      "ib_vl_buffer_kb", CONST.IB_VL_BUFFER_KB,
      "one_way_us", f.one_way_us, "rtt_ms", f.rtt_ms, "bdp_mb", f.bdp_mb,
      "pfc_headroom_mb", f.pfc_headroom_mb, "latency_domain", f.latency_domain,
      "collectives_allowed", f.collectives_allowed, "lossless_max_km", f.lossless_max_km,
      "ib_credit_max_km", f.ib_credit_max_km))
  else
    out:write(physics_text(rate, km, buffer, f))
  end
  return 0
end
