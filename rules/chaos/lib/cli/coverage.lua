-- chaos-fidelity coverage: .
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"

local coverage = cli_base.coverage
local coverage_summary = cli_base.coverage_summary
local array = cli_shared.array
local basename = cli_shared.basename
local sorted_rules = cli_shared.sorted_rules
local lint_run = cli_shared.lint_run

local function buckets_json(b)
  return engine.object("real", b.real, "emulated", b.emulated, "signal-only", b["signal-only"])
end

local function sorted_unique(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

local function coverage_json(cov, s, require, total)
  local layers, classes = engine.array(), engine.array()
  local modes, excluded = engine.array(), engine.array()
  for i, r in ipairs(cov.layers) do
    layers[i] = engine.object("layer", r.layer.id, "kind", r.layer.kind,
                              "faults", buckets_json(r.faults), "tested", buckets_json(r.tested),
                              "best", r.best or engine.null,
                              "status", r.covered and "covered" or "gap",
                              "specs", array(sorted_unique(r.specs)))
  end
  for i, r in ipairs(cov.classes) do
    classes[i] = engine.object("fault_class", r.class.id, "layer", r.class.layer,
                               "best_available", r.available or engine.null,
                               "best_in_catalog", r.best or engine.null, "status", r.status,
                               "specs", array(sorted_unique(r.specs)))
  end
  for i, r in ipairs(cov.modes) do
    modes[i] = engine.object("failure_mode", r.mode.id, "fault_classes", array(r.mode.classes),
                             "status", r.covered and "covered" or "gap",
                             "specs", array(sorted_unique(r.specs)))
  end
  for i, r in ipairs(cov.excluded) do
    excluded[i] = engine.object("file", r.display, "verdict", r.verdict,
                                "rules", array(sorted_rules(r.findings)))
  end
  return engine.object(
    "require", require,
    "specs", engine.object("total", total, "valid", #cov.valid, "excluded", #cov.excluded),
    "excluded", excluded, "layers", layers, "fault_classes", classes, "failure_modes", modes,
    "summary", engine.object(
      "layers", #cov.layers, "layers_covered", s.layers, "layer_gaps", array(s.layer_gaps),
      "fault_classes", #cov.classes, "fault_classes_covered", s.classes,
      "fault_class_gaps", array(s.class_gaps), "below_available", array(s.below),
      "failure_modes", #cov.modes, "failure_modes_covered", s.modes,
      "failure_mode_gaps", array(s.mode_gaps)))
end

local function list_text(list)
  return #list > 0 and table.concat(list, ", ") or "none"
end

local function coverage_text(cov, s, require)
  local lines = {
    ("coverage of %d valid specs (%d excluded), required fidelity: %s\n")
      :format(#cov.valid, #cov.excluded, require),
    ("%-17s %-6s %-24s %-24s %-12s %s\n"):format("layer", "kind", "faults real/emu/sig",
                                                 "tested real/emu/sig", "best", "status"),
  }
  for _, r in ipairs(cov.layers) do
    local f, t = r.faults, r.tested
    lines[#lines + 1] = ("%-17s %-6s %-24s %-24s %-12s %s\n"):format(
      r.layer.id, r.layer.kind, ("%d/%d/%d"):format(f.real, f.emulated, f["signal-only"]),
      ("%d/%d/%d"):format(t.real, t.emulated, t["signal-only"]), r.best or "-",
      r.covered and "covered" or "gap")
  end
  lines[#lines + 1] = ("layers covered %d/%d, fault classes exercised %d/%d, failure modes " ..
    "covered %d/%d\n")
                      :format(s.layers, #cov.layers, s.classes, #cov.classes, s.modes, #cov.modes)
  lines[#lines + 1] = "fault classes not exercised: " .. list_text(s.class_gaps) .. "\n"
  lines[#lines + 1] = "fault classes below their best available fidelity: "
                      .. list_text(s.below) .. "\n"
  lines[#lines + 1] = "failure modes not covered: " .. list_text(s.mode_gaps) .. "\n"
  for _, r in ipairs(cov.excluded) do
    lines[#lines + 1] = ("excluded %s: %s\n"):format(basename(r.display),
                                                      table.concat(sorted_rules(r.findings), ", "))
  end
  return table.concat(lines)
end

return function(args, out)
  local results = lint_run(args.operands, args.strict)
  local errors = {}
  for _, r in ipairs(results) do
    if r.verdict == "error" then
      for _, f in ipairs(r.findings) do
        if f.unusable or f.rule:sub(1, 6) == "input." then
          f.file = r.display
          errors[#errors + 1] = f
        end
      end
    end
  end
  if #errors > 0 then engine.input_error(errors) end
  local cov = coverage(results, args.require)
  local s = coverage_summary(cov)
  if args.format == "json" then
    out:json(coverage_json(cov, s, args.require, #results))
  else
    out:write(coverage_text(cov, s, args.require))
  end
  local bad = #s.layer_gaps > 0 or #s.mode_gaps > 0 or #cov.excluded > 0
  return bad and 1 or 0
end
