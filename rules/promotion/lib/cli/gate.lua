-- promotion-gate gate: check promotion records against the L0-L4 gate.
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"

local PROGRAM = cli_base.PROGRAM
local P = cli_shared.P
local array_of = cli_shared.array_of
local null_if_nil = cli_shared.null_if_nil
local input_error = cli_shared.input_error
local load = cli_shared.load
local common_checks = cli_shared.common_checks
local entries_or_fail = cli_shared.entries_or_fail

local function sorted_keys(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- JSON values decoded by the service: tagged tables (objects, arrays, big
-- integers), Lua scalars and engine.null.
local function jt(v)
  if v == nil then return "absent" end
  if type(v) == "table" then return v.t end
  if engine.isnull(v) then return "null" end
  return type(v)
end

local function jget(obj, key)
  if jt(obj) ~= "object" then return nil end
  return obj.map[key]
end

-- Python truthiness of a JSON value.
local function jtruthy(v)
  local t = jt(v)
  if t == "absent" or t == "null" then return false end
  if t == "boolean" then return v end
  if t == "number" then return v ~= 0 end
  if t == "string" then return v ~= "" end
  if t == "array" then return v.n > 0 end
  if t == "object" then return #v.keys > 0 end
  return true
end

-- Python equality of a JSON value and a document value (strings and
-- numbers; booleans only with booleans here).
local function jequal(a, b)
  if type(a) ~= type(b) then return false end
  return a == b
end

local function doc_scalar(v)
  local t = PROMO.ty(v)
  if t == "str" or t == "bool" or (t == "int" and type(v) == "number") or t == "float" then
    return v
  end
  return nil
end

local function list_has(arr, v)
  if jt(arr) ~= "array" or v == nil then return false end
  for i = 1, arr.n do
    if jequal(arr[i], v) then return true end
  end
  return false
end

local LIMIT_KEYS = { "abort_never_missed_deadline_ms", "rollback_deadline_ms",
                     "max_relative_regression", "min_canary_samples", "budget_gpu_seconds",
                     "min_dark_duration_ms" }

local function json_ptr_token(k)
  return "/" .. k:gsub("~", "~0"):gsub("/", "~1")
end

local function read_trust(path)
  local bytes, why = P.read_file(path)
  if not bytes then input_error("input.unreadable", why, path) end
  local trust, err = P.json_decode(bytes)
  if trust == nil then
    local rule = err.kind == "encoding" and "input.encoding" or "promotion.trust-json"
    input_error(rule, ("trust policy '%s' is not valid JSON: %s"):format(path, err.message),
                path, err.line, err.column)
  end
  local function shape(ptr, message)
    local line, column = P.json_where(bytes, ptr)
    input_error("promotion.trust-shape", ("trust policy '%s': %s"):format(path, message), path,
                line, column, ptr)
  end
  if jt(trust) ~= "object" then shape("", "the top level must be an object of issuer ids") end
  for _, issuer in ipairs(trust.keys) do
    local a, base = trust.map[issuer], json_ptr_token(issuer)
    if jt(a) ~= "object" then shape(base, ("issuer '%s' must map to an object"):format(issuer)) end
    if jt(a.map.key_hex) ~= "string" then
      shape(a.map.key_hex == nil and base or base .. "/key_hex",
            ("issuer '%s' needs key_hex, a string of hex digits"):format(issuer))
    end
    for _, k in ipairs({ "allowed_actions", "allowed_domains", "allowed_regions",
                         "execution_kinds" }) do
      local list = a.map[k]
      if jt(list) ~= "array" then
        shape(list == nil and base or base .. "/" .. k,
              ("issuer '%s' needs %s, an array of strings"):format(issuer, k))
      end
      for i = 1, list.n do
        if jt(list[i]) ~= "string" then
          shape(("%s/%s/%d"):format(base, k, i - 1),
                ("item %d of %s of issuer '%s' must be a string"):format(i - 1, k, issuer))
        end
      end
    end
    local limits = a.map.predicate_limits
    if limits ~= nil then
      if jt(limits) ~= "object" then
        shape(base .. "/predicate_limits",
              ("predicate_limits of issuer '%s' must be an object"):format(issuer))
      end
      for _, k in ipairs(LIMIT_KEYS) do
        local v = limits.map[k]
        if v ~= nil and jt(v) ~= "number" and jt(v) ~= "bigint" then
          shape(base .. "/predicate_limits/" .. k,
                ("predicate limit %s of issuer '%s' must be a number"):format(k, issuer))
        end
      end
    end
  end
  return trust
end

local MAX_EXACT = 2 ^ 53

-- A failure of a receipt: raised as a table and caught per receipt.
local function void(reason, message)
  error({ reason = reason, message = message }, 0)
end

local function num(row, key, reason, what)
  local v = jget(row, key)
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge or v < 0
     or (math.type(v) == "integer" and (v > MAX_EXACT or v < -MAX_EXACT)) then
    void(reason, ("%s %s is %s, not a finite number >= 0"):format(what, key, PROMO.pystr(v)
         or tostring(v)))
  end
  return v + 0.0
end

local function pos(row, key, reason, what)
  local v = num(row, key, reason, what)
  if v <= 0 then void(reason, ("%s %s must be > 0, found %s"):format(what, key, engine.repr(v))) end
  return v
end

local function limit(limits, key, positive)
  local f = positive and pos or num
  return f(limits, key, "no-limit", "trusted limit")
end

local function trial_deadline(pred, row, limits)
  if jget(row, "triggered") ~= true then
    void("trial-failed", pred .. ": the trial never triggered")
  end
  local c = num(row, "completed_ms", "observation", pred)
  local d = pos(row, "deadline_ms", "observation", pred)
  if c > d then
    void("trial-failed", ("%s: completed at %s ms, after its %s ms deadline")
         :format(pred, engine.repr(c), engine.repr(d)))
  end
  if jget(row, "safe_state") ~= true then
    void("trial-failed", pred .. ": the trial did not end in a safe state")
  end
  local lim = limit(limits, pred .. "_deadline_ms", true)
  if d > lim then
    void("policy", ("%s: the deadline %s ms is over the trusted limit %s ms")
         :format(pred, engine.repr(d), engine.repr(lim)))
  end
end

local TRIALS = {
  abort_never_missed = trial_deadline,
  rollback = trial_deadline,
  reversible = function(pred, row)
    local b = jget(row, "before_state_sha256")
    if b == nil then b = "" end
    if type(b) ~= "string" then
      void("observation", pred .. ": before_state_sha256 is not a string")
    end
    if not b:match("^" .. ("[0-9a-f]"):rep(64) .. "$") or jget(row, "restored_state_sha256") ~= b
       or jget(row, "action_applied") ~= true then
      void("trial-failed", pred .. ": the state was not restored to its recorded digest")
    end
  end,
  quality_canary = function(pred, row, limits)
    local base = pos(row, "baseline_goodput", "observation", pred)
    local act = num(row, "canary_goodput", "observation", pred)
    local r = num(row, "max_relative_regression", "observation", pred)
    local samples = jget(row, "samples")
    if math.type(samples) ~= "integer" then
      void("observation", pred .. ": samples must be a JSON integer")
    end
    if r > 1 or act < base * (1 - r) then
      void("trial-failed", ("%s: canary goodput %s is below %s (baseline %s less %s)")
           :format(pred, engine.repr(act), engine.repr(base * (1 - r)), engine.repr(base),
                   engine.repr(r)))
    end
    local s = pos(row, "samples", "observation", pred)
    if s < 1 then void("trial-failed", pred .. ": fewer than one sample") end
    local R = limit(limits, "max_relative_regression", false)
    if r > R then
      void("policy", ("%s: the allowed regression %s is over the trusted limit %s")
           :format(pred, engine.repr(r), engine.repr(R)))
    end
    local S = limit(limits, "min_canary_samples", true)
    if s < S then
      void("policy", ("%s: %s samples, under the trusted minimum %s")
           :format(pred, engine.repr(s), engine.repr(S)))
    end
  end,
  gpu_second_budget = function(pred, row, limits)
    local w = num(row, "wasted_gpu_seconds", "observation", pred)
    local B = pos(row, "budget_gpu_seconds", "observation", pred)
    if w > B then
      void("trial-failed", ("%s: %s GPU-seconds wasted, over the %s budget")
           :format(pred, engine.repr(w), engine.repr(B)))
    end
    local Bp = limit(limits, "budget_gpu_seconds", true)
    if B > Bp then
      void("policy", ("%s: the budget %s GPU-seconds is over the trusted limit %s")
           :format(pred, engine.repr(B), engine.repr(Bp)))
    end
  end,
  control_plane_dark = function(pred, row, limits)
    if jget(row, "control_plane_available") ~= false or jget(row, "local_safety_held") ~= true then
      void("trial-failed", pred .. ": the control plane was not dark, or local safety did not hold")
    end
    local t = pos(row, "duration_ms", "observation", pred)
    local D = limit(limits, "min_dark_duration_ms", true)
    if t < D then
      void("policy", ("%s: dark for %s ms, under the trusted minimum %s ms")
           :format(pred, engine.repr(t), engine.repr(D)))
    end
  end,
}

local function evaluate_result(result, rec, payload, limits, verified)
  if jt(result) ~= "object" then
    void("result-malformed", "the result artifact is not a JSON object")
  end
  local m = result.map
  if m.schema ~= "infra-experiment-result/v1" or m.implementation_sha256 ~= rec.impl
     or not jequal(m.experiment, payload.experiment)
     or m.execution_kind == nil or not jequal(m.execution_kind, payload.execution_kind) then
    void("result-metadata", "the result's schema, implementation, experiment or execution kind "
         .. "disagrees with the receipt")
  end
  local obs = m.observations
  if obs == nil then return end
  if jt(obs) ~= "object" then void("observation", "observations is not an object") end
  for _, pred in ipairs(obs.keys) do
    local trials, test = obs.map[pred], TRIALS[pred]
    if not test then void("observation", ("unknown predicate '%s'"):format(pred)) end
    if jt(trials) ~= "array" or trials.n == 0 then
      void("observation", pred .. ": observations must be a non-empty array of trials")
    end
    for i = 1, trials.n do
      if jt(trials[i]) ~= "object" then
        void("observation", pred .. ": a trial is not an object")
      end
      test(pred, trials[i], limits)
    end
    verified[pred] = true
  end
end

local function verify_receipt(item, rec, ctx, entry)
  if PROMO.ty(item) ~= "str" then void("malformed", "the receipt item is not a string") end
  local bytes, why, msg = P.evidence_read(ctx.root, item)
  if not bytes then void(why == "outside-root" and "outside-root" or "unreadable", msg) end
  local v, canon = P.json_decode(bytes, "payload")
  if v == nil then void("malformed", "the receipt is not valid JSON: " .. canon.message) end
  local payload = jget(v, "payload")
  if jt(payload) ~= "object" or type(payload.map.issuer) ~= "string" then
    void("malformed", "the receipt needs a payload object with a string issuer")
  end
  local p = payload.map
  entry.issuer = p.issuer
  local authority = ctx.trust.map[p.issuer]
  if authority == nil then
    void("unknown-issuer", ("issuer '%s' is not in the trust policy"):format(p.issuer))
  end
  local a = authority.map
  local key = P.hex_decode(a.key_hex)
  if not key or #key < 32 then
    void("weak-key", ("the key of issuer '%s' is not hex of at least 32 bytes"):format(p.issuer))
  end
  if canon == nil then
    void("malformed", "the payload holds a value canonical JSON cannot encode")
  end
  local mac = v.map.hmac_sha256
  if type(mac) ~= "string" or mac:find("[\128-\255]") then
    void("malformed", "the receipt needs hmac_sha256 as an ASCII string")
  end
  if not P.equal(mac, P.hmac_sha256_hex(key, canon)) then
    void("signature", ("the HMAC does not verify under the key of issuer '%s'"):format(p.issuer))
  end
  if p.schema == nil then void("malformed", "the payload has no schema") end
  if p.schema ~= "infra-evidence-receipt/v1" then
    void("schema",
         ("payload schema %s is not infra-evidence-receipt/v1"):format(tostring(p.schema)))
  end
  if p.record_sha256 == nil then void("malformed", "the payload has no record_sha256") end
  if not rec.digest then
    void("record-unencodable", "the record cannot be written as canonical JSON")
  end
  if p.record_sha256 ~= rec.digest then
    void("record-binding", ("the receipt is bound to record %s, not to this record %s")
         :format(tostring(p.record_sha256), rec.digest))
  end
  if p.implementation_sha256 == nil then
    void("malformed", "the payload has no implementation_sha256")
  end
  if p.implementation_sha256 ~= rec.impl then
    void("implementation", "the receipt tested another implementation than implementation_sha256")
  end
  for _, s in ipairs({ { "action", "allowed_actions" }, { "domain", "allowed_domains" },
                       { "region", "allowed_regions" } }) do
    local value = rec.doc[s[1]]
    if PROMO.ty(value) ~= "str" or not list_has(a[s[2]], value) then
      void("scope", ("the record's %s %s is outside the %s of issuer '%s'")
           :format(s[1], PROMO.pystr(value) or "?", s[2], p.issuer))
    end
  end
  if p.execution_kind == nil then void("malformed", "the payload has no execution_kind") end
  if not list_has(a.execution_kinds, p.execution_kind) then
    void("execution-kind", ("execution kind %s is not trusted for issuer '%s'")
         :format(tostring(p.execution_kind), p.issuer))
  end
  if p.experiment == nil then void("malformed", "the payload has no experiment") end
  local cb, cited = rec.doc.certified_by, false
  if PROMO.ty(cb) == "list" then
    for _, c in ipairs(cb) do
      if jequal(doc_scalar(c), p.experiment) then cited = true end
    end
  elseif PROMO.ty(cb) == "str" then
    if type(p.experiment) ~= "string" then
      void("malformed", "the payload's experiment is not a string")
    end
    cited = cb:find(p.experiment, 1, true) ~= nil
    if cited and cb ~= p.experiment then entry.substring = p.experiment end
  end
  if not cited then
    void("experiment",
         ("experiment %s is not cited in certified_by"):format(tostring(p.experiment)))
  end
  local arts = p.artifacts
  if arts == nil then void("malformed", "the payload has no artifacts") end
  if not jtruthy(arts) then void("no-artifacts", "the payload lists no artifacts") end
  if jt(arts) ~= "array" then void("malformed", "artifacts is not an array") end
  local limits = a.predicate_limits or { t = "object", keys = {}, map = {} }
  local verified = {}
  for i = 1, arts.n do
    local art = arts[i]
    if jt(art) ~= "object" or type(art.map.path) ~= "string" then
      void("malformed", ("artifact %d needs a string path"):format(i - 1))
    end
    local data, awhy, amsg = P.evidence_read(ctx.root, art.map.path)
    if not data then void(awhy == "unreadable" and "unreadable" or "artifact-missing", amsg) end
    if art.map.sha256 == nil then void("malformed", ("artifact %d has no sha256"):format(i - 1)) end
    local digest = P.sha256_hex(data)
    if art.map.sha256 ~= digest then
      void("artifact-digest", ("artifact '%s' hashes to %s, not to the signed %s")
           :format(art.map.path, digest, tostring(art.map.sha256)))
    end
    local result = P.json_decode(data)
    evaluate_result(result, rec, p, limits, verified)
  end
  if jt(p.checks) ~= "object" then void("malformed", "the payload's checks is not an object") end
  local claimed = {}
  for _, k in ipairs(p.checks.keys) do
    if p.checks.map[k] == true then claimed[k] = true end
  end
  local c, w = table.concat(sorted_keys(claimed), ","), table.concat(sorted_keys(verified), ",")
  if c ~= w then
    void("checks-mismatch", ("the receipt claims [%s] but its artifacts prove [%s]"):format(c, w))
  end
  return verified
end

local function gate_stage(doc, F, ctx, rec)
  local state = { checked = false, receipts = {}, verified = {} }
  local level = doc.level
  local lvl = PROMO.ty(level) == "str" and PROMO.LEVELS[level] or nil
  local region = doc.region
  if level == "L4" and not PROMO.lower(region == nil and "" or PROMO.pystr(region) or "")
                              :find("pool", 1, true) then
    F.add("compat", "promotion.l4-pool", doc, "region",
          ("level L4 acts inside one declared pool, and region '%s' names no pool")
          :format(region == nil and "" or PROMO.pystr(region) or "?"))
  end
  if not lvl or lvl < 2 then return state end
  if not ctx.root or not ctx.trust or #ctx.trust.keys == 0 then
    F.add("compat", "promotion.trust-required", doc, "level",
          ("level %s needs receipts a trusted runner signed: run the gate with --trust and "
           .. "--evidence-root (a non-empty policy)"):format(level))
    return state
  end
  if #F.list > 0 then return state end
  state.checked = true
  local impl = doc.implementation_sha256
  if PROMO.ty(impl) ~= "str" or not impl:match("^" .. ("[0-9a-f]"):rep(64) .. "$") then
    F.add("compat", "promotion.implementation-digest", doc, "implementation_sha256",
          "implementation_sha256 must be the 64 lowercase hex digits of the tested implementation")
    return state
  end
  rec.impl = impl
  local receipts = doc.receipts
  if PROMO.ty(receipts) ~= "list" or #receipts == 0 then
    F.add("compat", "promotion.receipts-missing", doc, "receipts",
          ("level %s needs at least one signed receipt under receipts"):format(level))
    return state
  end
  local union = {}
  for i, item in ipairs(receipts) do
    local entry = { path = PROMO.ty(item) == "str" and item or nil }
    local ok, res = pcall(verify_receipt, item, rec, ctx, entry)
    if not ok and type(res) ~= "table" then error(res, 0) end
    if ok then
      entry.valid, entry.predicates = true, res
      for p in pairs(res) do union[p] = true end
      if entry.substring then state.substring = entry.substring end
    else
      entry.valid, entry.rule, entry.predicates = false, "promotion.receipt." .. res.reason, {}
      F.add("compat", entry.rule, receipts, i, ("receipt '%s' is void: %s")
            :format(PROMO.pystr(item) or "?", res.message))
    end
    state.receipts[#state.receipts + 1] = entry
  end
  state.verified = union
  for _, p in ipairs(PROMO.PREDICATES[lvl]) do
    if not union[p] then
      F.add("compat", "promotion.unproven." .. p:gsub("_", "-"), doc, "receipts",
            ("no valid receipt proves %s, which level %s needs"):format(p, level))
    end
  end
  return state
end

local function where(doc, f)
  if f.at == nil or engine.type(f.at) == "lua" then
    if engine.type(doc) == "list" then
      local w = engine.where(doc)
      return w.line, w.column
    end
    return 1, 1
  end
  local w = engine.where(f.at, f.key, f.on)
  return w.line, w.column
end

local function record_digest(doc)
  if PROMO.ty(doc) ~= "map" then return nil end
  local canon = P.record_canonical(doc)
  return canon and P.sha256_hex(canon) or nil, canon
end

local function check_record(entry, args, ctx)
  local doc, input = load(entry)
  local r = { file = entry.display, findings = {} }
  if not doc and input then
    for _, f in ipairs(input) do
      r.findings[#r.findings + 1] = { rule = f.rule, severity = f.severity or "error",
                                      message = f.message, line = f.line or 1,
                                      column = f.column or 1, path = f.path or "" }
    end
    r.unusable = true
    return r
  end
  local mode = args.declaration_only and "declaration" or "gate"
  local rec = { doc = doc }
  rec.digest = record_digest(doc)
  local gate
  if mode == "gate" then
    gate = function(d, F)
      r.state = gate_stage(d, F, ctx, rec)
      return r.state
    end
  end
  local list = PROMO.evaluate(doc, { mode = mode, strict = args.strict, gate = gate })
  for _, f in ipairs(list) do
    local line, column = where(doc, f)
    r.findings[#r.findings + 1] = { rule = f.rule, severity = f.severity, message = f.message,
                                    line = line, column = column, path = f.path,
                                    unusable = f.kind == "audit" }
    if f.kind == "audit" then r.unusable = true end
  end
  local level, domain = doc, doc
  if PROMO.ty(doc) == "map" then level, domain = doc.level, doc.domain end
  local lvl = PROMO.ty(doc) == "map" and PROMO.ty(level) == "str" and PROMO.LEVELS[level]
  local state = r.state or { checked = false, receipts = {}, verified = {} }
  local receipts = engine.array()
  for i, e in ipairs(state.receipts) do
    receipts[i] = engine.object("path", null_if_nil(e.path), "valid", e.valid,
                                "rule", null_if_nil(e.rule), "issuer", null_if_nil(e.issuer),
                                "predicates", array_of(sorted_keys(e.predicates)))
  end
  r.promotion = engine.object(
    "mode", mode,
    "level", lvl and level or engine.null,
    "domain", (PROMO.ty(domain) == "str" and PROMO.DOMAINS[domain]) and domain or engine.null,
    "record_sha256", null_if_nil(rec.digest),
    "required_predicates", array_of(mode == "gate" and lvl and lvl >= 2 and PROMO.PREDICATES[lvl]
                                    or {}),
    "receipts_checked", state.checked,
    "receipts", receipts,
    "verified_predicates", array_of(sorted_keys(state.verified)))
  return r
end

local function verdict(r)
  if r.unusable then return "error" end
  for _, f in ipairs(r.findings) do
    if f.severity == "error" then return "fail" end
  end
  return "pass"
end

local function summary(results)
  local s = { files = #results, passed = 0, refused = 0, unusable = 0, errors = 0, warnings = 0 }
  for _, r in ipairs(results) do
    local v = verdict(r)
    if v == "pass" then s.passed = s.passed + 1
    elseif v == "fail" then s.refused = s.refused + 1
    else s.unusable = s.unusable + 1 end
    for _, f in ipairs(r.findings) do
      if f.severity == "error" then s.errors = s.errors + 1
      elseif f.severity == "warning" then s.warnings = s.warnings + 1 end
    end
  end
  return s
end

local function gate_json(results)
  local files = engine.array()
  for i, r in ipairs(results) do
    local rules, seen, findings = {}, {}, engine.array()
    for j, f in ipairs(r.findings) do
      if not seen[f.rule] then seen[f.rule] = true; rules[#rules + 1] = f.rule end
      findings[j] = engine.object("rule", f.rule, "severity", f.severity, "message", f.message,
                                  "line", f.line, "column", f.column, "path", f.path)
    end
    table.sort(rules)
    local entry = engine.object("file", r.file, "verdict", verdict(r), "rules", array_of(rules),
                                "findings", findings)
    if r.promotion then entry.promotion = r.promotion end
    files[i] = entry
  end
  local s = summary(results)
  return engine.object("files", files, "summary",
                       engine.object("files", s.files, "failed", s.refused + s.unusable,
                                     "errors", s.errors, "warnings", s.warnings))
end

local STATUS = { pass = "PASS    ", fail = "REFUSED ", error = "UNUSABLE" }

local function gate_text(results)
  local lines = {}
  for _, r in ipairs(results) do
    lines[#lines + 1] = ("%s %s"):format(STATUS[verdict(r)], r.file)
    for _, f in ipairs(r.findings) do
      lines[#lines + 1] = ("  %s:%d:%d: %s[%s]: %s"):format(r.file, f.line, f.column, f.severity,
                                                           f.rule, f.message)
    end
  end
  local s = summary(results)
  lines[#lines + 1] = ""
  local tail = s.warnings > 0 and (", %d warnings"):format(s.warnings) or ""
  lines[#lines + 1] = ("%d records checked: %d passed, %d refused, %d unusable; %d problems%s")
                      :format(s.files, s.passed, s.refused, s.unusable, s.errors, tail)
  return table.concat(lines, "\n") .. "\n"
end

local function report(out, results, format)
  local list = {}
  for _, r in ipairs(results) do
    for _, f in ipairs(r.findings) do
      list[#list + 1] = { rule = f.rule, severity = f.severity, message = f.message, line = f.line,
                          column = f.column, path = f.path, file = r.file, unusable = f.unusable }
    end
  end
  out:report(list, format, #results == 1 and results[1].file or PROGRAM)
end

local function exit_code(results)
  local code = 0
  for _, r in ipairs(results) do
    local v = verdict(r)
    if v == "error" then return 2 end
    if v == "fail" then code = 1 end
  end
  return code
end

return function(args, out)
  common_checks(args)
  if args.print_digest then
    engine.usage("--print-digest", "--print-digest cannot be combined with checking options")
  end
  if args.declaration_only and (args.trust or args.evidence_root) then
    engine.usage("--declaration-only",
                 "--declaration-only does not read receipts: drop --trust and --evidence-root")
  end
  local ctx = {}
  if args.trust then ctx.trust = read_trust(args.trust) end
  if args.evidence_root then
    if not P.is_dir(args.evidence_root) then
      engine.usage("--evidence-root",
                   ("--evidence-root '%s' is not a folder"):format(args.evidence_root))
    end
    ctx.root = args.evidence_root
  end
  local results = {}
  for _, entry in ipairs(entries_or_fail(args)) do
    results[#results + 1] = check_record(entry, args, ctx)
  end
  if args.format == "json" then
    out:json(gate_json(results))
  elseif args.format == "text" then
    out:write(gate_text(results))
  else
    report(out, results, args.format)
  end
  return exit_code(results)
end
