-- pue-ladder ladder (spec/cooling.md 3.1): the five rungs with their ceilings, PUE
-- grid, heat capture, ride-through and retrofit price.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local common = require "cli.common"

local pad = common.pad
local lpad = common.lpad
local grouped_fixed = common.grouped_fixed

local function pue_grid(r, ladder)
  local grid = engine.object()
  for _, c in ipairs(ladder.climates) do
    local row = engine.object()
    for _, m in ipairs(ladder.water_modes) do row[m.name] = r.pue[c.name][m.name] end
    grid[c.name] = row
  end
  return grid
end

local RUNG_KEYS = { "index", "name", "max_kw_per_rack", "pue_floor", "mech_penalty",
                    "economizer_capable", "heat_capture", "thermal_buffer_kj",
                    "retrofit_usd_per_kw", "pue_cold", "pue_hot_humid", "ride_through_at_max_s" }

local function ladder_json(ladder)
  local rungs = engine.array()
  for i, r in ipairs(ladder.rungs) do
    local o = engine.object()
    for _, k in ipairs(RUNG_KEYS) do o[k] = r[k] end
    o.pue = pue_grid(r, ladder)
    rungs[i] = o
  end
  local climates, modes, fc = engine.array(), engine.array(), engine.object()
  for i, c in ipairs(ladder.climates) do
    climates[i] = engine.object("name", c.name, "free_cooling", c.free_cooling)
    local row = engine.object()
    for _, m in ipairs(ladder.water_modes) do row[m.name] = ladder.free_cooling[c.name][m.name] end
    fc[c.name] = row
  end
  for i, m in ipairs(ladder.water_modes) do
    modes[i] = engine.object("name", m.name, "free_cooling_shift", m.free_cooling_shift,
                             "wue_l_per_kwh", m.wue_l_per_kwh)
  end
  return engine.object("rungs", rungs, "climates", climates, "water_modes", modes,
                       "free_cooling", fc, "thinnest_rung", ladder.thinnest_rung)
end

local function ladder_text(ladder)
  local lines = {
    pad("rung", 16) .. lpad("kW/rack", 8) .. lpad("PUE cold", 10) .. lpad("PUE hot-humid", 15)
      .. lpad("to liquid", 11) .. lpad("ride-through", 14) .. lpad("retrofit USD/kW", 17),
  }
  for _, r in ipairs(ladder.rungs) do
    lines[#lines + 1] = pad(r.name, 16) .. lpad(py.fixed(r.max_kw_per_rack, 0), 8)
      .. lpad(py.fixed(r.pue_cold, 3), 10) .. lpad(py.fixed(r.pue_hot_humid, 3), 15)
      .. lpad(py.fixed(r.heat_capture * 100, 0) .. "%", 11)
      .. lpad(py.fixed(r.ride_through_at_max_s, 0) .. " s", 14)
      .. lpad(grouped_fixed(r.retrofit_usd_per_kw), 17)
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "PUE = floor + (1 - free-cooling fraction of the year) x mechanical penalty; "
    .. "the two PUE columns assume evaporative heat rejection. Ride-through is the thermal "
    .. "buffer divided by the rung's own ceiling."
  return table.concat(lines, "\n") .. "\n"
end

return function(args, out)
  local ladder = COOL.ladder()
  if args.format == "json" then
    out:json(ladder_json(ladder))
  else
    out:write(ladder_text(ladder))
  end
  return 0
end
