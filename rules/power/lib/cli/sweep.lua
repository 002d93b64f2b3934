-- infragate power sweep: seed-mean of one fleet result field while one config
-- field varies.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_shared = require "cli.shared"
local cli_base = require "cli.base"

local raise = cli_shared.raise
local usage = cli_shared.usage
local guarded = cli_shared.guarded
local yaml_scalar = cli_shared.yaml_scalar
local field_problem = cli_shared.field_problem
local field_named = cli_shared.field_named
local check_fleet = cli_shared.check_fleet
local fleet_input = cli_shared.fleet_input
local finish = cli_shared.finish
local truncated_finding = cli_shared.truncated_finding

local MAX_SWEEP_HOURS = 2e9

local options = cli_base.with(cli_base.FLEET_OPTS,
  { "--vary", type = "string", required = true, metavar = "KEY=V1,V2,...",
    help = "the config field to vary and its values" },
  { "--field", type = "choice", choices = cli_base.NUMERIC_FIELDS, default = "saving_pct",
    help = "the result field to average" },
  { "--seeds", type = "int", default = 24, min = 1, max = 1000, metavar = "N",
    help = "seeds 0..N-1" })

local run = guarded("sweep", function(args, out)
  local key, list = args.vary:match("^([^=]+)=(.*)$")
  if not key then usage("--vary", "--vary takes KEY=V1,V2,...") end
  if key == "seed" or key == "kind" or not field_named(FLEET_FIELDS, key) then
    usage("--vary", ("--vary: '%s' is not a fleet-config field that can vary"):format(key))
  end
  local texts = {}
  for item in (list .. ","):gmatch("([^,]*),") do texts[#texts + 1] = item end
  if #texts < 1 or #texts > 1000 then usage("--vary", "--vary takes 1 to 1,000 values") end
  local base, origin = fleet_input(args)
  local f = field_named(FLEET_FIELDS, key)
  local rows, findings, errors, seen = engine.array(), engine.array(), {}, {}
  local cfgs = {}
  for i, text in ipairs(texts) do
    local v = yaml_scalar(text)
    local problem = field_problem(f, v)
    if problem then
      errors[#errors + 1] = { rule = "input.type", path = "/" .. key, argument = "--vary",
                              message = problem }
    else
      local cfg = {}
      for k, x in pairs(base) do cfg[k] = x end
      cfg[key] = f.type == "number" and v + 0.0 or v
      local o2 = {}
      for k, x in pairs(origin) do o2[k] = x end
      o2[key] = "set"
      check_fleet(cfg, o2, false)
      cfgs[i] = cfg
      local tf = truncated_finding(args, cfg, o2, cfg.horizon_h)
      if tf and not seen[tf.message] then
        seen[tf.message] = true
        findings[#findings + 1] = tf
      end
    end
  end
  if #errors > 0 then raise(errors) end
  -- 5.10: the whole sweep's simulated hours, before any run.
  local hours = 0
  for _, cfg in ipairs(cfgs) do hours = hours + args.seeds * cfg.horizon_h end
  if hours > MAX_SWEEP_HOURS then
    raise({ { rule = "input.limit", argument = "--vary",
              message = ("the sweep would simulate %d hours (%d values x %d seeds), over the "
                         .. "limit of 2e9"):format(hours, #cfgs, args.seeds) } })
  end
  local best_lo, best_hi
  for i, cfg in ipairs(cfgs) do
    local m = models.power.fleet_mean(cfg, args.field, args.seeds, VARIANT)
    rows[i] = engine.object("value", cfg[key], "mean", m)
    if not best_lo or m < rows[best_lo].mean then best_lo = i end
    if not best_hi or m > rows[best_hi].mean then best_hi = i end
  end
  if args.format == "json" then
    out:json(engine.object("pack", "power", "field", args.field, "seeds", args.seeds,
      "vary", key, "rows", rows, "argmin", rows[best_lo].value,
      "argmax", rows[best_hi].value, "findings", findings))
  else
    local t = {}
    for _, row in ipairs(rows) do
      t[#t + 1] = ("%s %s\n"):format(py.str(row.value), ("%.6g"):format(row.mean))
    end
    t[#t + 1] = ("argmin %s\nargmax %s\n"):format(py.str(rows[best_lo].value),
                                                py.str(rows[best_hi].value))
    out:write(table.concat(t))
  end
  return finish(args, out, findings)
end)

return { options = options, run = run }
