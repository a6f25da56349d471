// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Hardware counters: GATHER_STATS snapshots, accumulated into 64-bit
 * counters across the hardware's narrower ones, shown through
 * rdma_hw_stats ("rdma statistic show").
 */
#include "verbs.h"

#define IRDMA_STATS_PERIOD	(60 * HZ)

static const struct rdma_stat_desc irdma_hw_stat_descs[IRDMA_STAT_COUNT] = {
	[IRDMA_STAT_IP4RXDISCARD].name = "ip4InDiscards",
	[IRDMA_STAT_IP4RXTRUNC].name = "ip4InTruncatedPkts",
	[IRDMA_STAT_IP4TXNOROUTE].name = "ip4OutNoRoutes",
	[IRDMA_STAT_IP6RXDISCARD].name = "ip6InDiscards",
	[IRDMA_STAT_IP6RXTRUNC].name = "ip6InTruncatedPkts",
	[IRDMA_STAT_IP6TXNOROUTE].name = "ip6OutNoRoutes",
	[IRDMA_STAT_TCPRTXSEG].name = "tcpRetransSegs",
	[IRDMA_STAT_TCPRXOPTERR].name = "tcpInOptErrors",
	[IRDMA_STAT_TCPRXPROTOERR].name = "tcpInProtoErrors",
	[IRDMA_STAT_RXVLANERR].name = "rxVlanErrors",
	[IRDMA_STAT_IP4RXOCTS].name = "ip4InOctets",
	[IRDMA_STAT_IP4RXPKTS].name = "ip4InPkts",
	[IRDMA_STAT_IP4RXFRAGS].name = "ip4InReasmRqd",
	[IRDMA_STAT_IP4RXMCPKTS].name = "ip4InMcastPkts",
	[IRDMA_STAT_IP4TXOCTS].name = "ip4OutOctets",
	[IRDMA_STAT_IP4TXPKTS].name = "ip4OutPkts",
	[IRDMA_STAT_IP4TXFRAGS].name = "ip4OutSegRqd",
	[IRDMA_STAT_IP4TXMCPKTS].name = "ip4OutMcastPkts",
	[IRDMA_STAT_IP6RXOCTS].name = "ip6InOctets",
	[IRDMA_STAT_IP6RXPKTS].name = "ip6InPkts",
	[IRDMA_STAT_IP6RXFRAGS].name = "ip6InReasmRqd",
	[IRDMA_STAT_IP6RXMCPKTS].name = "ip6InMcastPkts",
	[IRDMA_STAT_IP6TXOCTS].name = "ip6OutOctets",
	[IRDMA_STAT_IP6TXPKTS].name = "ip6OutPkts",
	[IRDMA_STAT_IP6TXFRAGS].name = "ip6OutSegRqd",
	[IRDMA_STAT_IP6TXMCPKTS].name = "ip6OutMcastPkts",
	[IRDMA_STAT_TCPRXSEGS].name = "tcpInSegs",
	[IRDMA_STAT_TCPTXSEG].name = "tcpOutSegs",
	[IRDMA_STAT_RDMARXRDS].name = "iwInRdmaReads",
	[IRDMA_STAT_RDMARXSNDS].name = "iwInRdmaSends",
	[IRDMA_STAT_RDMARXWRS].name = "iwInRdmaWrites",
	[IRDMA_STAT_RDMATXRDS].name = "iwOutRdmaReads",
	[IRDMA_STAT_RDMATXSNDS].name = "iwOutRdmaSends",
	[IRDMA_STAT_RDMATXWRS].name = "iwOutRdmaWrites",
	[IRDMA_STAT_RDMAVBND].name = "iwRdmaBnd",
	[IRDMA_STAT_RDMAVINV].name = "iwRdmaInv",
	[IRDMA_STAT_IP4RXMCOCTS].name = "ip4InMcastOctets",
	[IRDMA_STAT_IP4TXMCOCTS].name = "ip4OutMcastOctets",
	[IRDMA_STAT_IP6RXMCOCTS].name = "ip6InMcastOctets",
	[IRDMA_STAT_IP6TXMCOCTS].name = "ip6OutMcastOctets",
	[IRDMA_STAT_UDPRXPKTS].name = "RxUDP",
	[IRDMA_STAT_UDPTXPKTS].name = "TxUDP",
	[IRDMA_STAT_RXNPECNMARKEDPKTS].name = "RxECNMrkd",
	[IRDMA_STAT_RXRPCNPHANDLED].name = "cnpHandled",
	[IRDMA_STAT_RXRPCNPIGNORED].name = "cnpIgnored",
	[IRDMA_STAT_TXNPCNPSENT].name = "cnpSent",
};

static u64 irdma_stat_field(const __le64 *block, enum irdma_hw_stat stat)
{
	struct irdma_stat_loc loc = irdma_stat_loc(stat);

	return (le64_to_cpu(block[loc.byte / 8]) >> loc.bit) &
	       GENMASK_ULL(loc.width - 1, 0);
}

/* Gather a snapshot and add what moved since the last one. */
static void irdma_stats_update(struct irdma_fn *fn)
{
	struct irdma_stats *st = &fn->stats;
	__le64 *now = st->mem.va, *last = st->mem.va + IRDMA_STATS_BUF_SIZE;
	struct irdma_cqp_wqe cmd;
	int i;

	lockdep_assert_held(&st->lock);
	irdma_cmd_init(&cmd, IRDMA_CQPOP_GATHER_STATS);
	cmd.q[4] = st->mem.pa;
	if (irdma_cqp_exec(fn, &cmd, NULL))
		return;
	for (i = 0; i < IRDMA_STAT_COUNT; i++) {
		struct irdma_stat_loc loc = irdma_stat_loc(i);
		u64 n = irdma_stat_field(now, i), l = irdma_stat_field(last, i);

		/* A counter that went backwards wrapped at its width. */
		st->acc[i] += n >= l ? n - l : GENMASK_ULL(loc.width - 1, 0) - l + n + 1;
	}
	memcpy(last, now, IRDMA_STATS_BUF_SIZE);
}

static void irdma_stats_work(struct work_struct *work)
{
	struct irdma_stats *st = container_of(to_delayed_work(work),
					      struct irdma_stats, work);
	struct irdma_fn *fn = container_of(st, struct irdma_fn, stats);

	mutex_lock(&st->lock);
	irdma_stats_update(fn);
	mutex_unlock(&st->lock);
	schedule_delayed_work(&st->work, IRDMA_STATS_PERIOD);
}

/**
 * irdma_stats_init - the snapshot buffers of a function's counters
 * @fn: the function
 *
 * irdma_stats_fini() undoes it, whatever it returned.
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_stats_init(struct irdma_fn *fn)
{
	mutex_init(&fn->stats.lock);
	INIT_DELAYED_WORK(&fn->stats.work, irdma_stats_work);
	return irdma_dma_alloc(fn, &fn->stats.mem, 2 * IRDMA_STATS_BUF_SIZE,
			       GFP_KERNEL);
}

/**
 * irdma_stats_start - gather now and then, so no counter wraps unseen
 * @fn: the function, registered
 */
void irdma_stats_start(struct irdma_fn *fn)
{
	schedule_delayed_work(&fn->stats.work, IRDMA_STATS_PERIOD);
}

/**
 * irdma_stats_fini - stop gathering and free the buffers
 * @fn: the function
 */
void irdma_stats_fini(struct irdma_fn *fn)
{
	cancel_delayed_work_sync(&fn->stats.work);
	irdma_dma_free(fn, &fn->stats.mem);
	mutex_destroy(&fn->stats.lock);
}

/**
 * irdma_alloc_hw_port_stats - the port's counter set
 * @ibdev: the device
 * @port_num: the port
 *
 * Return: the set, or NULL.
 */
struct rdma_hw_stats *irdma_alloc_hw_port_stats(struct ib_device *ibdev,
						u32 port_num)
{
	return rdma_alloc_hw_stats_struct(irdma_hw_stat_descs, IRDMA_STAT_COUNT,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * irdma_get_hw_stats - the counters, fresh from the hardware
 * @ibdev: the device
 * @stats: filled in
 * @port_num: the port
 * @index: the counter asked for (all are refreshed)
 *
 * Return: the number of counters.
 */
int irdma_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		       u32 port_num, int index)
{
	struct irdma_fn *fn = &to_iwdev(ibdev)->fn;

	mutex_lock(&fn->stats.lock);
	irdma_stats_update(fn);
	memcpy(stats->value, fn->stats.acc, sizeof(fn->stats.acc));
	mutex_unlock(&fn->stats.lock);
	return IRDMA_STAT_COUNT;
}
