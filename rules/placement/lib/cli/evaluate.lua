-- edge-placement evaluate: evaluate one workload on every tier and check its declared tier.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local pad = cli_shared.pad
local raise_problems = cli_shared.raise_problems
local active = cli_shared.active
local has_error = cli_shared.has_error
local findings_text = cli_shared.findings_text
local report = cli_shared.report
local load = cli_shared.load

local function evaluate_text(rc, a, findings)
  local w = rc.workload
  local lines = { w.note ~= "" and (w.name .. ": " .. w.note) or w.name, "\n\n" }
  for _, v in ipairs(a.verdicts) do
    local line = "  " .. pad(v.tier.name, 18) .. " " .. pad(v.status, 8)
    if v.status ~= "VIABLE" then
      line = line .. " [" .. v.gate .. "] " .. v.detail
    end
    lines[#lines + 1] = line:gsub("%s+$", "") .. "\n"
  end
  lines[#lines + 1] = "\n"
  local top = rc.tiers[#rc.tiers].name
  if a.rec then
    lines[#lines + 1] = ("recommended: %s\n"):format(rc.tiers[a.rec].name)
  else
    lines[#lines + 1] = "recommended: NONE\n"
  end
  if a.forced_by == "infeasible" then
    lines[#lines + 1] = ("no tier of the ladder accepts '%s'\n"):format(w.name)
  elseif a.forced_by then
    lines[#lines + 1] = ("the recommendation sits below the top tier '%s' because of its %s "
                         .. "gate\n"):format(top, a.forced_by)
  end
  return table.concat(lines) .. findings_text(findings)
end

return function(args, out)
  if (args.workload == nil) == (args.request == nil) then
    engine.usage(args.request and "--request" or "--workload",
                 "give exactly one of -w/--workload NAME and --request FILE")
  end
  local lib
  if args.workload then
    lib = PL.find_by_name(LIBRARY, args.workload)
    if not lib then
      engine.usage("--workload", ("'%s' is not a library workload; choose one of %s")
                   :format(args.workload, PL.quoted_list(PL.names_of(LIBRARY))))
    end
  end
  local doc, ladder
  if args.request then doc = load(args.request, "placement-request") end
  if args.ladder then
    if doc and doc.ladder ~= nil then
      engine.usage("--ladder", ("'%s' has its own ladder; --ladder cannot replace it")
                   :format(args.request))
    end
    ladder = { doc = load(args.ladder, "tier-ladder"), file = args.ladder }
  end
  local rc = PL.resolve_request(doc, { file = args.request, ladder = ladder,
                                       tier = args.tier, workload = lib })
  if #rc.problems > 0 then raise_problems(rc.problems) end
  if rc.declared and rc.declared.error then engine.usage("--tier", rc.declared.error) end
  local a = PL.analyze_request(rc)
  local findings = active(a.findings, args.strict)
  local rc_exit = has_error(findings) and 1 or 0
  if args.format == "json" then
    out:json(require("cli.evaluate_json")(args, rc, a, findings))
  elseif args.format == "text" then
    out:write(evaluate_text(rc, a, findings))
  else
    report(out, findings, args.format, args.request)
  end
  return rc_exit
end
