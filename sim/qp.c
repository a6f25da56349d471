// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: their CQP commands, the execution of send queues, and the
 * fabric that carries messages to the QPs of the same or another
 * simulated function (found by the destination MAC address).
 *
 * The engine walks an SQ as long as it finds valid WQEs and keeps its
 * position in the QP's shadow area. Receive WQEs are taken by their valid
 * bit when a message arrives. A peer function's state is touched only
 * with that function's engine lock, taken by trylock: a busy peer means
 * "try again at the next step".
 */
#include <linux/bitfield.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <rdma/ib_pack.h>

#include "sim.h"
#include "trace.h"

#define SIM_SQ_BUDGET		64	/* WQEs per QP per engine step */
#define SIM_SHORT_MSG		4096	/* bytes a process moves itself */
#define SIM_MAX_MSG		(64U << 20)
#define SIM_GRH_SIZE		40
#define SIM_RNR_DELAY		msecs_to_jiffies(1)
#define SIM_RNR_FOREVER		7
#define SIM_QKEY_USE_QP		BIT(31)

static LIST_HEAD(sim_peers);
static DEFINE_SPINLOCK(sim_peers_lock);

/**
 * sim_peer_add - let the fabric reach a function
 * @sdev: the simulated function
 */
void sim_peer_add(struct sim_dev *sdev)
{
	spin_lock(&sim_peers_lock);
	list_add_tail(&sdev->peer, &sim_peers);
	spin_unlock(&sim_peers_lock);
}

/**
 * sim_peer_del - take a function off the fabric
 * @sdev: the simulated function
 *
 * A peer delivering to it right now finishes first.
 */
void sim_peer_del(struct sim_dev *sdev)
{
	spin_lock(&sim_peers_lock);
	list_del_init(&sdev->peer);
	spin_unlock(&sim_peers_lock);
	mutex_lock(&sdev->engine_lock);
	mutex_unlock(&sdev->engine_lock);
}

/*
 * Does a RoCE packet for @dst reach its engine? Only while its LAN driver
 * steers RoCE there (the VSI's RDMA filter); otherwise it goes to the LAN
 * queues, where nobody takes it.
 */
static bool sim_rx_filtered(struct sim_dev *dst)
{
	if (READ_ONCE(dst->lan.rdma_filter))
		return false;
	dst->stats.rx_filtered++;
	return true;
}

/*
 * The function owning @mac, locked, if its engine takes RoCE packets;
 * ERR_PTR(-EAGAIN) if it is busy.
 */
static struct sim_dev *sim_peer_get(struct sim_dev *self, const u8 *mac)
{
	struct sim_dev *p, *found = NULL;

	if (ether_addr_equal(self->netdev->dev_addr, mac))
		return sim_rx_filtered(self) ? NULL : self;
	spin_lock(&sim_peers_lock);
	list_for_each_entry(p, &sim_peers, peer) {
		if (p == self || !ether_addr_equal(p->netdev->dev_addr, mac))
			continue;
		found = mutex_trylock(&p->engine_lock) ? p : ERR_PTR(-EAGAIN);
		break;
	}
	spin_unlock(&sim_peers_lock);
	if (!IS_ERR_OR_NULL(found) && sim_rx_filtered(found)) {
		mutex_unlock(&found->engine_lock);
		found = NULL;
	}
	return found;
}

static void sim_peer_put(struct sim_dev *self, struct sim_dev *peer)
{
	if (peer != self)
		mutex_unlock(&peer->engine_lock);
}

#define SIM_WIRE_MTU		4096
#define SIM_ROCE_OVERHEAD	(8 + 12 + 4)	/* UDP, BTH, ICRC */

/* Count @len bytes of payload as the packets the wire MTU makes them. */
static void sim_count_pkts(struct sim_dev *sdev, bool ipv4, u32 len, bool tx)
{
	u32 pkts = max_t(u32, DIV_ROUND_UP(len, SIM_WIRE_MTU), 1);
	u64 octs = len + (u64)pkts * ((ipv4 ? 20 : 40) + SIM_ROCE_OVERHEAD);
	u64 *c = sdev->counters;

	if (tx) {
		c[ipv4 ? IRDMA_STAT_IP4TXPKTS : IRDMA_STAT_IP6TXPKTS] += pkts;
		c[ipv4 ? IRDMA_STAT_IP4TXOCTS : IRDMA_STAT_IP6TXOCTS] += octs;
		c[IRDMA_STAT_UDPTXPKTS] += pkts;
	} else {
		c[ipv4 ? IRDMA_STAT_IP4RXPKTS : IRDMA_STAT_IP6RXPKTS] += pkts;
		c[ipv4 ? IRDMA_STAT_IP4RXOCTS : IRDMA_STAT_IP6RXOCTS] += octs;
		c[IRDMA_STAT_UDPRXPKTS] += pkts;
	}
}

/**
 * sim_count_msg - count a message in the function's statistics
 * @sdev: the simulated function
 * @ipv4: it travels over IPv4 (else IPv6)
 * @len: its payload
 * @tx: sent (else received), as the work request goes
 * @rdma: the RDMA counter it adds to (an enum irdma_hw_stat of the
 *	transmit side), or -1
 *
 * A message is as many packets as the wire MTU makes it. An RDMA read is
 * a one-packet request one way and its data the other.
 */
void sim_count_msg(struct sim_dev *sdev, bool ipv4, u32 len, bool tx, int rdma)
{
	if (rdma == IRDMA_STAT_RDMATXRDS) {
		sim_count_pkts(sdev, ipv4, 0, tx);
		sim_count_pkts(sdev, ipv4, len, !tx);
	} else {
		sim_count_pkts(sdev, ipv4, len, tx);
	}
	if (rdma < 0)
		return;
	/* The receive counters mirror the transmit ones. */
	if (!tx)
		rdma += IRDMA_STAT_RDMARXRDS - IRDMA_STAT_RDMATXRDS;
	sdev->counters[rdma]++;
}

static int sim_rdma_stat(u8 op)
{
	switch (op) {
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		return IRDMA_STAT_RDMATXWRS;
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_INV_STAG:
		return IRDMA_STAT_RDMATXRDS;
	default:
		return IRDMA_STAT_RDMATXSNDS;
	}
}

/* Read the context's fields the engine uses. */
static int sim_qp_load_ctx(struct sim_dev *sdev, struct sim_qp *qp, u64 ctx_pa,
			   bool cqs)
{
	__le64 ctx[IRDMA_QP_CTX_SIZE / 8];
	u64 q;
	int i;

	if (sim_dma_read(sdev, ctx_pa, ctx, sizeof(ctx)))
		return -EFAULT;
	trace_irdma_sim_qpctx(sdev->id, qp->id, ctx, ARRAY_SIZE(ctx));
	q = le64_to_cpu(ctx[0]);
	qp->ipv4 = !!(q & IRDMA_QPC_IPV4);
	qp->pd = FIELD_GET(IRDMA_QPC_PDIDXHI, q) << 16 |
		 FIELD_GET(IRDMA_QPC_PDIDX, le64_to_cpu(ctx[7]));
	/* A push page must have been handed out. */
	if ((q & IRDMA_QPC_PMENA) &&
	    !sim_push_valid(sdev, FIELD_GET(IRDMA_QPC_PPIDX, q)))
		return -EINVAL;
	qp->srq = q & IRDMA_QPC_USE_SRQ ?
		  FIELD_GET(IRDMA_QPC_SRQ_ID, le64_to_cpu(ctx[25])) : 0;
	if (qp->srq && !xa_load(&sdev->srqs, qp->srq))
		return -EINVAL;
	if (cqs) {
		qp->rq_shift = FIELD_GET(IRDMA_QPC_RQWQESIZE, q);
		qp->sq.base = le64_to_cpu(ctx[1]);
		qp->rq.base = le64_to_cpu(ctx[2]);
		q = le64_to_cpu(ctx[3]);
		qp->sq_size = 4U << FIELD_GET(IRDMA_QPC_SQSIZE, q);
		qp->rq_size = (4U << FIELD_GET(IRDMA_QPC_RQSIZE, q)) >> qp->rq_shift;
		q = le64_to_cpu(ctx[17]);
		qp->scq = FIELD_GET(IRDMA_QPC_TXCQNUM, q);
		qp->rcq = FIELD_GET(IRDMA_QPC_RXCQNUM, q);
	}
	for (i = 0; i < 2; i++) {
		u64 d = le64_to_cpu(ctx[5 - i]), s = le64_to_cpu(ctx[24 - i]);

		qp->dest_ip[2 * i] = FIELD_GET(IRDMA_QPC_IPADDR_HI, d);
		qp->dest_ip[2 * i + 1] = FIELD_GET(IRDMA_QPC_IPADDR_LO, d);
		qp->src_ip[2 * i] = FIELD_GET(IRDMA_QPC_IPADDR_HI, s);
		qp->src_ip[2 * i + 1] = FIELD_GET(IRDMA_QPC_IPADDR_LO, s);
	}
	qp->arp_idx = FIELD_GET(IRDMA_QPC_ARPIDX, le64_to_cpu(ctx[6]));
	qp->qs_handle = FIELD_GET(IRDMA_QPC_QSHANDLE, le64_to_cpu(ctx[22]));
	q = le64_to_cpu(ctx[8]);
	qp->dest_qp = FIELD_GET(IRDMA_QPC_DESTQP, q);
	qp->qkey = FIELD_GET(IRDMA_QPC_QKEY, q);
	qp->rnr_retry = FIELD_GET(IRDMA_QPC_RNRNAK_THRESH, le64_to_cpu(ctx[16]));
	u64_to_ether_addr(FIELD_GET(IRDMA_QPC_MACADDR, le64_to_cpu(ctx[19])),
			  qp->mac);
	qp->priv = !!(le64_to_cpu(ctx[20]) & IRDMA_QPC_PRIVEN);
	qp->bind_en = !!(le64_to_cpu(ctx[20]) & IRDMA_QPC_BINDEN);
	qp->compl_ctx = le64_to_cpu(ctx[IRDMA_QPC_COMPL_CTX_QWORD]);
	return 0;
}

/**
 * sim_qp_create - CREATE_QP
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void sim_qp_create(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 id = FIELD_GET(IRDMA_QPCMD_QPID, hdr);
	u8 type = FIELD_GET(IRDMA_QPCMD_QPTYPE, hdr);
	struct sim_qp *qp;

	if (!sdev->hmc.committed || id >= sdev->hmc.cnt[IRDMA_HMC_QP] ||
	    (type != IRDMA_QP_TYPE_ROCE_RC && type != IRDMA_QP_TYPE_ROCE_UD))
		return sim_fail(res, SIM_MIN_BAD_PARAM);
	if (xa_load(&sdev->qps, id))
		return sim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	if (!qp)
		return sim_fail(res, SIM_MIN_BAD_PARAM);
	qp->id = id;
	qp->type = type;
	qp->state = FIELD_GET(IRDMA_QPCMD_NEXTIWSTATE, hdr);
	qp->shadow_pa = le64_to_cpu(wqe[5]);
	qp->sq_polarity = true;
	qp->rq_polarity = true;
	/* User QPs' rings are PBLE lists (one level). */
	qp->sq.virt = !!(hdr & IRDMA_QPCMD_VQ);
	qp->rq.virt = qp->sq.virt;
	qp->sq.levels = 1;
	qp->rq.levels = 1;
	if (sim_qp_load_ctx(sdev, qp, le64_to_cpu(wqe[2]), true) ||
	    qp->sq_size < 8 || qp->rq_size < 1 ||
	    (!qp->sq.virt && (!qp->sq.base || !qp->rq.base)) ||
	    !sim_cq_find(sdev, qp->scq) || !sim_cq_find(sdev, qp->rcq) ||
	    sim_dma_write_qword(sdev, qp->shadow_pa, 0) ||
	    xa_err(xa_store(&sdev->qps, id, qp, GFP_KERNEL))) {
		kfree(qp);
		sim_fail(res, SIM_MIN_BAD_PARAM);
	}
}

/* The QP a QP command's header names, or NULL. */
static struct sim_qp *sim_qp_of_cmd(struct sim_dev *sdev, const __le64 *wqe)
{
	return xa_load(&sdev->qps, FIELD_GET(IRDMA_QPCMD_QPID, le64_to_cpu(wqe[3])));
}

/**
 * sim_qp_modify - MODIFY_QP
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void sim_qp_modify(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	struct sim_qp *qp = sim_qp_of_cmd(sdev, wqe);
	u8 from;

	if (!qp)
		return sim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	if (sim_qp_load_ctx(sdev, qp, le64_to_cpu(wqe[2]),
			    !!(hdr & IRDMA_QPCMD_CQNUMVALID)))
		return sim_fail(res, SIM_MIN_BAD_PARAM);
	from = qp->state;
	qp->state = FIELD_GET(IRDMA_QPCMD_NEXTIWSTATE, hdr);
	/* Its SQ drained (the model runs WQEs to the end): the QP says so. */
	if (from == IRDMA_QPS_RTS && qp->state == IRDMA_QPS_SQD)
		sim_aeq_post_qp(sdev, IRDMA_AE_QP_SUSPEND_COMPLETE, qp->id,
				IRDMA_AE_SOURCE_RSVD, 0, qp->state);
}

/**
 * sim_qp_suspend - SUSPEND_QP: stop a QP's SQ, as for a change of the
 *	port's traffic classes
 * @sdev: the simulated function
 * @wqe: the command (the QP in the header)
 * @res: its completion
 *
 * The SQ takes no WQE until RESUME_QP; the QP reports the suspension with
 * IRDMA_AE_QP_SUSPEND_COMPLETE, whatever its state.
 */
void sim_qp_suspend(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res)
{
	struct sim_qp *qp = sim_qp_of_cmd(sdev, wqe);

	if (!qp)
		return sim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	qp->suspended = true;
	sdev->stats.qps_suspended++;
	sim_aeq_post_qp(sdev, IRDMA_AE_QP_SUSPEND_COMPLETE, qp->id,
			IRDMA_AE_SOURCE_RSVD, 0, qp->state);
}

/**
 * sim_qp_resume - RESUME_QP: let a QP's SQ run again, through the queue
 *	set qword 2 names
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * A QP that was not suspended takes it too (a driver resumes every QP
 * after a change, whether or not its suspension was reported).
 */
void sim_qp_resume(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res)
{
	struct sim_qp *qp = sim_qp_of_cmd(sdev, wqe);

	if (!qp)
		return sim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	qp->qs_handle = FIELD_GET(IRDMA_CQPSQ_RESUMEQP_QSHANDLE,
				  le64_to_cpu(wqe[2]));
	qp->suspended = false;
	sdev->stats.qps_resumed++;
}

/**
 * sim_qp_destroy - DESTROY_QP
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void sim_qp_destroy(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res)
{
	struct sim_qp *qp = xa_erase(&sdev->qps,
				     FIELD_GET(IRDMA_QPCMD_QPID, le64_to_cpu(wqe[3])));

	if (!qp)
		return sim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	kfree(qp);
}

/**
 * sim_qps_destroy_all - forget every QP (function reset)
 * @sdev: the simulated function
 */
void sim_qps_destroy_all(struct sim_dev *sdev)
{
	sim_xa_free_all(&sdev->qps);
}

/* Where SQ quantum @idx, or RQ WQE @idx, lives. */
static int sim_sq_addr(struct sim_dev *sdev, struct sim_qp *qp, u32 idx, u64 *pa)
{
	return sim_ring_pa(sdev, &qp->sq, (u64)idx * IRDMA_WQE_QUANTUM_SIZE, pa);
}

static int sim_rq_addr(struct sim_dev *sdev, struct sim_qp *qp, u32 idx, u64 *pa)
{
	return sim_ring_pa(sdev, &qp->rq,
			   ((u64)idx << qp->rq_shift) * IRDMA_WQE_QUANTUM_SIZE, pa);
}

static u64 sim_sq_wqe_hdr(struct sim_dev *sdev, struct sim_qp *qp, u32 idx)
{
	u64 hdr = 0, pa;

	if (!sim_sq_addr(sdev, qp, idx, &pa))
		sim_dma_read_qword(sdev, pa + 24, &hdr);
	return hdr;
}

static bool sim_valid(u64 word, bool polarity)
{
	return !!(word & IRDMA_WQE_VALID) == polarity;
}

/*
 * One completion for a QP's queue. Receives from a shared receive queue
 * carry the WQE's wr_id in qword 1 (already there) instead of the QP's
 * context.
 */
static void sim_qp_complete(struct sim_dev *sdev, struct sim_qp *qp, bool sq,
			    u64 *cqe, const u64 *ext)
{
	struct sim_cq *cq = sim_cq_find(sdev, sq ? qp->scq : qp->rcq);

	if (!(cqe[3] & IRDMA_CQE_SRQ))
		cqe[1] = qp->compl_ctx;
	cqe[2] |= FIELD_PREP(IRDMA_CQE_QPID, qp->id);
	cqe[3] |= FIELD_PREP(IRDMA_CQE_SQ, sq);
	if (!cq || (ext ? sim_cq_post_ext(sdev, cq, cqe, ext) :
			  sim_cq_post(sdev, cq, cqe))) {
		sdev->stats.cq_overflows++;
		sim_aeq_post_qp(sdev, IRDMA_AE_CQ_OPERATION_ERROR, sq ? qp->scq : qp->rcq,
				IRDMA_AE_SOURCE_CQ, 0, 0);
	}
}

/**
 * sim_qp_flush - FLUSH_WQES: one flush completion per queue that holds work
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion; the minor code says which queue was flushed
 */
void sim_qp_flush(struct sim_dev *sdev, const __le64 *wqe,
		  struct sim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]), codes = le64_to_cpu(wqe[2]);
	struct sim_qp *qp = xa_load(&sdev->qps, FIELD_GET(IRDMA_QPCMD_QPID, hdr));
	u64 cqe[4] = {};
	u64 rqhdr = 0, pa;

	if (!qp)
		return sim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	qp->state = IRDMA_QPS_ERROR;
	if ((hdr & IRDMA_FLUSH_SQ) &&
	    sim_valid(sim_sq_wqe_hdr(sdev, qp, qp->sq_tail), qp->sq_polarity)) {
		/*
		 * A flush completion's WQE index is not the queue's oldest WQE: the
		 * stock driver never reads it there (it walks from its own tail), and
		 * what silicon puts in it is not known. The one past the oldest is
		 * given, so a driver that trusts it loses a completion.
		 */
		cqe[3] = IRDMA_CQE_ERROR |
			 FIELD_PREP(IRDMA_CQE_MAJERR, FIELD_GET(IRDMA_FLUSH_SQMAJOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_MINERR, FIELD_GET(IRDMA_FLUSH_SQMINOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_WQEIDX, (qp->sq_tail + 1) % qp->sq_size);
		sim_qp_complete(sdev, qp, true, cqe, NULL);
		res->min = IRDMA_FLUSH_DONE_SQ;
	}
	if (!sim_rq_addr(sdev, qp, qp->rq_head, &pa))
		sim_dma_read_qword(sdev, pa + 24, &rqhdr);
	if ((hdr & IRDMA_FLUSH_RQ) && sim_valid(rqhdr, qp->rq_polarity)) {
		memset(cqe, 0, sizeof(cqe));
		cqe[3] = IRDMA_CQE_ERROR |
			 FIELD_PREP(IRDMA_CQE_MAJERR, FIELD_GET(IRDMA_FLUSH_RQMAJOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_MINERR, FIELD_GET(IRDMA_FLUSH_RQMINOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_WQEIDX,
				    ((qp->rq_head + 1) % qp->rq_size) << qp->rq_shift);
		sim_qp_complete(sdev, qp, false, cqe, NULL);
		res->min = res->min ? 0 : IRDMA_FLUSH_DONE_RQ;
	}
}

/**
 * struct sim_msg - a message on its way to a receive queue
 * @op: the BTH opcode the receive completion reports
 * @data: the payload
 * @len: its length
 * @imm_valid: immediate data comes with it
 * @imm: the immediate data
 * @inv_stag: key to invalidate at the receiver (0 for none)
 * @solicited: the sender asks for a solicited event
 * @src: the sending QP
 * @src_dev: its function
 * @ah: the address handle (UD)
 */
struct sim_msg {
	u8 op;
	const u8 *data;
	u32 len;
	bool imm_valid;
	u32 imm;
	u32 inv_stag;
	bool solicited;
	const struct sim_qp *src;
	struct sim_dev *src_dev;
	const struct sim_ah *ah;
};

/* Outcome of one WQE: try again (peer busy, or RNR), or the errors. */
struct sim_result {
	bool busy;
	bool retry;
	u16 req_ae;
	u16 resp_ae;
	bool len_valid;
	bool ipv4;
	u32 len;
	int rdma_stat;
};

/* The RQ WQE at the head, if the driver has posted one. */
static int sim_rq_peek(struct sim_dev *sdev, struct sim_qp *qp, __le64 *wqe)
{
	u64 base, hdr;

	if (sim_rq_addr(sdev, qp, qp->rq_head, &base) ||
	    sim_dma_read_qword(sdev, base + 24, &hdr))
		return -EFAULT;
	if (!sim_valid(hdr, qp->rq_polarity))
		return -EAGAIN;
	/* The valid bit first: the rest was written before it. */
	dma_rmb();
	if (sim_dma_read(sdev, base, wqe, IRDMA_WQE_QUANTUM_SIZE << qp->rq_shift))
		return -EFAULT;
	return 0;
}

static void sim_rq_advance(struct sim_qp *qp)
{
	if (++qp->rq_head == qp->rq_size) {
		qp->rq_head = 0;
		qp->rq_polarity = !qp->rq_polarity;
	}
}

/*
 * The receive WQE at the head of the QP's RQ or SRQ, and where the
 * completion says it was.
 */
static int sim_recv_peek(struct sim_dev *sdev, struct sim_qp *qp, __le64 *wqe,
			 u32 *idx)
{
	if (qp->srq)
		return sim_srq_peek(sdev, qp->srq, qp->pd, wqe, idx);
	*idx = qp->rq_head << qp->rq_shift;
	return sim_rq_peek(sdev, qp, wqe);
}

/* The receive WQE at the head is taken, from the RQ or the SRQ. */
static void sim_recv_advance(struct sim_dev *sdev, struct sim_qp *qp)
{
	if (qp->srq)
		sim_srq_advance(sdev, qp->srq);
	else
		sim_rq_advance(qp);
}

/* Fragment @k of a WQE: address, length, key. */
static void sim_frag(const __le64 *wqe, u32 k, u64 *addr, u32 *len, u32 *stag)
{
	const __le64 *f = k ? wqe + 4 + 2 * (k - 1) : wqe;
	u64 q1 = le64_to_cpu(f[1]);

	*addr = le64_to_cpu(f[0]);
	*len = FIELD_GET(IRDMA_WQE_FRAG_LEN, q1);
	*stag = FIELD_GET(IRDMA_WQE_FRAG_STAG, q1);
}

/*
 * The fragments a WQE names. The E810 takes at most 13: more is a WQE
 * no driver writes, and their slots would lie past its 8 quanta.
 */
static int sim_wqe_frags(u64 hdr, u32 *frags)
{
	*frags = FIELD_GET(IRDMA_WQE_ADDFRAGCNT, hdr) + 1;
	return *frags > IRDMA_GEN2_MAX_WQ_FRAGS ? IRDMA_AE_WQE_INVALID_PARAMETER : 0;
}

/* Scatter @len bytes into the fragments of a receive WQE. */
static int sim_scatter(struct sim_dev *sdev, struct sim_qp *qp,
		       const __le64 *wqe, const u8 *data, u32 len)
{
	u32 frags, k, flen, stag, n;
	u64 addr;
	int err;

	err = sim_wqe_frags(le64_to_cpu(wqe[3]), &frags);
	if (err)
		return err;

	for (k = 0; k < frags && len; k++) {
		struct sim_access acc;

		sim_frag(wqe, k, &addr, &flen, &stag);
		n = min(flen, len);
		acc = (struct sim_access) {
			.stag = stag, .pd = qp->pd, .priv = qp->priv,
			.rights = IRDMA_MR_RIGHT_LOCAL_WRITE,
		};
		err = sim_mem_copy(sdev, &acc, addr, (void *)data, n, true);
		if (err)
			return err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
		data += n;
		len -= n;
	}
	return len ? IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER : 0;
}

/* The 40 bytes in front of a UD payload: a GRH, or an IPv4 header in its
 * last 20 bytes.
 */
static void sim_build_grh(u8 *grh, const struct sim_msg *msg)
{
	const struct sim_ah *ah = msg->ah;
	int i;

	memset(grh, 0, SIM_GRH_SIZE);
	if (ah->ipv4) {
		struct iphdr *ip = (struct iphdr *)(grh + SIM_GRH_SIZE - sizeof(*ip));

		ip->version = 4;
		ip->ihl = 5;
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		ip->tot_len = htons(sizeof(*ip) + 8 + 12 + msg->len + 4);
		ip->saddr = htonl(ah->src_ip[3]);
		ip->daddr = htonl(ah->dest_ip[3]);
		ip->check = ip_fast_csum(ip, ip->ihl);
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)grh;

		ip6->version = 6;
		ip6->payload_len = htons(8 + 12 + msg->len + 4);
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = 64;
		for (i = 0; i < 4; i++) {
			ip6->saddr.s6_addr32[i] = htonl(ah->src_ip[i]);
			ip6->daddr.s6_addr32[i] = htonl(ah->dest_ip[i]);
		}
	}
}

/* Deliver a message into the receiver's RQ, with its completion. */
static void sim_deliver(struct sim_dev *dst, struct sim_qp *qp,
			const struct sim_msg *msg, struct sim_result *r)
{
	/* Slots past the WQE's own quanta read as empty fragments. */
	__le64 wqe[IRDMA_MAX_QUANTA_PER_WR * 4] = {};
	u64 cqe[4] = {}, ext[4] = {};
	bool ud = qp->type == IRDMA_QP_TYPE_ROCE_UD;
	u32 len = msg->len, idx;
	int err;

	err = sim_recv_peek(dst, qp, wqe, &idx);
	/* An SRQ of another PD, or one that is gone. */
	if (err == -EPERM || err == -ENOENT) {
		r->resp_ae = IRDMA_AE_AMP_BAD_PD;
		r->req_ae = IRDMA_AE_IB_REMOTE_OP_ERROR;
		return;
	}
	if (err) {
		/* No receive posted: RC retries, UD drops. */
		r->retry = !ud;
		if (ud)
			dst->stats.ud_dropped++;
		return;
	}
	if (ud) {
		u8 *buf = kmalloc(SIM_GRH_SIZE + msg->len, GFP_KERNEL);

		if (!buf)
			return;
		sim_build_grh(buf, msg);
		memcpy(buf + SIM_GRH_SIZE, msg->data, msg->len);
		len += SIM_GRH_SIZE;
		err = sim_scatter(dst, qp, wqe, buf, len);
		kfree(buf);
	} else {
		err = sim_scatter(dst, qp, wqe, msg->data, msg->len);
	}
	if (!err && msg->inv_stag && !ud)
		err = sim_mr_invalidate(dst, msg->inv_stag, qp->pd, true);
	if (err && ud) {
		dst->stats.ud_dropped++;
		sim_recv_advance(dst, qp);
		return;
	}
	if (err) {
		r->resp_ae = err;
		r->req_ae = err == IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER ?
			    IRDMA_AE_IB_INVALID_REQUEST : IRDMA_AE_IB_REMOTE_ACCESS_ERROR;
		return;
	}

	cqe[0] = FIELD_PREP(IRDMA_CQE_PAYLDLEN, len);
	cqe[3] = FIELD_PREP(IRDMA_CQE_WQEIDX, idx) |
		 FIELD_PREP(IRDMA_CQE_OPTYPE, msg->op) |
		 FIELD_PREP(IRDMA_CQE_SOEVENT, msg->solicited);
	if (qp->srq) {
		cqe[1] = le64_to_cpu(wqe[2]);
		cqe[3] |= IRDMA_CQE_SRQ;
	}
	if (ud) {
		cqe[2] = FIELD_PREP(IRDMA_CQE_UDSRCQPN, msg->src->id);
		cqe[3] |= FIELD_PREP(IRDMA_CQE_IPV4, msg->ah->ipv4);
		ext[2] = FIELD_PREP(IRDMA_CQE_EXT_UDSMAC,
				    ether_addr_to_u64(msg->src_dev->netdev->dev_addr));
		ext[3] = IRDMA_CQE_EXT_UDSMACVALID;
	} else if (msg->inv_stag) {
		cqe[2] = FIELD_PREP(IRDMA_CQE_INVSTAG, msg->inv_stag);
		cqe[3] |= IRDMA_CQE_STAG;
	}
	if (msg->imm_valid) {
		ext[0] = FIELD_PREP(IRDMA_CQE_EXT_IMMDATA, msg->imm);
		ext[3] |= IRDMA_CQE_EXT_IMMVALID;
	}
	sim_qp_complete(dst, qp, false, cqe, ext[3] ? ext : NULL);
	trace_irdma_sim_wqe(dst->id, qp->id, qp->srq ? "srq" : "rq", qp->priv,
			    wqe, 8);
	sim_recv_advance(dst, qp);
}

/* Gather the data of a send or write from the local fragments. */
static int sim_gather(struct sim_dev *sdev, struct sim_qp *qp,
		      const __le64 *wqe, u32 first, u32 frags, u8 **data,
		      u32 *len)
{
	u32 k, flen, stag, off = 0;
	u64 addr, total = 0;
	u8 *buf;
	int err;

	/* Up to 13 fragments of up to 2^31 - 1 bytes: no u64 wraps. */
	for (k = first; k < frags; k++) {
		sim_frag(wqe, k, &addr, &flen, &stag);
		total += flen;
	}
	if (total > SIM_MAX_MSG)
		return IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG;
	buf = kvmalloc(max_t(u64, total, 1), GFP_KERNEL);
	if (!buf)
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	for (k = first; k < frags; k++) {
		struct sim_access acc;

		sim_frag(wqe, k, &addr, &flen, &stag);
		acc = (struct sim_access) {
			.stag = stag, .pd = qp->pd, .priv = qp->priv,
			.rights = IRDMA_MR_RIGHT_LOCAL_READ,
		};
		err = sim_mem_copy(sdev, &acc, addr, buf + off, flen, false);
		if (err) {
			kvfree(buf);
			return err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
		}
		off += flen;
	}
	*data = buf;
	*len = total;
	return 0;
}

/* Inline data: 8 bytes in quantum 0, then 31 per quantum. */
static u8 *sim_inline(const __le64 *wqe, u32 len)
{
	const u8 *q0 = (const u8 *)&wqe[1], *rest = (const u8 *)wqe + 32;
	u8 *buf = kmalloc(max(len, 1U), GFP_KERNEL);
	u32 i;

	if (!buf)
		return NULL;
	for (i = 0; i < len; i++) {
		u32 past = i - 8;

		buf[i] = i < 8 ? q0[i] : rest[past / 31 * 32 + past % 31];
	}
	return buf;
}

/* The peer an RC QP talks to, by its ARP entry's MAC address. */
static struct sim_dev *sim_rc_peer(struct sim_dev *sdev, struct sim_qp *qp,
				   struct sim_qp **peer_qp)
{
	struct sim_dev *dst;
	u8 mac[ETH_ALEN];

	if (qp->arp_idx >= SIM_MAX_ARPS || !test_bit(qp->arp_idx, sdev->hmc.arp_valid))
		return NULL;
	u64_to_ether_addr(sdev->hmc.arp[qp->arp_idx], mac);
	dst = sim_peer_get(sdev, mac);
	if (IS_ERR_OR_NULL(dst))
		return dst;
	*peer_qp = xa_load(&dst->qps, qp->dest_qp);
	if (!*peer_qp || (*peer_qp)->type != IRDMA_QP_TYPE_ROCE_RC ||
	    ((*peer_qp)->state != IRDMA_QPS_RTR && (*peer_qp)->state != IRDMA_QPS_RTS)) {
		sim_peer_put(sdev, dst);
		return NULL;
	}
	return dst;
}

static u8 sim_recv_op(u8 op, bool imm)
{
	switch (op) {
	case IRDMA_WQEOP_SEND_INV:
	case IRDMA_WQEOP_SEND_SOL_INV:
		return IB_OPCODE_SEND_ONLY_WITH_INVALIDATE;
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		return IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
	default:
		return imm ? IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE : IB_OPCODE_SEND_ONLY;
	}
}

static bool sim_ip_is_mcast(const struct sim_ah *ah)
{
	return ah->ipv4 ? (ah->dest_ip[3] >> 28) == 0xe : (ah->dest_ip[0] >> 24) == 0xff;
}

/* Deliver a UD message to a QP if it takes the Q_Key. */
static bool sim_ud_deliver(struct sim_dev *dst, u32 qpn, u32 qkey,
			   const struct sim_msg *msg)
{
	struct sim_qp *dqp = xa_load(&dst->qps, qpn);
	struct sim_result dr = {};

	if (!dqp || dqp->type != IRDMA_QP_TYPE_ROCE_UD || dqp->qkey != qkey ||
	    (dqp->state != IRDMA_QPS_RTR && dqp->state != IRDMA_QPS_RTS)) {
		dst->stats.ud_dropped++;
		return false;
	}
	sim_deliver(dst, dqp, msg, &dr);
	return true;
}

/* Multicast: every member QP of every function's group for the address. */
static void sim_exec_mcast(struct sim_dev *sdev, u32 qkey, struct sim_msg *msg)
{
	const struct sim_ah *ah = msg->ah;
	u32 key[4] = { ah->ipv4 ? ah->dest_ip[3] : ah->dest_ip[0],
		       ah->ipv4 ? 0 : ah->dest_ip[1], ah->ipv4 ? 0 : ah->dest_ip[2],
		       ah->ipv4 ? 0 : ah->dest_ip[3] };
	struct sim_dev *dst, *devs[SIM_MAX_DEVICES];
	struct sim_mg *mg;
	unsigned long id;
	int n = 0, i;
	u32 q;

	devs[n++] = sdev;
	spin_lock(&sim_peers_lock);
	list_for_each_entry(dst, &sim_peers, peer)
		if (dst != sdev && n < SIM_MAX_DEVICES && mutex_trylock(&dst->engine_lock))
			devs[n++] = dst;
	spin_unlock(&sim_peers_lock);

	for (i = 0; i < n; i++) {
		dst = devs[i];
		if (sim_rx_filtered(dst)) {
			sim_peer_put(sdev, dst);
			continue;
		}
		xa_for_each(&dst->mgs, id, mg) {
			if (memcmp(mg->ip, key, sizeof(key)))
				continue;
			for (q = 0; q < mg->count; q++)
				if (sim_ud_deliver(dst, mg->qp[q], qkey, msg))
					dst->counters[ah->ipv4 ? IRDMA_STAT_IP4RXMCPKTS :
						      IRDMA_STAT_IP6RXMCPKTS]++;
		}
		sim_peer_put(sdev, dst);
	}
	sdev->counters[ah->ipv4 ? IRDMA_STAT_IP4TXMCPKTS : IRDMA_STAT_IP6TXMCPKTS]++;
}

/* UD: the AH names the destination function, the WQE the QP. */
static void sim_exec_ud(struct sim_dev *sdev, struct sim_qp *qp,
			const __le64 *wqe, struct sim_msg *msg,
			struct sim_result *r)
{
	u64 q2 = le64_to_cpu(wqe[2]);
	u32 qkey = FIELD_GET(IRDMA_WQE_DESTQKEY, q2);
	struct sim_dev *dst;
	u8 mac[ETH_ALEN];

	/* A Q_Key with its top bit set means the sending QP's own. */
	if (qkey & SIM_QKEY_USE_QP)
		qkey = qp->qkey;
	msg->ah = sim_ah_get(sdev, FIELD_GET(IRDMA_WQE_AHID, le64_to_cpu(wqe[3])));
	if (msg->ah && msg->ah->pd == qp->pd && sim_ip_is_mcast(msg->ah)) {
		r->ipv4 = msg->ah->ipv4;
		return sim_exec_mcast(sdev, qkey, msg);
	}
	if (!msg->ah || msg->ah->arp_idx >= SIM_MAX_ARPS ||
	    !test_bit(msg->ah->arp_idx, sdev->hmc.arp_valid)) {
		r->req_ae = IRDMA_AE_INVALID_AH_ENTRY;
		return;
	}
	if (msg->ah->pd != qp->pd) {
		r->req_ae = IRDMA_AE_UDA_XMIT_BAD_PD;
		return;
	}
	u64_to_ether_addr(sdev->hmc.arp[msg->ah->arp_idx], mac);
	dst = sim_peer_get(sdev, mac);
	if (IS_ERR(dst)) {
		r->busy = true;
		return;
	}
	if (!dst) {
		sdev->stats.ud_dropped++;
		return;		/* nobody there: the datagram is lost */
	}
	if (sim_ud_deliver(dst, FIELD_GET(IRDMA_WQE_DESTQPN, q2), qkey, msg))
		sim_count_msg(dst, msg->ah->ipv4, msg->len, false, IRDMA_STAT_RDMATXSNDS);
	r->ipv4 = msg->ah->ipv4;
	sim_peer_put(sdev, dst);
}

/* An RDMA read: fetch from the peer, scatter locally. */
static void sim_exec_read(struct sim_dev *sdev, struct sim_qp *qp,
			  const __le64 *wqe, struct sim_dev *dst,
			  struct sim_qp *dqp, struct sim_result *r)
{
	u32 frags = FIELD_GET(IRDMA_WQE_ADDFRAGCNT, le64_to_cpu(wqe[3])) + 1;
	struct sim_access racc = {
		.stag = FIELD_GET(IRDMA_WQE_REMSTAG, le64_to_cpu(wqe[3])),
		.pd = dqp->pd,
		.rights = IRDMA_MR_RIGHT_REMOTE_READ,
	};
	u64 addr, raddr = le64_to_cpu(wqe[2]), total = 0;
	u32 k, flen, stag;
	u8 *buf;
	int err;

	/* sim_exec() bounded the fragments: no u64 wraps. */
	for (k = 0; k < frags; k++) {
		sim_frag(wqe, k, &addr, &flen, &stag);
		total += flen;
	}
	if (total > SIM_MAX_MSG) {
		r->req_ae = IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG;
		return;
	}
	buf = kvmalloc(max_t(u64, total, 1), GFP_KERNEL);
	if (!buf) {
		r->busy = true;
		return;
	}
	err = sim_mem_copy(dst, &racc, raddr, buf, total, false);
	if (err) {
		r->req_ae = IRDMA_AE_IB_REMOTE_ACCESS_ERROR;
		r->resp_ae = err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
		goto out;
	}
	total = 0;
	for (k = 0; k < frags; k++) {
		struct sim_access acc;

		sim_frag(wqe, k, &addr, &flen, &stag);
		acc = (struct sim_access) {
			.stag = stag, .pd = qp->pd, .priv = qp->priv,
			.rights = IRDMA_MR_RIGHT_LOCAL_WRITE,
		};
		err = sim_mem_copy(sdev, &acc, addr, buf + total, flen, true);
		if (err) {
			r->req_ae = err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
			break;
		}
		total += flen;
	}
	r->len = total;
out:
	kvfree(buf);
}

/* A send or RDMA write (with its data gathered) on an RC QP. */
static void sim_exec_rc(struct sim_dev *sdev, struct sim_qp *qp, u8 op,
			const __le64 *wqe, struct sim_msg *msg,
			struct sim_result *r)
{
	struct sim_qp *dqp = NULL;
	struct sim_dev *dst = sim_rc_peer(sdev, qp, &dqp);
	bool write = op == IRDMA_WQEOP_RDMA_WRITE || op == IRDMA_WQEOP_RDMA_WRITE_SOL;
	__le64 rq[IRDMA_MAX_QUANTA_PER_WR * 4] = {};
	u32 idx;
	int err;

	if (IS_ERR(dst)) {
		r->busy = true;
		return;
	}
	if (!dst) {
		r->req_ae = IRDMA_AE_LLP_TOO_MANY_RETRIES;
		return;
	}
	if (op == IRDMA_WQEOP_RDMA_READ || op == IRDMA_WQEOP_RDMA_READ_INV_STAG) {
		sim_exec_read(sdev, qp, wqe, dst, dqp, r);
		goto out;
	}
	/* Immediate data needs a receive; check before touching memory. */
	if (write && msg->imm_valid && sim_recv_peek(dst, dqp, rq, &idx)) {
		r->retry = true;
		goto out;
	}
	if (write) {
		struct sim_access racc = {
			.stag = FIELD_GET(IRDMA_WQE_REMSTAG, le64_to_cpu(wqe[3])),
			.pd = dqp->pd,
			.rights = IRDMA_MR_RIGHT_REMOTE_WRITE,
		};

		err = sim_mem_copy(dst, &racc, le64_to_cpu(wqe[2]), (void *)msg->data,
				   msg->len, true);
		if (err) {
			r->req_ae = IRDMA_AE_IB_REMOTE_ACCESS_ERROR;
			r->resp_ae = err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
			goto out;
		}
		if (!msg->imm_valid)
			goto out;
	}
	sim_deliver(dst, dqp, msg, r);
out:
	if (!r->req_ae && !r->retry)
		sim_count_msg(dst, qp->ipv4, r->len, false, r->rdma_stat);
	if (r->resp_ae)
		sim_aeq_post_qp(dst, r->resp_ae, dqp->id, IRDMA_AE_SOURCE_RQ,
				dqp->rq_head << dqp->rq_shift, IRDMA_QPS_ERROR);
	if (r->resp_ae)
		dqp->state = IRDMA_QPS_ERROR;
	sim_peer_put(sdev, dst);
}

/* Quanta of the WQE whose header is @hdr. */
static u32 sim_wqe_quanta(u64 hdr)
{
	u8 op = FIELD_GET(IRDMA_WQE_OPCODE, hdr);
	u32 len;

	if (op == IRDMA_WQEOP_NOP || op == IRDMA_WQEOP_INV_STAG ||
	    op == IRDMA_WQEOP_FAST_REG_NSMR || op == IRDMA_WQEOP_BIND_MW)
		return 1;
	if (hdr & IRDMA_WQE_INLINEDATAFLAG) {
		len = FIELD_GET(IRDMA_WQE_INLINEDATALEN, hdr);
		return len <= 8 ? 1 : min(2 + (len - 9) / 31, 8U);
	}
	return min_t(u32, FIELD_GET(IRDMA_WQE_ADDFRAGCNT, hdr) / 2 + 1, 8);
}

/* Execute the WQE; the outcome in @r. */
static void sim_exec(struct sim_dev *sdev, struct sim_qp *qp, const __le64 *wqe,
		     struct sim_result *r)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u8 op = FIELD_GET(IRDMA_WQE_OPCODE, hdr);
	bool imm = hdr & IRDMA_WQE_IMMDATAFLAG;
	struct sim_msg msg = {
		.imm_valid = imm,
		.imm = imm ? lower_32_bits(le64_to_cpu(wqe[0])) : 0,
		.solicited = op == IRDMA_WQEOP_SEND_SOL ||
			     op == IRDMA_WQEOP_SEND_SOL_INV ||
			     op == IRDMA_WQEOP_RDMA_WRITE_SOL,
		.src = qp,
		.src_dev = sdev,
	};
	u8 *data = NULL;
	u32 frags;
	int err;

	switch (op) {
	case IRDMA_WQEOP_NOP:
		return;
	case IRDMA_WQEOP_INV_STAG:
		err = sim_mr_invalidate(sdev, FIELD_GET(IRDMA_WQE_FRAG_STAG,
							le64_to_cpu(wqe[1])), qp->pd, false);
		r->req_ae = err;
		return;
	case IRDMA_WQEOP_FAST_REG_NSMR:
		r->req_ae = qp->priv ? sim_mr_fast_reg(sdev, qp->pd, wqe) :
				       IRDMA_AE_PRIV_OPERATION_DENIED;
		return;
	case IRDMA_WQEOP_BIND_MW:
		if (qp->type == IRDMA_QP_TYPE_ROCE_UD)
			r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		else
			r->req_ae = qp->bind_en ? sim_mw_bind(sdev, qp->pd, wqe) :
						  IRDMA_AE_PRIV_OPERATION_DENIED;
		return;
	case IRDMA_WQEOP_SEND:
	case IRDMA_WQEOP_SEND_SOL:
	case IRDMA_WQEOP_SEND_INV:
	case IRDMA_WQEOP_SEND_SOL_INV:
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_INV_STAG:
		break;
	default:
		r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		return;
	}
	if (qp->type == IRDMA_QP_TYPE_ROCE_UD &&
	    op != IRDMA_WQEOP_SEND && op != IRDMA_WQEOP_SEND_SOL) {
		r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		return;
	}

	/* What no driver writes: more fragments or inline data than fit. */
	err = sim_wqe_frags(hdr, &frags);
	if (!err && (hdr & IRDMA_WQE_INLINEDATAFLAG) &&
	    FIELD_GET(IRDMA_WQE_INLINEDATALEN, hdr) > IRDMA_GEN2_MAX_INLINE)
		err = IRDMA_AE_WQE_INVALID_PARAMETER;
	if (err) {
		r->req_ae = err;
		return;
	}

	msg.op = sim_recv_op(op, imm);
	if (op == IRDMA_WQEOP_SEND_INV || op == IRDMA_WQEOP_SEND_SOL_INV)
		msg.inv_stag = FIELD_GET(IRDMA_WQE_REMSTAG, hdr);
	if (op != IRDMA_WQEOP_RDMA_READ && op != IRDMA_WQEOP_RDMA_READ_INV_STAG) {
		if (hdr & IRDMA_WQE_INLINEDATAFLAG) {
			msg.len = FIELD_GET(IRDMA_WQE_INLINEDATALEN, hdr);
			data = sim_inline(wqe, msg.len);
			if (!data) {
				r->busy = true;
				return;
			}
		} else {
			err = sim_gather(sdev, qp, wqe, imm ? 1 : 0, frags,
					 &data, &msg.len);
			if (err) {
				r->req_ae = err;
				return;
			}
		}
		msg.data = data;
	}
	r->len_valid = true;
	r->len = msg.len;
	r->ipv4 = qp->ipv4;
	r->rdma_stat = sim_rdma_stat(op);
	if (qp->type == IRDMA_QP_TYPE_ROCE_UD)
		sim_exec_ud(sdev, qp, wqe, &msg, r);
	else
		sim_exec_rc(sdev, qp, op, wqe, &msg, r);
	kvfree(data);
}

/* The RNR rules: retry later, or give up when the retries are spent. */
static bool sim_rnr(struct sim_dev *sdev, struct sim_qp *qp)
{
	if (!qp->rnr_until) {
		qp->rnr_left = qp->rnr_retry;
	} else if (qp->rnr_retry != SIM_RNR_FOREVER) {
		if (!qp->rnr_left)
			return false;
		qp->rnr_left--;
	}
	qp->rnr_until = jiffies + SIM_RNR_DELAY;
	sdev->stats.rnr_waits++;
	return true;
}

/*
 * A WQE whose data is short enough to be moved in the time of the process
 * that posted it (sim_engine_run_sq()); the rest goes to the threads.
 */
static bool sim_wqe_short(const __le64 *wqe, u64 hdr)
{
	u8 op = FIELD_GET(IRDMA_WQE_OPCODE, hdr);
	u32 k, frags, len, stag;
	u64 addr, total = 0;

	/* Key work carries no data. */
	if (op == IRDMA_WQEOP_NOP || op == IRDMA_WQEOP_INV_STAG ||
	    op == IRDMA_WQEOP_FAST_REG_NSMR || op == IRDMA_WQEOP_BIND_MW)
		return true;
	if (hdr & IRDMA_WQE_INLINEDATAFLAG)
		return true;
	if (sim_wqe_frags(hdr, &frags))
		return true;
	for (k = 0; k < frags; k++) {
		sim_frag(wqe, k, &addr, &len, &stag);
		total += len;
	}
	return total <= SIM_SHORT_MSG;
}

/*
 * How an SQ is run, and what came of it: @short_only for a process running
 * its own SQ (sim_engine_run_sq()), which leaves WQEs that move much data,
 * setting @backlog; @quick if a WQE run keeps the threads quick to answer
 * (see sim_engine_step()).
 */
struct sim_sq_pass {
	bool short_only;
	bool backlog;
	bool quick;
};

/* Run one WQE of an SQ as @run says. Return: true if the SQ moved on. */
static bool sim_sq_step(struct sim_dev *sdev, struct sim_qp *qp,
			struct sim_sq_pass *run)
{
	__le64 wqe[IRDMA_MAX_QUANTA_PER_WR * 4] = {};
	u64 hdr = sim_sq_wqe_hdr(sdev, qp, qp->sq_tail), cqe[4] = {}, base;
	struct sim_result r = {};
	bool short_wqe;
	u32 quanta, i;

	if (!sim_valid(hdr, qp->sq_polarity))
		return false;
	if (qp->rnr_until && time_before(jiffies, qp->rnr_until))
		return false;
	quanta = sim_wqe_quanta(hdr);
	dma_rmb();
	if (sim_sq_addr(sdev, qp, qp->sq_tail, &base) ||
	    sim_dma_read(sdev, base, wqe, quanta * IRDMA_WQE_QUANTUM_SIZE))
		return false;
	/* Each further quantum's last qword says it is written. */
	for (i = 1; i < quanta; i++)
		if (!sim_valid(le64_to_cpu(wqe[4 * i + 3]), qp->sq_polarity))
			return false;
	short_wqe = sim_wqe_short(wqe, hdr);
	if (run->short_only && !short_wqe) {
		run->backlog = true;
		return false;
	}

	sim_exec(sdev, qp, wqe, &r);
	if (r.busy)
		return false;
	/*
	 * A user QP's short WQE its process would have run itself, had the
	 * engine lock been free: it does not keep the threads quick.
	 */
	if (qp->priv || !short_wqe)
		run->quick = true;
	if (r.retry && !r.req_ae) {
		if (sim_rnr(sdev, qp))
			return false;
		r.req_ae = IRDMA_AE_LLP_TOO_MANY_RNRS;
	}
	/* Done with, once: a WQE an RNR NAK sends back is traced when it goes. */
	trace_irdma_sim_wqe(sdev->id, qp->id, "sq", qp->priv, wqe, quanta * 4);
	qp->rnr_until = 0;
	if (!r.req_ae && r.len_valid)
		sim_count_msg(sdev, r.ipv4, r.len, true, r.rdma_stat);
	if (r.req_ae) {
		/* The WQE stays: the flush completes it with the error. */
		qp->state = IRDMA_QPS_ERROR;
		sim_aeq_post_qp(sdev, r.req_ae, qp->id, IRDMA_AE_SOURCE_SQ,
				qp->sq_tail, IRDMA_QPS_ERROR);
		return false;
	}
	if (hdr & IRDMA_WQE_SIGCOMPL) {
		cqe[3] = FIELD_PREP(IRDMA_CQE_WQEIDX, qp->sq_tail) |
			 FIELD_PREP(IRDMA_CQE_OPTYPE, FIELD_GET(IRDMA_WQE_OPCODE, hdr));
		sim_qp_complete(sdev, qp, true, cqe, NULL);
	}
	qp->sq_tail += quanta;
	if (qp->sq_tail >= qp->sq_size) {
		qp->sq_tail -= qp->sq_size;
		qp->sq_polarity = !qp->sq_polarity;
	}
	sim_dma_write_qword(sdev, qp->shadow_pa,
			    FIELD_PREP(IRDMA_QP_DBSA_HW_SQ_TAIL, qp->sq_tail));
	/* The position is out before the next WQE is looked at. */
	mb();
	return true;
}

/* Run up to a budget of one SQ's WQEs; note in @run if WQEs are left. */
static bool sim_sq_run(struct sim_dev *sdev, struct sim_qp *qp,
		       struct sim_sq_pass *run)
{
	int n;

	if (qp->suspended)
		return false;
	if (qp->state == IRDMA_QPS_RTS && !sim_qset_live(sdev, qp->qs_handle)) {
		/* No scheduler node: the SQ never gets a turn. */
		if (sim_valid(sim_sq_wqe_hdr(sdev, qp, qp->sq_tail), qp->sq_polarity))
			sdev->stats.tx_no_qset++;
		return false;
	}
	for (n = 0; n < SIM_SQ_BUDGET; n++)
		if (qp->state != IRDMA_QPS_RTS || !sim_sq_step(sdev, qp, run))
			return n > 0;
	run->backlog = true;
	return true;
}

/**
 * sim_qps_run - execute what the SQs of QPs ready to send hold
 * @sdev: the simulated function
 * @quick: set if a WQE run keeps the threads quick to answer: one of a
 *	kernel QP, or one that moves more than a process moves itself
 *
 * Context: under the engine lock.
 * Return: true if any WQE was executed.
 */
bool sim_qps_run(struct sim_dev *sdev, bool *quick)
{
	struct sim_sq_pass run = {};
	struct sim_qp *qp;
	unsigned long id;
	bool work = false;

	xa_for_each(&sdev->qps, id, qp)
		work |= sim_sq_run(sdev, qp, &run);
	*quick |= run.quick;
	return work;
}

/**
 * sim_qp_run_sq - execute what one QP's SQ holds, up to an engine step's
 * share, as long as its WQEs move little data
 * @sdev: the simulated function
 * @qpn: the QP's number
 * @backlog: set if WQEs may be left for the threads
 *
 * Context: under the engine lock.
 * Return: true if any WQE was executed.
 */
bool sim_qp_run_sq(struct sim_dev *sdev, u32 qpn, bool *backlog)
{
	struct sim_sq_pass run = { .short_only = true };
	struct sim_qp *qp = xa_load(&sdev->qps, qpn);
	bool work = qp && sim_sq_run(sdev, qp, &run);

	*backlog |= run.backlog;
	return work;
}
