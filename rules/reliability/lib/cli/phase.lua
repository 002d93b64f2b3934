-- infragate reliability phase: where warm spares beat elastic shrink: blast
-- radius x pool size.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local raise = cli_shared.raise
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local pyint = cli_shared.pyint
local site = cli_shared.site
local config_input = cli_shared.config_input
local check_budget = cli_shared.check_budget
local finish = cli_shared.finish

-- A comma-separated list of integers >= lo.
local function int_list(option, text, lo, hi)
  local list = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = pyint(item)
    if v == nil or v < lo or (hi and v > hi) then
      usage(option, hi and ("%s: '%s' is not an integer in %d..%d"):format(option, item, lo, hi)
                    or ("%s: '%s' is not an integer >= %d"):format(option, item, lo))
    end
    list[#list + 1] = v
  end
  if #list > 1000 then usage(option, ("%s takes at most 1,000 values"):format(option)) end
  return list
end

-- A in the text grid: its 4-dp value (Python's round, half-even on the exact
-- binary value, as the ETTR fields are rounded) rounded to 3 decimals with
-- ties away from zero. The spec's reference table (4.4) was printed this way:
-- rounding A once gives 40 of its 42 cells, and the other two are the only
-- cells whose A lies less than 5e-5 short of a tie in the third decimal
-- (k = 2, b = 16: -0.056475 -> -0.0565 -> -0.057; k = 64, b = 32:
-- 0.007475 -> 0.0075 -> +0.008). The JSON keeps A unrounded.
local function advantage_text(a)
  local int, first3, fourth = ("%.4f"):format(math.abs(a)):match("^(%d+)%.(%d%d%d)(%d)$")
  local units = tonumber(int .. first3) + (fourth >= "5" and 1 or 0)
  return ("%s%d.%03d"):format(a < 0 and "-" or "+", units // 1000, units % 1000)
end

local options = cli_base.with(cli_base.CONFIG_OPTS,
  { "--blasts", type = "string", default = "1,2,4,8,16,32", metavar = "LIST",
    help = "blast radii, nodes" },
  { "--pools", type = "string", default = "0,2,4,8,16,32,64", metavar = "LIST",
    help = "spare pool sizes, nodes" },
  { "--seeds", type = "int", default = 8, min = 1, max = 100000, metavar = "N",
    help = "seeds 0..N-1" },
  { "--corr-fraction", type = "float", default = 0.5, min = 0, max = 1, metavar = "F",
    help = "share of the node-failure budget that arrives in bursts" })

local run = guarded("phase", function(args, out)
  local blasts = int_list("--blasts", args.blasts, 1)
  -- A pool is a spare_nodes value (3.1: 0..1,000,000).
  local pools = int_list("--pools", args.pools, 0, 1000000)
  local base, origin = config_input(args)
  local F = args.corr_fraction + 0.0
  local per_blast, events = {}, 0
  for j, b in ipairs(blasts) do
    local burst = 0.0
    if b > 1 then burst = (F * (base.single_rate_per_node_h * base.nodes)) / b end
    local c = REL.copy(base, { burst_rate_per_h = burst, burst_blast = b })
    for _, k in ipairs(pools) do
      local ck = REL.copy(c, { spare_nodes = k })
      for _, p in ipairs(REL.cross_problems(ck)) do
        local s = site(origin, p.key)
        raise({ { rule = p.limit and "input.limit" or "input.type", argument = "--blasts",
                  path = s.path, message = ("blast %d: %s"):format(b, p.message) } })
      end
    end
    per_blast[j] = c
    events = events + REL.expected_events(c) * args.seeds * (#pools + 1)
  end
  check_budget(#blasts * (#pools + 1) * args.seeds, events, "--seeds")
  local elastic, S, A, W = engine.array(), engine.array(), engine.array(), engine.array()
  for j, c in ipairs(per_blast) do
    elastic[j] = REL.means(c, { "elastic" }, args.seeds).elastic.ettr
  end
  for i, k in ipairs(pools) do
    S[i], A[i], W[i] = engine.array(), engine.array(), engine.array()
    for j, c in ipairs(per_blast) do
      local s = REL.means(REL.copy(c, { spare_nodes = k }), { "auto-spares-ckpt" },
                          args.seeds)["auto-spares-ckpt"].ettr
      local a = s - elastic[j]
      S[i][j], A[i][j] = s, a
      W[i][j] = a > 0 and "spares" or (a < 0 and "elastic" or "tie")
    end
  end
  local findings = engine.array()
  if args.format == "json" then
    out:json(engine.object("pack", "reliability", "seeds", args.seeds, "corr_fraction", F,
      "blasts", engine.array(table.unpack(blasts)), "pools", engine.array(table.unpack(pools)),
      "elastic_ettr", elastic, "spares_ckpt_ettr", S, "advantage", A, "winner", W,
      "findings", findings))
  else
    local lines = { ("advantage of auto-spares-ckpt over elastic (ETTR points), %d seeds, "
                     .. "burst share %s\n"):format(args.seeds, py.repr(F)) }
    local head = { ("%-12s"):format("k \\ b") }
    for _, b in ipairs(blasts) do head[#head + 1] = ("%8d"):format(b) end
    lines[#lines + 1] = table.concat(head) .. "\n"
    local row = { ("%-12s"):format("elastic") }
    for j in ipairs(blasts) do row[#row + 1] = ("%8s"):format(py.fixed(elastic[j], 4)) end
    lines[#lines + 1] = table.concat(row) .. "\n"
    for i, k in ipairs(pools) do
      row = { ("%-12d"):format(k) }
      for j in ipairs(blasts) do row[#row + 1] = ("%8s"):format(advantage_text(A[i][j])) end
      lines[#lines + 1] = table.concat(row) .. "\n"
    end
    out:write(table.concat(lines))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
