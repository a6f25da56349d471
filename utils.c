// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The life of a CQP request, and helpers shared across the driver.
 *
 * Before the CCQ exists, a command completes when CQPTAIL moves past it.
 * After, its completion arrives on the CCQ: the waiter registers itself
 * under the WQE's index, and whoever drains the CCQ (the CEQ 0 interrupt,
 * or the waiter itself while it waits) hands it the result.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <rdma/ib_umem.h>

#include <kunit/static_stub.h>

#include "main.h"

#define IRDMA_CQP_TIMEOUT	(5 * HZ)
#define IRDMA_CQP_REG_POLLS	100000	/* 10 us apart: about 1 s */

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

/* Coherent DMA blocks the driver holds, all functions together. */
static atomic_t irdma_dma_blocks = ATOMIC_INIT(0);

/* Pinned user memory or coherent pages kept from a failed destroy. */
struct irdma_orphan {
	struct list_head list;
	struct ib_umem *umem;
	struct irdma_dma_pages pages;
};

/**
 * irdma_dma_outstanding - coherent DMA blocks the driver holds
 *
 * For tests: after a function is gone, the count is back where it was.
 *
 * Return: the number of blocks.
 */
int irdma_dma_outstanding(void)
{
	return atomic_read(&irdma_dma_blocks);
}

/**
 * irdma_dma_alloc - allocate zeroed coherent DMA memory
 * @fn: the function
 * @mem: filled in
 * @size: bytes
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_dma_alloc(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		    size_t size, gfp_t gfp)
{
	/* KUnit makes large blocks fail here, as on a fragmented machine. */
	KUNIT_STATIC_STUB_REDIRECT(irdma_dma_alloc, fn, mem, size, gfp);
	return irdma_dma_alloc_block(fn, mem, size, gfp);
}

/**
 * irdma_dma_alloc_block - irdma_dma_alloc() itself, never redirected
 * @fn: the function
 * @mem: filled in
 * @size: bytes
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_dma_alloc_block(struct irdma_fn *fn, struct irdma_dma_mem *mem,
			  size_t size, gfp_t gfp)
{
	mem->va = dma_alloc_coherent(fn->res.dev, size, &mem->pa, gfp);
	if (!mem->va)
		return -ENOMEM;
	mem->size = size;
	atomic_inc(&irdma_dma_blocks);
	return 0;
}

/**
 * irdma_dma_free - free memory from irdma_dma_alloc(); a no-op if empty
 * @fn: the function
 * @mem: the memory
 */
void irdma_dma_free(struct irdma_fn *fn, struct irdma_dma_mem *mem)
{
	if (!mem->va)
		return;
	dma_free_coherent(fn->res.dev, mem->size, mem->va, mem->pa);
	mem->va = NULL;
	atomic_dec(&irdma_dma_blocks);
}

/**
 * irdma_dma_release - free memory the hardware may still own
 * @fn: the function
 * @mem: the memory
 * @hw_done: the hardware let go of it (its destroy command succeeded)
 *
 * Memory whose destroy failed may still be written by the device: it is
 * kept until the CQP is known to be down (irdma_dma_free_orphans()).
 */
void irdma_dma_release(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		       bool hw_done)
{
	if (!mem->va)
		return;
	if (hw_done) {
		irdma_dma_free(fn, mem);
		return;
	}
	spin_lock(&fn->orphan_lock);
	if (fn->orphan_count < IRDMA_MAX_ORPHANS) {
		fn->orphans[fn->orphan_count++] = *mem;
	} else {
		dev_warn(fn->res.dev, "leaking %zu bytes the device may own\n",
			 mem->size);
		atomic_dec(&irdma_dma_blocks);
	}
	spin_unlock(&fn->orphan_lock);
	mem->va = NULL;
}

/**
 * irdma_dma_free_orphans - free the memory kept from failed destroys
 * @fn: the function
 * @hw_down: the CQP is down, so the device owns nothing any more
 *
 * If the device may still be alive, the memory is leaked rather than
 * handed back while it could write to it.
 */
void irdma_dma_free_orphans(struct irdma_fn *fn, bool hw_down)
{
	struct irdma_orphan *orphan, *next;
	u32 i;

	if (fn->orphan_count && !hw_down)
		dev_warn(fn->res.dev, "leaking %u blocks the device may still write\n",
			 fn->orphan_count);
	for (i = 0; i < fn->orphan_count; i++) {
		if (hw_down)
			irdma_dma_free(fn, &fn->orphans[i]);
		else
			atomic_dec(&irdma_dma_blocks);
	}
	fn->orphan_count = 0;

	if (!hw_down && !list_empty(&fn->orphan_list))
		dev_warn(fn->res.dev, "leaking memory the device may still write\n");
	list_for_each_entry_safe(orphan, next, &fn->orphan_list, list) {
		list_del(&orphan->list);
		if (hw_down)
			ib_umem_release(orphan->umem);
		for (i = 0; i < orphan->pages.count; i++) {
			if (hw_down)
				irdma_dma_free(fn, &orphan->pages.page[i]);
			else
				atomic_dec(&irdma_dma_blocks);
		}
		kvfree(orphan->pages.page);
		kfree(orphan);
	}
}

/**
 * irdma_orphan_keep - keep memory the device may still write
 * @fn: the function
 * @umem: pinned user memory, or NULL
 * @pages: coherent pages, or NULL; emptied
 *
 * The memory is freed once the CQP is known to be down
 * (irdma_dma_free_orphans()), or, if it never is, leaked for good.
 */
void irdma_orphan_keep(struct irdma_fn *fn, struct ib_umem *umem,
		       struct irdma_dma_pages *pages)
{
	struct irdma_orphan *orphan = kzalloc(sizeof(*orphan), GFP_KERNEL);

	if (!orphan) {
		/* Without a note of it, the memory stays the device's for good. */
		if (pages) {
			atomic_sub(pages->count, &irdma_dma_blocks);
			kvfree(pages->page);
		}
	} else {
		orphan->umem = umem;
		if (pages)
			orphan->pages = *pages;
		spin_lock(&fn->orphan_lock);
		list_add_tail(&orphan->list, &fn->orphan_list);
		spin_unlock(&fn->orphan_lock);
	}
	if (pages)
		memset(pages, 0, sizeof(*pages));
}

/**
 * irdma_umem_release - unpin user memory the hardware may still write
 * @fn: the function
 * @umem: the memory (NULL: none)
 * @hw_done: the hardware let go of it
 *
 * Memory the device may still write stays pinned until the CQP is known
 * to be down (irdma_dma_free_orphans()), or for good if it never is.
 */
void irdma_umem_release(struct irdma_fn *fn, struct ib_umem *umem,
			bool hw_done)
{
	if (!umem || hw_done)
		ib_umem_release(umem);
	else
		irdma_orphan_keep(fn, umem, NULL);
}

/* Before the CCQ: the command is done when CQPTAIL moves. */
static int irdma_cqp_exec_polled(struct irdma_fn *fn,
				 const struct irdma_cqp_wqe *cmd,
				 struct irdma_cqp_compl *compl)
{
	struct irdma_cqp *cqp = &fn->cqp;
	u32 before, val, idx;
	unsigned long flags;
	int err, i;

	spin_lock_irqsave(&cqp->lock, flags);
	before = FIELD_GET(IRDMA_CQPTAIL_WQTAIL,
			   irdma_rd32(fn, IRDMA_PFPE_CQPTAIL));
	err = irdma_cqp_post(fn, cmd, &idx);
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (err)
		return err;

	for (i = 0; i < IRDMA_CQP_REG_POLLS; i++) {
		val = irdma_rd32(fn, IRDMA_PFPE_CQPTAIL);
		if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, val) != before)
			break;
		usleep_range(10, 20);
	}
	if (i == IRDMA_CQP_REG_POLLS)
		return -ETIMEDOUT;

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
	u32 before, val, idx;
	int err, i;

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

	for (i = 0; i < IRDMA_CQP_REG_POLLS; i++) {
		irdma_cqp_process_ccq(fn);
		if (try_wait_for_completion(&req.done)) {
			if (!req.compl.maj)
				return 0;
			fn->ccq.live = false;
			return -EIO;
		}
		val = irdma_rd32(fn, IRDMA_PFPE_CQPTAIL);
		if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, val) != before &&
		    (val & IRDMA_CQPTAIL_OP_ERR))
			break;
		usleep_range(10, 20);
	}

	spin_lock_irqsave(&cqp->lock, flags);
	fn->ccq.live = false;
	cqp->reqs[idx] = NULL;
	if (i < IRDMA_CQP_REG_POLLS)
		irdma_ring_consume(&cqp->ring, 1);
	spin_unlock_irqrestore(&cqp->lock, flags);
	dev_err(fn->res.dev, "CCQ create %s\n",
		i < IRDMA_CQP_REG_POLLS ? "refused" : "timed out");
	return i < IRDMA_CQP_REG_POLLS ? -EIO : -ETIMEDOUT;
}

/**
 * irdma_cqp_flush_waiters - release every waiter without a result
 * @fn: the function; its CQP is going away
 */
void irdma_cqp_flush_waiters(struct irdma_fn *fn)
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

/*
 * Post @cmd with @req (if any) as the waiter of its completion. A full
 * ring is waited on, as the hardware frees it (the CCQ is looked at here
 * too: its interrupt may be late), for up to the usual timeout; @can_sleep
 * says how to wait.
 */
static int irdma_cqp_post_room(struct irdma_fn *fn,
			       const struct irdma_cqp_wqe *cmd,
			       struct irdma_cqp_request *req, u32 *idx,
			       bool can_sleep)
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
		/* Sleeps end by the clock; busy waits (jiffies may stand) by count. */
		if (can_sleep ? time_after(jiffies, deadline) :
		    ++waits > jiffies_to_msecs(IRDMA_CQP_TIMEOUT))
			return err;
		irdma_cqp_process_ccq(fn);
		if (can_sleep)
			usleep_range(20, 40);
		else
			mdelay(1);
	}
}

/* Post @cmd with @req as the waiter of its completion. */
static int irdma_cqp_post_waited(struct irdma_fn *fn,
				 const struct irdma_cqp_wqe *cmd,
				 struct irdma_cqp_request *req, u32 *idx)
{
	return irdma_cqp_post_room(fn, cmd, req, idx, true);
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

	err = irdma_cqp_post_waited(fn, cmd, &req, &idx);
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

/**
 * irdma_addr_ntoh - IP address words from network to host order
 * @dst: host-order words, as the hardware's address fields take them
 * @src: network-order words (1 for IPv4, 4 for IPv6)
 * @words: number of 32-bit words
 */
void irdma_addr_ntoh(u32 *dst, const __be32 *src, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		dst[i] = be32_to_cpu(src[i]);
}

/**
 * irdma_addr_hton - IP address words from host to network order
 * @dst: network-order words
 * @src: host-order words
 * @words: number of 32-bit words
 */
void irdma_addr_hton(__be32 *dst, const u32 *src, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		dst[i] = cpu_to_be32(src[i]);
}

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

	return irdma_cqp_post_room(fn, cmd, NULL, &idx, false);
}

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

	err = irdma_cqp_post_room(fn, cmd, &req, &idx, false);
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
