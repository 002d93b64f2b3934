/*
 * power_models.c: the descriptors of the power models (spec/power.md 11),
 * one per MODEL_TABLE line of core/models/models.def. Each takes tables,
 * so its converter lives in core/lua/l_model_power.c; the descriptors say
 * what the tables hold and in which units, for `infragate models`.
 */
#include "core/models/model.h"
#include "core/models/power.h"

#define JOB_FIELDS                                                                     \
	"job {params_b (billions of parameters), gpus (count), kw_per_gpu (kW), "       \
	"dollars_per_gpu_h ($/GPU-h), wan_gbps (Gbit/s), reload_h (h), egress_per_gb "  \
	"($/GB), price_here_mwh, price_there_mwh ($/MWh)}"
#define FLEET_FIELDS                                                                   \
	"fleet {horizon_h (h, 1..87600), fleet_mw (MW), flexible_fraction, seed, base_mwh, " \
	"diurnal_amp_mwh, spike_rate_per_h (1/h), spike_len_h (h), spike_min_mwh, "      \
	"spike_max_mwh, curtail_threshold_mwh ($/MWh), curtail_budget_frac, curtail_order}"
#define SPAN_FIELDS                                                                    \
	"scenario {job {params_b, gpus_needed, hours_at_full (h), step_time_s (s), "     \
	"kw_per_gpu, dollars_per_gpu_h, deadline_h (h, optional), wan_gbps, reload_h, "  \
	"egress_per_gb}, home, away {free_gpus, price_mwh, spike_price_mwh, "            \
	"spike_hours_per_week (h)}, circuit {rtt_ms (ms), gbps, hold_dollars_per_h ($/h)}, " \
	"cut (pipeline|allreduce), activation_gb_per_step (GB)}"

#define POWER_MODEL(n, sum, unit, input)                                               \
	const struct model model_power_##n = {                                          \
		.name = "power." #n,                                                     \
		.summary = sum,                                                          \
		.result_unit = unit,                                                     \
		.switches = pw_switches,                                                 \
		.nswitches = PW_NSWITCHES,                                               \
		.table_input = input,                                                    \
	}

POWER_MODEL(migration, "state size, power, transfer and downtime, and the cost of moving one job",
	    "{state_gb (GB), power_mw (MW), transfer_h, downtime_h (h), idle_dollars, "
	    "egress_dollars, cost_dollars ($)}",
	    JOB_FIELDS);
POWER_MODEL(decide, "move versus stay for one job and its remaining length",
	    "the decide figures, rounded and unrounded ($, h, GB, fraction)",
	    JOB_FIELDS ", length_h (h)");
POWER_MODEL(breakeven_spread, "price spread at which moving breaks even over a length",
	    "$/MWh", JOB_FIELDS ", length_h (h; remaining time clamped at 1e-9 h)");
POWER_MODEL(breakeven_length, "job length at which moving breaks even at a spread",
	    "h (nil when the spread is <= 0)", JOB_FIELDS ", spread_mwh ($/MWh)");
POWER_MODEL(scarcity, "value of moving off a site before a price spike",
	    "{stay, move, net benefit ($), rounded and unrounded}",
	    JOB_FIELDS ", spike_mwh ($/MWh), hours (h)");
POWER_MODEL(prices, "the synthetic hourly price series and its spike onsets",
	    "list of $/MWh, list of {start_h, magnitude_mwh}", FLEET_FIELDS);
POWER_MODEL(fleet, "offline (full-foresight) curtailment of a fleet over one price series",
	    "the 13-figure result ($, MWh, fractions) and the unrounded detail",
	    FLEET_FIELDS ", optional prices list ($/MWh)");
POWER_MODEL(fleet_mean, "exact seed mean of one rounded fleet result field",
	    "the field's unit", FLEET_FIELDS ", field name, seeds (count)");
POWER_MODEL(fleet_seeds, "offline curtailment over seeds 0..n-1, the seeds on threads",
	    "list of the 13-figure results", FLEET_FIELDS ", seeds (count, 1..1000)");
POWER_MODEL(causal_seeds, "online controller over the generated prices of seeds 0..n-1",
	    "list of causal results (as causal, without actions)",
	    FLEET_FIELDS ", opts (as causal), seeds (count, 1..1000)");
POWER_MODEL(causal, "online curtailment controller over a price list",
	    "{cost, blind ($), served, unserved (MWh), curtailed hours, actions}",
	    "prices ($/MWh list), opts {fleet_mw (MW), flexible_fraction, threshold ($/MWh), "
	    "budget_fraction, cheap_threshold ($/MWh), actions (bool)}");
POWER_MODEL(stitch_tax, "share of each step a cut across two halls spends on the circuit",
	    "fraction", "span job {params_b, step_time_s (s)}, circuit {rtt_ms (ms), gbps "
	    "(Gbit/s)}, cut {gb_per_step (GB), crossings (count)}");
POWER_MODEL(hall_price, "expected price of a hall with weekly spike hours folded in",
	    "$/MWh", "hall {price_mwh, spike_price_mwh ($/MWh), spike_hours_per_week (h)}");
POWER_MODEL(ledger, "stay / stitch / move / buy ledger of a scale-across scenario",
	    "the ledger: options with $, h, $/useful GPU-h, and the decision", SPAN_FIELDS);
POWER_MODEL(mean_exact, "exact mean of a list of doubles, rounded once",
	    "the values' unit", "list of finite numbers");
