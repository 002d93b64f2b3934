-- overflow.lua: figures that leave the range of a double because of a value
-- given on the command line (a rate of 1e308, an MTBF of 5e-324). A model
-- refuses a result that is not finite with an error ending "the result is
-- not finite" (core/lua/l_models.c); the input, not the pack, is at fault,
-- so the verb ends with a usage error naming the options the user gave.
-- Compiled only by a verb that can meet one.
local overflow = {}

--- Whether x is a finite number (neither infinite nor NaN).
function overflow.finite(x)
  return x == x and x ~= math.huge and x ~= -math.huge
end

--- fn(...)'s results; a model's "not finite" error becomes the usage error
--- of overflow.usage(args, options, ...); any other error passes unchanged.
function overflow.call(args, options, what, advice, fn, ...)
  local r = table.pack(pcall(fn, ...))
  if r[1] then return table.unpack(r, 2, r.n) end
  if not tostring(r[2]):find("is not finite", 1, true) then error(r[2], 0) end
  overflow.usage(args, options, what, advice)
end

--- Raise the usage error. options: { {args key, "--option"}, ... } in the
--- order to name them; the first given is the error's argument ("--config"
--- when none was: the figures came from the input document).
function overflow.usage(args, options, what, advice)
  local given, first = {}, nil
  for _, o in ipairs(options) do
    if args[o[1]] ~= nil then
      given[#given + 1] = ("%s %s"):format(o[2], engine.repr(args[o[1]]))
      first = first or o[2]
    end
  end
  engine.usage(first or "--config", ("%s put%s %s beyond the range of a double: %s")
    :format(#given > 0 and table.concat(given, " with ") or "the input's figures",
            #given == 1 and "s" or "", what, advice))
end

return overflow
