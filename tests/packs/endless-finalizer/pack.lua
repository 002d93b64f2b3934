-- Escape class: a finalizer that never returns is refused at setmetatable.
engine.rule { id = "endless-finalizer.probe", kind = "demo-item", severity = "error",
  summary = "installs an endless finalizer", check = function()
    setmetatable({}, { __gc = function() while true do end end })
  end }
