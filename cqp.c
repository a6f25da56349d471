// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The CQP (control QP) and the life of a request on it.
 *
 * The CQP is created through registers: its host context's address goes
 * to CCQPHIGH/CCQPLOW and CCQPSTATUS tells how it went. Commands, built by
 * ctrl*.c, are copied into its ring and published by their header's valid
 * bit, then CQPDB is rung.
 *
 * Before the CCQ exists, a command completes when CQPTAIL moves past it.
 * After, its completion arrives on the CCQ: the waiter registers itself
 * under the WQE's index, and whoever drains the CCQ (the CEQ 0 interrupt,
 * or the waiter itself while it waits) hands it the result.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/iopoll.h>
#include <linux/slab.h>

#include "main.h"

#define IRDMA_CQP_TIMEOUT	(5 * HZ)
/* A register the engine answers through: looked at ~10 us apart, for 1 s. */
#define IRDMA_CQP_REG_POLL_US	10
#define IRDMA_CQP_REG_TIMEOUT_US	USEC_PER_SEC

/**
 * struct irdma_cqp_request - a waiter for one CQP command
 * @done: completed when the result is in
 * @compl: the result
 * @flushed: released without a result (the CQP went away)
 */
struct irdma_cqp_request {
	struct completion done;
	struct irdma_cqp_compl compl;
	bool flushed;
};

/**
 * irdma_cqp_create - create the CQP through its host context
 * @fn: the function; its init block is allocated
 *
 * Return: 0, -ENOMEM, -EIO if the hardware refused the context, or
 * -ETIMEDOUT if it never answered.
 */
int irdma_cqp_create(struct irdma_fn *fn)
{
	struct irdma_cqp *cqp = &fn->cqp;
	__le64 *ctx = fn->init_mem.va + IRDMA_INIT_CQP_CTX;
	dma_addr_t ctx_pa = fn->init_mem.pa + IRDMA_INIT_CQP_CTX;
	u32 size = IRDMA_CQP_SW_SQSIZE;
	u32 status;
	int err;

	spin_lock_init(&cqp->lock);
	err = irdma_dma_alloc(fn, &cqp->sq, size * IRDMA_CQP_WQE_SIZE, GFP_KERNEL);
	if (err)
		return err;
	err = irdma_dma_alloc(fn, &cqp->sdbuf, size * IRDMA_UPESD_BUF_SIZE,
			      GFP_KERNEL);
	if (err)
		goto err_free_sq;
	cqp->reqs = kcalloc(size, sizeof(*cqp->reqs), GFP_KERNEL);
	if (!cqp->reqs) {
		err = -ENOMEM;
		goto err_free_sdbuf;
	}
	irdma_ring_init(&cqp->ring, size);
	cqp->polarity = true;

	memset(ctx, 0, IRDMA_CQPHC_SIZE);
	ctx[0] = cpu_to_le64(FIELD_PREP(IRDMA_CQPHC_SQSIZE, ilog2(size / 4) + 1) |
			     FIELD_PREP(IRDMA_CQPHC_PROTOCOL_USED,
					fn->res.protocol == IRDMA_PROTOCOL_ROCEV2 ?
					IRDMA_PROTOCOL_USED_ROCE_ONLY :
					IRDMA_PROTOCOL_USED_IWARP_ONLY));
	ctx[1] = cpu_to_le64(cqp->sq.pa);
	ctx[2] = cpu_to_le64(FIELD_PREP(IRDMA_CQPHC_HMC_PROFILE,
					IRDMA_HMC_PROFILE_DEFAULT));
	/* Completions echo this back; it names the function. */
	ctx[3] = cpu_to_le64((uintptr_t)fn);
	ctx[4] = cpu_to_le64(FIELD_PREP(IRDMA_CQPHC_HW_MAJVER,
					IRDMA_HW_MAJVER_GEN_2));

	irdma_wr32(fn, IRDMA_PFPE_CQPTAIL, 0);
	irdma_wr32(fn, IRDMA_PFPE_CQPDB, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPSTATUS, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPHIGH, upper_32_bits(ctx_pa));
	irdma_wr32(fn, IRDMA_PFPE_CCQPLOW, lower_32_bits(ctx_pa));

	/* Timed out or not, the status read last tells. */
	read_poll_timeout(irdma_rd32, status, status, IRDMA_CQP_REG_POLL_US,
			  IRDMA_CQP_REG_TIMEOUT_US, true, fn, IRDMA_PFPE_CCQPSTATUS);
	if (status & IRDMA_CCQPSTATUS_ERR) {
		u32 codes = irdma_rd32(fn, IRDMA_PFPE_CQPERRCODES);

		dev_err(fn->res.dev, "CQP create failed: major %#lx minor %#lx\n",
			FIELD_GET(IRDMA_CQPERRCODES_MAJOR, codes),
			FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes));
		err = -EIO;
		goto err_take_down;
	}
	if (!(status & IRDMA_CCQPSTATUS_DONE)) {
		dev_err(fn->res.dev, "CQP create timed out\n");
		err = -ETIMEDOUT;
		goto err_take_down;
	}
	return 0;

err_take_down:
	irdma_wr32(fn, IRDMA_PFPE_CCQPHIGH, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPLOW, 0);
	kfree(cqp->reqs);
	cqp->reqs = NULL;
err_free_sdbuf:
	irdma_dma_free(fn, &cqp->sdbuf);
err_free_sq:
	irdma_dma_free(fn, &cqp->sq);
	return err;
}

/* Release every waiter without a result: the CQP is going away. */
static void irdma_cqp_flush_waiters(struct irdma_fn *fn)
{
	struct irdma_cqp *cqp = &fn->cqp;
	unsigned long flags;
	u32 i;

	if (!cqp->reqs)
		return;
	spin_lock_irqsave(&cqp->lock, flags);
	for (i = 0; i < cqp->ring.size; i++) {
		if (!cqp->reqs[i])
			continue;
		cqp->reqs[i]->flushed = true;
		complete(&cqp->reqs[i]->done);
		cqp->reqs[i] = NULL;
	}
	spin_unlock_irqrestore(&cqp->lock, flags);
}

/**
 * irdma_cqp_destroy - take the CQP down and free it
 * @fn: the function
 *
 * Waiters still outstanding are released with an error. If the hardware
 * does not confirm, its rings are kept (leaked) rather than freed.
 *
 * Return: 0, or -ETIMEDOUT if the CQP did not go down.
 */
int irdma_cqp_destroy(struct irdma_fn *fn)
{
	struct irdma_cqp *cqp = &fn->cqp;
	u32 status;
	int err;

	irdma_wr32(fn, IRDMA_PFPE_CCQPHIGH, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPLOW, 0);
	err = read_poll_timeout(irdma_rd32, status, !(status & IRDMA_CCQPSTATUS_DONE),
				IRDMA_CQP_REG_POLL_US, IRDMA_CQP_REG_TIMEOUT_US,
				false, fn, IRDMA_PFPE_CCQPSTATUS);
	if (err)
		dev_warn(fn->res.dev, "CQP destroy timed out\n");

	irdma_cqp_flush_waiters(fn);
	kfree(cqp->reqs);
	cqp->reqs = NULL;
	irdma_dma_release(fn, &cqp->sdbuf, !err);
	irdma_dma_release(fn, &cqp->sq, !err);
	return err;
}

/**
 * irdma_cqp_post - place a command on the CQP and ring the doorbell
 * @fn: the function
 * @cmd: the command
 * @idx: returns the WQE's index in the ring
 *
 * Context: with the CQP lock held.
 * Return: 0, or -EBUSY when the ring is full.
 */
int irdma_cqp_post(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd,
		   u32 *idx)
{
	struct irdma_cqp *cqp = &fn->cqp;
	__le64 *wqe;
	int i;

	lockdep_assert_held(&cqp->lock);
	if (irdma_ring_produce(&cqp->ring, 1, 0, idx))
		return -EBUSY;

	wqe = cqp->sq.va + *idx * IRDMA_CQP_WQE_SIZE;
	for (i = 0; i < ARRAY_SIZE(cmd->q); i++)
		if (i != IRDMA_CQP_WQE_HDR_OFFSET / 8)
			wqe[i] = cpu_to_le64(cmd->q[i]);
	if (cmd->ext_len) {
		dma_addr_t slot = cqp->sdbuf.pa + *idx * IRDMA_UPESD_BUF_SIZE;

		memcpy(cqp->sdbuf.va + *idx * IRDMA_UPESD_BUF_SIZE, cmd->ext,
		       cmd->ext_len);
		wqe[2] = cpu_to_le64(cmd->q[2] | slot);
	}
	irdma_cqp_wqe_set_hdr(wqe, cmd->q[3] |
			      FIELD_PREP(IRDMA_CQPSQ_WQEVALID, cqp->polarity));
	if (!cqp->ring.head)
		cqp->polarity = !cqp->polarity;
	irdma_wr32(fn, IRDMA_PFPE_CQPDB, cqp->ring.head);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cqp_post);

/*
 * Take the next completion from the CCQ: the index of the CQP WQE it
 * completes into @idx, how it completed into @compl. Under the CQP lock.
 * Return: 0, -ENOENT when there is none, -EIO for a CQE that does not
 * belong to this function's CQP (it is consumed all the same).
 */
static int irdma_ccq_next(struct irdma_fn *fn, u32 *idx, struct irdma_cqp_compl *compl)
{
	struct irdma_ccq *ccq = &fn->ccq;
	__le64 *cqe = ccq->ring.va + ccq->head * IRDMA_CQE_SIZE;
	u64 q3 = le64_to_cpu(READ_ONCE(cqe[3]));
	bool ours;

	lockdep_assert_held(&fn->cqp.lock);
	if (!!(q3 & IRDMA_CQE_VALID) != ccq->polarity)
		return -ENOENT;
	dma_rmb();

	ours = le64_to_cpu(cqe[1]) == (uintptr_t)fn;
	*idx = FIELD_GET(IRDMA_CCQE_WQEIDX, q3);
	compl->min = FIELD_GET(IRDMA_CCQE_MINERR, q3);
	compl->maj = q3 & IRDMA_CCQE_ERROR ?
		     FIELD_GET(IRDMA_CCQE_MAJERR, q3) : IRDMA_CQP_MAJ_NO_ERROR;
	compl->ret_val = FIELD_GET(IRDMA_CCQE_OPRETVAL, le64_to_cpu(cqe[2]));

	if (++ccq->head == IRDMA_CCQ_SIZE) {
		ccq->head = 0;
		ccq->polarity = !ccq->polarity;
	}
	ccq->shadow[0] = cpu_to_le64(FIELD_PREP(IRDMA_CQ_DBSA_CQEIDX, ccq->head));
	return ours ? 0 : -EIO;
}

/**
 * irdma_ccq_arm - ask for an event at the CCQ's next completion
 * @fn: the function
 *
 * Context: with the CQP lock held.
 */
void irdma_ccq_arm(struct irdma_fn *fn)
{
	__le64 *word = &fn->ccq.shadow[4];
	u64 arm = le64_to_cpu(*word);
	u8 seq = FIELD_GET(IRDMA_CQ_DBSA_ARM_SEQ_NUM, arm) + 1;

	lockdep_assert_held(&fn->cqp.lock);
	arm &= IRDMA_CQ_DBSA_SW_CQ_SELECT | IRDMA_CQ_DBSA_ARM_NEXT_SE;
	arm |= FIELD_PREP(IRDMA_CQ_DBSA_ARM_SEQ_NUM, seq) | IRDMA_CQ_DBSA_ARM_NEXT;
	*word = cpu_to_le64(arm);
	dma_wmb();
	irdma_wr32(fn, IRDMA_PFPE_CQARM, 0);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ccq_arm);

/* Before the CCQ: the command is done when CQPTAIL moves. */
static int irdma_cqp_exec_polled(struct irdma_fn *fn,
				 const struct irdma_cqp_wqe *cmd,
				 struct irdma_cqp_compl *compl)
{
	struct irdma_cqp *cqp = &fn->cqp;
	u32 before, val, idx;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&cqp->lock, flags);
	before = FIELD_GET(IRDMA_CQPTAIL_WQTAIL,
			   irdma_rd32(fn, IRDMA_PFPE_CQPTAIL));
	err = irdma_cqp_post(fn, cmd, &idx);
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (err)
		return err;

	err = read_poll_timeout(irdma_rd32, val,
				FIELD_GET(IRDMA_CQPTAIL_WQTAIL, val) != before,
				IRDMA_CQP_REG_POLL_US, IRDMA_CQP_REG_TIMEOUT_US,
				false, fn, IRDMA_PFPE_CQPTAIL);
	if (err)
		return err;

	spin_lock_irqsave(&cqp->lock, flags);
	irdma_ring_consume(&cqp->ring, 1);
	spin_unlock_irqrestore(&cqp->lock, flags);

	memset(compl, 0, sizeof(*compl));
	if (val & IRDMA_CQPTAIL_OP_ERR) {
		u32 codes = irdma_rd32(fn, IRDMA_PFPE_CQPERRCODES);

		compl->maj = FIELD_GET(IRDMA_CQPERRCODES_MAJOR, codes);
		compl->min = FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes);
		return -EIO;
	}
	return 0;
}

/**
 * irdma_cqp_process_ccq - hand the CCQ's completions to their waiters
 * @fn: the function
 *
 * Safe to call from any context that may take a spinlock, any number of
 * times: each completion is delivered once.
 */
void irdma_cqp_process_ccq(struct irdma_fn *fn)
{
	struct irdma_cqp *cqp = &fn->cqp;
	struct irdma_cqp_request *req;
	struct irdma_cqp_compl compl;
	unsigned long flags;
	u32 idx, taken = 0;
	int err;

	spin_lock_irqsave(&cqp->lock, flags);
	while (fn->ccq.live) {
		err = irdma_ccq_next(fn, &idx, &compl);
		if (err == -ENOENT)
			break;
		taken++;
		/* One completion per WQE, in the order they were posted. */
		irdma_ring_consume(&cqp->ring, 1);
		if (err || idx >= cqp->ring.size) {
			dev_err_ratelimited(fn->res.dev, "stray CCQ completion\n");
			continue;
		}
		req = cqp->reqs[idx];
		cqp->reqs[idx] = NULL;
		if (!req)
			continue;
		req->compl = compl;
		complete(&req->done);
	}
	if (taken && fn->ccq.armed)
		irdma_ccq_arm(fn);
	spin_unlock_irqrestore(&cqp->lock, flags);
}

/*
 * Where the CCQ's creation stands: 0 still pending, 1 done, -EIO if the
 * CCQ reported it failed, -ENXIO if CQPTAIL says the CQP refused it (no
 * CCQ to report on).
 */
static int irdma_ccq_create_state(struct irdma_fn *fn,
				  struct irdma_cqp_request *req, u32 tail)
{
	u32 val;

	irdma_cqp_process_ccq(fn);
	if (try_wait_for_completion(&req->done))
		return req->compl.maj ? -EIO : 1;
	val = irdma_rd32(fn, IRDMA_PFPE_CQPTAIL);
	if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, val) != tail &&
	    (val & IRDMA_CQPTAIL_OP_ERR))
		return -ENXIO;
	return 0;
}

/**
 * irdma_cqp_exec_ccq_create - run the command that creates the CCQ
 * @fn: the function; its CCQ ring and shadow area are ready
 * @cmd: the CREATE_CQ command
 *
 * The CCQ reports its own creation as its first completion. If the
 * hardware refuses it there is no CCQ to report on, and only CQPTAIL
 * tells.
 *
 * Return: 0 with the CCQ live, or a negative errno with it not.
 */
int irdma_cqp_exec_ccq_create(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd)
{
	struct irdma_cqp *cqp = &fn->cqp;
	struct irdma_cqp_request req = {};
	unsigned long flags;
	u32 before, idx;
	int err, state;

	init_completion(&req.done);
	spin_lock_irqsave(&cqp->lock, flags);
	before = FIELD_GET(IRDMA_CQPTAIL_WQTAIL, irdma_rd32(fn, IRDMA_PFPE_CQPTAIL));
	err = irdma_cqp_post(fn, cmd, &idx);
	if (!err) {
		cqp->reqs[idx] = &req;
		fn->ccq.live = true;
	}
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (err)
		return err;

	err = read_poll_timeout(irdma_ccq_create_state, state, state,
				IRDMA_CQP_REG_POLL_US, IRDMA_CQP_REG_TIMEOUT_US,
				false, fn, &req, before);
	if (state == 1)
		return 0;
	if (state == -EIO) {
		/* Its completion took the request off the ring. */
		fn->ccq.live = false;
		return -EIO;
	}

	spin_lock_irqsave(&cqp->lock, flags);
	fn->ccq.live = false;
	cqp->reqs[idx] = NULL;
	if (!err)
		irdma_ring_consume(&cqp->ring, 1);
	spin_unlock_irqrestore(&cqp->lock, flags);
	dev_err(fn->res.dev, "CCQ create %s\n", err ? "timed out" : "refused");
	return err ?: -EIO;
}

/* How a poster waits for room in a full ring. */
enum irdma_cqp_wait {
	IRDMA_CQP_WAIT_SLEEP,	/* process context */
	IRDMA_CQP_WAIT_BUSY,	/* any context: busy, by count (jiffies may stand) */
};

/*
 * Post @cmd with @req (if any) as the waiter of its completion. A full
 * ring is waited on, as the hardware frees it (the CCQ is looked at here
 * too: its interrupt may be late), for up to the usual timeout.
 */
static int irdma_cqp_post_room(struct irdma_fn *fn,
			       const struct irdma_cqp_wqe *cmd,
			       struct irdma_cqp_request *req, u32 *idx,
			       enum irdma_cqp_wait wait)
{
	unsigned long flags, deadline = jiffies + IRDMA_CQP_TIMEOUT;
	struct irdma_cqp *cqp = &fn->cqp;
	u32 waits = 0;
	int err;

	if (req)
		init_completion(&req->done);
	for (;;) {
		spin_lock_irqsave(&cqp->lock, flags);
		err = irdma_cqp_post(fn, cmd, idx);
		if (!err && req)
			cqp->reqs[*idx] = req;
		spin_unlock_irqrestore(&cqp->lock, flags);
		if (err != -EBUSY)
			return err;
		if (wait == IRDMA_CQP_WAIT_SLEEP ? time_after(jiffies, deadline) :
		    ++waits > jiffies_to_msecs(IRDMA_CQP_TIMEOUT))
			return err;
		irdma_cqp_process_ccq(fn);
		if (wait == IRDMA_CQP_WAIT_SLEEP)
			usleep_range(20, 40);
		else
			mdelay(1);
	}
}

/**
 * irdma_cqp_exec - run one CQP command and wait for it
 * @fn: the function
 * @cmd: the command
 * @compl: returns how it completed; may be NULL
 *
 * Context: process context; sleeps.
 * A full ring is waited on, not refused.
 *
 * Return: 0, -EIO if the hardware reported an error, -ETIMEDOUT if it
 * never answered, -EBUSY if the ring stayed full for the whole timeout
 * or the function awaits a reset (nothing is posted then), -ESHUTDOWN if
 * the CQP went away meanwhile.
 */
int irdma_cqp_exec(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd,
		   struct irdma_cqp_compl *compl)
{
	struct irdma_cqp *cqp = &fn->cqp;
	struct irdma_cqp_request req = {};
	struct irdma_cqp_compl local;
	unsigned long flags, deadline;
	u32 idx;
	int err;

	/* After a critical error the engine is not asked anything more. */
	if (READ_ONCE(fn->reset))
		return -EBUSY;
	if (!compl)
		compl = &local;
	if (!fn->ccq.live)
		return irdma_cqp_exec_polled(fn, cmd, compl);

	err = irdma_cqp_post_room(fn, cmd, &req, &idx, IRDMA_CQP_WAIT_SLEEP);
	if (err)
		return err;

	deadline = jiffies + IRDMA_CQP_TIMEOUT;
	for (;;) {
		/* Interrupts may be late or off: look for ourselves too. */
		irdma_cqp_process_ccq(fn);
		if (try_wait_for_completion(&req.done))
			break;
		if (time_after(jiffies, deadline)) {
			spin_lock_irqsave(&cqp->lock, flags);
			if (cqp->reqs[idx] == &req)
				cqp->reqs[idx] = NULL;
			spin_unlock_irqrestore(&cqp->lock, flags);
			if (try_wait_for_completion(&req.done))
				break;
			dev_err(fn->res.dev, "CQP command %#llx timed out\n",
				FIELD_GET(IRDMA_CQPSQ_OPCODE, cmd->q[3]));
			return -ETIMEDOUT;
		}
		if (!fn->ccq.armed)
			usleep_range(10, 50);
		else if (wait_for_completion_timeout(&req.done, msecs_to_jiffies(10)))
			break;
	}

	if (req.flushed)
		return -ESHUTDOWN;
	*compl = req.compl;
	if (compl->maj) {
		dev_dbg(fn->res.dev, "CQP command %#llx failed: %#x/%#x\n",
			FIELD_GET(IRDMA_CQPSQ_OPCODE, cmd->q[3]), compl->maj,
			compl->min);
		return -EIO;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cqp_exec);

/**
 * irdma_cqp_post_async - issue a CQP command nobody waits for
 * @fn: the function
 * @cmd: the command
 *
 * Commands run in ring order, so one issued later sees its effect. A
 * full ring is waited on (busy), for up to the usual timeout.
 *
 * Context: any; does not sleep.
 * Return: 0, or -EBUSY when the ring stayed full.
 */
int irdma_cqp_post_async(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd)
{
	u32 idx;

	return irdma_cqp_post_room(fn, cmd, NULL, &idx, IRDMA_CQP_WAIT_BUSY);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cqp_post_async);

/**
 * irdma_cqp_exec_atomic - run one CQP command without sleeping
 * @fn: the function
 * @cmd: the command
 *
 * The CCQ is polled every millisecond for up to the usual timeout.
 *
 * Context: any, the CCQ up.
 * Return: 0, -EIO if the hardware reported an error, -ETIMEDOUT, -EBUSY.
 */
int irdma_cqp_exec_atomic(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd)
{
	struct irdma_cqp *cqp = &fn->cqp;
	struct irdma_cqp_request req = {};
	unsigned long flags;
	u32 idx, ms;
	int err;

	err = irdma_cqp_post_room(fn, cmd, &req, &idx, IRDMA_CQP_WAIT_BUSY);
	if (err)
		return err;

	for (ms = 0; ms < jiffies_to_msecs(IRDMA_CQP_TIMEOUT); ms++) {
		irdma_cqp_process_ccq(fn);
		if (try_wait_for_completion(&req.done))
			return req.flushed ? -ESHUTDOWN : req.compl.maj ? -EIO : 0;
		mdelay(1);
	}
	spin_lock_irqsave(&cqp->lock, flags);
	if (cqp->reqs[idx] == &req)
		cqp->reqs[idx] = NULL;
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (try_wait_for_completion(&req.done))
		return req.flushed ? -ESHUTDOWN : req.compl.maj ? -EIO : 0;
	return -ETIMEDOUT;
}
