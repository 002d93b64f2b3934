-- verbs_errors.lua: the exit-2 output of a verb of an `infragate PACK VERB`
-- program (spec/core.md 2.6): the error document with all nine keys of
-- each entry in JSON mode, one stderr line per problem in text mode.
-- Compiled through verbs.failer only by a run that fails.
local M = {}

-- An error entry with all nine keys of core.md 2.6.
function M.entry(e)
  local o = engine.object()
  o.id = e.rule
  o.rule = e.rule
  o.severity = "error"
  o.message = e.message
  o.file = e.file or engine.null
  o.line = e.line or engine.null
  o.column = e.column or engine.null
  o.path = e.path or engine.null
  o.argument = e.argument or engine.null
  return o
end

-- End a verb of 'pack' with exit 2 (verbs.failer says how): the error
-- document (JSON) or one stderr line per problem (text).
function M.fail(pack, opts, args, out, verb, errors)
  local synopsis = opts.synopsis or {}
  if args.format == "json" then
    local list = engine.array()
    for i, e in ipairs(errors) do list[i] = M.entry(e) end
    out:json(engine.object("pack", pack, "errors", list))
  else
    for _, e in ipairs(errors) do
      local where
      if e.file and e.line then
        where = ("%s:%d:%d"):format(e.file, e.line, e.column)
      elseif e.file and not opts.file_needs_line then
        where = e.file
      else
        where = "infragate " .. pack .. " " .. verb
      end
      out:note(("%s: error[%s]: %s"):format(where, e.rule, e.message))
      if e.rule == "cli.usage" and synopsis[verb] then
        out:note("usage: infragate " .. pack .. " " .. verb .. " " .. synopsis[verb])
      end
    end
  end
  return 2
end

return M
