// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control QP: created from the host context the driver points
 * CCQPHIGH/CCQPLOW at, it executes the WQEs up to the head the driver
 * writes to CQPDB, one at a time and in order. Each completion advances
 * CQPTAIL (for the driver's register polling) and, once the CCQ exists,
 * is also written to the CCQ.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/preempt.h>

#include "sim.h"
#include "trace.h"

/* Minor codes for commands the engine refuses (major IRDMA_CQP_MAJ_ERROR). */

static void isim_cqp_fail_create(struct isim_dev *sdev, u16 min)
{
	isim_wr32(sdev, IRDMA_PFPE_CQPERRCODES,
		  FIELD_PREP(IRDMA_CQPERRCODES_MAJOR, IRDMA_CQP_MAJ_ERROR) |
		 FIELD_PREP(IRDMA_CQPERRCODES_MINOR, min));
	isim_wr32(sdev, IRDMA_PFPE_CCQPSTATUS, IRDMA_CCQPSTATUS_ERR);
	dev_dbg(&sdev->dev, "CQP create refused (minor %#x)\n", min);
}

/**
 * isim_cqp_create - create the CQP from its host context
 * @sdev: the simulated function
 * @ctx_pa: DMA address of the 64-byte host context
 *
 * Reports the outcome in CCQPSTATUS: DONE, or ERR with CQPERRCODES set.
 *
 * Context: under the CQP lock; a thread or the CCQPLOW trap.
 */
void isim_cqp_create(struct isim_dev *sdev, u64 ctx_pa)
{
	__le64 ctx[IRDMA_CQPHC_SIZE / 8];
	struct isim_cqp *cqp = &sdev->cqp;
	void *sq_va;
	u64 q0, q4;
	u32 code;

	if (isim_dma_read(sdev, ctx_pa, ctx, sizeof(ctx)))
		return isim_cqp_fail_create(sdev, ISIM_MIN_DMA_FAULT);

	q0 = le64_to_cpu(ctx[0]);
	q4 = le64_to_cpu(ctx[4]);
	code = FIELD_GET(IRDMA_CQPHC_SQSIZE, q0);
	/* Sizes 4 to 2048: the tail register has 11 bits. */
	if (code < 1 || code > 10 ||
	    FIELD_GET(IRDMA_CQPHC_HW_MAJVER, q4) != IRDMA_HW_MAJVER_GEN_2 ||
	    !le64_to_cpu(ctx[1]) ||
	    FIELD_GET(IRDMA_CQPHC_PROTOCOL_USED, q0) > IRDMA_PROTOCOL_USED_ROCE_ONLY)
		return isim_cqp_fail_create(sdev, ISIM_MIN_BAD_PARAM);
	/* The ring is read from the trap too: checked once, here. */
	sq_va = isim_dma_map(sdev, le64_to_cpu(ctx[1]),
			     (4U << (code - 1)) * IRDMA_CQP_WQE_SIZE);
	if (!sq_va)
		return isim_cqp_fail_create(sdev, ISIM_MIN_DMA_FAULT);

	lockdep_assert_held(&sdev->cqp_lock);
	*cqp = (struct isim_cqp) {
		.up = true,
		.sq_pa = le64_to_cpu(ctx[1]),
		.sq_va = sq_va,
		.sq_size = 4U << (code - 1),
		.polarity = true,
		.compl_ctx = le64_to_cpu(ctx[3]),
		.protocol = FIELD_GET(IRDMA_CQPHC_PROTOCOL_USED, q0),
		.looked_ns = isim_lat_now(),
		.batch_cpu = -1,
	};
	/* A doorbell trapped before the CQP existed rang nothing. */
	isim_doorbell_take(sdev, ISIM_TRAP_CQPDB);
	isim_wr32(sdev, IRDMA_PFPE_CQPTAIL, 0);
	isim_wr32(sdev, IRDMA_PFPE_CQPERRCODES, 0);
	isim_wr32(sdev, IRDMA_PFPE_CCQPSTATUS, IRDMA_CCQPSTATUS_DONE);
	dev_dbg(&sdev->dev, "CQP up: %u WQEs at %#llx\n", cqp->sq_size,
		cqp->sq_pa);
}

/**
 * isim_cqp_down - take the CQP down: the answer to the driver
 * @sdev: the simulated function
 *
 * The function's state goes afterwards, in a thread (isim_cqp_cleanup());
 * until then no CQP is created.
 *
 * Context: under the CQP lock; a thread or the CCQPLOW trap.
 */
void isim_cqp_down(struct isim_dev *sdev)
{
	lockdep_assert_held(&sdev->cqp_lock);
	dev_dbg(&sdev->dev, "CQP down after %llu ops, %llu errors, %llu irqs, %llu DMA faults\n",
		sdev->stats.cqp_ops, sdev->stats.cqp_errors, sdev->stats.irqs,
		sdev->stats.dma_faults);
	memset(&sdev->cqp, 0, sizeof(sdev->cqp));
	WRITE_ONCE(sdev->cqp_cleanup_due, true);
	isim_wr32(sdev, IRDMA_PFPE_CCQPSTATUS, 0);
}

/**
 * isim_cqp_cleanup - the function's state goes, after the CQP went down
 * @sdev: the simulated function
 *
 * Context: a thread, with the engine lock or with the engine stopped.
 */
void isim_cqp_cleanup(struct isim_dev *sdev)
{
	if (!READ_ONCE(sdev->cqp_cleanup_due))
		return;
	isim_qps_destroy_all(sdev);
	isim_srqs_destroy_all(sdev);
	isim_mem_destroy_all(sdev);
	isim_cqs_destroy_all(sdev);
	/* The CCQ's last event may still be on its way (isim_cqp_notify()). */
	spin_lock_irq(&sdev->eq_lock);
	memset(sdev->ceq, 0, sizeof(sdev->ceq));
	memset(&sdev->aeq, 0, sizeof(sdev->aeq));
	spin_unlock_irq(&sdev->eq_lock);
	memset(&sdev->hmc, 0, sizeof(sdev->hmc));
	isim_steer_clear(sdev);
	/* A CQP may be created again. */
	smp_store_release(&sdev->cqp_cleanup_due, false);
}

/**
 * isim_cqp_destroy - take the CQP down, if it is up, and the state with it
 * @sdev: the simulated function, its engine stopped (reset, removal)
 */
void isim_cqp_destroy(struct isim_dev *sdev)
{
	spin_lock_irq(&sdev->cqp_lock);
	if (sdev->cqp.up)
		isim_cqp_down(sdev);
	spin_unlock_irq(&sdev->cqp_lock);
	isim_cqp_cleanup(sdev);
}

static void isim_cqp_features(struct isim_dev *sdev, const __le64 *wqe,
			      struct isim_cqp_result *res)
{
	u32 len = FIELD_GET(IRDMA_CQPSQ_BUFSIZE, le64_to_cpu(wqe[3]));
	__le64 buf[2];

	if (len < sizeof(buf)) {
		res->maj = IRDMA_CQP_MAJ_ERROR;
		res->min = ISIM_MIN_BAD_PARAM;
		return;
	}
	/* Firmware 1.74; the count of entries rides in entry 0. */
	buf[0] = cpu_to_le64(FIELD_PREP(IRDMA_FEATURE_TYPE, IRDMA_FEATURE_FW_INFO) |
			     FIELD_PREP(IRDMA_FEATURE_CNT, ARRAY_SIZE(buf)) |
			     FIELD_PREP(IRDMA_FW_VER_MAJOR, 1) |
			     FIELD_PREP(IRDMA_FW_VER_MINOR, 74));
	buf[1] = cpu_to_le64(FIELD_PREP(IRDMA_FEATURE_TYPE,
					IRDMA_FEATURE_HW_VERSION_INFO) |
			     FIELD_PREP(IRDMA_FEATURE_INFO, IRDMA_GEN_2));
	if (isim_dma_write(sdev, le64_to_cpu(wqe[4]), buf, sizeof(buf))) {
		res->maj = IRDMA_CQP_MAJ_ERROR;
		res->min = ISIM_MIN_DMA_FAULT;
	}
}

/* Fault injection: true if this command is to fail. */
static bool isim_cqp_inject(struct isim_dev *sdev, u8 op,
			    struct isim_cqp_result *res)
{
	struct isim_faults *f = &sdev->faults;

	/*
	 * Never in the trap (NMI-like): it runs no command that is to be held
	 * back, but the request may have been made since it looked.
	 */
	if (READ_ONCE(f->delay_op) == op && !in_nmi()) {
		msleep(READ_ONCE(f->delay_ms));
		res->held = true;
	}
	if (READ_ONCE(f->fail_op) != op)
		return false;
	if (READ_ONCE(f->fail_count) <= 1) {
		WRITE_ONCE(f->fail_op, -1);
		WRITE_ONCE(f->fail_count, 1);
	} else {
		WRITE_ONCE(f->fail_count, f->fail_count - 1);
	}
	sdev->stats.faults_injected++;
	res->maj = IRDMA_CQP_MAJ_ERROR;
	res->min = ISIM_MIN_INJECTED;
	dev_dbg(&sdev->dev, "CQP opcode %#x failed on request\n", op);
	return true;
}

/*
 * GATHER_STATS: the function's counters, as the engine keeps them. No
 * traffic is modelled yet, so every counter reads zero.
 */
static void isim_cqp_gather_stats(struct isim_dev *sdev, const __le64 *wqe,
				  struct isim_cqp_result *res)
{
	__le64 buf[IRDMA_STATS_BUF_SIZE / 8] = {};
	int i;

	/* Counters wrap at their width, as the hardware's do. */
	for (i = 0; i < IRDMA_STAT_COUNT; i++) {
		struct irdma_stat_loc loc = irdma_stat_loc(i);
		u64 v = sdev->counters[i] & GENMASK_ULL(loc.width - 1, 0);

		buf[loc.byte / 8] |= cpu_to_le64(v << loc.bit);
	}
	if (isim_dma_write(sdev, le64_to_cpu(wqe[4]), buf, sizeof(buf))) {
		res->maj = IRDMA_CQP_MAJ_ERROR;
		res->min = ISIM_MIN_DMA_FAULT;
	}
}

/* NOP, and SHMC_PAGES_ALLOCATED: the HMC's pages need nothing more here. */
static void isim_cqp_nop(struct isim_dev *sdev, const __le64 *wqe,
			 struct isim_cqp_result *res)
{
}

typedef void (*isim_cqp_handler)(struct isim_dev *sdev, const __le64 *wqe,
				struct isim_cqp_result *res);

/* What each opcode the engine knows does; any other fails as unknown. */
static const isim_cqp_handler isim_cqp_handlers[] = {
	/* the CQP itself and the HMC */
	[IRDMA_CQPOP_NOP] = isim_cqp_nop,
	[IRDMA_CQPOP_QUERY_FPM_VAL] = isim_hmc_query,
	[IRDMA_CQPOP_COMMIT_FPM_VAL] = isim_hmc_commit,
	[IRDMA_CQPOP_UPDATE_PE_SDS] = isim_hmc_update_sds,
	[IRDMA_CQPOP_SHMC_PAGES_ALLOCATED] = isim_cqp_nop,
	[IRDMA_CQPOP_QUERY_RDMA_FEATURES] = isim_cqp_features,
	[IRDMA_CQPOP_MANAGE_ARP] = isim_hmc_manage_arp,
	[IRDMA_CQPOP_GATHER_STATS] = isim_cqp_gather_stats,
	/* QPs and their scheduling */
	[IRDMA_CQPOP_CREATE_QP] = isim_qp_create,
	[IRDMA_CQPOP_MODIFY_QP] = isim_qp_modify,
	[IRDMA_CQPOP_DESTROY_QP] = isim_qp_destroy,
	[IRDMA_CQPOP_FLUSH_WQES] = isim_qp_flush,
	[IRDMA_CQPOP_SUSPEND_QP] = isim_qp_suspend,
	[IRDMA_CQPOP_RESUME_QP] = isim_qp_resume,
	[IRDMA_CQPOP_MANAGE_PUSH_PAGES] = isim_push_manage,
	[IRDMA_CQPOP_WORK_SCHED_NODE] = isim_ws_node,
	/* where TCP segments go (iWARP) */
	[IRDMA_CQPOP_MANAGE_APBVT] = isim_steer_apbvt,
	[IRDMA_CQPOP_MANAGE_QUAD_HASH_TABLE_ENTRY] = isim_steer_qhash,
	/* SRQs */
	[IRDMA_CQPOP_CREATE_SRQ] = isim_srq_create,
	[IRDMA_CQPOP_MODIFY_SRQ] = isim_srq_modify,
	[IRDMA_CQPOP_DESTROY_SRQ] = isim_srq_destroy,
	/* memory keys, address handles, multicast groups */
	[IRDMA_CQPOP_ALLOC_STAG] = isim_mr_alloc,
	[IRDMA_CQPOP_REG_MR] = isim_mr_reg,
	[IRDMA_CQPOP_DEALLOC_STAG] = isim_mr_dealloc,
	[IRDMA_CQPOP_CREATE_ADDR_HANDLE] = isim_ah_cmd,
	[IRDMA_CQPOP_DESTROY_ADDR_HANDLE] = isim_ah_cmd,
	[IRDMA_CQPOP_CREATE_MCAST_GRP] = isim_mg_cmd,
	[IRDMA_CQPOP_MODIFY_MCAST_GRP] = isim_mg_cmd,
	[IRDMA_CQPOP_DESTROY_MCAST_GRP] = isim_mg_cmd,
	/* CQs and event queues */
	[IRDMA_CQPOP_CREATE_CQ] = isim_cq_create,
	[IRDMA_CQPOP_MODIFY_CQ] = isim_cq_modify,
	[IRDMA_CQPOP_DESTROY_CQ] = isim_cq_destroy,
	[IRDMA_CQPOP_CREATE_CEQ] = isim_ceq_create,
	[IRDMA_CQPOP_DESTROY_CEQ] = isim_ceq_destroy,
	[IRDMA_CQPOP_CREATE_AEQ] = isim_aeq_create,
	[IRDMA_CQPOP_DESTROY_AEQ] = isim_aeq_destroy,
};

static void isim_cqp_execute(struct isim_dev *sdev, const __le64 *wqe,
			     struct isim_cqp_result *res)
{
	u8 op = FIELD_GET(IRDMA_CQPSQ_OPCODE, le64_to_cpu(wqe[3]));

	if (isim_cqp_inject(sdev, op, res))
		return;
	if (op >= ARRAY_SIZE(isim_cqp_handlers) || !isim_cqp_handlers[op]) {
		res->maj = IRDMA_CQP_MAJ_ERROR;
		res->min = ISIM_MIN_BAD_OPCODE;
		return;
	}
	isim_cqp_handlers[op](sdev, wqe, res);
}

/*
 * When the running batch was rung. A thread that finds a write by looking
 * before the write's trap has run (the trap comes a little after the
 * store) knows only that it came after its last look, up to a couple of
 * milliseconds before when idle; the trap's time, if it has come since,
 * is the store's, as for a batch the trap found.
 */
static u64 isim_cqp_batch_start(struct isim_dev *sdev)
{
	struct isim_cqp *cqp = &sdev->cqp;
	u64 rung;

	if (cqp->batch_trapped)
		return cqp->batch_since;
	rung = atomic64_read(&sdev->db.rung_ns[ISIM_TRAP_CQPDB]);
	if (rung > cqp->batch_since &&
	    READ_ONCE(sdev->db.rung_head) == cqp->batch_end + 1) {
		cqp->batch_since = rung;
		cqp->batch_trapped = true;
	}
	return cqp->batch_since;
}

/*
 * The completion: CQPTAIL always, and a CQE once the CCQ exists; the CCQ's
 * event, if one is due, is left to the thread (isim_cqp_notify()).
 */
static void isim_cqp_complete(struct isim_dev *sdev, u32 idx, u8 op,
			      const struct isim_cqp_result *res)
{
	struct isim_cqp *cqp = &sdev->cqp;
	struct isim_cq *ccq = isim_cq_find(sdev, 0);
	u32 tail = FIELD_PREP(IRDMA_CQPTAIL_WQTAIL, cqp->tail);
	bool notify = false;
	u64 cqe[4] = {}, since;

	lockdep_assert_held(&sdev->cqp_lock);
	sdev->stats.cqp_ops++;
	if (res->maj) {
		sdev->stats.cqp_errors++;
		isim_wr32(sdev, IRDMA_PFPE_CQPERRCODES,
			  FIELD_PREP(IRDMA_CQPERRCODES_MAJOR, res->maj) |
			 FIELD_PREP(IRDMA_CQPERRCODES_MINOR, res->min));
		tail |= IRDMA_CQPTAIL_OP_ERR;
	}
	if (ccq) {
		cqe[1] = cqp->compl_ctx;
		cqe[2] = FIELD_PREP(IRDMA_CCQE_OPRETVAL, res->ret_val);
		cqe[3] = FIELD_PREP(IRDMA_CCQE_WQEIDX, idx) |
			 FIELD_PREP(IRDMA_CCQE_MINERR, res->min) |
			 FIELD_PREP(IRDMA_CCQE_MAJERR, res->maj) |
			 FIELD_PREP(IRDMA_CCQE_ERROR, !!res->maj);
		if (!isim_cq_write(sdev, ccq, cqe, &notify) && notify &&
		    !cqp->notify_due) {
			cqp->notify_due = true;
			cqp->notify_since = isim_lat_now();
		}
	}
	/* The CQE is in place before the tail says the WQE is done. */
	wmb();
	isim_wr32(sdev, IRDMA_PFPE_CQPTAIL, tail);
	/*
	 * A command held back on request took what it was asked to take; the
	 * WQEs behind it are timed from its completion.
	 */
	if (res->held) {
		cqp->batch_since = isim_lat_now();
		return;
	}
	/* Before batch_trapped is read: it may set it. */
	since = isim_cqp_batch_start(sdev);
	isim_lat_record(sdev, ISIM_LAT_CQP_CMD, since, cqp->picked_ns, op,
			cqp->batch_trapped);
}

/* Move past the WQE at the tail. */
static void isim_cqp_advance(struct isim_cqp *cqp)
{
	if (++cqp->tail == cqp->sq_size) {
		cqp->tail = 0;
		cqp->polarity = !cqp->polarity;
	}
}

/*
 * The next WQE to execute, if the driver rang one, into @wqe; starts the
 * clock of a new batch of rung WQEs. Under the CQP lock.
 */
static bool isim_cqp_next(struct isim_dev *sdev, __le64 *wqe)
{
	struct isim_cqp *cqp = &sdev->cqp;
	u64 now = isim_lat_now(), rung;
	u32 head;

	if (!cqp->up || cqp->busy)
		return false;
	/* The trap's time, unless older than a look that found nothing. */
	rung = isim_doorbell_take(sdev, ISIM_TRAP_CQPDB);
	head = isim_rd32(sdev, IRDMA_PFPE_CQPDB);
	if (head >= cqp->sq_size || head == cqp->tail) {
		cqp->looked_ns = now;
		return false;
	}
	if (cqp->tail == cqp->batch_end) {
		if (!rung && isim_doorbell_leave(sdev, ISIM_TRAP_CQPDB, head,
						 cqp->looked_ns, now))
			return false;
		cqp->batch_since = max(rung, cqp->looked_ns);
		cqp->batch_trapped = rung;
		cqp->batch_cpu = rung ? READ_ONCE(sdev->db.rung_cpu) : -1;
		if (!rung)
			atomic64_inc(&sdev->db.found);
		cqp->batch_end = head;
		trace_irdma_sim_reg(sdev->id, IRDMA_PFPE_CQPDB, head);
	} else if (rung) {
		/*
		 * Rung again while a batch runs, or the trap of a batch a look
		 * found first: its clock already started, its ringer is known.
		 */
		cqp->batch_end = head;
		if (cqp->batch_cpu < 0)
			cqp->batch_cpu = READ_ONCE(sdev->db.rung_cpu);
	}
	cqp->picked_ns = now;
	memcpy(wqe, cqp->sq_va + cqp->tail * IRDMA_CQP_WQE_SIZE,
	       IRDMA_CQP_WQE_SIZE);
	/* Rung but not yet valid: look again later. */
	return !!(le64_to_cpu(wqe[3]) & IRDMA_CQPSQ_WQEVALID) == cqp->polarity;
}

/* An executed WQE done: completed, and the ring moves on. */
static void isim_cqp_done(struct isim_dev *sdev, const __le64 *wqe,
			  const struct isim_cqp_result *res)
{
	struct isim_cqp *cqp = &sdev->cqp;
	u32 idx = cqp->tail;

	isim_cqp_advance(cqp);
	trace_irdma_sim_cqp(sdev->id, idx, wqe, res->maj, res->min, res->ret_val);
	isim_cqp_complete(sdev, idx, FIELD_GET(IRDMA_CQPSQ_OPCODE, le64_to_cpu(wqe[3])),
			  res);
}

/**
 * isim_cqp_notify - post the CCQ's event, if completions written under the
 * CQP lock owe one
 * @sdev: the simulated function
 *
 * Posted by the thread whose completion owes it, or for the trap by its
 * irq_work, right after it (doorbell.c): on silicon the event follows the
 * CQE at once, and a driver that finds the CQE before its event and goes
 * on must not get the event long after.
 *
 * Context: a thread, or hard interrupt context (the trap's irq_work).
 * Return: true if an event was owed.
 */
bool isim_cqp_notify(struct isim_dev *sdev)
{
	u64 ctx = 0, since = 0;
	struct isim_cq *ccq;
	unsigned long flags;
	bool post = false;
	u32 ceq_id = 0;
	bool due;

	if (!READ_ONCE(sdev->cqp.notify_due))
		return false;
	spin_lock_irqsave(&sdev->cqp_lock, flags);
	due = sdev->cqp.notify_due;
	sdev->cqp.notify_due = false;
	ccq = isim_cq_find(sdev, 0);
	if (due && ccq && ccq->ceq_valid) {
		post = true;
		ceq_id = ccq->ceq_id;
		ctx = ccq->ctx;
		since = sdev->cqp.notify_since;
	}
	spin_unlock_irqrestore(&sdev->cqp_lock, flags);
	if (post) {
		/* Timed to the post: the driver's handler may run inside it. */
		isim_lat_record(sdev, ISIM_LAT_CCQ_EVENT, since, 0, 0, true);
		isim_ceq_post(sdev, ceq_id, ctx);
	}
	return due;
}

/*
 * Commands the trap may execute: nothing allocated or freed, no lock but
 * the CQP's, host memory through the trap-safe checks. These are the
 * commands a driver busy-waits for: the stock driver polls CQPTAIL or the
 * CCQ for about 10 ms for the HMC's setup, the CCQ's creation and end,
 * CEQ 0's, and the scheduler's nodes while it has no CEQ; address handles
 * are made with interrupts off. The rest needs a thread.
 */
static bool isim_cqp_atomic(struct isim_dev *sdev, const __le64 *wqe)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u8 op = FIELD_GET(IRDMA_CQPSQ_OPCODE, hdr);
	struct isim_cq *ccq = isim_cq_find(sdev, 0);

	if (READ_ONCE(sdev->faults.delay_op) == op)
		return false;
	if (ccq && !ccq->ring_va)
		return false;
	switch (op) {
	case IRDMA_CQPOP_NOP:
	case IRDMA_CQPOP_SHMC_PAGES_ALLOCATED:
	case IRDMA_CQPOP_QUERY_FPM_VAL:
	case IRDMA_CQPOP_COMMIT_FPM_VAL:
	case IRDMA_CQPOP_UPDATE_PE_SDS:
	case IRDMA_CQPOP_QUERY_RDMA_FEATURES:
	case IRDMA_CQPOP_WORK_SCHED_NODE:
		return true;
	case IRDMA_CQPOP_CREATE_CEQ:
	case IRDMA_CQPOP_DESTROY_CEQ:
		/* CEQ 0's; a driver sleeps for the others' (stock: through the CCQ). */
		return !FIELD_GET(IRDMA_CQPSQ_CEQ_CEQID, hdr);
	case IRDMA_CQPOP_CREATE_CQ:
		/* The CCQ, in memory the trap can write its completion to. */
		return !FIELD_GET(IRDMA_CQCMD_CQID, hdr) && !(hdr & IRDMA_CQCMD_VIRTMAP);
	case IRDMA_CQPOP_DESTROY_CQ:
		return !FIELD_GET(IRDMA_CQCMD_CQID, hdr);
	case IRDMA_CQPOP_CREATE_ADDR_HANDLE:
	case IRDMA_CQPOP_DESTROY_ADDR_HANDLE:
		return isim_ah_cmd_atomic(sdev, wqe);
	default:
		return false;
	}
}

/**
 * isim_cqp_run - execute the CQP WQEs the driver has rung in
 * @sdev: the simulated function
 * @young: set if a WQE was left for being rung less than ISIM_CQP_MIN_NS ago
 *	(sdev->cqp.due_ns then says when it falls due)
 *
 * A WQE the trap could not execute is answered by the engine thread of the
 * CPU that rang it at once (it runs once the driver there lets the CPU go,
 * past the driver's first look at the CCQ), by others only ISIM_CQP_MIN_NS
 * after its doorbell; one the trap could execute (it was busy) at once.
 *
 * A WQE is executed outside the CQP lock (commands may sleep), with the
 * CQP marked busy so that the trap leaves the ring alone meanwhile.
 *
 * Return: true if any WQE was executed.
 */
bool isim_cqp_run(struct isim_dev *sdev, bool *young)
{
	__le64 wqe[IRDMA_CQP_WQE_SIZE / 8];
	bool work = false;

	WRITE_ONCE(sdev->cqp.due_ns, 0);
	for (;;) {
		struct isim_cqp_result res = {};

		spin_lock_irq(&sdev->cqp_lock);
		if (!isim_cqp_next(sdev, wqe)) {
			spin_unlock_irq(&sdev->cqp_lock);
			break;
		}
		/*
		 * Timed from this look, as the latency record times it (a trap
		 * on another CPU may have stamped the doorbell after it).
		 */
		if ((s64)(sdev->cqp.picked_ns - sdev->cqp.batch_since) <
		    (s64)ISIM_CQP_MIN_NS && !isim_cqp_atomic(sdev, wqe) &&
		    !isim_engine_ringer_here(sdev, sdev->cqp.batch_cpu)) {
			WRITE_ONCE(sdev->cqp.due_ns,
				   sdev->cqp.batch_since + ISIM_CQP_MIN_NS);
			spin_unlock_irq(&sdev->cqp_lock);
			*young = true;
			break;
		}
		sdev->cqp.busy = true;
		spin_unlock_irq(&sdev->cqp_lock);

		isim_cqp_execute(sdev, wqe, &res);

		spin_lock_irq(&sdev->cqp_lock);
		sdev->cqp.busy = false;
		isim_cqp_done(sdev, wqe, &res);
		spin_unlock_irq(&sdev->cqp_lock);
		work = true;
	}
	return isim_cqp_notify(sdev) || work;
}
EXPORT_SYMBOL_IF_KUNIT(isim_cqp_run);

/**
 * isim_cqp_trap_wait_begin - a trap is about to try the CQP lock
 * @sdev: the simulated function
 * @wait: the trap's wait, begun here
 *
 * Context: the debug exception of a trapped write (NMI-like).
 */
void isim_cqp_trap_wait_begin(struct isim_dev *sdev, struct isim_trap_wait *wait)
{
	isim_engine_hold_meet(sdev);
	wait->start = isim_lat_now();
	wait->counted = false;
}

/**
 * isim_cqp_trap_patient - whether the trap may go on trying the CQP lock
 * @sdev: the simulated function
 * @wait: the trap's wait
 *
 * The trap never waits on the storing CPU itself: no driver stores to a
 * trapped register under the CQP lock, and the engine's own store
 * (CCQPLOW back to idle) is told apart before. A thread holds the lock
 * with interrupts off for a few steps, unless the host takes its CPU away
 * meanwhile (tens of milliseconds under emulation). Left to the threads,
 * the write would wait for that one anyway, and a driver that spins for
 * its answer (the stock driver: its CQP's creation, a polled command)
 * spins on this CPU, whose own thread cannot run: it would time out. So
 * the trap waits for the lock as for a slow register write, up to
 * ISIM_TRAP_WAIT_NS; then the threads take the work. A wait of a
 * millisecond or more is counted.
 *
 * Context: the debug exception of a trapped write (NMI-like).
 * Return: true to try again.
 */
bool isim_cqp_trap_patient(struct isim_dev *sdev, struct isim_trap_wait *wait)
{
	u64 waited = isim_lat_now() - wait->start;

	if (waited >= NSEC_PER_MSEC && !wait->counted) {
		wait->counted = true;
		atomic64_inc(&sdev->db.lock_waits);
	}
	if (waited > ISIM_TRAP_WAIT_NS)
		return false;
	cpu_relax();
	return true;
}

/**
 * isim_cqp_trap_await_cleanup - wait in the CCQPLOW trap for the state of
 * the last CQP to go, before creating the next
 * @sdev: the simulated function
 *
 * A driver that binds again right after its CQP went down polls for the
 * new one (the stock driver spins for 10 ms) on the CPU that wrote, whose
 * engine thread cannot run meanwhile. The threads of the other CPUs clear
 * that state, unless the host took their CPU away (tens of milliseconds
 * under emulation) with the engine lock held: the write then takes that
 * long, as a slow register write would, rather than leave the driver to
 * time out. Bounded (ISIM_TRAP_WAIT_NS): a thread that needs this CPU
 * first gets it after that.
 *
 * Context: the debug exception of a trapped write (NMI-like).
 * Return: true if the state is gone, false if it is still to go.
 */
bool isim_cqp_trap_await_cleanup(struct isim_dev *sdev)
{
	u64 start = isim_lat_now();

	/* Acquire: pairs with the cleanup's release, its state gone before. */
	while (smp_load_acquire(&sdev->cqp_cleanup_due)) {
		/* With no other CPU, no thread can clear it meanwhile. */
		if (num_online_cpus() < 2 ||
		    isim_lat_now() - start > ISIM_TRAP_WAIT_NS)
			return false;
		cpu_relax();
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(isim_cqp_trap_await_cleanup);

/**
 * isim_cqp_fast - execute rung CQP WQEs right in the CQPDB trap
 * @sdev: the simulated function
 *
 * Takes the CCQ's arm request first (its doorbell is not trapped), so that
 * a completion written here raises the event the CCQ is armed for. Then
 * runs the WQEs at the head of the ring that need nothing but the engine's
 * tables, and stops at the first that needs a thread.
 *
 * Context: the debug exception of a trapped CQPDB write (NMI-like).
 * Return: what is left for after the trap: ISIM_TRAP_LEFT_THREADS (with
 * ISIM_TRAP_LEFT_RINGER if for the thread of the CPU that rang, see
 * isim_cqp_run()), ISIM_TRAP_LEFT_EVENT (the CCQ's event, for the trap's
 * irq_work), or 0.
 */
unsigned int isim_cqp_fast(struct isim_dev *sdev)
{
	__le64 wqe[IRDMA_CQP_WQE_SIZE / 8];
	struct isim_trap_wait wait;
	unsigned int left = 0;

	isim_cqp_trap_wait_begin(sdev, &wait);
	while (!spin_trylock(&sdev->cqp_lock)) {
		if (!isim_cqp_trap_patient(sdev, &wait)) {
			atomic64_inc(&sdev->db.left);
			return ISIM_TRAP_LEFT_THREADS;
		}
	}
	if (sdev->cqp.up && isim_ccq_take_arm(sdev) && !sdev->cqp.notify_due) {
		sdev->cqp.notify_due = true;
		sdev->cqp.notify_since = isim_lat_now();
	}
	while (isim_cqp_next(sdev, wqe)) {
		struct isim_cqp_result res = {};

		if (!isim_cqp_atomic(sdev, wqe)) {
			left |= ISIM_TRAP_LEFT_THREADS | ISIM_TRAP_LEFT_RINGER;
			break;
		}
		isim_cqp_execute(sdev, wqe, &res);
		isim_cqp_done(sdev, wqe, &res);
		atomic64_inc(&sdev->db.fast);
	}
	if (sdev->cqp.notify_due)
		left |= ISIM_TRAP_LEFT_EVENT;
	spin_unlock(&sdev->cqp_lock);
	if (left & ISIM_TRAP_LEFT_THREADS)
		atomic64_inc(&sdev->db.left);
	return left;
}
