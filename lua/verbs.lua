-- verbs.lua: what the verbs of the `infragate PACK VERB` programs share
-- (spec/core.md 2.6, 5.9): input failures raised deep inside a verb and
-- turned into the exit-2 error output at its edge (made by
-- lua/verbs_errors.lua), and option-list builders; document reading and
-- Python float()/int() parsing of option text through lua/verbs_input.lua.
-- One copy, so the error document and the number parsing cannot drift
-- apart between packs. Loaded like py.lua:
-- `local verbs = require "verbs"`, into the calling pack's environment.
local verbs = {}

-- ---- errors (core.md 2.6) -------------------------------------------------------------------

-- The pack's fail(args, out, verb, errors): end the verb with exit 2, the
-- error document (JSON) or one stderr line per problem (text), nothing on
-- stdout. opts.synopsis maps a verb to its one-line synopsis, noted under
-- a cli.usage error in text mode; opts.file_needs_line makes a file
-- without a line print as the command, not as the file. The output is
-- made by lua/verbs_errors.lua, compiled only by a run that fails.
function verbs.failer(pack, opts)
  opts = opts or {}
  return function(args, out, verb, errors)
    return require("verbs_errors").fail(pack, opts, args, out, verb, errors)
  end
end

-- An input problem raised from deep inside a verb; caught by guarded().
local InputFailure = {}

function verbs.raise(errors)
  error(setmetatable({ errors = errors }, InputFailure), 0)
end

function verbs.usage(argument, message)
  verbs.raise({ { rule = "cli.usage", message = message, argument = argument } })
end

-- The pack's guarded(verb, body): run a verb body; input failures become
-- fail's output, any other error goes on up.
function verbs.guard(fail)
  return function(verb, body)
    return function(args, out)
      local ok, res = pcall(body, args, out)
      if ok then return res end
      if getmetatable(res) == InputFailure then return fail(args, out, verb, res.errors) end
      error(res, 0)
    end
  end
end

-- Reading a verb's input documents and Python's int()/float() over option
-- text are lua/verbs_input.lua, compiled on the first call of one of them:
-- a run at its defaults needs neither.
local function input(name)
  return function(...) return require("verbs_input")[name](...) end
end
verbs.load_checked = input("load_checked")
verbs.config_document = input("config_document")
verbs.apply_sets = input("apply_sets")
verbs.pyint = input("pyint")
verbs.pyfloat = input("pyfloat")

-- ---- options ----------------------------------------------------------------------------------

-- The pack's format_opt(choices): a --format option over choices, or over
-- the pack's usual formats when none are given.
function verbs.format_opt_of(formats)
  return function(choices)
    return { "--format", type = "choice", choices = choices or formats, default = "text",
             help = "output format" }
  end
end

-- The end of a model verb: its findings as stderr lines in text mode (JSON
-- carries them in the document), then the exit status: 1 when --strict
-- and any finding, else rc (0 unless given).
function verbs.finish(args, out, findings, rc)
  if args.format ~= "json" then
    for _, f in ipairs(findings) do
      out:note(("%s[%s]: %s"):format(f.severity, f.rule, f.message))
    end
  end
  if args.strict and #findings > 0 then return 1 end
  return rc or 0
end

-- engine.lint's strict from a lint verb's --strict / --no-strict: true or
-- false when one was given, nil otherwise, so that the configuration's
-- strict (else the default, on) decides.
function verbs.strict_choice(args)
  if args.no_strict then return false end
  if args.strict then return true end
  return nil
end

-- The lint verb of an `infragate PACK` program (spec/core.md 5.9, 10): its
-- options and its run, which a pack's verb module returns as they are, so
-- every program's lint takes the same options and runs engine.lint alike.
function verbs.lint_verb(pack)
  return {
    options = {
      { "--strict", type = "flag", help = "run strict rules (the default)" },
      { "--no-strict", type = "flag", help = "do not run strict rules" },
      { "--format", type = "choice", choices = { "text", "json", "sarif", "github", "junit" },
        default = "text", help = "output format" },
    },
    run = function(args)
      return engine.lint { operands = args.operands, pack = pack,
                           strict = verbs.strict_choice(args), format = args.format }
    end,
  }
end

-- A new list: the items of list, then the extra arguments.
function verbs.with(list, ...)
  local out = {}
  for _, o in ipairs(list) do out[#out + 1] = o end
  for _, o in ipairs({ ... }) do out[#out + 1] = o end
  return out
end

return verbs
