// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Bring-up and teardown of an RDMA function, whichever front-end found it,
 * and the interrupt side: CEQs and the AEQ.
 *
 * Bring-up follows the hardware's order: wait for the engine, create the
 * CQP through the registers, size and back the HMC, create the CCQ, read
 * the firmware's features, create CEQ 0 (from here on CQP completions are
 * interrupt driven), then the AEQ. Each step reached is recorded, and
 * teardown undoes exactly those, in reverse.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/slab.h>

#include "main.h"

/* The engine may take its time after a reset: 100 ms apart, 15 s in all. */
#define IRDMA_PE_READY_POLL_US	(100 * USEC_PER_MSEC)
#define IRDMA_PE_READY_TIMEOUT_US	(15 * USEC_PER_SEC)
#define IRDMA_CCQ_CTX		1	/* CEQEs name the CCQ so */
#define IRDMA_ITR_INDX_NONE	3

/* All three of the engine's CPUs report ready. */
static bool irdma_pe_ready(struct irdma_fn *fn)
{
	int n;

	for (n = 0; n < 3; n++)
		if (irdma_rd32(fn, IRDMA_GLPE_CPUSTATUS(n)) != IRDMA_CPUSTATUS_PE_READY)
			return false;
	return true;
}

static int irdma_wait_pe_ready(struct irdma_fn *fn)
{
	bool ready;
	int err;

	err = read_poll_timeout(irdma_pe_ready, ready, ready,
				IRDMA_PE_READY_POLL_US, IRDMA_PE_READY_TIMEOUT_US,
				false, fn);
	if (err)
		dev_err(fn->res.dev, "RDMA engine not ready\n");
	return err;
}

static int irdma_check_db_window(struct irdma_fn *fn)
{
	u32 size = FIELD_GET(IRDMA_LBARCTRL_PE_DB_SIZE,
			     irdma_rd32(fn, IRDMA_GLPCI_LBARCTRL));

	if (size != 1 && size != 2) {
		dev_err(fn->res.dev, "doorbell window size %u unsupported\n", size);
		return -ENODEV;
	}
	return 0;
}

/*
 * Vector 0 carries the AEQ, shared with CEQ 0 when there are no more
 * vectors than CPUs; otherwise no more than one vector per CPU besides
 * the AEQ's is used. Each vector after that carries one CEQ.
 */
static void irdma_plan_vectors(struct irdma_fn *fn)
{
	u32 cpus = num_online_cpus();
	u32 vectors = fn->res.msix_count;

	fn->msix_shared = vectors <= cpus;
	if (!fn->msix_shared)
		vectors = min(vectors, cpus + 1);
	fn->ceq_max = min_t(u32, fn->msix_shared ? vectors : vectors - 1,
			    IRDMA_MAX_CEQS);
}

static int irdma_init_mem_alloc(struct irdma_fn *fn)
{
	return irdma_dma_alloc(fn, &fn->init_mem, IRDMA_INIT_MEM_SIZE, GFP_KERNEL);
}

/* The CCQ's creation completes on the CCQ itself, or fails in CQPTAIL. */
static int irdma_ccq_create(struct irdma_fn *fn)
{
	struct irdma_ccq *ccq = &fn->ccq;
	struct irdma_cq_hw_info info = {
		.id = 0,
		.size = IRDMA_CCQ_SIZE,
		.ctx = IRDMA_CCQ_CTX,
		.ceq_id = 0,
		.ceq_valid = true,
		.shadow_threshold = 16,
		.vsi = fn->res.vsi_num,
	};
	struct irdma_cqp_wqe cmd;
	int err;

	err = irdma_dma_alloc(fn, &ccq->ring,
			      ALIGN(IRDMA_CCQ_SIZE * IRDMA_CQE_SIZE, 256),
			      GFP_KERNEL);
	if (err)
		return err;
	ccq->shadow = fn->init_mem.va + IRDMA_INIT_CCQ_SHADOW;
	ccq->shadow_pa = fn->init_mem.pa + IRDMA_INIT_CCQ_SHADOW;
	memset(ccq->shadow, 0, IRDMA_CQ_SHADOW_SIZE);
	ccq->head = 0;
	ccq->polarity = true;
	info.ring_pa = ccq->ring.pa;
	info.shadow_pa = ccq->shadow_pa;
	info.check_overflow = true;

	irdma_build_create_cq(&cmd, &info);
	err = irdma_cqp_exec_ccq_create(fn, &cmd);
	if (err)
		irdma_dma_free(fn, &ccq->ring);
	return err;
}

static void irdma_ccq_destroy(struct irdma_fn *fn)
{
	struct irdma_cq_hw_info info = {
		.id = 0,
		.size = IRDMA_CCQ_SIZE,
		.ctx = IRDMA_CCQ_CTX,
		.ceq_valid = true,
		.shadow_pa = fn->ccq.shadow_pa,
	};
	struct irdma_cqp_wqe cmd;

	int err;

	/* The CCQ cannot report its own end: wait on CQPTAIL. */
	fn->ccq.live = false;
	irdma_build_destroy_cq(&cmd, &info);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err && !fn->reset)
		dev_warn(fn->res.dev, "CCQ destroy failed: %d\n", err);
	irdma_dma_release(fn, &fn->ccq.ring, !err);
}

static int irdma_query_features(struct irdma_fn *fn)
{
	__le64 *buf = fn->init_mem.va + IRDMA_INIT_FEATURES;
	struct irdma_cqp_wqe cmd;
	u64 fw;
	int err;

	memset(buf, 0, IRDMA_FEATURE_BUF_ENTRIES * 8);
	irdma_build_query_features(&cmd, fn->init_mem.pa + IRDMA_INIT_FEATURES,
				   IRDMA_FEATURE_BUF_ENTRIES * 8);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		return err;

	fw = le64_to_cpu(buf[0]);
	if (FIELD_GET(IRDMA_FEATURE_CNT, fw) < 2 ||
	    FIELD_GET(IRDMA_FEATURE_TYPE, fw) != IRDMA_FEATURE_FW_INFO) {
		dev_err(fn->res.dev, "features query returned no firmware version\n");
		return -EINVAL;
	}
	fn->fw_major = FIELD_GET(IRDMA_FW_VER_MAJOR, fw);
	fn->fw_minor = FIELD_GET(IRDMA_FW_VER_MINOR, fw);
	return 0;
}

static void irdma_vector_enable(struct irdma_fn *fn, u32 msix)
{
	irdma_wr32(fn, IRDMA_GLINT_DYN_CTL(fn->res.msix[msix].entry),
		   IRDMA_DYN_CTL_INTENA | IRDMA_DYN_CTL_CLEARPBA);
}

static void irdma_vector_disable(struct irdma_fn *fn, u32 msix)
{
	irdma_wr32(fn, IRDMA_GLINT_DYN_CTL(fn->res.msix[msix].entry), 0);
}

/* An interrupt cause's vector, disabled (IRDMA_INTCTL_CAUSE_ENA enables). */
static u32 irdma_cause(struct irdma_fn *fn, u32 msix)
{
	return FIELD_PREP(IRDMA_INTCTL_MSIX_INDX, fn->res.msix[msix].entry) |
	       FIELD_PREP(IRDMA_INTCTL_ITR_INDX, IRDMA_ITR_INDX_NONE);
}

/* An AEQE: QP events go to the QP, the rest are only logged. */
static void irdma_ae_dispatch(struct irdma_fn *fn, u64 q1)
{
	u32 id = FIELD_GET(IRDMA_AEQE_QPCQID_LOW, q1) |
		 FIELD_GET(IRDMA_AEQE_QPCQID_HI, q1) << 18;
	u16 code = FIELD_GET(IRDMA_AEQE_AECODE, q1);
	u8 source = FIELD_GET(IRDMA_AEQE_AESRC, q1);
	u8 tcp_state = FIELD_GET(IRDMA_AEQE_TCPSTATE, q1);
	enum irdma_ae_target target;
	bool term;

	dev_dbg(fn->res.dev, "AE %#x source %#x on %u\n", code, source, id);
	if (code == IRDMA_AE_QP_SUSPEND_COMPLETE) {
		irdma_qp_suspended(fn, id);
		return;
	}
	target = irdma_ae_target(code, source);
	term = fn->res.protocol == IRDMA_PROTOCOL_IWARP && target == IRDMA_AE_QP_ERROR &&
	       irdma_ae_terminates(FIELD_GET(IRDMA_AEQE_IWSTATE, q1), tcp_state);
	/* An iWARP QP's events are its connection's too. */
	if (fn->res.protocol == IRDMA_PROTOCOL_IWARP &&
	    (target == IRDMA_AE_QP_ERROR || target == IRDMA_AE_QP_NOTE))
		irdma_qp_iwarp_ae(fn, id, code, tcp_state,
				  target == IRDMA_AE_QP_ERROR && !term);
	switch (target) {
	case IRDMA_AE_QP_ERROR:
		if (term)
			irdma_qp_iwarp_term_event(fn, id, code, source,
						  FIELD_GET(IRDMA_AEQE_WQDESCIDX, q1));
		else
			irdma_qp_async_event(fn, id, code, source,
					     FIELD_GET(IRDMA_AEQE_WQDESCIDX, q1));
		break;
	case IRDMA_AE_CQ_ERROR:
		irdma_cq_async_event(fn, id);
		break;
	case IRDMA_AE_SRQ_EVENT:
		irdma_srq_event(fn, id);
		break;
	default:
		break;
	}
}

/* An AEQE never straddles a page: 16 bytes, and pages hold 256. */
static __le64 *irdma_aeqe(struct irdma_eq *aeq, u32 idx)
{
	size_t off = (size_t)idx * IRDMA_AEQE_SIZE;

	if (aeq->ring.va)
		return aeq->ring.va + off;
	return irdma_dma_pages_va(&aeq->pages, off);
}

static void irdma_aeq_process(struct irdma_fn *fn)
{
	struct irdma_eq *aeq = &fn->aeq;
	u32 taken = 0;

	while (READ_ONCE(aeq->live)) {
		__le64 *aeqe = irdma_aeqe(aeq, aeq->tail);
		u64 q1 = le64_to_cpu(READ_ONCE(aeqe[1]));

		if (!!(q1 & IRDMA_AEQE_VALID) != aeq->polarity)
			break;
		dma_rmb();
		irdma_ae_dispatch(fn, q1);
		if (++aeq->tail == aeq->size) {
			aeq->tail = 0;
			aeq->polarity = !aeq->polarity;
		}
		taken++;
	}
	if (taken)
		irdma_wr32(fn, IRDMA_PFPE_AEQALLOC, taken);
}

static void irdma_ceq_process(struct irdma_eq *ceq)
{
	struct irdma_fn *fn = ceq->fn;

	for (;;) {
		__le64 *ceqe = ceq->ring.va + ceq->tail * IRDMA_CEQE_SIZE;
		u64 val = le64_to_cpu(READ_ONCE(*ceqe));
		u64 ctx;

		if (!!(val & IRDMA_CEQE_VALID) != ceq->polarity)
			break;
		if (++ceq->tail == ceq->size) {
			ceq->tail = 0;
			ceq->polarity = !ceq->polarity;
		}
		ctx = FIELD_GET(IRDMA_CEQE_CQCTX, val);
		if (ctx == IRDMA_CCQ_CTX) {
			irdma_wr32(fn, IRDMA_PFPE_CQACK, 0);
			irdma_cqp_process_ccq(fn);
		} else if (ctx & IRDMA_PUDA_CQ_CTX_FLAG) {
			irdma_puda_ceq_event(fn, ctx);
		} else if (ctx) {
			irdma_cq_ceq_event(fn, ctx);
		}
	}
}

/* Thread of a vector: drain its queues, then let it fire again. */
static irqreturn_t irdma_eq_irq_thread(int irq, void *data)
{
	struct irdma_eq *eq = data;
	struct irdma_fn *fn = eq->fn;

	if (eq == &fn->aeq) {
		irdma_aeq_process(fn);
	} else {
		irdma_ceq_process(eq);
		if (eq->msix == 0)
			irdma_aeq_process(fn);
	}
	irdma_vector_enable(fn, eq->msix);
	return IRQ_HANDLED;
}

static int irdma_eq_request_irq(struct irdma_fn *fn, struct irdma_eq *eq,
				const char *what)
{
	int irq = fn->res.msix[eq->msix].vector;
	int err;

	snprintf(eq->name, sizeof(eq->name), "irdma-%s-%s",
		 dev_name(fn->res.dev), what);
	err = request_threaded_irq(irq, NULL, irdma_eq_irq_thread, IRQF_ONESHOT,
				   eq->name, eq);
	if (err)
		return err;
	eq->irq = irq;
	return 0;
}

static void irdma_eq_free_irq(struct irdma_fn *fn, struct irdma_eq *eq)
{
	if (!eq->irq)
		return;
	irdma_vector_disable(fn, eq->msix);
	free_irq(eq->irq, eq);
	eq->irq = 0;
}

/* CEQ @id on its vector: vector @id when AEQ and CEQ 0 share one, else @id + 1. */
static int irdma_ceq_create(struct irdma_fn *fn, u32 id)
{
	struct irdma_eq *ceq = &fn->ceq[id];
	struct irdma_cqp_wqe cmd;
	char what[16];
	int err;

	ceq->fn = fn;
	ceq->id = id;
	ceq->size = min_t(u32, fn->hmc.obj[IRDMA_HMC_CQ].cnt, IRDMA_MAX_CEQ_ENTRIES);
	ceq->msix = fn->msix_shared ? id : id + 1;
	ceq->tail = 0;
	ceq->polarity = true;
	err = irdma_dma_alloc(fn, &ceq->ring,
			      ALIGN(ceq->size * IRDMA_CEQE_SIZE, 256), GFP_KERNEL);
	if (err)
		return err;

	irdma_build_create_ceq(&cmd, id, ceq->size, ceq->ring.pa, fn->res.vsi_num);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		goto err_free_ring;
	ceq->live = true;

	snprintf(what, sizeof(what), "%sCEQ-%u", fn->msix_shared && !id ? "AEQ" : "", id);
	err = irdma_eq_request_irq(fn, ceq, what);
	if (err)
		goto err_destroy_eq;
	irdma_wr32(fn, IRDMA_GLINT_CEQCTL(id), irdma_cause(fn, ceq->msix) |
		   IRDMA_INTCTL_CAUSE_ENA);
	irdma_vector_enable(fn, ceq->msix);
	fn->ceq_count = id + 1;
	return 0;

err_destroy_eq:
	ceq->live = false;
	irdma_build_destroy_ceq(&cmd, id, ceq->size);
	irdma_cqp_exec(fn, &cmd, NULL);
err_free_ring:
	irdma_dma_free(fn, &ceq->ring);
	return err;
}

static void irdma_ceq_destroy(struct irdma_fn *fn, u32 id)
{
	struct irdma_eq *ceq = &fn->ceq[id];
	struct irdma_cqp_wqe cmd;
	int err;

	irdma_wr32(fn, IRDMA_GLINT_CEQCTL(id), irdma_cause(fn, ceq->msix));
	irdma_eq_free_irq(fn, ceq);
	irdma_build_destroy_ceq(&cmd, id, ceq->size);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err && !fn->reset)
		dev_warn(fn->res.dev, "CEQ %u destroy failed: %d\n", id, err);
	ceq->live = false;
	fn->ceq_count = id;
	irdma_dma_release(fn, &ceq->ring, !err);
}

static int irdma_ceq0_setup(struct irdma_fn *fn)
{
	unsigned long flags;
	int err;

	err = irdma_ceq_create(fn, 0);
	if (err)
		return err;

	/* From here on CQP completions raise an interrupt. */
	spin_lock_irqsave(&fn->cqp.lock, flags);
	fn->ccq.armed = true;
	irdma_ccq_arm(fn);
	spin_unlock_irqrestore(&fn->cqp.lock, flags);
	return 0;
}

static void irdma_ceq0_teardown(struct irdma_fn *fn)
{
	fn->ccq.armed = false;
	irdma_ceq_destroy(fn, 0);
}

/* A CEQ for every further vector: the completion vectors CQs choose from. */
static int irdma_ceqs_setup(struct irdma_fn *fn)
{
	u32 id, max = min(fn->ceq_max, fn->hmc.max_ceqs);
	int err;

	for (id = 1; id < max; id++) {
		err = irdma_ceq_create(fn, id);
		if (err) {
			while (--id)
				irdma_ceq_destroy(fn, id);
			return err;
		}
	}
	return 0;
}

static void irdma_ceqs_teardown(struct irdma_fn *fn)
{
	while (fn->ceq_count > 1)
		irdma_ceq_destroy(fn, fn->ceq_count - 1);
}

/*
 * The AEQ's ring in 4 KiB pages its one-level PBLEs list, for when no
 * block of its size is to be had (it reaches 8 MiB).
 */
static int irdma_aeq_alloc_pages(struct irdma_fn *fn, size_t bytes)
{
	struct irdma_eq *aeq = &fn->aeq;
	u32 i;
	int err;

	err = irdma_dma_pages_alloc(fn, &aeq->pages, bytes);
	if (err)
		return err;
	err = irdma_pble_alloc(fn, aeq->pages.count, IRDMA_PBLE_LEVEL1_ONLY,
			       &aeq->pble);
	if (err) {
		irdma_dma_pages_free(fn, &aeq->pages);
		return err;
	}
	for (i = 0; i < aeq->pages.count; i++)
		irdma_pble_set_page(fn, &aeq->pble, i, aeq->pages.page[i].pa);
	return 0;
}

static int irdma_aeq_alloc(struct irdma_fn *fn)
{
	struct irdma_eq *aeq = &fn->aeq;
	size_t bytes = ALIGN(aeq->size * IRDMA_AEQE_SIZE, 256);

	if (!irdma_dma_alloc(fn, &aeq->ring, bytes, GFP_KERNEL | __GFP_NOWARN))
		return 0;
	dev_dbg(fn->res.dev, "AEQ of %zu bytes goes in pages\n", bytes);
	return irdma_aeq_alloc_pages(fn, bytes);
}

static void irdma_aeq_free(struct irdma_fn *fn, bool hw_done)
{
	struct irdma_eq *aeq = &fn->aeq;

	irdma_dma_release(fn, &aeq->ring, hw_done);
	irdma_dma_pages_release(fn, &aeq->pages, hw_done);
	irdma_pble_free(fn, &aeq->pble);
}

static void irdma_aeq_ring_hw(struct irdma_eq *aeq,
			      struct irdma_eq_ring_hw *ring)
{
	ring->paged = !aeq->ring.va;
	ring->pa = aeq->ring.pa;
	ring->first_pble = aeq->pble.idx;
}

static int irdma_aeq_setup(struct irdma_fn *fn)
{
	struct irdma_eq *aeq = &fn->aeq;
	struct irdma_hmc_objinfo *o = fn->hmc.obj;
	u32 qp_mult = fn->res.protocol == IRDMA_PROTOCOL_IWARP ? 2 : 1;
	struct irdma_eq_ring_hw ring;
	struct irdma_cqp_wqe cmd;
	bool hw_done = true;
	int err;

	aeq->fn = fn;
	aeq->msix = 0;
	aeq->tail = 0;
	aeq->polarity = true;
	aeq->size = min_t(u32, qp_mult * o[IRDMA_HMC_QP].cnt + o[IRDMA_HMC_CQ].cnt,
			  IRDMA_MAX_AEQ_ENTRIES);
	err = irdma_aeq_alloc(fn);
	if (err)
		return err;

	irdma_aeq_ring_hw(aeq, &ring);
	irdma_build_create_aeq(&cmd, aeq->size, &ring);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		goto err_free_ring;
	aeq->live = true;

	if (!fn->msix_shared) {
		err = irdma_eq_request_irq(fn, aeq, "AEQ");
		if (err)
			goto err_destroy_eq;
	}
	irdma_wr32(fn, IRDMA_PFINT_AEQCTL, irdma_cause(fn, 0) |
		   IRDMA_INTCTL_CAUSE_ENA);
	if (!fn->msix_shared)
		irdma_vector_enable(fn, 0);
	return 0;

err_destroy_eq:
	aeq->live = false;
	irdma_build_destroy_aeq(&cmd, aeq->size, &ring);
	hw_done = !irdma_cqp_exec(fn, &cmd, NULL);
err_free_ring:
	irdma_aeq_free(fn, hw_done);
	return err;
}

static void irdma_aeq_teardown(struct irdma_fn *fn)
{
	struct irdma_eq *aeq = &fn->aeq;
	struct irdma_eq_ring_hw ring;
	struct irdma_cqp_wqe cmd;
	int err;

	irdma_wr32(fn, IRDMA_PFINT_AEQCTL, irdma_cause(fn, 0));
	irdma_eq_free_irq(fn, aeq);
	WRITE_ONCE(aeq->live, false);
	/* Sharing vector 0, CEQ 0's thread may be reading the AEQ. */
	if (fn->msix_shared && fn->ceq[0].irq)
		synchronize_irq(fn->ceq[0].irq);
	irdma_wr32(fn, IRDMA_PFINT_AEQCTL, 0);
	irdma_aeq_ring_hw(aeq, &ring);
	irdma_build_destroy_aeq(&cmd, aeq->size, &ring);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err && !fn->reset)
		dev_warn(fn->res.dev, "AEQ destroy failed: %d\n", err);
	irdma_aeq_free(fn, !err);
}

/**
 * irdma_hw_deinit - undo the bring-up steps reached, in reverse
 * @fn: the function; safe to call again
 */
void irdma_hw_deinit(struct irdma_fn *fn)
{
	bool hw_down = true;

	switch (fn->step) {
	case IRDMA_STEP_DONE:
		irdma_aeq_teardown(fn);
		fallthrough;
	case IRDMA_STEP_CEQS:
		irdma_ceqs_teardown(fn);
		fallthrough;
	case IRDMA_STEP_CEQ0:
		irdma_ceq0_teardown(fn);
		fallthrough;
	case IRDMA_STEP_CCQ:
		irdma_ccq_destroy(fn);
		fallthrough;
	case IRDMA_STEP_HMC:
		irdma_hmc_teardown(fn);
		fallthrough;
	case IRDMA_STEP_CQP:
		/* Once the CQP is down the device owns nothing any more. */
		hw_down = !irdma_cqp_destroy(fn);
		irdma_dma_free_orphans(fn, hw_down);
		fallthrough;
	case IRDMA_STEP_INIT_MEM:
		irdma_dma_release(fn, &fn->init_mem, hw_down);
		fallthrough;
	case IRDMA_STEP_NONE:
		break;
	}
	fn->step = IRDMA_STEP_NONE;
}

/**
 * irdma_hw_init - bring the function's RDMA engine up
 * @fn: the function
 *
 * Return: 0, or a negative errno with the steps reached recorded for
 * irdma_hw_deinit().
 */
int irdma_hw_init(struct irdma_fn *fn)
{
	static const struct {
		const char *what;
		int (*run)(struct irdma_fn *fn);
		enum irdma_init_step reached;
	} steps[] = {
		{ "engine readiness", irdma_wait_pe_ready, IRDMA_STEP_NONE },
		{ "doorbell window", irdma_check_db_window, IRDMA_STEP_NONE },
		{ "init memory", irdma_init_mem_alloc, IRDMA_STEP_INIT_MEM },
		{ "CQP", irdma_cqp_create, IRDMA_STEP_CQP },
		{ "HMC", irdma_hmc_setup, IRDMA_STEP_HMC },
		{ "CCQ", irdma_ccq_create, IRDMA_STEP_CCQ },
		{ "features", irdma_query_features, IRDMA_STEP_CCQ },
		{ "CEQ 0", irdma_ceq0_setup, IRDMA_STEP_CEQ0 },
		{ "CEQs", irdma_ceqs_setup, IRDMA_STEP_CEQS },
		{ "AEQ", irdma_aeq_setup, IRDMA_STEP_DONE },
	};
	int err, i;

	irdma_plan_vectors(fn);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		err = steps[i].run(fn);
		if (err) {
			dev_err(fn->res.dev, "bring-up failed at %s: %d\n",
				steps[i].what, err);
			return err;
		}
		fn->step = steps[i].reached;
	}
	return 0;
}
