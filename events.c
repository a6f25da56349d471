// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the LAN driver tells the RDMA function's driver (ice's IIDC events,
 * which the front-ends translate): the netdev's MTU changed, the port's
 * traffic classes are about to change or have changed, or the engine hit
 * a critical error. One event is taken per call, the first in that order,
 * as the stock driver takes them.
 */
#include "verbs.h"

#define IRDMA_MIN_MTU_IPV4	576
#define IRDMA_MIN_MTU_IPV6	1280
/* GLPE_CRITERR's one value that is only a warning: a Q1 resource check. */
#define IRDMA_CRITERR_Q1_RESOURCE	0x0001024d

/* From now on the CQP is asked nothing; the LAN driver resets the function. */
static void irdma_fn_ask_reset(struct irdma_fn *fn)
{
	WRITE_ONCE(fn->reset, true);
	dev_warn(fn->res.dev, "requesting a reset of the function\n");
	if (fn->res.ops->request_reset)
		fn->res.ops->request_reset(fn);
}

static void irdma_fn_mtu_changed(struct irdma_fn *fn)
{
	u32 mtu = READ_ONCE(fn->res.netdev->mtu);

	if (mtu == fn->mtu)
		return;
	if (mtu < IRDMA_MIN_MTU_IPV4)
		dev_warn(fn->res.dev, "MTU %u is too low for RDMA: IPv4 needs %u\n",
			 mtu, IRDMA_MIN_MTU_IPV4);
	else if (mtu < IRDMA_MIN_MTU_IPV6)
		dev_warn(fn->res.dev, "MTU %u is too low for RDMA over IPv6: it needs %u\n",
			 mtu, IRDMA_MIN_MTU_IPV6);
	/* QPs made from now on take it; existing ones keep their path MTU. */
	WRITE_ONCE(fn->mtu, mtu);
	/* The IEQ's buffers hold a frame of the MTU: a new IEQ, or a reset. */
	if (irdma_puda_ieq_remake(fn)) {
		dev_err(fn->res.dev, "no IEQ for MTU %u\n", mtu);
		irdma_fn_ask_reset(fn);
	}
}

/*
 * The OICR's causes: an engine error (unless GLPE_CRITERR says it is only
 * the Q1 resource check), an HMC error or a push error call for a reset
 * of the function, which the LAN driver performs. From then on the CQP is
 * not asked anything (irdma_cqp_exec()).
 */
static void irdma_fn_crit_err(struct irdma_fn *fn, u32 oicr)
{
	bool reset = false;
	u32 criterr;

	dev_warn(fn->res.dev, "critical error from the LAN driver: OICR %#010x\n",
		 oicr);
	if (oicr & IRDMA_OICR_PE_CRITERR) {
		criterr = irdma_rd32(fn, IRDMA_GLPE_CRITERR);
		if (criterr == IRDMA_CRITERR_Q1_RESOURCE) {
			dev_warn(fn->res.dev, "Q1 resource check\n");
		} else {
			dev_err(fn->res.dev, "engine critical error: GLPE_CRITERR %#010x\n",
				criterr);
			reset = true;
		}
	}
	if (oicr & IRDMA_OICR_HMC_ERR) {
		dev_err(fn->res.dev, "HMC error\n");
		reset = true;
	}
	if (oicr & IRDMA_OICR_PE_PUSH) {
		dev_err(fn->res.dev, "push error\n");
		reset = true;
	}
	if (reset)
		irdma_fn_ask_reset(fn);
}

/**
 * irdma_fn_event - take an event of the LAN driver
 * @fn: the function
 * @events: IRDMA_EVENT_* bits; the first set is taken
 * @reg: with IRDMA_EVENT_CRIT_ERR, the OICR
 *
 * Context: task, with the front-end's device lock held (no probe or
 * remove runs meanwhile). A traffic class change waits for the QPs'
 * suspension, five seconds at most.
 */
void irdma_fn_event(struct irdma_fn *fn, u32 events, u32 reg)
{
	if (events & IRDMA_EVENT_AFTER_MTU)
		irdma_fn_mtu_changed(fn);
	else if (events & IRDMA_EVENT_BEFORE_TC)
		irdma_ws_tc_before(fn);
	else if (events & IRDMA_EVENT_AFTER_TC && irdma_ws_tc_after(fn))
		irdma_qps_fail_unscheduled(fn);
	else if (events & IRDMA_EVENT_CRIT_ERR)
		irdma_fn_crit_err(fn, reg);
}
