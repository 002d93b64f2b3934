-- infragate power breakeven: break-even spread for job lengths, break-even
-- length for spreads.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local usage = cli_shared.usage
local guarded = cli_shared.guarded
local pyfloat = cli_shared.pyfloat
local job_input = cli_shared.job_input
local finding = cli_shared.finding
local finish = cli_shared.finish
local job_json = cli_shared.job_json

local function float_list(option, text, lo, hi)
  local list = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = pyfloat(item)
    if v == nil then usage(option, ("%s: '%s' is not a number"):format(option, item)) end
    if v ~= v or v == math.huge or v == -math.huge or v < lo or v > hi then
      usage(option, ("%s: %s must be finite and within %s..%s"):format(option, item,
            py.repr(lo), py.repr(hi)))
    end
    list[#list + 1] = v
  end
  if #list < 1 or #list > 10000 then
    usage(option, ("%s takes 1 to 10,000 values"):format(option))
  end
  return list
end

local options = cli_base.with(cli_base.JOB_OPTS,
  { "--length-h", type = "string", metavar = "L1,L2,...", help = "job lengths, h" },
  { "--spread", type = "string", metavar = "S1,S2,...", help = "price spreads, $/MWh" })

local run = guarded("breakeven", function(args, out)
  local lengths = args.length_h and float_list("--length-h", args.length_h, 0, 1e7) or nil
  local spreads = args.spread and float_list("--spread", args.spread, -1e6, 1e6) or nil
  local job = job_input(args)
  if not lengths and not spreads then
    lengths = { 24.0, 72.0, 168.0, 720.0 }
    spreads = { job.price_here_mwh - job.price_there_mwh }
  end
  lengths, spreads = lengths or {}, spreads or {}
  local mig = models.power.migration(job, VARIANT)
  local d = mig.downtime_h
  local findings, lrows, srows, text = engine.array(), engine.array(), engine.array(), {}
  for i, L in ipairs(lengths) do
    local within = L - d < 1e-9
    local s = models.power.breakeven_spread(job, L, VARIANT)
    lrows[i] = engine.object("length_h", L, "remaining_h", math.max(1e-9, L - d),
                             "within_migration", within, "spread_mwh", s)
    if within and #findings == 0 then
      findings[1] = finding(args, "power.strict.length-within-migration",
        ("length %s h is within the %s h migration: the break-even spread %s is the "
         .. "clamp's figure, not a break-even"):format(py.repr(L), py.repr(d), py.repr(s)),
        { path = "/lengths/" .. (i - 1) })
    end
    text[#text + 1] = ("length %s h: break-even spread %s $/MWh%s\n"):format(
      py.fixed(L, 2), py.fixed(s, 2), within and " (within the migration)" or "")
  end
  for i, S in ipairs(spreads) do
    local L = models.power.breakeven_length(job, S, VARIANT)
    srows[i] = engine.object("spread_mwh", S, "length_h", L or engine.null)
    text[#text + 1] = ("spread %s $/MWh: break-even length %s\n"):format(py.fixed(S, 2),
      L and (py.fixed(L, 2) .. " h") or "never")
  end
  if args.format == "json" then
    out:json(engine.object("pack", "power", "job", job_json(job),
      "migration_downtime_h", d, "migration_cost_dollars", mig.cost_dollars,
      "power_mw", mig.power_mw, "lengths", lrows, "spreads", srows, "findings", findings))
  else
    out:write(table.concat(text))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
