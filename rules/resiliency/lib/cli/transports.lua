-- airan-resiliency transports: list the transport catalog and its failure
-- modes.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local money = cli_shared.money
local array = cli_shared.array
local load_site = cli_shared.load_site

local function g(x)
  return ("%g"):format(x)
end

local function mode_json(m)
  return engine.object("name", m.name, "rate_per_year", m.rate_per_year, "mttr_h", m.mttr_h,
                       "capacity_factor", m.capacity_factor,
                       "storm_rate_mult", m.storm_rate_mult,
                       "storm_mttr_mult", m.storm_mttr_mult, "physical_cut", m.physical_cut)
end

local function transport_json(t)
  local modes = engine.array()
  for i, m in ipairs(t.modes) do modes[i] = mode_json(m) end
  return engine.object("name", t.name, "kind", t.kind, "capacity_gbps", t.capacity_gbps,
                       "rtt_ms", t.rtt_ms, "carries", array(t.carries),
                       "monthly_usd", t.monthly_usd, "grid_dependent", t.grid_dependent,
                       "origin", t.origin, "modes", modes)
end

local function transport_text(t)
  local lines = {
    ("%s (%s%s): %s Gbps, RTT %s ms, carries %s, %s USD/month%s\n")
      :format(t.name, t.kind, t.origin ~= "builtin" and ", " .. t.origin or "",
              g(t.capacity_gbps), g(t.rtt_ms),
              #t.carries > 0 and table.concat(t.carries, "/") or "no class",
              money(t.monthly_usd), t.grid_dependent and ", needs grid power" or ""),
  }
  for _, m in ipairs(t.modes) do
    local effect = m.capacity_factor == 0 and "hard outage"
                   or ("degrades to %s%%"):format(py.fixed(m.capacity_factor * 100.0, 0))
    local extra = {}
    if m.storm_rate_mult > 1 then
      extra[#extra + 1] = "x" .. g(m.storm_rate_mult) .. " rate in storms"
    end
    if m.storm_mttr_mult > 1 then
      extra[#extra + 1] = "x" .. g(m.storm_mttr_mult) .. " MTTR in storms"
    end
    if m.physical_cut then extra[#extra + 1] = "physical cut" end
    lines[#lines + 1] = ("  %-12s %s/yr, MTTR %s h, %s%s\n")
                        :format(m.name, g(m.rate_per_year), g(m.mttr_h), effect,
                                #extra > 0 and "; " .. table.concat(extra, ", ") or "")
  end
  return table.concat(lines)
end

return function(args, out)
  local catalog
  if args.site then
    catalog = RS.catalog(load_site(args.site))
  else
    catalog = RS.catalog(nil)
  end
  if args.format == "json" then
    local list = engine.array()
    for i, t in ipairs(catalog) do list[i] = transport_json(t) end
    out:json(engine.object("pack", "resiliency", "file", args.site or engine.null,
                           "transports", list))
    return 0
  end
  local parts = {}
  for i, t in ipairs(catalog) do parts[i] = transport_text(t) end
  out:write(table.concat(parts))
  return 0
end
