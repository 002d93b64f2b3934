-- promotion-gate digest: print each record's record_sha256.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local P = cli_shared.P
local null_if_nil = cli_shared.null_if_nil
local load = cli_shared.load
local common_checks = cli_shared.common_checks
local entries_or_fail = cli_shared.entries_or_fail

local function digest_entry(entry)
  local doc, input = load(entry)
  local function err(rule, message, line, column, path)
    return { file = entry.display, error = { rule = rule, message = message, line = line or 1,
                                             column = column or 1, path = path or "" } }
  end
  if not doc and input then
    local f = input[1]
    return err(f.rule, f.message, f.line, f.column, f.path)
  end
  if PROMO.ty(doc) ~= "map" then
    return err("promotion.not-a-mapping", "a promotion record must be a mapping of fields")
  end
  local canon, ptr, line, column = P.record_canonical(doc)
  if not canon then
    return err("promotion.record-unencodable",
               ("the value at '%s' cannot be written as canonical JSON (dates, NaN and infinities "
                .. "cannot)"):format(ptr), line, column, ptr)
  end
  return { file = entry.display, canonical = canon, digest = P.sha256_hex(canon) }
end

return function(args, out)
  common_checks(args)
  if args.trust or args.evidence_root or args.declaration_only or args.strict then
    engine.usage("--print-digest",
                 "--print-digest takes no --trust, --evidence-root, " ..
                 "--declaration-only or --strict")
  end
  if args.format ~= "text" and args.format ~= "json" then
    engine.usage("--format", "--print-digest prints text or json only")
  end
  local list, code = {}, 0
  for _, entry in ipairs(entries_or_fail(args)) do
    list[#list + 1] = digest_entry(entry)
    if list[#list].error then code = 2 end
  end
  if args.format == "json" then
    local digests = engine.array()
    for i, d in ipairs(list) do
      local e = engine.null
      if d.error then
        e = engine.object("rule", d.error.rule, "severity", "error", "message", d.error.message,
                          "line", d.error.line, "column", d.error.column, "path", d.error.path)
      end
      digests[i] = engine.object("file", d.file, "record_sha256", null_if_nil(d.digest),
                                 "canonical", null_if_nil(d.canonical), "error", e)
    end
    out:json(engine.object("digests", digests))
  else
    local lines = {}
    for _, d in ipairs(list) do
      if d.error then
        out:note(("%s:%d:%d: error[%s]: %s"):format(d.file, d.error.line, d.error.column,
                                                     d.error.rule, d.error.message))
      else
        lines[#lines + 1] = d.digest .. "  " .. d.file .. "\n"
      end
    end
    out:write(table.concat(lines))
  end
  return code
end
