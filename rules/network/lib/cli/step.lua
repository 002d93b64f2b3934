-- infragate network step: healthy-step breakdown: compute, exposed
-- collectives, bubble, sync wait, MFU.
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"
local cli_shared = require "cli.shared"

local guarded = cli_shared.guarded
local scenario_of = cli_shared.scenario_of
local head = cli_shared.head
local strict_findings = cli_shared.strict_findings
local finish = cli_shared.finish
local envelope = cli_shared.envelope
local f4 = cli_shared.f4

local STEP_KEYS = { "t_compute_s", "t_tp_exposed_s", "t_cp_exposed_s", "t_pp_exposed_s",
                    "t_dp_exposed_s", "t_bubble_s", "t_sync_wait_s", "t_step_s", "t_blocked_s",
                    "step_efficiency" }

return guarded("step", function(args, out)
  local run = scenario_of(args)
  local st = models.network.step(run.scn, VARIANT)
  run.step = st
  local step = engine.object()
  for _, k in ipairs(STEP_KEYS) do step[k] = st[k] end
  local cap = run.scn.accelerator.memory_gb + 0.0
  local o = envelope()
  o.scenario = head(run)
  o.step = step
  o.comm_raw_s = engine.object("tp", st.comm_raw_tp_s, "cp", st.comm_raw_cp_s,
                               "pp", st.comm_raw_pp_s, "dp", st.comm_raw_dp_s)
  o.tokens_per_step = st.tokens_per_step
  o.flops_per_token = st.flops_per_token
  o.mfu = st.mfu
  o.tflops_per_gpu = st.tflops_per_gpu
  o.param_disagreement = st.param_disagreement
  o.memory_gb = engine.object("state", st.memory_state_gb, "activation", st.memory_activation_gb,
                              "total", st.memory_total_gb,
                              "capacity", cap)
  local lines = { ("healthy step of %s (%d accelerators, pool %d)\n")
                  :format(run.scn.name or "", run.scn.world_size, run.scn.n_pool) }
  for _, k in ipairs(STEP_KEYS) do
    lines[#lines + 1] = ("  %-18s %s\n"):format(k, f4(st[k]))
  end
  lines[#lines + 1] = ("  MFU %s, %s TFLOP/s per GPU, %d tokens per step\n")
                      :format(f4(st.mfu), py.fixed(st.tflops_per_gpu, 2), st.tokens_per_step)
  lines[#lines + 1] = ("  memory: state %s GB + activations %s GB of %s GB\n")
                      :format(py.fixed(st.memory_state_gb, 2),
                              py.fixed(st.memory_activation_gb, 2), py.fixed(cap, 2))
  return finish(out, args, o, strict_findings(run, args, { "memory-exceeds-capacity",
                                                            "param-inconsistent",
                                                            "more-than-two-halls" }),
                table.concat(lines))
end)
