-- infragate scheduling inference: single-device inference service model, or
-- the built-in 72-run sweep.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local cli_options = require "cli.options"
local cli_input = require "cli.input"
local cli_edge = require "cli.edge"

local float = cli_base.float
local input_error = cli_input.input_error
local load_doc = cli_input.load_doc
local guarded = cli_edge.guarded

local REQ_KEYS = { "arrival_s", "input_tokens", "output_tokens", "cached_prefix_tokens" }

local function request_of(item, i, file)
  local r = {}
  local list = engine.type(item) == "list"
  for k, key in ipairs(REQ_KEYS) do
    local v
    if list then v = item[k] else v = item[key] end
    r[key] = v
  end
  r.cached_prefix_tokens = r.cached_prefix_tokens or 0
  local problems = {}
  local function bad(key, why)
    local idx = list and 0 or nil
    for k, name in ipairs(REQ_KEYS) do
      if name == key then idx = k end
    end
    local at = list and (idx <= #item and idx or nil) or key
    local w = at and engine.where(item, at) or engine.where(item)
    problems[#problems + 1] = { message = ("request %d: %s %s"):format(i - 1, key, why),
                                file = file, line = w.line, column = w.column,
                                path = ("/requests/%d%s"):format(i - 1,
                                  list and ("/" .. (idx - 1)) or ("/" .. key)) }
  end
  local a = r.arrival_s
  if type(a) ~= "number" or a ~= a or a == math.huge or a < 0 then
    bad("arrival_s", "must be a finite number >= 0")
  end
  for _, key in ipairs({ "input_tokens", "output_tokens" }) do
    if math.type(r[key]) ~= "integer" or r[key] < 1 then bad(key, "must be an integer >= 1") end
  end
  local c = r.cached_prefix_tokens
  if math.type(c) ~= "integer" or c < 0
     or (math.type(r.input_tokens) == "integer" and c > r.input_tokens) then
    bad("cached_prefix_tokens", "must be an integer within 0..input_tokens")
  end
  if type(a) == "number" then r.arrival_s = float(a) end
  return r, problems
end

local HW_KEYS = { "compute_flops_s", "memory_bytes", "memory_bandwidth_bytes_s" }

local function inference_result(hw, requests, options, input_class)
  local res = models.scheduling.inference(hw, requests, options)
  local list = engine.array()
  for i, r in ipairs(res.requests) do
    if r.state == "done" then
      list[i] = engine.object("id", i - 1, "rejected", false, "ttft_s", r.ttft_s,
                              "max_itl_s", r.max_itl_s,
                              "output_tokens", requests[i].output_tokens, "slo_met", r.slo_met)
    else
      list[i] = engine.object("id", i - 1, "rejected", true, "reason", r.state)
    end
  end
  local hwo = engine.object("name", hw.name)
  for _, k in ipairs(HW_KEYS) do hwo[k] = hw[k] end
  hwo.efficiency = hw.efficiency
  return engine.object("evidence_class", "simulated", "input_class", input_class,
                       "hardware", hwo, "policy", options.policy,
                       "peak_concurrency", res.peak_concurrency, "makespan_s", res.makespan_s,
                       "requests", list, "slo_attainment", res.slo_attainment,
                       "slo_goodput_output_tokens_s", res.slo_goodput_output_tokens_s)
end

local MAX_REQUESTS, MAX_OUTPUT_TOKENS = 100000, 10000000   -- spec 3.5 (input.limit)

local OPTION_DEFAULTS = { parameters = 7e9, bytes_per_parameter = 2.0,
                          kv_bytes_per_token = 131072.0, ttft_slo_s = 1.0, itl_slo_s = 0.05 }

local function scenario_inference(file)
  local doc = load_doc(file, "inference-scenario")
  local hw = { name = doc.hardware.name, efficiency = float(doc.hardware.efficiency or 0.5) }
  for _, k in ipairs(HW_KEYS) do hw[k] = float(doc.hardware[k]) end
  local opts = { max_batch = 16, policy = "decode-first" }
  for k, d in pairs(OPTION_DEFAULTS) do
    opts[k] = float(doc.options and doc.options[k] or d)
  end
  if doc.options then
    opts.max_batch = doc.options.max_batch or 16
    opts.policy = doc.options.policy or "decode-first"
  end
  if not (opts.parameters * opts.bytes_per_parameter < hw.memory_bytes) then
    local at = doc.options and engine.has(doc.options, "parameters") and doc.options or doc
    local w = at == doc and engine.where(doc) or engine.where(doc.options, "parameters")
    input_error({ { message = ("the weights (parameters %s x bytes_per_parameter %s) leave no "
                               .. "KV memory in memory_bytes %s"):format(py.repr(opts.parameters),
                               py.repr(opts.bytes_per_parameter), py.repr(hw.memory_bytes)),
                    file = file, line = w.line, column = w.column, path = "/options/parameters" } })
  end
  if #doc.requests > MAX_REQUESTS then
    local w = engine.where(doc, "requests")
    input_error({ { rule = "input.limit", file = file, line = w.line, column = w.column,
                    path = "/requests",
                    message = ("%d requests is over the limit of 100,000")
                              :format(#doc.requests) } })
  end
  local requests, problems, tokens = {}, {}, 0
  for i, item in ipairs(doc.requests) do
    local r, p = request_of(item, i, file)
    requests[i] = r
    for _, x in ipairs(p) do problems[#problems + 1] = x end
    -- Summed as a float and capped per item: huge counts cannot wrap around.
    if math.type(r.output_tokens) == "integer" then
      tokens = math.min(tokens + r.output_tokens, MAX_OUTPUT_TOKENS + 1.0)
    end
  end
  if #problems > 0 then input_error(problems) end
  if tokens > MAX_OUTPUT_TOKENS then
    local w = engine.where(doc, "requests")
    input_error({ { rule = "input.limit", file = file, line = w.line, column = w.column,
                    path = "/requests",
                    message = "the requests ask for more than 10,000,000 output tokens "
                              .. "in total" } })
  end
  return inference_result(hw, requests, opts, "scenario")
end

local SWEEP_HW = {
  { name = "scenario-compute-rich", compute_flops_s = 2e14, memory_bytes = 8e10,
    memory_bandwidth_bytes_s = 1e12, efficiency = 0.5 },
  { name = "scenario-bandwidth-rich", compute_flops_s = 1e14, memory_bytes = 8e10,
    memory_bandwidth_bytes_s = 2e12, efficiency = 0.5 },
}

local SWEEP_SHAPES = { { 128, 128 }, { 2048, 128 }, { 8192, 32 } }

local function sweep()
  local runs = engine.array()
  for _, hw in ipairs(SWEEP_HW) do
    for _, shape in ipairs(SWEEP_SHAPES) do
      for _, conc in ipairs({ 1, 8, 32 }) do
        for _, cache in ipairs({ 0.0, 0.5 }) do
          for _, policy in ipairs({ "decode-first", "prefill-first" }) do
            local requests = {}
            for i = 0, conc - 1 do
              requests[i + 1] = { arrival_s = i * 0.001, input_tokens = shape[1],
                                  output_tokens = shape[2],
                                  cached_prefix_tokens = math.floor(shape[1] * cache) }
            end
            local opts = { max_batch = 16, policy = policy }
            for k, d in pairs(OPTION_DEFAULTS) do opts[k] = d end
            runs[#runs + 1] = engine.object("input_length", shape[1], "output_length", shape[2],
                                            "concurrency", conc, "cache_fraction", cache,
                                            "result", inference_result(hw, requests, opts, "sweep"))
          end
        end
      end
    end
  end
  return runs
end

local function inference_text(r)
  local lines = {
    ("%s on %s (%s): peak concurrency %d, makespan %s s\n")
      :format(r.input_class, r.hardware.name, r.policy, r.peak_concurrency,
              py.fixed(r.makespan_s, 4)),
  }
  for _, q in ipairs(r.requests) do
    if q.rejected then
      lines[#lines + 1] = ("  request %d rejected (%s)\n"):format(q.id, q.reason)
    else
      lines[#lines + 1] = ("  request %d: TTFT %s s, worst gap %s s, %d tokens, SLO %s\n")
                          :format(q.id, py.fixed(q.ttft_s, 4), py.fixed(q.max_itl_s, 4),
                                  q.output_tokens, q.slo_met and "met" or "missed")
    end
  end
  lines[#lines + 1] = ("SLO attainment %s, goodput %s tokens/s\n")
                      :format(py.fixed(r.slo_attainment, 4),
                              py.fixed(r.slo_goodput_output_tokens_s, 2))
  return table.concat(lines)
end

local options = {
  { "--scenario", type = "path", metavar = "FILE", help = "an inference-scenario" },
  { "--sweep", type = "flag", help = "run the 72 built-in scenarios" },
  cli_options.fmt_opt(),
}

local run = guarded("inference", function(args, out)
  if (args.scenario ~= nil) == (args.sweep == true) then
    engine.usage(args.scenario and "--sweep" or "--scenario",
                 "give exactly one of --scenario FILE and --sweep")
  end
  if args.sweep then
    local runs = sweep()
    if args.format == "json" then
      out:json(engine.object("pack", "scheduling", "runs", runs, "findings", engine.array()))
    else
      local lines = {}
      for _, r in ipairs(runs) do
        lines[#lines + 1] = ("%-24s %5d/%-4d x%-3d cache %s %-14s makespan %s s  SLO %s  "
                             .. "goodput %s tok/s\n"):format(r.result.hardware.name,
          r.input_length, r.output_length, r.concurrency, py.fixed(r.cache_fraction, 1),
          r.result.policy, py.fixed(r.result.makespan_s, 4),
          py.fixed(r.result.slo_attainment, 4),
          py.fixed(r.result.slo_goodput_output_tokens_s, 2))
      end
      out:write(table.concat(lines))
    end
    return 0
  end
  local r = scenario_inference(args.scenario)
  if args.format == "json" then
    local o = engine.object("pack", "scheduling")
    for _, k in ipairs({ "evidence_class", "input_class", "hardware", "policy",
                         "peak_concurrency", "makespan_s", "requests", "slo_attainment",
                         "slo_goodput_output_tokens_s" }) do
      o[k] = r[k]
    end
    o.findings = engine.array()
    out:json(o)
  else
    out:write(inference_text(r))
  end
  return 0
end)

return { options = options, run = run }
