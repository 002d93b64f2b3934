-- What chaos-fidelity's declarations (commands.lua) and its verbs' code both
-- use: option lists, defaults and their helpers.

local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }

local FIDELITIES = { "real", "emulated", "signal-only" }

local REQUIRES = { "any", "real", "emulated", "signal-only" }

local contains = CF.contains

local function format_opt(choices)
  return { "--format", type = "choice", choices = choices, default = "text", metavar = "FMT",
           help = "output format: " .. table.concat(choices, ", ") }
end

local STRICT_OPT = { "--strict", type = "flag", help = "also run the chaos.strict.* rules" }

local JOBS_OPT = { "--jobs", short = "-j", type = "int", min = 1, metavar = "N",
                   help = "parallel files (output order unchanged)" }

local RANK = CF.FIDELITY_RANK

local function buckets()
  return { real = 0, emulated = 0, ["signal-only"] = 0 }
end

local function stronger(a, b)
  if a == nil then return b end
  if b == nil then return a end
  return RANK[a] <= RANK[b] and a or b
end

local function coverage(results, require)
  local valid, excluded = {}, {}
  for _, r in ipairs(results) do
    if r.verdict == "pass" then valid[#valid + 1] = r.fields
    else excluded[#excluded + 1] = r end
  end
  local cov = { layers = {}, classes = {}, modes = {}, valid = valid, excluded = excluded }
  for _, l in ipairs(REG.layers) do
    local row = { layer = l, faults = buckets(), tested = buckets(), specs = {} }
    for _, s in ipairs(valid) do
      if REG.class[s.class].layer == l.id then
        row.faults[s.fidelity] = row.faults[s.fidelity] + 1
        row.specs[s.id] = true
      end
      if contains(s.tested, l.id) then
        row.tested[s.fidelity] = row.tested[s.fidelity] + 1
        row.specs[s.id] = true
      end
    end
    for _, f in ipairs(FIDELITIES) do
      if row.best == nil and (row.faults[f] > 0 or row.tested[f] > 0) then row.best = f end
    end
    row.covered = row.best ~= nil and (require == "any" or RANK[row.best] <= RANK[require])
    cov.layers[#cov.layers + 1] = row
  end
  for _, c in ipairs(REG.classes) do
    local row = { class = c, available = CF.best_available(c), specs = {} }
    for _, s in ipairs(valid) do
      if s.class == c.id then
        row.best = stronger(row.best, s.fidelity)
        row.specs[s.id] = true
      end
    end
    if row.best == nil then row.status = "gap"
    elseif row.available and RANK[row.best] > RANK[row.available] then
      row.status = "below-available"
    else row.status = "covered" end
    cov.classes[#cov.classes + 1] = row
  end
  for _, m in ipairs(REG.failure_modes) do
    local row = { mode = m, specs = {} }
    for _, s in ipairs(valid) do
      if contains(m.classes, s.class) then row.specs[s.id] = true end
    end
    row.covered = next(row.specs) ~= nil
    cov.modes[#cov.modes + 1] = row
  end
  return cov
end

local function coverage_summary(cov)
  local s = { layer_gaps = {}, class_gaps = {}, below = {}, mode_gaps = {}, layers = 0,
              classes = 0, modes = 0 }
  for _, r in ipairs(cov.layers) do
    if r.covered then s.layers = s.layers + 1 else s.layer_gaps[#s.layer_gaps + 1] = r.layer.id end
  end
  for _, r in ipairs(cov.classes) do
    if r.status == "gap" then s.class_gaps[#s.class_gaps + 1] = r.class.id
    else s.classes = s.classes + 1 end
    if r.status == "below-available" then s.below[#s.below + 1] = r.class.id end
  end
  for _, r in ipairs(cov.modes) do
    if r.covered then s.modes = s.modes + 1 else s.mode_gaps[#s.mode_gaps + 1] = r.mode.id end
  end
  return s
end

return {
  LINT_FORMATS = LINT_FORMATS,
  FIDELITIES = FIDELITIES,
  REQUIRES = REQUIRES,
  contains = contains,
  format_opt = format_opt,
  STRICT_OPT = STRICT_OPT,
  JOBS_OPT = JOBS_OPT,
  RANK = RANK,
  buckets = buckets,
  stronger = stronger,
  coverage = coverage,
  coverage_summary = coverage_summary,
}
