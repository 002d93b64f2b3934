-- chaos-fidelity lint: .
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local array = cli_shared.array
local expand_opts = cli_shared.expand_opts
local basename = cli_shared.basename
local expand = cli_shared.expand
local sorted_rules = cli_shared.sorted_rules
local lint_run = cli_shared.lint_run

local function finding_json(f)
  local o = engine.object("rule", f.rule, "severity", f.severity, "message", f.message,
                          "line", f.line or engine.null, "column", f.column or engine.null,
                          "path", f.path or "", "document", f.document or 0,
                          "end_line", f.end_line or engine.null,
                          "end_column", f.end_column or engine.null)
  if f.figures then o.figures = f.figures end
  return o
end

local function lint_json(results)
  local files, nfailed, nerrors, nunusable = engine.array(), 0, 0, 0
  for i, r in ipairs(results) do
    local fs = engine.array()
    for j, f in ipairs(r.findings) do fs[j] = finding_json(f) end
    local entry = engine.object("file", r.display, "verdict", r.verdict,
                                "rules", array(sorted_rules(r.findings)), "findings", fs,
                                "suppressed", engine.array())
    if r.doc then entry.experiment = CF.experiment(r.doc) end
    files[i] = entry
    if r.verdict ~= "pass" then nfailed = nfailed + 1 end
    if r.verdict == "error" then nunusable = nunusable + 1 end
    nerrors = nerrors + #r.findings
  end
  return engine.object("files", files, "summary", engine.object(
    "files", #results, "failed", nfailed, "errors", nerrors, "warnings", 0, "infos", 0,
    "unusable", nunusable, "skipped", 0, "suppressed", 0))
end

local function lint_text(results)
  local lines, nfind, nfiles = {}, 0, 0
  for _, r in ipairs(results) do
    local word = r.verdict == "pass" and "ok" or "FAIL"
    lines[#lines + 1] = ("%-4s %s\n"):format(word, basename(r.display))
    if #r.findings > 0 then nfiles = nfiles + 1 end
    nfind = nfind + #r.findings
  end
  lines[#lines + 1] = "\n"
  if nfind == 0 then
    lines[#lines + 1] = ("all %d experiments are valid\n"):format(#results)
  else
    lines[#lines + 1] = ("%d problem%s in %d of %d experiments:\n")
                        :format(nfind, nfind == 1 and "" or "s", nfiles, #results)
    for _, r in ipairs(results) do
      local name = basename(r.display)
      for _, f in ipairs(r.findings) do
        lines[#lines + 1] = ("  %s:%d:%d: error[%s]: %s\n")
                            :format(name, f.line or 1, f.column or 1, f.rule, f.message)
      end
    end
  end
  return table.concat(lines)
end

local function exit_code(results)
  local code = 0
  for _, r in ipairs(results) do
    if r.verdict == "error" then return 2 end
    if r.verdict == "fail" then code = 1 end
  end
  return code
end

local function run_lint(args, out)
  if args.format == "sarif" or args.format == "github" or args.format == "junit" then
    -- The engine's reporters, over the same files (usage errors checked first).
    expand(args.operands)
    return engine.lint { operands = args.operands, strict = args.strict == true,
                         format = args.format, jobs = args.jobs,
                         expand = expand_opts(args.operands) }
  end
  local results = lint_run(args.operands, args.strict)
  if args.format == "json" then
    out:json(lint_json(results))
  else
    out:write(lint_text(results))
  end
  return exit_code(results)
end

return run_lint
