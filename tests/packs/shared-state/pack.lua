-- Escape class: tampering with state other packs share. The string
-- metatable is protected; string.rep is this pack's own copy.
engine.rule { id = "shared-state.probe", kind = "demo-item", severity = "warning",
  summary = "tampers with shared tables", check = function(doc, ctx)
    local mt = getmetatable("")
    if mt then ctx:fail(doc, nil, "the string metatable is reachable") end
    string.rep = nil
    table.insert = nil
    engine.rule = nil
    if ("x").rep == nil then ctx:fail(doc, nil, "string methods changed for everyone") end
  end }
