-- infragate reliability sweep: seed-mean of one result field while one config
-- field varies.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"

local raise = cli_shared.raise
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local settings = require "cli.settings"
local cli_base = require "cli.base"
local yaml_scalar = settings.yaml_scalar
local field_problem = settings.field_problem
local resolve_config = cli_shared.resolve_config
local check_config = cli_shared.check_config
local check_budget = cli_shared.check_budget
local findings_of = cli_shared.findings_of
local finish = cli_shared.finish
local MODEL_STRICT = cli_shared.MODEL_STRICT
local fmt6 = cli_shared.fmt6

-- Parse --vary KEY=V1,V2,...: the field and its typed, validated values.
local function parse_vary(text)
  local key, list = text:match("^([^=]*)=(.*)$")
  if not key or key == "" then
    usage("--vary", ("--vary takes KEY=V1,V2,..., got '%s'"):format(text))
  end
  local f = REL.FIELD[key]
  if not f or key == "seed" then
    raise({ { rule = "input.type", argument = "--vary", path = "/" .. key,
              message = ("--vary: '%s' is not a reliability-config field that can vary (any "
                         .. "field of 3.1 except seed)"):format(key) } })
  end
  local values = {}
  for item in (list .. ","):gmatch("([^,]*),") do
    local v = yaml_scalar(item)
    local problem = field_problem(f, v)
    if problem then
      raise({ { rule = "input.type", argument = "--vary", path = "/" .. key,
                message = "--vary: " .. problem } })
    end
    values[#values + 1] = f.type == "number" and v + 0.0 or v
  end
  if #values > 1000 then usage("--vary", "--vary takes 1 to 1,000 values") end
  return key, values
end

local function arg_extreme(rows, better)
  local pick
  for _, r in ipairs(rows) do
    if not pick or better(r.mean, pick.mean) then pick = r end
  end
  return pick.value
end

local options = cli_base.with(cli_base.CONFIG_OPTS,
  { "--vary", type = "string", required = true, metavar = "KEY=V1,V2,...",
    help = "the config field to vary and its values" },
  cli_base.policy_opt("auto-spares-ckpt", false),
  { "--field", type = "choice", choices = cli_base.FIELD_CHOICES, default = "ettr",
    metavar = "FIELD", help = "the result field to average" },
  { "--seeds", type = "int", default = 8, min = 1, max = 1000, metavar = "N",
    help = "seeds 0..N-1" })

local run = guarded("sweep", function(args, out)
  local key, values = parse_vary(args.vary)
  local base, origin = resolve_config(args)
  local configs, events = {}, 0
  for i, v in ipairs(values) do
    local c = REL.copy(base, { [key] = v })
    check_config(c, REL.copy(origin, { [key] = "vary" }))
    configs[i] = c
    events = events + REL.expected_events(c) * args.seeds
  end
  check_budget(#values * args.seeds, events, "--vary")
  local rows, text = engine.array(), {}
  for i, c in ipairs(configs) do
    local m = REL.means(c, { args.policy }, args.seeds)[args.policy][args.field]
    rows[i] = engine.object("value", values[i], "mean", m)
    text[#text + 1] = ("%s %s\n"):format(py.repr(values[i]), fmt6(m))
  end
  local argmin = arg_extreme(rows, function(a, b) return a < b end)
  local argmax = arg_extreme(rows, function(a, b) return a > b end)
  local vary_origin = REL.copy(origin)
  vary_origin[key] = nil
  local findings = findings_of(args, REL.strict_problems(configs, { args.policy },
    MODEL_STRICT, { args.policy }), vary_origin)
  if args.format == "json" then
    out:json(engine.object("pack", "reliability", "policy", args.policy, "field", args.field,
      "seeds", args.seeds, "vary", key, "rows", rows, "argmin", argmin, "argmax", argmax,
      "findings", findings))
  else
    text[#text + 1] = ("argmin %s\nargmax %s\n"):format(py.repr(argmin), py.repr(argmax))
    out:write(("%s of %s over %d seeds, %s varied:\n"):format(args.field, args.policy,
              args.seeds, key) .. table.concat(text))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
