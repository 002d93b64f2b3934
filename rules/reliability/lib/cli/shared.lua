-- What several of infragate reliability's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local py = require "py"
local verbs = require "verbs"

local NUMBER_MAX = 1e15 -- the schema's cap on unbounded number fields

-- One-line synopses, added under our own usage errors in text mode.
local CONFIG_SYNOPSIS = "[--config FILE] [--set KEY=VALUE]... [--seed N] [--strict] " ..
                        "[--format text|json]"

local SYNOPSIS = {
  simulate = "[--policy NAME|all] " .. CONFIG_SYNOPSIS,
  events = "[--first N] [--last N] [--all] " .. CONFIG_SYNOPSIS,
  sweep = "--vary KEY=V1,V2,... [--policy NAME] [--field FIELD] [--seeds N] " .. CONFIG_SYNOPSIS,
  phase = "[--blasts LIST] [--pools LIST] [--seeds N] [--corr-fraction F] " .. CONFIG_SYNOPSIS,
  checkpoint = "[--pair blocking|overlapped] [--write-h W] [--mtbf-h M] [--reload-h R] " ..
               "[--interval-h C] " .. CONFIG_SYNOPSIS,
  ["legal-loss"] = "[--granularity G] [--format text|json] ITEM...",
  band = "[--floor F] [--bound B] [--format text|json] VALUE...",
  validate = "[--mutate NAME] [--format text|json]",
}

local fail = verbs.failer("reliability", { synopsis = SYNOPSIS })

local raise, usage, guarded = verbs.raise, verbs.usage, verbs.guard(fail)

local pyint, pyfloat = verbs.pyint, verbs.pyfloat

-- The resolved config and the origin of each field. The defaults alone
-- need no parsing: the typing of --set values and --config documents is
-- cli/settings.lua, compiled only when one of those is given.
local function resolve_config(args)
  if args.config or (args.set and #args.set > 0) then
    return require("cli.settings").resolve_config(args)
  end
  return REL.resolve({}), {}
end

-- Where a problem or finding on field `key` points.
local function site(origin, key)
  local o = origin[key]
  local s = { path = "/" .. key }
  if type(o) == "table" then
    s.file, s.line, s.column = o.file, o.line, o.column
  elseif o == "set" or o == "vary" then
    s.argument = "--" .. o
  end
  return s
end

-- Raise the cross-field and limit problems of a resolved config.
local function check_config(c, origin)
  local errors = {}
  for _, p in ipairs(REL.cross_problems(c)) do
    local s = site(origin, p.key)
    errors[#errors + 1] = { rule = p.limit and "input.limit" or "input.type",
                            message = p.message, file = s.file, line = s.line,
                            column = s.column, path = s.path,
                            argument = s.argument }
  end
  if #errors > 0 then raise(errors) end
end

local function config_input(args)
  local c, origin = resolve_config(args)
  check_config(c, origin)
  return c, origin
end

-- The simulation budget of 5.10 (and our total-events cap), before any run.
local function check_budget(sims, events, argument)
  if sims > REL.MAX_SIMULATIONS then
    raise({ { rule = "input.limit", argument = argument,
              message = ("%s simulations requested, over the limit of 100,000")
                        :format(py.thousands(sims)) } })
  end
  if events > REL.MAX_TOTAL_EVENTS then
    raise({ { rule = "input.limit", argument = argument,
              message = ("the simulations draw about %s latent events in all, over the limit "
                         .. "of 200,000,000"):format(py.thousands(math.floor(events))) } })
  end
end

local function findings_of(args, problems, origin)
  local list = engine.array()
  for i, p in ipairs(problems) do
    local s = site(origin, p.key)
    local o = engine.object()
    o.rule = p.rule
    o.severity = args.strict and "error" or "warning"
    o.message = p.message
    o.file = s.file or engine.null
    o.line = s.line or engine.null
    o.column = s.column or engine.null
    o.path = s.path
    list[i] = o
  end
  return list
end

-- Stderr lines in text mode; the exit status.
local finish = verbs.finish

local MODEL_STRICT = { ["reliability.strict.burst-budget"] = true,
                       ["reliability.strict.write-fills-interval"] = true,
                       ["reliability.strict.zero-recovery-latency"] = true,
                       ["reliability.strict.unused-spares"] = true }

local function fmt6(x)
  return ("%.6g"):format(x)
end

return {
  NUMBER_MAX = NUMBER_MAX,
  CONFIG_SYNOPSIS = CONFIG_SYNOPSIS,
  SYNOPSIS = SYNOPSIS,
  fail = fail,
  raise = raise,
  usage = usage,
  guarded = guarded,
  pyint = pyint,
  pyfloat = pyfloat,
  resolve_config = resolve_config,
  site = site,
  check_config = check_config,
  config_input = config_input,
  check_budget = check_budget,
  findings_of = findings_of,
  finish = finish,
  MODEL_STRICT = MODEL_STRICT,
  fmt6 = fmt6,
}
