-- The placement pack's rules (spec/placement.md 9): placement.resolve and
-- the rules of 9.1 and 9.3, each a view of one shared analysis per linted
-- document (lib/lint.lua). The engine compiles this file after pack.lua for
-- a run that reads rules (lint, check, rules, explain, validate) and never
-- for an edge-placement verb that does not; so nothing else of the pack
-- reads what it defines. Severities come from pack.lua's RULE_INFO, which
-- the verbs' findings share.

-- Problems and findings of one linted document, by kind: lib/lint.lua,
-- compiled by the first rule that runs.
local function lint_analysis(...) return require("lint").lint_analysis(...) end

local KINDS = { "placement-request", "tier-ladder", "workload-library", "fleet-pair",
                "placement-model-calls" }

local function emit(ctx, f)
  local loc = f.loc
  if not loc then
    ctx:fail{ message = f.message, figures = f.figures }
  elseif loc.ptr and not loc.at[loc.key] then
    ctx:fail{ at = loc.ptr, message = f.message, figures = f.figures }
  else
    ctx:fail{ at = loc.at, key = loc.key, on = loc.on, message = f.message,
              figures = f.figures }
  end
end

engine.rule {
  id       = "placement.resolve",
  kind     = KINDS,
  severity = RULE_INFO["placement.resolve"].severity,
  stage    = "input",
  summary  = "a placement document must resolve: known names, unique names, complete objects",
  fix      = "name a library workload or default tier exactly, give every field an object "
             .. "without base needs, keep names unique, call models within their domains",
  check    = function(doc, ctx)
    for _, p in ipairs(lint_analysis(doc, ctx.kind, ctx.file).problems) do
      ctx:fail{ at = p.at, key = p.key, on = p.on, message = p.message }
    end
  end,
}

-- The rules of 9.1 and 9.3, in evaluation order. Each emits the findings of
-- the shared analysis that carry its id.
local RULES = {
  { id = "placement.fabric", kind = "placement-request",
    summary = "the declared tier must not be blocked by the fabric gate",
    fix = "declare a tier whose fabric carries the workload's collective and GPU count" },
  { id = "placement.power", kind = "placement-request",
    summary = "the declared tier must not be blocked by the power gate",
    fix = "declare a tier whose GPU envelope and AI power carry the workload" },
  { id = "placement.latency", kind = "placement-request",
    summary = "the declared tier must not be blocked by the latency gate",
    fix = "declare a tier near enough to meet the SLA (R0: the 100 µs fronthaul budget)" },
  { id = "placement.gravity", kind = "placement-request",
    summary = "a sovereign workload must not be declared on an out-of-region tier",
    fix = "declare an in-region tier for a sovereign workload" },
  { id = "placement.costly", kind = "placement-request",
    summary = "the declared tier hauls the workload's local ingest beyond the metro edge",
    fix = "move the workload within 20 km of its data, or accept the backhaul bill" },
  { id = "placement.strict.empty-tier", kind = "placement-request",
    summary = "the declared tier must not be the empty string",
    fix = "declare the tier the workload runs on, or remove tier:" },
  { id = "placement.strict.costly-placement", kind = "placement-request",
    summary = "a costly tier must not be declared while some tier is viable",
    fix = "declare the viable tier" },
  { id = "placement.strict.unforced-edge", kind = "placement-request",
    summary = "a tier more edgeward than the recommendation must be forced by a gate",
    fix = "declare the recommended tier, or show the gate that forces the edge" },
  { id = "placement.strict.tier-abbrev", kind = "placement-request",
    summary = "the declared tier should be written in full, not as a prefix or substring",
    fix = "write the tier's full name" },
  { id = "placement.strict.infeasible",
    kind = { "placement-request", "workload-library" },
    summary = "a workload must fit some tier of the ladder",
    fix = "change the workload or the ladder so that some tier accepts it" },
  { id = "placement.strict.residency-undeclared",
    kind = { "placement-request", "tier-ladder" },
    summary = "a custom ladder's top tier must state in_region",
    fix = "write in_region: false (or true, deliberately) on the top tier" },
  { id = "placement.strict.ladder-order",
    kind = { "placement-request", "tier-ladder" },
    summary = "a custom ladder must run edge first (km_to_user never decreasing)",
    fix = "order the tiers from the edge to the centre" },
  { id = "placement.strict.fleet-envelope", kind = "fleet-pair",
    summary = "a fleet side's GPU must fit its tier's max_gpu_watts",
    fix = "choose a GPU within the tier's envelope, or raise the envelope" },
}

for _, spec in ipairs(RULES) do
  engine.rule {
    id = spec.id, kind = spec.kind, severity = RULE_INFO[spec.id].severity,
    summary = spec.summary,
    fix = spec.fix,
    check = function(doc, ctx)
      local a = ctx:once("placement", function()
        return lint_analysis(doc, ctx.kind, ctx.file)
      end)
      for _, f in ipairs(a.findings) do
        if f.rule == ctx.rule then emit(ctx, f) end
      end
    end,
  }
end
