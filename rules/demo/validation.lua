-- Figures of validation/demo.yaml (spec/core.md 11.2): they only exercise
-- the registry machinery.
engine.figure {
  id = "demo.default-limit",
  compute = function() return DEFAULT_LIMIT end,
}

engine.figure {
  id = "demo.size-ratio",
  compute = function() return 105 / DEFAULT_LIMIT end,
}

engine.figure {
  id = "demo.emergent-count",
  compute = function(v)
    local over = 0
    for _, size in ipairs(v.settings.sizes) do
      if size > DEFAULT_LIMIT then over = over + 1 end
    end
    return over
  end,
}

engine.mutation {
  name  = "limit-halved",
  apply = function(pack) pack.DEFAULT_LIMIT = 50 end,
}
