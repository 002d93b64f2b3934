-- edge-placement matrix: every library workload on every tier, with its recommended tier.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_shared = require "cli.shared"

local null_if_nil = cli_shared.null_if_nil
local pad = cli_shared.pad
local raise_problems = cli_shared.raise_problems
local active = cli_shared.active
local has_error = cli_shared.has_error
local add_findings_json = cli_shared.add_findings_json
local findings_text = cli_shared.findings_text
local report = cli_shared.report
local load = cli_shared.load
local ladder_names = cli_shared.ladder_names

-- Resolve a --ladder file: tiers, or exit 2.
local function ladder_from(path)
  local doc = load(path, "tier-ladder")
  local ps = {}
  local tiers = PL.resolve_ladder(doc, "tiers", path, ps)
  if #ps > 0 then raise_problems(ps) end
  return tiers
end

local LEGEND = "+ viable   ~(g) costly (gravity)   x(.) blocked by a gate: "
               .. "f fabric, p power, l latency, g gravity\n"

local function matrix_text(workloads, tiers, rows)
  local wn = 0
  for _, w in ipairs(workloads) do wn = math.max(wn, utf8.len(w.name) or #w.name) end
  wn = wn + 2
  local widths = {}
  local head = { pad("workload", wn) }
  for i, t in ipairs(tiers) do
    widths[i] = math.max(20, (utf8.len(t.name) or #t.name) + 2)
    head[#head + 1] = pad(t.name, widths[i])
  end
  head[#head + 1] = "recommended"
  local header = table.concat(head)
  local lines = { LEGEND, "\n", header, "\n", ("-"):rep(utf8.len(header)), "\n" }
  for k, w in ipairs(workloads) do
    local row = rows[k]
    local cells = { pad(w.name, wn) }
    for i, v in ipairs(row.verdicts) do cells[#cells + 1] = pad(v.mark, widths[i]) end
    cells[#cells + 1] = row.rec and tiers[row.rec].name or "NONE"
    if row.forced_by == "infeasible" then
      cells[#cells + 1] = "  <- infeasible"
    elseif row.forced_by then
      cells[#cells + 1] = "  <- forced by " .. row.forced_by
    end
    lines[#lines + 1] = table.concat(cells) .. "\n"
  end
  return table.concat(lines)
end

return function(args, out)
  local workloads, custom = LIBRARY, false
  local tiers = PL.default_ladder()
  if args.workloads then
    local doc = load(args.workloads, "workload-library")
    local ps = {}
    workloads = PL.resolve_library(doc, args.workloads, ps)
    if #ps > 0 then raise_problems(ps) end
  end
  if args.ladder then
    tiers = ladder_from(args.ladder)
    custom = true
  end
  local rows, findings = {}, {}
  for i, w in ipairs(workloads) do rows[i] = PL.evaluate_ladder(w, tiers) end
  PL.infeasible_findings(workloads, rows, findings)
  if custom then PL.ladder_findings(tiers, findings) end
  findings = active(findings, args.strict)
  local rc = args.strict and has_error(findings) and 1 or 0
  if args.format == "json" then
    local jrows = engine.array()
    local by_tier = engine.object()
    for _, t in ipairs(tiers) do by_tier[t.name] = 0 end
    local placed, infeasible, forced = 0, 0, 0
    for k, w in ipairs(workloads) do
      local row = rows[k]
      local cells = engine.array()
      for i, v in ipairs(row.verdicts) do
        cells[i] = engine.object("tier", tiers[i].name, "status", v.status,
                                 "gate", null_if_nil(v.gate), "reason", null_if_nil(v.reason),
                                 "mark", v.mark)
      end
      if row.rec then
        placed = placed + 1
        by_tier[tiers[row.rec].name] = by_tier[tiers[row.rec].name] + 1
      else
        infeasible = infeasible + 1
      end
      if row.forced_by and row.forced_by ~= "infeasible" then forced = forced + 1 end
      jrows[k] = engine.object("workload", w.name, "cells", cells,
                               "recommended", row.rec and tiers[row.rec].name or engine.null,
                               "forced_by", null_if_nil(row.forced_by))
    end
    local obj = engine.object("ladder", ladder_names(tiers), "rows", jrows,
      "summary", engine.object("workloads", #workloads, "placed", placed,
                               "infeasible", infeasible, "forced", forced,
                               "by_tier", by_tier))
    add_findings_json(obj, findings)
    out:json(obj)
  elseif args.format == "text" then
    out:write(matrix_text(workloads, tiers, rows) .. findings_text(findings))
  else
    report(out, findings, args.format, args.workloads or args.ladder)
  end
  return rc
end
