-- pue-ladder fleet (spec/cooling.md 3.4): one draw of the synthetic fleet,
-- survey average against energy-weighted PUE per year.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local common = require "cli.common"

local pad = common.pad
local lpad = common.lpad

-- A --seed as JSON: an integer when it fits 64 bits, else its canonical
-- decimal text written as a bare number (spec 3.4).
local function seed_json(seed)
  if type(seed) == "number" then return seed, false end
  if #seed:gsub("^%-", "") <= 18 then return math.floor(tonumber(seed)), false end
  return "@@bigint:" .. seed .. "@@", true
end

local function emit(out, verb, obj, big)
  if not big then return out:json(obj) end
  local text = engine.json(obj):gsub('"@@bigint:(%-?%d+)@@"', "%1")
  out:write(('{"tool": "infragate", "version": %s, "verb": %s, %s\n')
            :format(engine.json(engine.version), engine.json(verb), text:sub(2)))
end

return function(args, out)
  local first, last = args.start_year, args.end_year
  if first < 1900 or first > 2200 then
    engine.usage("--start-year", ("--start-year %d: the first year must be 1900..2200")
                 :format(first))
  end
  if last < first or last > 2200 then
    engine.usage("--end-year", ("--end-year %d: the last year must be %d..2200")
                 :format(last, first))
  end
  if last - first > 49 then
    engine.usage("--end-year", ("--end-year %d: at most 50 years from --start-year %d, got %d")
                 :format(last, first, last - first + 1))
  end
  local seed = args.seed
  local years = COOL.simulate(seed, first, last, args.legacy_sites)
  if args.format == "json" then
    local list = engine.array()
    for i, y in ipairs(years) do
      list[i] = engine.object("year", y.year, "survey_avg", y.survey_avg,
                              "energy_weighted", y.energy_weighted, "gap", y.gap,
                              "sites", y.sites, "surveyed_sites", y.surveyed_sites,
                              "it_mw", y.it_mw)
    end
    local s, big = seed_json(seed)
    emit(out, "fleet", engine.object("seed", s, "start_year", first, "end_year", last,
                                     "legacy_sites", args.legacy_sites, "years", list), big)
    return 0
  end
  local lines = { pad("year", 6) .. lpad("survey avg", 11) .. lpad("energy-weighted", 17) }
  for _, y in ipairs(years) do
    lines[#lines + 1] = pad(tostring(y.year), 6) .. lpad(py.fixed(y.survey_avg, 3), 11)
                        .. lpad(py.fixed(y.energy_weighted, 3), 17)
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "The survey average counts every site alike and stays high; the "
    .. "energy-weighted PUE follows the megawatts, which land in new builds, where PUE "
    .. "progress ships [2][3][7]."
  lines[#lines + 1] = ("This is one draw of the synthetic fleet for seed %s; validate reports "
                       .. "means over 24 seeds."):format(tostring(seed))
  out:write(table.concat(lines, "\n") .. "\n")
  return 0
end
