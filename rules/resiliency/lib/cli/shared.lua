-- What several of airan-resiliency's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local py = require "py"

local CLASSES = RS.CLASSES

local function pct(x, decimals)
  return py.fixed(x * 100.0, decimals)
end

-- Python "{:,.0f}".
local function money(x)
  return py.grouped_fixed(x, 0)
end

-- A list as a JSON array (which stays an array when empty).
local array = require("json_values").array

-- A --seed value as JSON: an integer when it fits 64 bits, else kept as
-- its canonical decimal text and written as a bare number by emit().
local function seed_value(seed)
  if type(seed) ~= "string" then return seed, false end
  if #seed:gsub("^%-", "") <= 18 then return tonumber(seed), false end
  return "@@bigint:" .. seed .. "@@", true
end

local function emit(out, verb, obj, big)
  if not big then
    out:json(obj)
    return
  end
  -- The engine's envelope, written by hand only for seeds beyond 64 bits.
  local text = engine.json(obj):gsub('"@@bigint:(%-?%d+)@@"', "%1")
  out:write(('{"tool": "infragate", "version": %s, "verb": %s, %s\n')
            :format(engine.json(engine.version), engine.json(verb), text:sub(2)))
end

local function by_position(a, b)
  local la, lb = a.line or 0, b.line or 0
  if la ~= lb then return la < lb end
  local ca, cb = a.column or 0, b.column or 0
  if ca ~= cb then return ca < cb end
  return a.rule < b.rule
end

-- Load a site document or end the verb with its input findings (3.9), in
-- the order lint would report them.
local function load_site(path)
  local doc, findings = engine.load(path, { kind = "resiliency-site", collect = true })
  local errs = {}
  if findings and #findings > 0 then
    errs = findings
  else
    for _, p in ipairs(RS.input_problems(doc)) do
      local w = engine.where(p.at, p.key)
      errs[#errs + 1] = { rule = p.rule, severity = "error", message = p.message,
                          line = w.line, column = w.column, end_line = w.end_line,
                          end_column = w.end_column, path = w.path, unusable = true }
    end
  end
  if #errs > 0 then
    for _, f in ipairs(errs) do f.file = path end
    table.sort(errs, by_position)
    engine.input_error(errs)
  end
  return doc
end

local function class_block(res)
  local lines = {}
  for _, c in ipairs(CLASSES) do
    local f = res.classes[c]
    lines[#lines + 1] = ("  %s  availability %s%%  %s nines  downtime %s h/yr  %s episodes/yr"
                         .. "  restore %s h  usable capacity %s%%\n")
                        :format(c, pct(f.availability, 4), py.fixed(f.nines, 1),
                                py.fixed(f.downtime_h_yr, 1), py.fixed(f.episodes_per_year, 1),
                                py.fixed(f.ettr_h, 1), pct(f.retention, 2))
  end
  return table.concat(lines)
end

local function policy_text(pol, res)
  return ("%s (%s): %s USD/month\n"):format(pol.name, pol.label, money(res.monthly_usd))
         .. class_block(res)
end

return {
  CLASSES = CLASSES,
  pct = pct,
  money = money,
  array = array,
  seed_value = seed_value,
  emit = emit,
  by_position = by_position,
  load_site = load_site,
  class_block = class_block,
  policy_text = policy_text,
}
