-- How infragate scheduling's verbs read their input: documents (YAML, or
-- JSON when a whole file is JSON), their fields with positions, --set items
-- typed by lua/yaml11.lua (compiled only when a run has one), and the input
-- errors each problem becomes, every problem of a document at once.
local verbs = require "verbs"
local origin_of = require("cli.edge").origin_of

local function input_error(list)
  local errs = {}
  for i, e in ipairs(list) do
    errs[i] = { rule = e.rule or "input.type", message = e.message, file = e.file,
                line = e.line, column = e.column, path = e.path, argument = e.argument }
  end
  verbs.raise(errs)
end

-- Read an input document. A regular file whose whole content is JSON is read
-- as JSON (JSON typing); anything else goes through the YAML loader. Standard
-- input can be read once, so it takes the verb's preferred reader.
-- Every problem the loader and the schema find is reported, not the first.
local function load_checked(path, opts)
  opts.collect = true
  local doc, findings = engine.load(path, opts)
  if findings and #findings > 0 then
    local errs = {}
    for i, f in ipairs(findings) do
      errs[i] = { rule = f.rule, message = f.message, file = f.file or path, line = f.line,
                  column = f.column, path = f.path }
    end
    input_error(errs)
  end
  return doc
end

local function load_doc(path, kind, stdin_json)
  if path == "-" then
    return load_checked(path, { kind = kind, json = stdin_json or nil })
  end
  local probe, findings = engine.load(path, { json = true, collect = true })
  if probe ~= nil and (findings == nil or #findings == 0) then
    return load_checked(path, { kind = kind, json = true })
  end
  return load_checked(path, { kind = kind })
end

-- Fields of a document mapping into 'given', remembering their positions.
local function take_fields(fields, node, file, given, origins)
  if node == nil then return end
  for _, f in ipairs(fields) do
    local v = node[f[1]]
    if v ~= nil then
      given[f[1]] = v
      local w = engine.where(node, f[1])
      origins[f[1]] = { file = file, line = w.line, column = w.column, path = w.path }
    end
  end
end

-- Apply --set items in argv order; 'prefix' is the JSON Pointer of the
-- overridden mapping ("" or "/config").
-- The --set items in order; via[i] names the flag that gave item i (a
-- flag of expands_to), so that its errors name that flag.
local function apply_sets(fields, sets, given, origins, prefix, via)
  local errs = {}
  for i, item in ipairs(sets or {}) do
    local option = via and via[i] or "--set"
    local key, text = item:match("^([^=]+)=(.*)$")
    if not key then
      engine.usage("--set", ("--set takes KEY=VALUE, got '%s'"):format(item))
    end
    local f = SCHED.field(fields, key)
    if not f then
      errs[#errs + 1] = { message = ("--set: unknown field '%s'"):format(key),
                          path = prefix .. "/" .. key, argument = "--set" }
    else
      local v = require("yaml11").scalar(text)
      local why = SCHED.bad_value(f, v)
      if why then
        errs[#errs + 1] = { message = option .. ": " .. why, path = prefix .. "/" .. key,
                            argument = option }
      else
        given[key] = v
        origins[key] = { argument = option }
      end
    end
  end
  if #errs > 0 then input_error(errs) end
end

-- One value from a typed flag, validated as its field.
local function apply_value(fields, key, v, given, origins, option)
  local f = SCHED.field(fields, key)
  local why = SCHED.bad_value(f, v)
  if why then
    input_error({ { message = ("%s: %s"):format(option, why), path = "/" .. key,
                    argument = option } })
  end
  given[key] = v
  origins[key] = { argument = option }
end

local function cross_errors(problems, origins, prefix)
  local errs = {}
  for _, p in ipairs(problems) do
    local o = origin_of(origins, p[1])
    errs[#errs + 1] = { message = p[2], file = o.file, line = o.line, column = o.column,
                        path = prefix .. "/" .. p[1], argument = o.argument }
  end
  if #errs > 0 then input_error(errs) end
end

return {
  input_error = input_error,
  load_checked = load_checked,
  load_doc = load_doc,
  take_fields = take_fields,
  apply_sets = apply_sets,
  apply_value = apply_value,
  cross_errors = cross_errors,
}
