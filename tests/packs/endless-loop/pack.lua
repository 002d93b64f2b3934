-- Escape class: an endless loop must end as engine.budget.
engine.rule { id = "endless-loop.probe", kind = "demo-item", severity = "error",
  summary = "loops forever", check = function() while true do end end }
