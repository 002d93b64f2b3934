-- What several of promotion-gate's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local jv = require "json_values"

local P = engine.promotion

local array_of, null_if_nil = jv.array, jv.null

local function input_error(rule, message, file, line, column, path)
  engine.input_error({ { rule = rule, severity = "error", message = message, file = file,
                         line = line, column = column, path = path } })
end

local function expand(operands)
  local opts = { recursive = false, suffixes = { ".yaml" }, hidden = true, dedupe = false }
  if #operands == 0 then opts.pack_dir = "examples" end
  return engine.expand(operands, opts)
end

local function load(entry)
  if entry.error or not entry.path then
    return nil, { { rule = "input.unreadable", severity = "error", line = 1, column = 1, path = "",
                    message = entry.error or ("cannot read '%s'"):format(entry.display) } }
  end
  local doc, fs = engine.load(entry.path, { collect = true })
  if fs and #fs > 0 then return nil, fs end
  return doc, nil
end

local function common_checks(args)
  if args.trust == "" then engine.usage("--trust", "--trust needs a file, not an empty value") end
  if args.evidence_root == "" then
    engine.usage("--evidence-root", "--evidence-root needs a folder, not an empty value")
  end
  local dashes = 0
  for _, op in ipairs(args.operands) do
    if op == "-" then dashes = dashes + 1 end
  end
  if dashes > 1 then engine.usage("-", "standard input ('-') can be read only once") end
end

local function entries_or_fail(args)
  local entries = expand(args.operands)
  if #entries == 0 then
    input_error("promotion.no-records", "the inputs name no promotion record (*.yaml) to check")
  end
  return entries
end

return {
  P = P,
  array_of = array_of,
  null_if_nil = null_if_nil,
  input_error = input_error,
  expand = expand,
  load = load,
  common_checks = common_checks,
  entries_or_fail = entries_or_fail,
}
