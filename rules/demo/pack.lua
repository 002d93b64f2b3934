-- The demo pack: the smallest pack that shows every part of the rule API
-- (spec/core.md Appendix A). Its figures model no real system.
local py = require "py"

-- A pack global, so that a validation mutation can change it.
DEFAULT_LIMIT = 100
NAME_MAX = 20

engine.pack {
  summary   = "a demo of the engine's rule API",
  help_base = "https://infragate.invalid/rules/demo/",
}

engine.rule {
  id       = "demo.size-limit",
  kind     = "demo-item",
  severity = "error",
  summary  = "an item's size must not exceed its limit",
  fix      = "lower size, or raise limit where the item's host really allows it",
  check    = function(doc, ctx)
    local limit = doc.limit or DEFAULT_LIMIT
    if doc.size > limit then
      ctx:fail(doc, "size", ("size %d exceeds the limit %s"):format(doc.size, py.repr(limit)),
               engine.object("size", doc.size, "limit", limit))
    end
  end,
}

engine.rule {
  id       = "demo.name-length",
  kind     = "demo-item",
  severity = "warning",
  summary  = "an item's name should be short enough to read in a listing",
  fix      = "shorten the name to at most 20 characters",
  check    = function(doc, ctx)
    local length = utf8.len(doc.name)
    if length > NAME_MAX then
      ctx:fail(doc, "name", ("name '%s' is %d characters long, over the %d the listing shows")
               :format(doc.name, length, NAME_MAX),
               engine.object("length", length, "max", NAME_MAX))
    end
  end,
}

engine.rule {
  id       = "demo.strict.owner",
  kind     = "demo-item",
  severity = "error",
  summary  = "in strict mode an item must name its owner",
  fix      = "add owner: with the team that answers for the item",
  check    = function(doc, ctx)
    if not engine.has(doc, "owner") then
      ctx:fail(doc, "owner", ("item '%s' names no owner"):format(doc.name))
    end
  end,
}

-- The report object of a demo item in the lint JSON (spec/core.md 8.4).
engine.report {
  kind  = "demo-item",
  build = function(doc)
    local limit = doc.limit or DEFAULT_LIMIT
    return engine.object("size", doc.size, "limit", limit, "headroom", limit - doc.size)
  end,
}
