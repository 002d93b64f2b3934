-- infragate scheduling workload: expected work per job, arrival rate and the
-- generated job stream.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_base = require "cli.base"
local studies = require "studies"
local cli_options = require "cli.options"
local cli_edge = require "cli.edge"

local limit_check = cli_base.limit_check
local resolve_config = cli_base.resolve_config
local config_json = cli_base.config_json
local guarded = cli_edge.guarded

local options = { cli_options.CONFIG_OPT, cli_options.SET_OPT, cli_options.SEED_OPT,
                  cli_options.DAYS_OPT, cli_options.fmt_opt() }

local run = guarded("workload", function(args, out)
  local cfg = resolve_config(args)
  limit_check(cfg)
  local f = studies.workload_figures(cfg)
  if args.format == "json" then
    out:json(engine.object(
      "pack", "scheduling", "config", config_json(cfg),
      "expected_gpu_hours_per_job", f.expected, "capped_mean_h", f.rows,
      "small_job_share", f.small, "large_gpu_time_share", f.large,
      "arrivals_per_step", f.w.arrivals_per_step,
      "inf_reservation_gpus", f.w.inf_reservation_gpus,
      "jobs_generated", f.w.jobs_generated,
      "jobs_by_tier", engine.object("batch", f.w.jobs_by_tier.batch,
                                    "besteffort", f.w.jobs_by_tier.besteffort),
      "findings", engine.array()))
    return 0
  end
  local lines = { ("expected work per job: %s GPU-hours\n"):format(py.fixed(f.expected, 4)) }
  for _, r in ipairs(f.rows) do
    lines[#lines + 1] = ("  %4d GPUs  p %s  median %2d h  capped mean %s h\n")
                        :format(r.size, py.fixed(r.probability, 4), r.median_h,
                                py.fixed(r.capped_mean_h, 4))
  end
  lines[#lines + 1] = ("small-job share %s, large-job GPU-time share %s\n")
                      :format(py.fixed(f.small, 4), py.fixed(f.large, 4))
  lines[#lines + 1] = ("arrivals %s jobs per step; static reservation %d GPUs\n")
                      :format(py.fixed(f.w.arrivals_per_step, 4), f.w.inf_reservation_gpus)
  lines[#lines + 1] = ("jobs generated over %d days (seed %d): %d (%d batch, %d best-effort)\n")
                      :format(cfg.horizon_days, cfg.seed, f.w.jobs_generated,
                              f.w.jobs_by_tier.batch, f.w.jobs_by_tier.besteffort)
  out:write(table.concat(lines))
  return 0
end)

return { options = options, run = run }
