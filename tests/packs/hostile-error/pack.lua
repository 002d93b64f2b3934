-- Escape class: an error object whose __tostring never returns.
engine.rule { id = "hostile-error.probe", kind = "demo-item", severity = "error",
  summary = "raises a hostile table", check = function()
    error(setmetatable({}, { __tostring = function() while true do end end }))
  end }
