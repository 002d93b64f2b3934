-- infragate network validate: run the validation registry (section 7).
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local array = cli_shared.array
local null = cli_shared.null

return function(args, out)
  local entry = engine.validate { pack = "network", mutation = args.mutate }
  if args.format == "json" then
    out:json(engine.object("mutation", null(args.mutate), "ok", entry.ok,
                           "registries", array({ entry })))
    return entry.ok and 0 or 1
  end
  -- The text of `infragate validate` (core.md 11.4), line for line.
  local under = args.mutate and (" under mutation '" .. args.mutate .. "'") or ""
  local lines = { ("validation registry of pack 'network'%s\n"):format(under) }
  for _, p in ipairs(entry.points) do
    lines[#lines + 1] = ("  %-40s %-10s %-10s expected %-10.4g actual %-10.4g tol %-8.4g %s\n")
                        :format(p.id, p.kind, engine.json(array(p.refs)), p.expected,
                                engine.isnull(p.actual) and 0 / 0 or p.actual, p.tolerance,
                                p.ok and "PASS" or "FAIL")
  end
  if #entry.declined > 0 then
    lines[#lines + 1] = "  declined anchors:\n"
    for _, d in ipairs(entry.declined) do
      lines[#lines + 1] = ("    - %s: %s\n"):format(d.what, d.why)
    end
  end
  lines[#lines + 1] = entry.ok and "every point reproduced\n" or "some points did not reproduce\n"
  out:write(table.concat(lines))
  return entry.ok and 0 or 1
end
