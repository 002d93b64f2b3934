-- Pack globals are frozen after load: a check may not add one.
engine.rule { id = "global-assign.probe", kind = "demo-item", severity = "error",
  summary = "adds a global in a check", check = function() NEW_GLOBAL = 1 end }
