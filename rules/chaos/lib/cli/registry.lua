-- chaos-fidelity registry: .
-- Compiled when the verb runs; its options are declared in commands.lua.
local cli_base = require "cli.base"
local cli_shared = require "cli.shared"

local contains = cli_base.contains
local array = cli_shared.array

local function faithful_for(method_id)
  local list = engine.array()
  for _, c in ipairs(REG.classes) do
    local f = c.edges[method_id]
    if f then list[#list + 1] = engine.object("fault_class", c.id, "fidelity", f) end
  end
  return list
end

local function registry_json()
  local layers, methods, classes, actuators, modes = engine.array(), engine.array(), engine.array(),
                                                     engine.array(), engine.array()
  local edges = 0
  for i, l in ipairs(REG.layers) do
    layers[i] = engine.object("layer", l.id, "kind", l.kind, "order", l.order, "what", l.what)
  end
  for i, m in ipairs(REG.methods) do
    methods[i] = engine.object("method", m.id, "origin", m.origin,
                               "certifiable", array(m.certifiable),
                               "inverse", m.inverse, "residue", m.residue, "oob_undo", m.oob_undo,
                               "kernel_path", m.kernel_path, "faithful_for", faithful_for(m.id),
                               "why", m.why, "tools", m.tools or engine.null,
                               "source", m.source or engine.null)
  end
  for i, c in ipairs(REG.classes) do
    local ms = engine.array()
    for j, m in ipairs(c.edge_order) do
      ms[j] = engine.object("method", m, "fidelity", c.edges[m])
    end
    edges = edges + #c.edge_order
    classes[i] = engine.object("fault_class", c.id, "layer", c.layer,
                               "tail_required", c.tail_required,
                               "needs_load", c.needs_load, "methods", ms)
  end
  for i, a in ipairs(REG.actuators) do
    actuators[i] = engine.object("actuator", a.id, "class", a.class)
  end
  for i, m in ipairs(REG.failure_modes) do
    local det = m.detection or {}
    modes[i] = engine.object("failure_mode", m.id, "title", m.title or engine.null,
                             "layers", array(m.layers or {}),
                             "fault_classes", array(m.classes or {}),
                             "statistic", det.statistic or engine.null,
                             "signals", array(det.signals or {}), "catalog", array(m.catalog or {}))
  end
  return engine.object("layers", layers, "methods", methods, "fault_classes", classes,
                       "actuators", actuators, "policy", REG.policy, "failure_modes", modes,
                       "summary", engine.object("layers", #layers, "methods", #methods,
                                                "fault_classes", #classes, "edges", edges,
                                                "actuators", #actuators, "failure_modes", #modes))
end

local SHORT = { ["inference-graph"] = "IG", framework = "FW", collective = "CO",
                orchestrator = "OR",
                host = "HO", accelerator = "AC", pcie = "PC", ["nic-transport"] = "NT",
                fabric = "FB",
                facility = "FA", telemetry = "TE", ["autonomy-control"] = "AU" }

local FID_SHORT = { real = "real", emulated = "emu", ["signal-only"] = "sig" }

local function registry_text()
  local head = {}
  for i, l in ipairs(REG.layers) do head[i] = SHORT[l.id] or l.id:sub(1, 2):upper() end
  local lines = { "methods x layers (O = origin, c = certifiable)\n",
                  ("%-26s %s  %s\n"):format("method", table.concat(head, " "), "inverse") }
  for _, m in ipairs(REG.methods) do
    local cells = {}
    for i, l in ipairs(REG.layers) do
      local o, c = m.origin == l.id, contains(m.certifiable, l.id)
      cells[i] = (o and c and "Oc") or (o and "O ") or (c and "c ") or ". "
    end
    local flags = {}
    for _, f in ipairs({ "residue", "oob_undo", "kernel_path" }) do
      if m[f] then flags[#flags + 1] = f end
    end
    local flag_text = #flags > 0 and (" [" .. table.concat(flags, ",") .. "]") or ""
    lines[#lines + 1] = ("%-26s %s  %s%s\n"):format(m.id, table.concat(cells, " "), m.inverse,
                                                    flag_text)
  end
  lines[#lines + 1] = "\nfault classes (layer: method fidelity ...)\n"
  for _, c in ipairs(REG.classes) do
    local edges = {}
    for i, m in ipairs(c.edge_order) do edges[i] = m .. " " .. FID_SHORT[c.edges[m]] end
    local flags = (c.tail_required and " tail" or "") .. (c.needs_load and " load" or "")
    lines[#lines + 1] = ("%-26s %-17s %s%s\n"):format(c.id, c.layer, table.concat(edges, ", " ..
      ""), flags)
  end
  lines[#lines + 1] = ("\n%d layers, %d methods, %d fault classes, %d actuators, %d failure " ..
    "modes\n")
                      :format(#REG.layers, #REG.methods, #REG.classes, #REG.actuators,
                              #REG.failure_modes)
  return table.concat(lines)
end

return function(args, out)
  if args.format == "json" then out:json(registry_json()) else out:write(registry_text()) end
  return 0
end
