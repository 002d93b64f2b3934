-- What several of infragate network's verbs use: compiled with the first verb that
-- needs it, never for a verb that does not.
local py = require "py"
local verbs = require "verbs"
local jv = require "json_values"
local yaml11 = require "yaml11"

local array, null = jv.array, jv.null

-- A file without a line prints as the command (the scenario's own line
-- is not known there).
local fail = verbs.failer("network", { file_needs_line = true })

local raise, usage, guarded = verbs.raise, verbs.usage, verbs.guard(fail)

local function where_of(view, parent, key, on_key)
  local at = view
  if #parent > 0 then at = engine.get(view, NW.pointer(parent)) end
  if at == nil then return nil end
  if key ~= nil and engine.type(at) == "map" then
    return engine.where(at, key, on_key and "key" or nil)
  end
  return engine.where(at)
end

local function parse_sets(list)
  local sets = {}
  for _, item in ipairs(list or {}) do
    local path, text = item:match("^([^=]*)=(.*)$")
    if not path or path == "" then
      usage("--set", ("--set takes PATH=VALUE (got %s)"):format(py.repr(item)))
    end
    sets[#sets + 1] = { path = path, value = yaml11.scalar(text), text = item }
  end
  return sets
end

-- The resolved scenario and where its values came from: {scn, view, file, touched}.
local function scenario_of(args)
  if args.preset and args.scenario then
    usage("--scenario", "give --preset or --scenario, not both")
  end
  local doc, view, file
  if args.scenario then
    local findings
    view, findings = engine.load(args.scenario, { collect = true })
    if findings and #findings > 0 then
      local errs = {}
      for i, f in ipairs(findings) do
        errs[i] = { rule = f.rule, message = f.message, file = args.scenario, line = f.line,
                    column = f.column, path = f.path }
      end
      raise(errs)
    end
    file = args.scenario
    doc = engine.plain(view)
  else
    doc = NW.preset_doc(args.preset or NW.DEFAULT_PRESET)
  end
  local sets = parse_sets(args.set)
  local touched = {}
  if engine.type(doc) == "map" or (type(doc) == "table") then
    local t, bad = NW.apply_sets(doc, sets)
    if not t then
      raise({ { rule = "input.type", argument = "--set", path = "/" .. bad.path:gsub("%.", "/"),
                message = ("--set names no scenario field %s"):format(py.repr(bad.path)) } })
    end
    touched = t
    -- Python's int has no bound and no scenario field takes one this large.
    for _, st in ipairs(sets) do
      if st.value == yaml11.BIGINT then
        raise({ { rule = "input.type", argument = "--set", path = "/" .. st.path:gsub("%.", "/"),
                  message = ("%s must be within its range; the value is beyond 64 bits")
                            :format(st.path) } })
      end
    end
  end
  local scn, problems = NW.convert(doc, {})
  if not scn then
    local errs = {}
    for _, p in ipairs(problems) do
      local parts = {}
      for i, x in ipairs(p.parent) do parts[i] = x end
      if p.key ~= nil then parts[#parts + 1] = p.key end
      local ptr = NW.pointer(parts)
      local e = { rule = "input.type", message = p.message, path = ptr }
      if touched[ptr] or (p.cross and next(touched)) then
        e.argument = "--set"
      elseif view then
        local w = where_of(view, p.parent, p.key, p.on_key)
        e.file = file
        if w then e.line, e.column = w.line, w.column end
      end
      errs[#errs + 1] = e
    end
    raise(errs)
  end
  return { scn = NW.resolve(scn), view = view, file = file, touched = touched }
end

local function head(run)
  local s = run.scn
  return engine.object("name", s.name or "", "world_size", s.world_size, "n_pool", s.n_pool)
end

-- The strict findings of a verb (6.5), as JSON objects; also notes for text.
local function strict_findings(run, args, names, extra)
  local c = { scn = run.scn, step = run.step, ledger = run.ledger }
  for k, v in pairs(extra or {}) do c[k] = v end
  local list = engine.array()
  for _, name in ipairs(names) do
    local f = NW.STRICT[name](c)
    if f then
      local file, line, column = engine.null, engine.null, engine.null
      local option = f.path == "/halls" or f.path == "/circuit_gbps"
      if run.view and not run.touched[f.path] and not option then
        local node = engine.get(run.view, f.path)
        if node ~= nil then
          local w = engine.where(engine.get(run.view, f.path:match("^(.*)/[^/]*$")) or run.view,
                                 f.path:match("([^/]*)$"))
          file, line, column = run.file, w.line, w.column
        end
      end
      list[#list + 1] = engine.object("rule", "network.strict." .. name,
                                      "severity", args.strict and "error" or "warning",
                                      "message", f.message, "file", file, "line", line,
                                      "column", column, "path", f.path)
    end
  end
  return list
end

local function finish(out, args, obj, findings, text)
  if args.format == "json" then
    obj.findings = findings
    out:json(obj)
  else
    out:write(text)
  end
  return verbs.finish(args, out, findings)
end

local function envelope()
  local o = engine.object("pack", "network")
  return o
end

local function f4(x) return x and py.fixed(x, 4) or "n/a" end

local function f1(x) return x and py.fixed(x, 1) or "n/a" end

-- The intervention set: built in, or from --interventions FILE; and its regimes.
local function intervention_set(args, scn)
  if not args.interventions then return NW.BUILTIN_INTERVENTIONS, nil end
  local view, findings = engine.load(args.interventions, { kind = "network-interventions",
                                                           collect = true })
  local errs = {}
  for _, f in ipairs(findings or {}) do
    errs[#errs + 1] = { rule = f.rule, message = f.message, file = args.interventions,
                        line = f.line, column = f.column, path = f.path }
  end
  if #errs > 0 then raise(errs) end
  local set, seen = {}, {}
  local function bad(p)
    local parts = {}
    for i, x in ipairs(p.parent) do parts[i] = x end
    if p.key ~= nil then parts[#parts + 1] = p.key end
    local w = where_of(view, p.parent, p.key, p.on_key)
    errs[#errs + 1] = { rule = "input.type", message = p.message, file = args.interventions,
                        line = w and w.line, column = w and w.column, path = NW.pointer(parts) }
  end
  for i, e in ipairs(view.interventions) do
    local entry, problems = NW.convert_intervention(engine.plain(e), { "interventions", i - 1 })
    for _, p in ipairs(problems) do bad(p) end
    if entry then
      if seen[entry.name] then
        bad({ parent = { "interventions", i - 1 }, key = "name",
              message = ("intervention %s is listed twice"):format(entry.name) })
      end
      seen[entry.name] = true
      local wrong = NW.check_intervention(scn, entry)
      if wrong then
        bad({ parent = { "interventions", i - 1 }, key = nil,
              message = ("intervention %s makes %s %s"):format(entry.name, wrong.path,
                                                               wrong.message) })
      end
      set[#set + 1] = entry
    end
  end
  if #errs > 0 then raise(errs) end
  local regimes = {}
  if engine.has(view, "regimes") then
    for i, r in ipairs(view.regimes) do
      local overrides = {}
      for k, v in pairs(engine.plain(r.overrides or {})) do
        overrides[#overrides + 1] = { path = tostring(k), value = v, index = i }
      end
      regimes[r.name] = overrides
    end
  end
  return set, regimes
end

local function names_list(text, option, set, min, max)
  local names, seen = {}, {}
  for item in (text .. ","):gmatch("([^,]*),") do
    local found = false
    for _, e in ipairs(set) do
      if e.name == item then found = true end
    end
    if not found then
      usage(option, ("%s names no intervention %s"):format(option, py.repr(item)))
    end
    if seen[item] then usage(option, ("%s lists %s twice"):format(option, item)) end
    seen[item] = true
    names[#names + 1] = item
  end
  if #names < min or #names > max then
    usage(option, ("%s takes %d to %d names"):format(option, min, max))
  end
  return names
end

local function pick(set, names)
  local by, out = {}, {}
  for _, e in ipairs(set) do by[e.name] = e end
  for i, n in ipairs(names) do out[i] = by[n] end
  return out
end

local function distance(args, required)
  if args.regime and args.alpha_us then
    usage("--alpha-us", "give --regime or --alpha-us, not both")
  end
  if args.regime then return NW.regime(args.regime).alpha_us, args.regime end
  if args.alpha_us then return args.alpha_us + 0.0, nil end
  if required then usage("--regime", "give --regime NAME or --alpha-us A") end
end

local SPAN_STRICT = { "width-beyond-reported", "more-than-two-halls" }

return {
  array = array,
  null = null,
  fail = fail,
  raise = raise,
  usage = usage,
  guarded = guarded,
  where_of = where_of,
  parse_sets = parse_sets,
  scenario_of = scenario_of,
  head = head,
  strict_findings = strict_findings,
  finish = finish,
  envelope = envelope,
  f4 = f4,
  f1 = f1,
  intervention_set = intervention_set,
  names_list = names_list,
  pick = pick,
  distance = distance,
  SPAN_STRICT = SPAN_STRICT,
}
