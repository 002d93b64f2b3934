-- infragate power hall-price: expected price of halls with weekly spike hours
-- folded in.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local usage = cli_shared.usage
local guarded = cli_shared.guarded
local pyfloat = cli_shared.pyfloat

local options = { cli_base.format_opt() }

local run = guarded("hall-price", function(args, out)
  local rows, t = engine.array(), {}
  for i, item in ipairs(args.operands) do
    local parts = {}
    for part in (item .. ":"):gmatch("([^:]*):") do parts[#parts + 1] = part end
    if #parts ~= 1 and #parts ~= 3 then
      usage(item, ("'%s' is not PRICE or PRICE:SPIKE_PRICE:SPIKE_HOURS"):format(item))
    end
    local v = {}
    for j, part in ipairs(parts) do
      local x = pyfloat(part)
      local hi, lo = j == 3 and 168 or 1e6, j == 3 and 0 or -1e6
      if x == nil or x ~= x or x == math.huge or x == -math.huge or x < lo or x > hi then
        usage(item, ("'%s' in '%s' must be a finite number within %s..%s"):format(part, item,
              py.repr(lo), py.repr(hi)))
      end
      v[j] = x
    end
    local hall = { price_mwh = v[1], spike_price_mwh = v[2] or 0.0,
                   spike_hours_per_week = v[3] or 0.0 }
    local hp = models.power.hall_price(hall)
    rows[i] = engine.object("price_mwh", hall.price_mwh, "spike_price_mwh", hall.spike_price_mwh,
      "spike_hours_per_week", hall.spike_hours_per_week, "spike_fraction", hp.spike_fraction,
      "expected_price_mwh", hp.expected_price_mwh)
    t[#t + 1] = ("%s %s\n"):format(item, ("%.6g"):format(hp.expected_price_mwh))
  end
  if args.format == "json" then
    out:json(engine.object("pack", "power", "rows", rows, "findings", engine.array()))
  else
    out:write(table.concat(t))
  end
  return 0
end)

return { options = options, run = run }
