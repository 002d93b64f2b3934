-- airan-resiliency: the published tool's three verbs (ladder, policy,
-- transports) with the same defaults and figures, plus ours (simulate,
-- lint, validate) and --format json on every verb (spec/resiliency.md 2,
-- 4). The text layouts and sentences are ours; the figures are printed with
-- the precision of 2.6 so they read as the reference tool's. Everything is
-- computed by models.resiliency through the functions of pack.lua.
local py = require "py"

local CLASSES = RS.CLASSES
local FORMATS = { "text", "json" }
local LINT_FORMATS = { "text", "json", "sarif", "github", "junit" }
local MUTATIONS = { "power-chain-deleted", "transport-rungs-stripped", "r0-on-any-transport",
                    "storms-off", "routine-outage-halved", "fiber-rates-doubled",
                    "references-removed" }
local RUNG_NAMES = {}
for i, r in ipairs(RUNGS) do RUNG_NAMES[i] = r.name end
local MAX_YEARS = DEFAULTS.limits.max_years

local prog = engine.program {
  name    = "airan-resiliency",
  summary = "price the next nine of an AI-RAN / edge site's last mile (Monte Carlo)",
  help    = "Simulates many independent years of one site: transport failures, the power "
            .. "chain, GNSS timing and regional storms, per resilience class R0 (radio), "
            .. "R1 (control plane) and R2 (tenant AI). ladder, policy and transports answer "
            .. "as the published tool; simulate, lint and validate read site documents and "
            .. "the validation registry.",
  syntax  = { abbrev = "unique-prefix", negative_numbers = true, help_anywhere = false,
              before_verb = { "--format", "--help" } },
}

-- ---- options ------------------------------------------------------------

local function years_opt(default, help)
  return { "--years", type = "int", default = default, min = 1, max = MAX_YEARS,
           metavar = "N",
           help = ("%s, 1..%d"):format(help or "simulated years per policy", MAX_YEARS) }
end

local function seed_opt(default)
  return { "--seed", type = "bigint", default = default, metavar = "S",
           help = "seed of the generator, any integer (a negative one keys as its magnitude)"
                  .. (default and "" or " (default: the document's, else 7)") }
end

local function format_opt(choices, group)
  return { "--format", type = "choice", choices = choices, default = "text", group = group,
           help = "output format" }
end

-- ---- numbers as text (spec 2.6) ------------------------------------------------

local function pct(x, decimals)
  return py.fixed(x * 100.0, decimals)
end

-- Python "{:,.0f}".
local function money(x)
  return py.grouped_fixed(x, 0)
end

local function g(x)
  return ("%g"):format(x)
end

-- A list as a JSON array (which stays an array when empty).
local array = require("json_values").array

-- ---- JSON ------------------------------------------------------------------------

-- A --seed value as JSON: an integer when it fits 64 bits, else kept as
-- its canonical decimal text and written as a bare number by emit().
local function seed_value(seed)
  if type(seed) ~= "string" then return seed, false end
  if #seed:gsub("^%-", "") <= 18 then return tonumber(seed), false end
  return "@@bigint:" .. seed .. "@@", true
end

local function emit(out, verb, obj, big)
  if not big then
    out:json(obj)
    return
  end
  -- The engine's envelope, written by hand only for seeds beyond 64 bits.
  local text = engine.json(obj):gsub('"@@bigint:(%-?%d+)@@"', "%1")
  out:write(('{"tool": "infragate", "version": %s, "verb": %s, %s\n')
            :format(engine.json(engine.version), engine.json(verb), text:sub(2)))
end

-- ---- input documents --------------------------------------------------------------

local function by_position(a, b)
  local la, lb = a.line or 0, b.line or 0
  if la ~= lb then return la < lb end
  local ca, cb = a.column or 0, b.column or 0
  if ca ~= cb then return ca < cb end
  return a.rule < b.rule
end

-- Load a site document or end the verb with its input findings (3.9), in
-- the order lint would report them.
local function load_site(path)
  local doc, findings = engine.load(path, { kind = "resiliency-site", collect = true })
  local errs = {}
  if findings and #findings > 0 then
    errs = findings
  else
    for _, p in ipairs(RS.input_problems(doc)) do
      local w = engine.where(p.at, p.key)
      errs[#errs + 1] = { rule = p.rule, severity = "error", message = p.message,
                          line = w.line, column = w.column, end_line = w.end_line,
                          end_column = w.end_column, path = w.path, unusable = true }
    end
  end
  if #errs > 0 then
    for _, f in ipairs(errs) do f.file = path end
    table.sort(errs, by_position)
    engine.input_error(errs)
  end
  return doc
end

-- ---- text blocks ---------------------------------------------------------------------

local function class_block(res)
  local lines = {}
  for _, c in ipairs(CLASSES) do
    local f = res.classes[c]
    lines[#lines + 1] = ("  %s  availability %s%%  %s nines  downtime %s h/yr  %s episodes/yr"
                         .. "  restore %s h  usable capacity %s%%\n")
                        :format(c, pct(f.availability, 4), py.fixed(f.nines, 1),
                                py.fixed(f.downtime_h_yr, 1), py.fixed(f.episodes_per_year, 1),
                                py.fixed(f.ettr_h, 1), pct(f.retention, 2))
  end
  return table.concat(lines)
end

local function policy_text(pol, res)
  return ("%s (%s): %s USD/month\n"):format(pol.name, pol.label, money(res.monthly_usd))
         .. class_block(res)
end

-- ---- ladder ------------------------------------------------------------

local function ladder_runs(years, seed)
  local runs = {}
  for i, r in ipairs(RUNGS) do
    runs[i] = RS.run(BUILTINS, r, DEFAULTS.storm, years, seed)
  end
  return runs
end

prog:verb {
  name    = "ladder",
  summary = "simulate the five-rung policy ladder P0..P4",
  options = { years_opt(DEFAULTS.years), seed_opt(DEFAULTS.seed), format_opt(FORMATS, "added") },
  run     = function(args, out)
    local results = models.resiliency.batch(ladder_runs(args.years, args.seed), VARIANT)
    local first, last = results[1], results[#results]
    local gain_nines = last.classes.R2.nines - first.classes.R2.nines
    local gain_usd = last.monthly_usd - first.monthly_usd
    if args.format == "json" then
      local policies = engine.array()
      for i, r in ipairs(RUNGS) do policies[i] = RS.policy_json(r, results[i]) end
      local seed, big = seed_value(args.seed)
      emit(out, "ladder", engine.object(
        "pack", "resiliency", "years", args.years, "seed", seed, "policies", policies,
        "gain", engine.object("from", RUNGS[1].name, "to", RUNGS[#RUNGS].name,
                              "r2_nines", gain_nines, "monthly_usd", gain_usd)), big)
      return 0
    end
    local lines = {
      ("policy ladder over %d simulated years per rung, seed %s\n")
        :format(args.years, RS.seed_text(args.seed)),
      ("%-4s %9s  %-18s %-18s %-18s %-11s %s\n"):format("rung", "USD/month",
        "R0 avail% nines", "R1 avail% nines", "R2 avail% nines", "R2 retain%", "label"),
    }
    for i, r in ipairs(RUNGS) do
      local res, cells = results[i], {}
      for _, c in ipairs(CLASSES) do
        local f = res.classes[c]
        cells[#cells + 1] = ("%-18s"):format(("%s %s"):format(pct(f.availability, 4),
                                                              py.fixed(f.nines, 1)))
      end
      lines[#lines + 1] = ("%-4s %9s  %s %s %s %-11s %s\n"):format(r.name,
        money(res.monthly_usd), cells[1], cells[2], cells[3],
        pct(res.classes.R2.retention, 3), r.label)
    end
    lines[#lines + 1] = ("%s -> %s: R2 gains %s nines for %s USD/month more\n")
                        :format(RUNGS[1].name, RUNGS[#RUNGS].name, py.fixed(gain_nines, 1),
                                money(gain_usd))
    out:write(table.concat(lines))
    return 0
  end,
}

-- ---- policy ------------------------------------------------------------

prog:verb {
  name    = "policy",
  summary = "simulate one rung of the ladder",
  options = {
    { "--policy", short = "-p", type = "choice", choices = RUNG_NAMES, required = true,
      metavar = "NAME", help = "the rung: " .. table.concat(RUNG_NAMES, ", ") },
    years_opt(DEFAULTS.years), seed_opt(DEFAULTS.seed), format_opt(FORMATS, "added"),
  },
  run     = function(args, out)
    local pol = RS.rung(args.policy)
    local res = models.resiliency.simulate(RS.run(BUILTINS, pol, DEFAULTS.storm, args.years,
                                                  args.seed), VARIANT)
    if args.format == "json" then
      local seed, big = seed_value(args.seed)
      emit(out, "policy", engine.object("pack", "resiliency", "years", args.years,
                                        "seed", seed, "policy", RS.policy_json(pol, res)), big)
      return 0
    end
    out:write(("rung %s over %d simulated years, seed %s\n")
              :format(pol.name, args.years, RS.seed_text(args.seed)) .. policy_text(pol, res))
    return 0
  end,
}

-- ---- transports ------------------------------------------------------------

local function mode_json(m)
  return engine.object("name", m.name, "rate_per_year", m.rate_per_year, "mttr_h", m.mttr_h,
                       "capacity_factor", m.capacity_factor,
                       "storm_rate_mult", m.storm_rate_mult,
                       "storm_mttr_mult", m.storm_mttr_mult, "physical_cut", m.physical_cut)
end

local function transport_json(t)
  local modes = engine.array()
  for i, m in ipairs(t.modes) do modes[i] = mode_json(m) end
  return engine.object("name", t.name, "kind", t.kind, "capacity_gbps", t.capacity_gbps,
                       "rtt_ms", t.rtt_ms, "carries", array(t.carries),
                       "monthly_usd", t.monthly_usd, "grid_dependent", t.grid_dependent,
                       "origin", t.origin, "modes", modes)
end

local function transport_text(t)
  local lines = {
    ("%s (%s%s): %s Gbps, RTT %s ms, carries %s, %s USD/month%s\n")
      :format(t.name, t.kind, t.origin ~= "builtin" and ", " .. t.origin or "",
              g(t.capacity_gbps), g(t.rtt_ms),
              #t.carries > 0 and table.concat(t.carries, "/") or "no class",
              money(t.monthly_usd), t.grid_dependent and ", needs grid power" or ""),
  }
  for _, m in ipairs(t.modes) do
    local effect = m.capacity_factor == 0 and "hard outage"
                   or ("degrades to %s%%"):format(py.fixed(m.capacity_factor * 100.0, 0))
    local extra = {}
    if m.storm_rate_mult > 1 then
      extra[#extra + 1] = "x" .. g(m.storm_rate_mult) .. " rate in storms"
    end
    if m.storm_mttr_mult > 1 then
      extra[#extra + 1] = "x" .. g(m.storm_mttr_mult) .. " MTTR in storms"
    end
    if m.physical_cut then extra[#extra + 1] = "physical cut" end
    lines[#lines + 1] = ("  %-12s %s/yr, MTTR %s h, %s%s\n")
                        :format(m.name, g(m.rate_per_year), g(m.mttr_h), effect,
                                #extra > 0 and "; " .. table.concat(extra, ", ") or "")
  end
  return table.concat(lines)
end

prog:verb {
  name    = "transports",
  summary = "list the transport catalog and its failure modes",
  options = {
    { "--site", type = "path", metavar = "FILE", group = "added",
      help = "a site document whose catalog overrides and extends the built-ins" },
    format_opt(FORMATS, "added"),
  },
  run     = function(args, out)
    local catalog
    if args.site then
      catalog = RS.catalog(load_site(args.site))
    else
      catalog = RS.catalog(nil)
    end
    if args.format == "json" then
      local list = engine.array()
      for i, t in ipairs(catalog) do list[i] = transport_json(t) end
      out:json(engine.object("pack", "resiliency", "file", args.site or engine.null,
                             "transports", list))
      return 0
    end
    local parts = {}
    for i, t in ipairs(catalog) do parts[i] = transport_text(t) end
    out:write(table.concat(parts))
    return 0
  end,
}

-- ---- simulate ------------------------------------------------------------

local function inputs_json(doc, r)
  local p = r.policy
  local power, timing, storm = engine.object(), engine.object(), engine.object()
  for _, k in ipairs(RS.POWER_FIELDS) do power[k] = p.power[k] end
  for _, k in ipairs({ "holdover", "holdover_h", "gnss_events_per_year", "gnss_event_h" }) do
    timing[k] = p.timing[k]
  end
  for _, k in ipairs(RS.STORM_FIELDS) do storm[k] = r.storm[k] end
  return engine.object(
    "base", doc.policy.base or engine.null,
    "transports", array(RS.instances(p)),
    "dual_fiber", p.dual_fiber,
    "shared_cut_fraction", p.shared_cut_fraction,
    "local_autonomy", p.local_autonomy,
    "power", power, "timing", timing, "storm", storm)
end

prog:verb {
  name    = "simulate",
  summary = "simulate the policy of a site document",
  options = {
    { "--site", type = "path", required = true, metavar = "FILE",
      help = "the site document (kind resiliency-site)" },
    years_opt(nil, "simulated years (default: the document's simulation block, else 2000)"),
    seed_opt(nil), format_opt(FORMATS),
  },
  run     = function(args, out)
    local doc = load_site(args.site)
    local r = RS.resolve(doc, { years = args.years, seed = args.seed })
    local res = RS.simulate(r)
    if args.format == "json" then
      local seed, big = seed_value(r.seed)
      emit(out, "simulate", engine.object(
        "pack", "resiliency", "file", args.site, "site", doc.site or engine.null,
        "years", r.years, "seed", seed, "inputs", inputs_json(doc, r),
        "policy", RS.policy_json(r.policy, res)), big)
      return 0
    end
    out:write(("%s%s: policy %s over %d simulated years, seed %s\n")
              :format(args.site, doc.site and (" (site " .. doc.site .. ")") or "",
                      r.policy.name, r.years, RS.seed_text(r.seed))
              .. policy_text(r.policy, res))
    return 0
  end,
}

-- ---- lint ------------------------------------------------------------

prog:verb {
  name     = "lint",
  summary  = "simulate site documents and check their claims",
  lint     = true,
  operands = { name = "FILE", min = 1 },
  options  = {
    { "--strict", type = "flag", group = "added",
      help = "also run the resiliency.strict.* rules" },
    years_opt(nil, "simulated years for every document, over its simulation block"),
    seed_opt(nil), format_opt(LINT_FORMATS, "added"),
    { "--jobs", short = "-j", type = "int", min = 0, metavar = "N", group = "added",
      help = "worker threads (0: one per CPU)" },
  },
  run      = function(args)
    return engine.lint {
      operands = args.operands,
      strict   = args.strict,
      format   = args.format,
      jobs     = args.jobs,
      settings = { years = args.years, seed = args.seed },
    }
  end,
}

-- ---- validate ------------------------------------------------------------

local function refs_text(refs)
  if #refs == 0 then return "-" end
  local parts = {}
  for i, r in ipairs(refs) do parts[i] = ("[%s]"):format(py.str(r)) end
  return table.concat(parts)
end

prog:verb {
  name    = "validate",
  summary = "run the validation registry: calibrated, emergent and sanity points",
  options = {
    years_opt(nil, "simulated years per rung and seed (default 2000; 600 under a "
                   .. "mutation)"),
    { "--grid-years", type = "int", min = 1, max = MAX_YEARS, metavar = "N", group = "added",
      help = ("years of the grid-hours helper, 1..%d (default 4000; 1000 under a mutation)")
             :format(MAX_YEARS) },
    { "--mutation", type = "choice", choices = MUTATIONS, metavar = "NAME", group = "added",
      help = "break one mechanism on purpose (a test of the registry): "
             .. table.concat(MUTATIONS, ", ") },
    format_opt(FORMATS, "added"),
  },
  run     = function(args, out)
    local entry = engine.validate {
      mutation = args.mutation,
      settings = { years = args.years, grid_years = args.grid_years },
    }
    local s = entry.settings
    if args.format == "json" then
      local points = engine.array()
      for i, p in ipairs(entry.points) do
        points[i] = engine.object("id", p.id, "kind", p.kind,
                                  "refs", array(p.refs),
                                  "expected", p.expected + 0.0, "tolerance", p.tolerance + 0.0,
                                  "actual", p.actual or engine.null, "ok", p.ok,
                                  "detail", p.detail)
      end
      local declined = engine.array()
      for i, d in ipairs(entry.declined) do
        declined[i] = engine.object("what", d.what, "why", d.why)
      end
      out:json(engine.object(
        "pack", "resiliency",
        "settings", engine.object("years", s.years, "grid_years", s.grid_years,
                                  "seeds", array(s.seeds),
                                  "grid_seed", s.grid_seed,
                                  "mutation", args.mutation or engine.null),
        "points", points, "declined", declined, "ok", entry.ok))
      return entry.ok and 0 or 1
    end
    local lines = {
      ("validation registry%s: %d seeds x %d years, grid helper %d years (seed %d)\n")
        :format(args.mutation and (" under mutation " .. args.mutation) or "", #s.seeds,
                s.years, s.grid_years, s.grid_seed),
    }
    for _, p in ipairs(entry.points) do
      lines[#lines + 1] = ("%-46s %-10s %-8s expected %10s  actual %10s  %s\n")
                          :format(p.id, p.kind, refs_text(p.refs), py.fixed(p.expected, 3),
                                  p.actual and py.fixed(p.actual, 3) or "none",
                                  p.ok and "PASS" or "FAIL")
    end
    lines[#lines + 1] = "not validated:\n"
    for _, d in ipairs(entry.declined) do
      lines[#lines + 1] = ("  %s: %s\n"):format(d.what, d.why)
    end
    if entry.ok then
      lines[#lines + 1] = ("all %d points reproduced over %d seeds x %d years\n")
                          :format(#entry.points, #s.seeds, s.years)
    else
      local red = 0
      for _, p in ipairs(entry.points) do
        if not p.ok then red = red + 1 end
      end
      lines[#lines + 1] = ("validation failed: %d of %d points red\n"):format(red, #entry.points)
    end
    out:write(table.concat(lines))
    return entry.ok and 0 or 1
  end,
}
