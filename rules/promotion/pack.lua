-- The promotion pack: refuse an autonomy promotion (L0-L4) that its evidence
-- has not earned (spec/promotion.md). The checks of a record live in one
-- evaluator, PROMO.evaluate, because their order and early returns (7.1),
-- the type audit's ownership test (5.4) and the gate's receipt stage (7.5,
-- in commands.lua) depend on each other. `infragate lint` runs it in lint
-- mode through one engine.rule per id; promotion-gate calls it directly.
local py = require "py"

PROMO = {}

engine.pack {
  summary   = "autonomy-promotion gate: the L0-L4 ladder, span ceilings, signed receipts",
  help_base = "https://infragate.invalid/rules/promotion/",
  -- A malformed validation registry is reported under this id (spec 9.2).
  registry_error = "promotion.registry-malformed",
}

-- ---- constants of the ladder (3, 5.1, 7.2, 7.3) ---------------------------------------

PROMO.LEVELS = { L0 = 0, L1 = 1, L2 = 2, L3 = 3, L4 = 4 }
PROMO.DOMAINS = { cluster = true, network = true, span = true }
PROMO.REQUIRED = { "action", "domain", "level", "region", "fault_domain", "evidence",
                   "reviewer", "proposed_by" }
PROMO.MACHINE_REVIEWERS = { auto = true, agent = true, planner = true, system = true,
                            referee = true }
PROMO.STRICT_MACHINE_TOKENS = { auto = true, agent = true, bot = true, planner = true,
                                system = true, referee = true, healer = true, detector = true,
                                pipeline = true, runner = true, controller = true }
PROMO.CAPPED = { ["production-training-fabric"] = true, ["power-interlock"] = true,
                 ["optical-live-fiber"] = true }
-- Span actions and their ceilings: they spend only the job's own work (L1)
-- or cross a job or tenant boundary (L0).
PROMO.SPAN_CEILING = {
  ["request-circuit"] = 1, ["release-circuit"] = 1, ["cordon-slice"] = 1,
  ["delay-checkpoint"] = 1, ["drain-slice"] = 0, ["move-job"] = 0, ["shrink-job"] = 0,
  ["reconstitute-slice"] = 0,
}
PROMO.SPAN_FORBIDDEN = "retune-live-collective"
PROMO.TAIL_KEYS = { "p99_rtt_ms", "p999_rtt_ms", "tail_rtt_ms", "p99_9_rtt_ms" }
PROMO.MEAN_KEYS = { "mean_rtt_ms", "avg_rtt_ms", "average_rtt_ms", "mean_link_utilization",
                    "avg_link_utilization" }
PROMO.TOP_KEYS = { "action", "domain", "level", "region", "fault_domain", "evidence",
                   "reviewer", "proposed_by", "certified_by", "abort_never_missed",
                   "reversible", "blast_radius", "implementation_sha256", "receipts", "notes" }
PROMO.BLAST_KEYS = { "halls", "jobs", "scope", "p99_rtt_ms", "p999_rtt_ms", "tail_rtt_ms",
                     "p99_9_rtt_ms", "mean_rtt_ms", "avg_rtt_ms", "average_rtt_ms",
                     "mean_link_utilization", "avg_link_utilization" }
-- Predicates a trusted receipt must prove, by level (3).
PROMO.PREDICATES = {
  [2] = { "abort_never_missed", "reversible" },
  [3] = { "abort_never_missed", "gpu_second_budget", "quality_canary", "reversible" },
  [4] = { "abort_never_missed", "control_plane_dark", "gpu_second_budget", "quality_canary",
          "reversible", "rollback" },
}

-- ---- normalisation (6) -----------------------------------------------------------------

-- Python's str.lower for every non-ASCII code point, generated once from
-- Python 3.11 (Unicode 14.0); ASCII goes through string.lower.
local LOWER = engine.data("data/lower.json", { json = true })

-- Python's whitespace set (str.strip with no argument).
local SPACE = { [0x85] = true, [0xA0] = true, [0x1680] = true, [0x2028] = true,
                [0x2029] = true, [0x202F] = true, [0x205F] = true, [0x3000] = true }
for cp = 0x09, 0x0D do SPACE[cp] = true end
for cp = 0x1C, 0x20 do SPACE[cp] = true end
for cp = 0x2000, 0x200A do SPACE[cp] = true end

local function codepoints(s)
  local cps = {}
  if utf8.len(s) then
    for _, c in utf8.codes(s) do cps[#cps + 1] = c end
  else
    for i = 1, #s do cps[i] = s:byte(i) end
  end
  return cps
end

function PROMO.strip(s)
  if not s:find("[^%w%p]") then return s end
  local cps = codepoints(s)
  local i, j = 1, #cps
  while i <= j and SPACE[cps[i]] do i = i + 1 end
  while j >= i and SPACE[cps[j]] do j = j - 1 end
  if i == 1 and j == #cps then return s end
  local out = {}
  for k = i, j do out[#out + 1] = utf8.char(cps[k]) end
  return table.concat(out)
end

function PROMO.lower(s)
  if not s:find("[\128-\255]") then return s:lower() end
  local out = {}
  for _, c in ipairs(codepoints(s)) do
    if c < 0x80 then
      out[#out + 1] = string.char(c):lower()
    else
      out[#out + 1] = LOWER[tostring(c)] or utf8.char(c)
    end
  end
  return table.concat(out)
end

-- Maximal runs of ASCII letters and digits of lower(s).
function PROMO.tokens(s)
  local list = {}
  for t in PROMO.lower(s):gmatch("[%w]+") do
    if not t:find("[\128-\255]") then list[#list + 1] = t end
  end
  return list
end

-- lower(s) without ASCII non-alphanumerics and without the strip set.
function PROMO.squash(s)
  local out = {}
  for _, c in ipairs(codepoints(PROMO.lower(s))) do
    local ch = utf8.char(c)
    if c < 0x80 then
      if ch:match("%w") then out[#out + 1] = ch end
    elseif not SPACE[c] then
      out[#out + 1] = ch
    end
  end
  return table.concat(out)
end

-- lower(strip(s)), every run of non-[a-z0-9] as '-', no '-' at the ends.
function PROMO.canon(s)
  local t = PROMO.lower(PROMO.strip(s))
  local out = {}
  for _, c in ipairs(codepoints(t)) do
    local ch = c < 0x80 and string.char(c) or nil
    if ch and ch:match("[%w]") then
      out[#out + 1] = ch
    elseif out[#out] ~= "-" then
      out[#out + 1] = "-"
    end
  end
  return (table.concat(out):gsub("^%-+", ""):gsub("%-+$", ""))
end

-- ---- values -----------------------------------------------------------------------------

local function ty(v)
  if v == nil then return "absent" end
  return engine.type(v)
end
PROMO.ty = ty

-- Python str() of a scalar, nil for a sequence or mapping (which never
-- equals any string).
local function pystr(v)
  local t = ty(v)
  if t == "absent" then return nil end
  if t == "list" or t == "map" then return nil end
  return py.str(v)
end
PROMO.pystr = pystr

-- Python str() of anything (lists print as Python prints them).
local function anystr(v)
  if v == nil then return "None" end
  return py.str(v)
end

-- Missing (5.3): absent, null, "", or an empty sequence.
local function missing(v)
  local t = ty(v)
  return t == "absent" or t == "null" or (t == "str" and v == "") or (t == "list" and #v == 0)
end

-- Python truthiness of a document value.
local function falsy(v)
  local t = ty(v)
  if t == "absent" or t == "null" then return true end
  if t == "bool" then return not v end
  if t == "int" then return v == 0 end
  if t == "float" then return v == 0 end
  if t == "str" then return v == "" end
  if t == "list" or t == "map" then return #v == 0 end
  return false
end
PROMO.falsy = falsy

-- The items of certified_by / evidence as J builds them (6): a bare string
-- is one item, falsy values contribute nothing, a mapping its keys.
local function j_items(v)
  local t, out = ty(v), {}
  if falsy(v) then return out end
  if t == "list" then
    for _, item in ipairs(v) do out[#out + 1] = anystr(item) end
  elseif t == "map" then
    for k in pairs(v) do out[#out + 1] = anystr(k) end
  else
    out[1] = anystr(v)
  end
  return out
end

-- The string items of a field (a bare string counts as one).
local function string_items(v)
  local t, out = ty(v), {}
  if t == "str" then
    out[1] = { value = v }
  elseif t == "list" then
    for i, item in ipairs(v) do
      if ty(item) == "str" then out[#out + 1] = { value = item, index = i } end
    end
  end
  return out
end
PROMO.string_items = string_items

local function contains(hay, needle)
  return hay:find(needle, 1, true) ~= nil
end

-- ---- the evaluator -----------------------------------------------------------------------

-- A list of findings in evaluation order. Each finding: rule, severity,
-- message, at (a view or nil for the root), key, on, path (JSON Pointer),
-- kind ("compat", "strict", "audit").
local function new_findings()
  local F = { list = {}, fired = {} }
  function F.add(kind, rule, at, key, message, severity, on)
    local path = ""
    if at ~= nil and engine.type(at) ~= "lua" then path = engine.path(at, key) end
    local f = { kind = kind, rule = rule, at = at, key = key, message = message,
                severity = severity or "error", on = on, path = path }
    F.list[#F.list + 1] = f
    F.fired[rule] = true
    return f
  end
  return F
end

local function level_text(lvl) return "L" .. lvl end

local function structural_s4_s10(doc, lvl, o, F)
  local add = function(...) return F.add("compat", ...) end
  local reviewer, proposer = doc.reviewer, doc.proposed_by
  local r = PROMO.lower(PROMO.strip(anystr(reviewer)))
  if lvl <= 1 and PROMO.MACHINE_REVIEWERS[r] then
    add("promotion.human-reviewer", doc, "reviewer",
        ("reviewer '%s' is a machine identity, and at %s a person must authorize every run")
        :format(anystr(reviewer), level_text(lvl)))
  end
  if PROMO.lower(PROMO.strip(anystr(proposer))) == r then
    add("promotion.same-identity", doc, "proposed_by",
        ("proposed_by and reviewer are both '%s': one identity may not propose a promotion "
         .. "and also approve it"):format(anystr(proposer)))
  end
  if lvl >= 2 then
    if falsy(doc.certified_by) then
      add("promotion.l2-certified", doc, "certified_by",
          ("level %s needs at least one certifying chaos experiment in certified_by")
          :format(level_text(lvl)))
    end
    if falsy(doc.evidence) then
      add("promotion.l2-evidence", doc, "evidence",
          ("level %s needs run evidence, and evidence is empty"):format(level_text(lvl)))
    end
    if doc.abort_never_missed ~= true then
      add("promotion.l2-abort", doc, "abort_never_missed",
          ("level %s needs abort_never_missed: true (the abort fired in time in every run); "
           .. "found %s"):format(level_text(lvl), anystr(doc.abort_never_missed)))
    end
    if doc.reversible ~= true then
      add("promotion.l2-reversible", doc, "reversible",
          ("level %s needs reversible: true; found %s")
          :format(level_text(lvl), anystr(doc.reversible)))
    end
  end
  if o.mode ~= "gate" then
    local items = j_items(doc.certified_by)
    for _, item in ipairs(j_items(doc.evidence)) do items[#items + 1] = item end
    local J = PROMO.lower(table.concat(items, " "))
    if lvl >= 3 then
      if not contains(J, "canary") then
        add("promotion.l3-canary", doc, "evidence",
            ("level %s needs evidence of a live-traffic quality canary, and no experiment or "
             .. "evidence item names a canary"):format(level_text(lvl)))
      end
      if not contains(J, "budget") and not contains(J, "gpu-second") then
        add("promotion.l3-budget", doc, "evidence",
            ("level %s needs evidence of a held wasted-GPU-second budget, and no item names "
             .. "a budget or gpu-second"):format(level_text(lvl)))
      end
    end
    if lvl >= 4 then
      if not contains(J, "control-plane-dark") and not contains(J, "planner-dark") then
        add("promotion.l4-dark-drill", doc, "evidence",
            "level L4 needs a drill run with the control plane dark, and no item names "
            .. "control-plane-dark or planner-dark")
      end
      if not contains(J, "rollback") then
        add("promotion.l4-rollback", doc, "evidence",
            "level L4 needs a rollback drill, and no item names a rollback")
      end
      if not contains(PROMO.lower(anystr(doc.region)), "pool") then
        add("promotion.l4-pool", doc, "region",
            ("level L4 acts inside one declared pool, and region '%s' names no pool")
            :format(anystr(doc.region)))
      end
    end
  end
  if doc.domain == "span" then PROMO.span_rules(doc, lvl, F) end
  local fd = PROMO.lower(anystr(doc.fault_domain))
  if lvl > 1 and PROMO.CAPPED[fd] then
    add("promotion.capped-fault-domain", doc, "fault_domain",
        ("fault domain '%s' is capped at L1 whatever the evidence, and the record claims %s")
        :format(fd, level_text(lvl)))
  end
end

local function sorted_actions()
  local list = {}
  for a in pairs(PROMO.SPAN_CEILING) do list[#list + 1] = a end
  table.sort(list)
  return table.concat(list, ", ")
end

function PROMO.span_rules(doc, lvl, F)
  local add = function(...) return F.add("compat", ...) end
  local a = PROMO.lower(PROMO.strip(anystr(doc.action)))
  if a == PROMO.SPAN_FORBIDDEN then
    add("promotion.span-forbidden", doc, "action",
        "span action 'retune-live-collective' is refused at every level: a circuit retune "
        .. "takes milliseconds while a collective runs in microseconds")
  elseif PROMO.SPAN_CEILING[a] == nil then
    add("promotion.span-unknown-action", doc, "action",
        ("span action '%s' is not one of the known span actions (%s)")
        :format(a, sorted_actions()))
  elseif lvl > PROMO.SPAN_CEILING[a] then
    local ceiling = PROMO.SPAN_CEILING[a]
    add("promotion.span-ceiling", doc, "level",
        ("span action '%s' is capped at L%d (%s), and the record claims %s")
        :format(a, ceiling, ceiling == 1 and "it spends only the job's own work"
                or "it crosses a job or tenant boundary", level_text(lvl)))
  end
  local br = doc.blast_radius
  if ty(br) ~= "map" then
    add("promotion.span-blast-radius", doc, "blast_radius",
        "a span record must state its blast_radius as a mapping (halls, scope, a tail RTT)")
    return
  end
  local halls, ht = br.halls, ty(br.halls)
  local hv = ht == "bool" and (halls and 1 or 0) or (ht == "int" and halls) or nil
  if type(hv) == "string" then hv = hv:sub(1, 1) == "-" and -1 or math.maxinteger end
  if hv == nil or hv < 1 then
    add("promotion.span-halls", br, "halls",
        ("blast_radius.halls must be an integer of at least 1; found %s")
        :format(ht == "absent" and "nothing" or anystr(halls)))
  elseif hv >= 2 and lvl > 0 then
    add("promotion.span-multi-hall", br, "halls",
        ("one failure can black-hole %s halls, and a multi-hall span action may run only "
         .. "at L0, not %s"):format(anystr(halls), level_text(lvl)))
  end
  local scope = br.scope == nil and "" or anystr(br.scope)
  if PROMO.strip(scope) == "" then
    add("promotion.span-scope", br, "scope",
        "blast_radius.scope must say how far one failure reaches (rack, row, hall, circuit)")
  end
  local tails, means = 0, {}
  for _, k in ipairs(PROMO.TAIL_KEYS) do
    if engine.has(br, k) then tails = tails + 1 end
  end
  for _, k in ipairs(PROMO.MEAN_KEYS) do
    if engine.has(br, k) then means[#means + 1] = k end
  end
  if tails == 0 and #means > 0 then
    add("promotion.span-mean-only", doc, "blast_radius",
        ("blast_radius states only means (%s); a mean hides the tail, so state one of %s")
        :format(table.concat(means, ", "), table.concat(PROMO.TAIL_KEYS, ", ")))
  elseif tails == 0 then
    add("promotion.span-tail", doc, "blast_radius",
        ("blast_radius states no tail round-trip time; state one of %s")
        :format(table.concat(PROMO.TAIL_KEYS, ", ")))
  end
end

-- Evaluate one record. o.mode: "gate", "declaration" or "lint"; o.strict;
-- o.gate(doc, F) runs F1, F2 and the receipt stage (gate mode) and returns
-- its state ({substring = true} when a valid receipt's experiment matched
-- certified_by only as a proper substring). Returns the findings and the
-- gate state.
function PROMO.evaluate(doc, o)
  local F = new_findings()
  local state = {}
  if ty(doc) ~= "map" then
    F.add("compat", "promotion.not-a-mapping", nil, nil,
          ("a promotion record must be a mapping of fields; this document is %s")
          :format(ty(doc) == "null" and "empty" or "a " .. ty(doc)))
    return F.list, state
  end
  local stopped = false
  for _, field in ipairs(PROMO.REQUIRED) do
    if missing(doc[field]) then
      F.add("compat", "promotion.missing-field", doc, field,
            ("required field '%s' is missing or empty"):format(field))
      stopped = true
    end
  end
  local lvl
  if not stopped then
    lvl = PROMO.LEVELS[doc.level]
    if ty(doc.level) ~= "str" then lvl = nil end
    if lvl == nil then
      F.add("compat", "promotion.level", doc, "level",
            ("level %s is not one of L0, L1, L2, L3, L4"):format(py.repr(doc.level)))
    else
      if not PROMO.DOMAINS[doc.domain] or ty(doc.domain) ~= "str" then
        F.add("compat", "promotion.domain", doc, "domain",
              ("domain %s is not one of cluster, network, span"):format(py.repr(doc.domain)))
      end
      structural_s4_s10(doc, lvl, o, F)
    end
  end
  if o.mode == "gate" and (lvl ~= nil or stopped) and o.gate then
    state = o.gate(doc, F) or {}
  end
  if o.strict then PROMO.strict_rules(doc, lvl, not stopped and lvl ~= nil, o, F, state) end
  PROMO.type_audit(doc, F)
  return F.list, state
end

-- Run the evaluator once per document for the lint rules.
local function lint_eval(doc, ctx)
  return ctx:once("promotion", function()
    return (PROMO.evaluate(doc, { mode = "lint", strict = true }))
  end)
end

-- Declare one lint rule per id: each emits the evaluator's findings of its id.
function PROMO.lint_rule(id, severity, summary, fix, stage)
  engine.rule {
    id = id, kind = "promotion_record", severity = severity, summary = summary, fix = fix,
    stage = stage,
    check = function(doc, ctx)
      -- The type audit's findings are input.type in promotion-gate; lint
      -- reports them under this pack's input-stage id.
      local want = id == "promotion.input-type" and "input.type" or id
      for _, f in ipairs(lint_eval(doc, ctx)) do
        if f.rule == want then
          local emit = f.severity == "warning" and ctx.warn or ctx.fail
          emit(ctx, { at = f.at, key = f.key, on = f.on, message = f.message })
        end
      end
    end,
  }
end

-- ---- strict rules (7.7) ----------------------------------------------------------------

-- Optimal-string-alignment distance between two lists of code points.
local function osa(a, b)
  local d = {}
  for i = 0, #a do d[i] = { [0] = i } end
  for j = 0, #b do d[0][j] = j end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a[i] == b[j] and 0 or 1
      local v = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a[i] == b[j - 1] and a[i - 1] == b[j] then
        v = math.min(v, d[i - 2][j - 2] + 1)
      end
      d[i][j] = v
    end
  end
  return d[#a][#b]
end

local function key_rules(map, known, F)
  local set = {}
  for _, k in ipairs(known) do set[k] = true end
  for key in pairs(map) do
    if not (type(key) == "string" and set[key]) then
      local best, best_d
      if type(key) == "string" then
        local cps = codepoints(PROMO.lower(key))
        for _, k in ipairs(known) do
          local dist = osa(cps, codepoints(k))
          if best_d == nil or dist < best_d then best, best_d = k, dist end
        end
      end
      local limit = type(key) == "string" and (utf8.len(key) or #key) <= 6 and 1 or 2
      if best_d and best_d <= limit then
        F.add("strict", "promotion.strict.misspelt-key", map, key,
              ("key '%s' is not a field of a promotion record; did you mean '%s'?")
              :format(key, best), "error", "key")
      else
        F.add("strict", "promotion.strict.unknown-key", map, key,
              ("key %s is not a field of a promotion record and no check reads it")
              :format(py.repr(key)), "warning", "key")
      end
    end
  end
end

-- Which single items carry each keyword bar as tokens (not only by substring).
local function token_bars(doc)
  local has = {}
  local items = string_items(doc.certified_by)
  for _, it in ipairs(string_items(doc.evidence)) do items[#items + 1] = it end
  for _, it in ipairs(items) do
    local t = PROMO.tokens(it.value)
    for i, tok in ipairs(t) do
      if tok == "canary" then has.canary = true end
      if tok == "budget" then has.budget = true end
      if tok == "gpu" and (t[i + 1] == "second" or t[i + 1] == "seconds") then
        has.budget = true
      end
      if tok == "control" and t[i + 1] == "plane" and t[i + 2] == "dark" then has.dark = true end
      if tok == "planner" and t[i + 1] == "dark" then has.dark = true end
      if tok == "rollback" then has.rollback = true end
    end
  end
  return has
end

local function strict_value_rules(doc, lvl, o, F, state)
  local add = function(rule, at, key, msg) return F.add("strict", rule, at, key, msg) end
  local reviewer, proposer = doc.reviewer, doc.proposed_by
  if not F.fired["promotion.human-reviewer"] and ty(reviewer) == "str" then
    for _, tok in ipairs(PROMO.tokens(reviewer)) do
      if PROMO.STRICT_MACHINE_TOKENS[tok] then
        add("promotion.strict.machine-reviewer", doc, "reviewer",
            ("reviewer '%s' reads as a machine identity (token '%s'); a person approves a "
             .. "promotion at every level"):format(reviewer, tok))
        break
      end
    end
  end
  if not F.fired["promotion.same-identity"] and ty(reviewer) == "str" and ty(proposer) == "str"
     and PROMO.squash(reviewer) == PROMO.squash(proposer) then
    add("promotion.strict.same-identity", doc, "proposed_by",
        ("proposed_by '%s' and reviewer '%s' differ only in case or punctuation")
        :format(proposer, reviewer))
  end
  local fd = doc.fault_domain
  if not F.fired["promotion.capped-fault-domain"] and lvl > 1 and ty(fd) == "str"
     and PROMO.CAPPED[PROMO.canon(fd)] then
    add("promotion.strict.capped-fault-domain", doc, "fault_domain",
        ("fault domain '%s' reads as the capped domain '%s' (cap L1), and the record claims L%d")
        :format(fd, PROMO.canon(fd), lvl))
  end
  local region = doc.region
  if lvl == 4 and ty(region) == "str" and contains(PROMO.lower(region), "pool")
     and not F.fired["promotion.l4-pool"] then
    local ok = false
    for _, tok in ipairs(PROMO.tokens(region)) do
      if tok:match("^pool%d*$") then ok = true end
    end
    if not ok then
      add("promotion.strict.pool-region", doc, "region",
          ("region '%s' contains 'pool' only inside another word; name the pool as a word "
           .. "(pool, pool7)"):format(region))
    end
  end
  if o.mode ~= "gate" and lvl >= 3 then
    local has = token_bars(doc)
    local bars = {
      { "promotion.l3-canary", has.canary, "a canary" },
      { "promotion.l3-budget", has.budget, "a budget or gpu-seconds" },
    }
    if lvl >= 4 then
      bars[3] = { "promotion.l4-dark-drill", has.dark,
                  "a control-plane-dark or planner-dark drill" }
      bars[4] = { "promotion.l4-rollback", has.rollback, "a rollback" }
    end
    for _, bar in ipairs(bars) do
      if not F.fired[bar[1]] and not bar[2] then
        add("promotion.strict.evidence-keyword", doc, "evidence",
            ("the %s bar passed only because a substring matched; no single item names %s "
             .. "as a word"):format(bar[1]:sub(11), bar[3]))
      end
    end
  end
  for _, field in ipairs({ "action", "region", "fault_domain", "reviewer", "proposed_by",
                           "evidence" }) do
    local v = doc[field]
    if ty(v) == "str" and v ~= "" and PROMO.strip(v) == "" then
      add("promotion.strict.blank-value", doc, field,
          ("field '%s' holds only whitespace"):format(field))
    end
  end
  for _, field in ipairs({ "certified_by", "evidence" }) do
    local v = doc[field]
    if ty(v) == "list" then
      for i, item in ipairs(v) do
        if ty(item) == "str" and item ~= "" and PROMO.strip(item) == "" then
          add("promotion.strict.blank-value", v, i,
              ("item %d of '%s' holds only whitespace"):format(i - 1, field))
        end
      end
    end
  end
  if o.mode == "gate" and state.substring then
    add("promotion.strict.experiment-substring", doc, "certified_by",
        ("receipt experiment '%s' matched certified_by only as part of the string '%s'")
        :format(state.substring, anystr(doc.certified_by)))
  end
end

function PROMO.strict_rules(doc, lvl, passed, o, F, state)
  if passed then strict_value_rules(doc, lvl, o, F, state) end
  key_rules(doc, PROMO.TOP_KEYS, F)
  if ty(doc.blast_radius) == "map" then key_rules(doc.blast_radius, PROMO.BLAST_KEYS, F) end
end

-- ---- the type audit (5.4) ----------------------------------------------------------------

local function is_string_list(v)
  return ty(v) == "list"
end

-- Audit types: name -> checker(v) returning nil (fine) or the expected
-- type's words; sequences of strings are checked item by item.
local function want_string(v) if ty(v) ~= "str" then return "a string" end end
local function want_bool(v) if ty(v) ~= "bool" then return "a boolean" end end
local function want_count(bound63)
  return function(v)
    if ty(v) ~= "int" then return "an integer" end
    if type(v) == "string" then
      return bound63 and "an integer below 2^63" or (v:sub(1, 1) == "-" and "an integer >= 0")
    end
    if v < 0 then return "an integer >= 0" end
  end
end
local function want_number(v)
  local t = ty(v)
  if t ~= "int" and t ~= "float" then return "a number" end
  if type(v) == "string" then return v:sub(1, 1) == "-" and "a number >= 0" or nil end
  if v ~= v or v == math.huge or v == -math.huge then return "a finite number" end
  if v < 0 then return "a number >= 0" end
end

local TOP_AUDIT = {
  action = "string", region = "string", fault_domain = "string", reviewer = "string",
  proposed_by = "string", evidence = "strings", certified_by = "strings",
  abort_never_missed = "bool", reversible = "bool", blast_radius = "map",
  implementation_sha256 = "string", receipts = "list",
}
local BLAST_AUDIT = { halls = want_count(true), jobs = want_count(false), scope = want_string }
for _, k in ipairs(PROMO.TAIL_KEYS) do BLAST_AUDIT[k] = want_number end
for _, k in ipairs(PROMO.MEAN_KEYS) do BLAST_AUDIT[k] = want_number end

local function found_words(v)
  local t = ty(v)
  if t == "str" then return ("the string %s"):format(py.repr(v)) end
  if t == "list" then return "a sequence" end
  if t == "map" then return "a mapping" end
  if t == "null" then return "null" end
  return ("%s %s"):format(t, anystr(v))
end

function PROMO.type_audit(doc, F)
  if ty(doc) ~= "map" then return end
  local owned = {}
  for _, f in ipairs(F.list) do
    if f.kind == "compat" then owned[#owned + 1] = f.path end
  end
  local function is_owned(path)
    for _, p in ipairs(owned) do
      if p == path or p:sub(1, #path + 1) == path .. "/" then return true end
    end
    return false
  end
  local function bad(at, key, what, v)
    F.add("audit", "input.type", at, key,
          ("'%s' must be %s; found %s"):format(engine.path(at, key), what, found_words(v)))
  end
  for key, v in pairs(doc) do
    local kind = type(key) == "string" and TOP_AUDIT[key]
    local own = kind and is_owned(engine.path(doc, key))
    if kind == "map" and ty(v) == "map" then
      for bk, bv in pairs(v) do
        local check = type(bk) == "string" and BLAST_AUDIT[bk]
        if check and not is_owned(engine.path(v, bk)) then
          local what = check(bv)
          if what then bad(v, bk, what, bv) end
        end
      end
    elseif kind and ty(v) ~= "null" and not own then
      if kind == "string" then
        if ty(v) ~= "str" then bad(doc, key, "a string", v) end
      elseif kind == "bool" then
        if want_bool(v) then bad(doc, key, "a boolean", v) end
      elseif kind == "strings" or kind == "list" then
        if is_string_list(v) then
          for i, item in ipairs(v) do
            if ty(item) ~= "str" then bad(v, i, "a string", item) end
          end
        elseif kind == "list" or ty(v) ~= "str" then
          bad(doc, key, kind == "list" and "a sequence of strings"
              or "a string or a sequence of strings", v)
        end
      elseif kind == "map" then
        bad(doc, key, "a mapping", v)
      end
    end
  end
end

-- ---- the rules, one per id, for `infragate lint` -----------------------------------------

local R = PROMO.lint_rule
R("promotion.input-type", "error",
  "a field of the record has a type the gate cannot check (the type audit of promotion-gate)",
  "write the field with the type the README lists for it", "input")
R("promotion.not-a-mapping", "error", "a promotion record must be a YAML mapping",
  "write the record as key: value fields")
R("promotion.missing-field", "error", "a required field of the record is absent or empty",
  "add the field with a non-empty value")
R("promotion.level", "error", "level must be exactly one of L0, L1, L2, L3, L4",
  "write the level as the string L0 to L4")
R("promotion.domain", "error", "domain must be exactly cluster, network or span",
  "write one of the three domains in lower case")
R("promotion.human-reviewer", "error", "at L0 and L1 the reviewer must be a person",
  "name the person who authorizes the runs")
R("promotion.same-identity", "error", "the proposer of a promotion may not be its reviewer",
  "have a different identity review the promotion")
R("promotion.l2-certified", "error", "L2 and above need a certifying chaos experiment",
  "list the green experiments in certified_by")
R("promotion.l2-evidence", "error", "L2 and above need run evidence",
  "list the run evidence paths in evidence")
R("promotion.l2-abort", "error", "L2 and above need abort_never_missed: true",
  "prove the abort fired in time in every run, then set abort_never_missed: true")
R("promotion.l2-reversible", "error", "L2 and above need reversible: true",
  "make the action reversible and say so")
R("promotion.l3-canary", "error", "L3 and above need evidence of a live quality canary",
  "add the canary evidence to evidence")
R("promotion.l3-budget", "error", "L3 and above need evidence of a held GPU-second budget",
  "add the budget evidence to evidence")
R("promotion.l4-dark-drill", "error", "L4 needs a drill with the control plane dark",
  "run the control-plane-dark drill and list its evidence")
R("promotion.l4-rollback", "error", "L4 needs a rollback drill",
  "run the rollback drill and list its evidence")
R("promotion.l4-pool", "error", "at L4 the region must name one declared pool",
  "narrow region to the pool the controller may act in")
R("promotion.span-forbidden", "error",
  "span action retune-live-collective is refused at every level",
  "keep live-collective retunes under a person's control")
R("promotion.span-unknown-action", "error", "a span record's action must be a known span action",
  "use one of the span actions the README lists")
R("promotion.span-ceiling", "error", "a span action may not run above its fixed ceiling",
  "lower the level to the action's ceiling")
R("promotion.span-blast-radius", "error", "a span record must state its blast_radius mapping",
  "add blast_radius with halls, scope and a tail RTT")
R("promotion.span-halls", "error", "blast_radius.halls must be an integer of at least 1",
  "state how many data halls one failure can black-hole")
R("promotion.span-multi-hall", "error", "a span action reaching two or more halls runs only at L0",
  "lower the level to L0 or shrink the blast radius to one hall")
R("promotion.span-scope", "error", "blast_radius.scope must say how far one failure reaches",
  "add a scope such as rack, row, hall or one-circuit")
R("promotion.span-mean-only", "error", "a span record must state a tail RTT, not only means",
  "add p99_rtt_ms (or another tail key)")
R("promotion.span-tail", "error", "a span record must state a tail round-trip time",
  "add p99_rtt_ms (or another tail key)")
R("promotion.capped-fault-domain", "error", "three fault domains are capped at L1",
  "keep the record at L1 or below")
R("promotion.strict.machine-reviewer", "error",
  "in strict mode a reviewer that reads as a machine identity is refused at every level",
  "name a person as reviewer")
R("promotion.strict.same-identity", "error",
  "in strict mode proposer and reviewer may not differ only in case or punctuation",
  "have a different identity review the promotion")
R("promotion.strict.capped-fault-domain", "error",
  "in strict mode a capped fault domain written with other spacing or separators is capped",
  "keep the record at L1 or below")
R("promotion.strict.pool-region", "error", "in strict mode an L4 region must name a pool as a word",
  "write the pool as its own word (pool, pool7)")
R("promotion.strict.evidence-keyword", "error",
  "in strict mode each L3/L4 bar must be met by a word of one item, not a substring",
  "name the canary, budget, dark drill and rollback evidence as words")
R("promotion.strict.blank-value", "error", "in strict mode a field may not hold only whitespace",
  "write a real value or remove the field")
R("promotion.strict.misspelt-key", "error",
  "in strict mode a key close to a known field is refused",
  "correct the key's spelling")
R("promotion.strict.unknown-key", "warning", "in strict mode an unknown key is reported",
  "remove the key or move it under notes")

-- Ids only promotion-gate reports (F2, the receipt stage, the command
-- line, the registry): declared so that --explain and SARIF know them,
-- as program-only ids, which `infragate test` does not ask a lint fixture
-- to produce (lint never reaches the receipt stage); CLI cases cover them.
local function G(id, summary, fix, stage)
  engine.declare { id = id, severity = "error", summary = summary, fix = fix, program = true,
                   stage = stage or "check" }
end
G("promotion.trust-required",
  "in the full gate, L2 and above need --trust and --evidence-root with a non-empty policy",
  "run with a trust policy and the evidence root that holds the receipts")
G("promotion.implementation-digest",
  "implementation_sha256 must be 64 lowercase hex digits",
  "record the SHA-256 of the implementation that was tested")
G("promotion.receipts-missing",
  "L2 and above need a non-empty list of receipts",
  "list the receipt paths, relative to --evidence-root")
local RECEIPT_REASONS = {
  { "malformed", "the receipt is not the signed JSON object the gate reads",
    "sign the receipt with the runner that writes infra-evidence-receipt/v1" },
  { "outside-root", "a receipt path resolves outside the evidence root",
    "keep receipts under --evidence-root (no .., absolute paths or links out)" },
  { "unreadable", "a receipt or artifact file cannot be read",
    "make the file a readable regular file under the evidence root" },
  { "unknown-issuer", "the receipt's issuer is not in the trust policy",
    "add the issuer to the trust policy, or sign with a trusted one" },
  { "weak-key", "the issuer's key is not hex or is shorter than 32 bytes",
    "give the authority a key_hex of at least 64 hex digits" },
  { "signature", "the receipt's HMAC does not match its payload",
    "re-sign the receipt; the payload was changed after signing" },
  { "schema", "the payload schema is not infra-evidence-receipt/v1",
    "write receipts in the infra-evidence-receipt/v1 format" },
  { "record-unencodable", "the record cannot be written as canonical JSON to check the binding",
    "remove dates, NaN or mixed key types from the record" },
  { "record-binding", "the receipt was signed for other record bytes",
    "sign a receipt for this record; a receipt cannot be replayed onto another" },
  { "implementation", "the receipt was signed for another implementation",
    "sign a receipt for the implementation the record names" },
  { "scope", "the record's action, domain or region is outside the issuer's allow-lists",
    "use an issuer whose policy allows this action, domain and region" },
  { "execution-kind", "the receipt's execution kind is not one the issuer may certify",
    "run the experiment in an execution kind the policy lists" },
  { "experiment", "the receipt's experiment is not cited in certified_by",
    "cite the experiment in certified_by" },
  { "no-artifacts", "the receipt lists no artifacts",
    "attach the result artifacts the predicates are proven from" },
  { "artifact-missing", "an artifact is not a regular file inside the evidence root",
    "put the artifact under --evidence-root" },
  { "artifact-digest", "an artifact's bytes do not match its recorded SHA-256",
    "re-run or re-sign: the artifact changed after signing" },
  { "checks-mismatch", "the receipt claims other predicates than its artifacts prove",
    "make checks list exactly the predicates the artifacts prove" },
  { "result-malformed", "a result artifact is not a JSON object the gate can evaluate",
    "write the result artifact as the JSON object of spec 7.6" },
  { "result-metadata", "a result artifact's metadata disagree with the receipt",
    "keep the result's metadata equal to the receipt's" },
  { "observation", "a trial's numbers have the wrong type or range",
    "record every trial's observations as numbers in their range" },
  { "trial-failed", "a trial missed its bound",
    "fix what the trial found and run it again" },
  { "policy", "a trial's own bound is looser than the trusted limit",
    "run the trial against the limit the trust policy sets" },
  { "no-limit", "the limit a predicate needs is absent from the trust policy or invalid",
    "give the authority the limit the predicate is checked against" },
}
for _, r in ipairs(RECEIPT_REASONS) do G("promotion.receipt." .. r[1], r[2], r[3]) end
for _, p in ipairs({ "abort-never-missed", "control-plane-dark", "gpu-second-budget",
                     "quality-canary", "reversible", "rollback" }) do
  G("promotion.unproven." .. p, "no valid receipt proves the predicate " .. p .. " the level needs",
    "add a signed receipt whose artifacts prove " .. p)
end
G("promotion.strict.experiment-substring",
  "in strict mode a receipt's experiment must match certified_by as a whole item",
  "write certified_by as a list of experiment ids")
G("promotion.trust-json", "the trust policy is not JSON",
  "write the policy as a JSON object", "input")
G("promotion.trust-shape", "the trust policy has the wrong shape",
  "follow the trust-policy shape of the README", "input")
G("promotion.no-records", "the inputs name no promotion record",
  "pass record files or a folder that holds *.yaml records", "input")
G("promotion.record-unencodable", "a record cannot be written as canonical JSON",
  "remove dates, NaN or mixed key types from the record", "input")
G("promotion.registry-malformed", "the validation registry is malformed",
  "fix the registry node the error points at", "input")
