-- What several of infragate scheduling's simulation verbs use (seed lists,
-- the censored-wait finding, replay scenarios): compiled with the first verb
-- that needs it, never for a verb that does not.
local cli_input = require "cli.input"
local cli_base = require "cli.base"

local CONFIG = cli_base.CONFIG
local input_error = cli_input.input_error
local take_fields = cli_input.take_fields
local apply_sets = cli_input.apply_sets
local cross_errors = cli_input.cross_errors
local limit_check = cli_base.limit_check

local MAX_SEEDS = 64

local function parse_list(option, text, parse)
  local items = {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local v = parse(item)
    if v == nil then
      engine.usage(option, ("%s: '%s' is not a valid item"):format(option, item))
    end
    items[#items + 1] = v
  end
  return items
end

local function seed_item(s)
  local v = math.tointeger(tonumber((s:gsub("_", ""))))
  if s:match("^%s*[-+]?%d[%d_]*%s*$") and v and v >= 0 then return v end
  return nil
end

local CENSORED = "scheduling.strict.censored-wait"

local function censored_message(n, what)
  return ("%d submitted jobs never started in %s; they are left out of mean_wait_h, which "
          .. "flatters it"):format(n, what)
end

local function seeds_arg(args, default)
  local seeds = args.seeds and parse_list("--seeds", args.seeds, seed_item) or default
  if #seeds > MAX_SEEDS then
    input_error({ { rule = "input.limit", argument = "--seeds",
                    message = ("%d seeds is over the limit of %d"):format(#seeds, MAX_SEEDS) } })
  end
  for _, s in ipairs(seeds) do
    if s > math.maxinteger - 20000 then
      engine.usage("--seeds", ("seed %d is over the largest seed %d")
                   :format(s, math.maxinteger - 20000))
    end
  end
  return seeds
end

-- A replay scenario document into (config, policy, workloads), --set over /config.
local function scenario_inputs(doc, file, sets)
  local given, origins = {}, {}
  if doc.config ~= nil and engine.has(doc.config, "kind") then
    local w = engine.where(doc.config, "kind", "key")
    input_error({ { message = "kind is not allowed inside a replay scenario's config",
                    file = file, line = w.line, column = w.column, path = "/config/kind" } })
  end
  take_fields(CONFIG, doc.config, file, given, origins)
  apply_sets(CONFIG, sets, given, origins, "/config")
  local cfg = SCHED.resolved(CONFIG, given)
  cross_errors(SCHED.config_cross(cfg), origins, "/config")
  limit_check(cfg, "/config")
  return cfg, doc.policy, doc.workloads
end

return {
  parse_list = parse_list,
  seed_item = seed_item,
  CENSORED = CENSORED,
  censored_message = censored_message,
  seeds_arg = seeds_arg,
  scenario_inputs = scenario_inputs,
}
