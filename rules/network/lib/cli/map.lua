-- infragate network map: decision map: the winning intervention per (failure
-- rate, oversubscription, scale).
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local array = cli_shared.array
local null = cli_shared.null
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f1 = cli_shared.f1
local intervention_set = cli_shared.intervention_set

-- The recorded decision-map rates of the reference study (5.8), never recomputed.
local DEFAULT_RATES = { 0.001, 0.0013623344859430982, 0.0018559552515898456,
                        0.0025284318436080457, 0.003444569895903927, 0.004692656358431348,
                        0.006392967587771188, 0.008709360212337149, 0.011865061767767603,
                        0.016164182824074787, 0.022021023698326182, 0.03 }

local DEFAULT_OVERSUB = { 1.0, 2.0, 4.0, 7.0, 12.0, 16.0 }

local DEFAULT_SCALES = { 16384, 65536 }

local MAX_MAP_CELLS = 4096  -- a bound on one run's work (about 3 ms of model per cell)

local function number_list(text, option, is_int, lo, hi)
  local list = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = NW.float_text(item)
    if is_int then
      local s = item:match("^%s*(.-)%s*$"):gsub("_", "")
      v = s:match("^[+-]?%d+$") and math.tointeger(tonumber(s)) or nil
    end
    if v == nil or v < lo or v > hi then
      usage(option, ("%s item %s is not %s within %s..%s"):format(option, py.repr(item),
            is_int and "an integer" or "a finite number", py.repr(lo), py.repr(hi)))
    end
    list[#list + 1] = v
  end
  return list
end

return guarded("map", function(args, out)
  local rates = args.rates and number_list(args.rates, "--rates", false, 0, 100) or DEFAULT_RATES
  local sigmas = args.oversubscription
                 and number_list(args.oversubscription, "--oversubscription", false, 1, 1000)
                 or DEFAULT_OVERSUB
  local scales = args.scales and number_list(args.scales, "--scales", true, 1, 100000000)
                 or DEFAULT_SCALES
  if #rates * #sigmas * #scales > MAX_MAP_CELLS then
    local option = args.rates and "--rates"
                   or (args.oversubscription and "--oversubscription" or "--scales")
    usage(option,
          ("the grid has %d cells, more than the %d a map computes")
          :format(#rates * #sigmas * #scales, MAX_MAP_CELLS))
  end
  local run = scenario_of(args)
  local set = intervention_set(args, run.scn)
  local cells, lines = engine.array(), {}
  local inside, winners, win_order, distinct = 0, {}, {}, {}
  for _, rate in ipairs(rates) do
    for _, sigma in ipairs(sigmas) do
      for _, scale in ipairs(scales) do
        local base = NW.copy(run.scn)
        base.reliability.failure_rate_per_node_day = rate + 0.0
        base.topology.oversubscription = sigma + 0.0
        local scn = models.network.rescale(base, math.ceil(scale * base.overhead))
        local cell = engine.object("failure_rate_per_node_day", rate + 0.0,
                                   "oversubscription", sigma + 0.0, "scale", scale,
                                   "realizable", scn ~= nil)
        if scn then
          local w = NW.winner(scn, set)
          local l = NW.ledger(scn)
          local seas = engine.object()
          for _, r in ipairs(w.rows) do seas[r.name] = null(r.sea) end
          cell.world_size = l.world_size
          cell.n_pool = l.n_pool
          cell.winner = w.name
          cell.winner_category = w.category
          cell.winner_sea = null(w.sea)
          cell.recovery_pressure = l.recovery_pressure
          cell.within_validity_envelope = l.within_validity_envelope
          cell.sea = seas
          if l.within_validity_envelope then
            inside = inside + 1
            local key = tostring(scale)
            if not winners[key] then
              winners[key] = engine.object()
              win_order[#win_order + 1] = key
            end
            winners[key][w.name] = (winners[key][w.name] or 0) + 1
            distinct[w.name] = true
          end
          lines[#lines + 1] = ("  rate %-10s sigma %-5s scale %-7d winner %-18s SEA %s%s\n")
                              :format(py.repr(rate + 0.0), py.repr(sigma + 0.0), scale, w.name,
                                      w.sea and f1(w.sea) or "unattainable",
                                      l.within_validity_envelope and "" or " (outside envelope)")
        else
          for _, k in ipairs({ "world_size", "n_pool", "winner", "winner_category", "winner_sea",
                               "recovery_pressure", "within_validity_envelope", "sea" }) do
            cell[k] = engine.null
          end
          lines[#lines + 1] = ("  rate %-10s sigma %-5s scale %-7d not realizable\n")
                              :format(py.repr(rate + 0.0), py.repr(sigma + 0.0), scale)
        end
        cells[#cells + 1] = cell
      end
    end
  end
  local wobj = engine.object()
  for _, k in ipairs(win_order) do wobj[k] = winners[k] end
  local dlist = {}
  for n in pairs(distinct) do dlist[#dlist + 1] = n end
  table.sort(dlist)
  local rl, sl, scl = engine.array(), engine.array(), engine.array()
  for i, r in ipairs(rates) do rl[i] = r + 0.0 end
  for i, s in ipairs(sigmas) do sl[i] = s + 0.0 end
  for i, s in ipairs(scales) do scl[i] = s end
  local o = envelope()
  o.scenario = head(run)
  o.grid = engine.object("rates", rl, "oversubscription", sl, "scales", scl)
  o.cells = cells
  o.summary = engine.object("cells", #cells, "inside_envelope", inside, "winners", wobj,
                            "distinct_winners", array(dlist))
  table.insert(lines, 1, ("decision map over %d cells, %d inside the validity envelope\n")
                         :format(#cells, inside))
  return finish(out, args, o, engine.array(), table.concat(lines))
end)
