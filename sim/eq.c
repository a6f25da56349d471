// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Event queues and interrupts. CEQEs name a CQ with an event; AEQEs report
 * asynchronous events. Each queue's cause register (GLINT_CEQCTL,
 * PFINT_AEQCTL) routes it to an MSI-X vector; a vector that fires masks
 * itself until the driver writes INTENA to its GLINT_DYN_CTL.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>

#include "sim.h"
#include "trace.h"

/*
 * Take the driver's GLINT_DYN_CTL write to a vector, if it made one since
 * the last look. Under the EQ lock. Return: true if there was one.
 */
static bool isim_vector_take(struct isim_dev *sdev, u32 msix_idx)
{
	u32 reg = IRDMA_GLINT_DYN_CTL(msix_idx), val = isim_rd32(sdev, reg);

	if (!val)
		return false;
	isim_wr32(sdev, reg, 0);
	trace_irdma_sim_reg(sdev->id, reg, val);
	sdev->vec[msix_idx].enabled = !!(val & IRDMA_DYN_CTL_INTENA);
	return true;
}

/**
 * isim_vector_fire - a vector's cause fired: raise it if the driver enabled
 * it (it then masks itself), else hold it until the driver does
 * @sdev: the simulated function
 * @msix_idx: the vector
 *
 * A GLINT_DYN_CTL write the threads have not taken yet counts: silicon
 * sees it the moment it lands.
 *
 * Context: under the EQ lock; the interrupt itself comes from an irq_work
 * (isim_irq_raise()).
 */
void isim_vector_fire(struct isim_dev *sdev, u32 msix_idx)
{
	struct isim_vector *vec;

	lockdep_assert_held(&sdev->eq_lock);
	if (msix_idx >= ISIM_MSIX_COUNT)
		return;
	vec = &sdev->vec[msix_idx];
	if (!vec->enabled)
		isim_vector_take(sdev, msix_idx);
	if (!vec->enabled) {
		vec->pending = true;
		return;
	}
	vec->enabled = false;
	vec->pending = false;
	sdev->stats.irqs++;
	isim_irq_raise(sdev, msix_idx);
}
EXPORT_SYMBOL_IF_KUNIT(isim_vector_fire);

/**
 * isim_vectors_poll - take GLINT_DYN_CTL writes; deliver what was held back
 * @sdev: the simulated function
 *
 * Return: true if an interrupt held back was delivered.
 */
bool isim_vectors_poll(struct isim_dev *sdev)
{
	unsigned long flags;
	bool work = false;
	u32 i;

	for (i = 0; i < ISIM_MSIX_COUNT; i++) {
		if (!isim_rd32(sdev, IRDMA_GLINT_DYN_CTL(i)))
			continue;
		spin_lock_irqsave(&sdev->eq_lock, flags);
		/*
		 * Work only if it releases an interrupt held back: a vector
		 * enabled again after each interrupt would keep the threads
		 * quick for nothing (a held one takes its write by itself).
		 */
		if (isim_vector_take(sdev, i) && sdev->vec[i].enabled &&
		    sdev->vec[i].pending) {
			isim_vector_fire(sdev, i);
			work = true;
		}
		spin_unlock_irqrestore(&sdev->eq_lock, flags);
	}
	return work;
}

/* Fire the vector a queue's cause register names, if the cause is on. */
static void isim_eq_interrupt(struct isim_dev *sdev, u32 ctl_reg)
{
	u32 ctl = isim_rd32(sdev, ctl_reg);

	if (ctl & IRDMA_INTCTL_CAUSE_ENA)
		isim_vector_fire(sdev, FIELD_GET(IRDMA_INTCTL_MSIX_INDX, ctl));
}

static bool isim_eq_push(struct isim_dev *sdev, struct isim_eq *eq,
			 const u64 *entry, unsigned int qwords)
{
	u64 last = entry[qwords - 1] & ~IRDMA_CEQE_VALID;
	unsigned int i;
	u64 slot;

	/* An entry never straddles a page: the size is a power of two. */
	if (isim_ring_pa(sdev, &eq->ring, (u64)eq->head * qwords * 8, &slot)) {
		sdev->stats.eq_faults++;
		return false;
	}
	for (i = 0; i + 1 < qwords; i++)
		if (isim_dma_write_qword(sdev, slot + 8 * i, entry[i]))
			return false;
	dma_wmb();
	if (isim_dma_write_qword(sdev, slot + 8 * (qwords - 1),
				 last | FIELD_PREP(IRDMA_CEQE_VALID, eq->polarity)))
		return false;
	if (++eq->head == eq->size) {
		eq->head = 0;
		eq->polarity = !eq->polarity;
	}
	return true;
}

/*
 * Push an entry onto a live EQ and fire its vector. Threads post, and the
 * irq_work of a trapped doorbell (the CCQ's events, isim_cqp_notify()).
 */
static void isim_eq_post(struct isim_dev *sdev, struct isim_eq *eq, u32 ctl_reg,
			 const u64 *entry, unsigned int qwords)
{
	unsigned long flags;

	spin_lock_irqsave(&sdev->eq_lock, flags);
	/* Acquire: pairs with isim_eq_init()'s release. */
	if (smp_load_acquire(&eq->live) && isim_eq_push(sdev, eq, entry, qwords)) {
		if (eq != &sdev->aeq)
			sdev->stats.ceqes++;
		isim_eq_interrupt(sdev, ctl_reg);
	}
	spin_unlock_irqrestore(&sdev->eq_lock, flags);
}

/**
 * isim_ceq_post - report an event on a CQ through its CEQ
 * @sdev: the simulated function
 * @ceq_id: the CEQ
 * @ctx: the CQ's context as given at its creation
 */
void isim_ceq_post(struct isim_dev *sdev, u32 ceq_id, u64 ctx)
{
	u64 ceqe = FIELD_PREP(IRDMA_CEQE_CQCTX, ctx);

	/* Pairs with isim_eq_init()'s release: the ring is in place. */
	if (ceq_id >= ISIM_MAX_CEQS || !smp_load_acquire(&sdev->ceq[ceq_id].live))
		return;
	/* Checked again under the EQ lock: it may be going. */
	isim_eq_post(sdev, &sdev->ceq[ceq_id], IRDMA_GLINT_CEQCTL(ceq_id), &ceqe, 1);
}

/*
 * An EQ made: its ring before the flag that says it lives, for a thread
 * posting to it while the trap makes it (CEQs are made in the trap).
 */
static int isim_eq_init(struct isim_dev *sdev, struct isim_eq *eq,
			const __le64 *wqe, u32 max)
{
	u32 size = le64_to_cpu(wqe[2]);
	u64 hdr = le64_to_cpu(wqe[3]);
	struct isim_ring ring = {
		.virt = hdr & IRDMA_CQPSQ_EQ_VMAP,
		.levels = FIELD_GET(IRDMA_CQPSQ_EQ_LPBLSIZE, hdr),
	};

	if (eq->live)
		return IRDMA_CQP_MIN_INVALID_STATE;
	if (!size || size > max)
		return ISIM_MIN_BAD_PARAM;
	/* VMAP: qword 6 names the first PBLE, which must be the object's. */
	if (ring.virt) {
		ring.base = FIELD_GET(IRDMA_CQPSQ_EQ_FIRSTPMPBLIDX,
				      le64_to_cpu(wqe[6]));
		if (!ring.levels || !sdev->hmc.committed ||
		    ring.base >= sdev->hmc.cnt[IRDMA_HMC_PBLE])
			return ISIM_MIN_BAD_PARAM;
	} else {
		ring.base = le64_to_cpu(wqe[4]);
		if (!ring.base)
			return ISIM_MIN_BAD_PARAM;
	}
	eq->ring = ring;
	eq->size = size;
	eq->head = 0;
	eq->polarity = true;
	/* Pairs with isim_ceq_post()'s acquire. */
	smp_store_release(&eq->live, true);
	return 0;
}

/*
 * An EQ destroyed: nothing is posted to it once this returns, so its
 * completion tells the driver it may free the ring. Posts check the flag
 * under the EQ lock; a post under way is waited for (a few stores). The
 * trap runs this too: it only tries the lock (it never interrupts a holder
 * on its own CPU, which stores to no trapped register meanwhile).
 */
static void isim_eq_kill(struct isim_dev *sdev, struct isim_eq *eq)
{
	unsigned long flags;

	local_irq_save(flags);
	while (!spin_trylock(&sdev->eq_lock))
		cpu_relax();
	WRITE_ONCE(eq->live, false);
	spin_unlock(&sdev->eq_lock);
	local_irq_restore(flags);
}

/**
 * isim_ceq_create - CREATE_CEQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * Context: a thread or the trap.
 */
void isim_ceq_create(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	u32 id = FIELD_GET(IRDMA_CQPSQ_CEQ_CEQID, le64_to_cpu(wqe[3]));
	int min;

	if (id >= ISIM_MAX_CEQS)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	min = isim_eq_init(sdev, &sdev->ceq[id], wqe, IRDMA_MAX_CEQ_ENTRIES);
	if (min)
		isim_fail(res, min);
}

/**
 * isim_ceq_destroy - DESTROY_CEQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * Context: a thread or the trap.
 */
void isim_ceq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	u32 id = FIELD_GET(IRDMA_CQPSQ_CEQ_CEQID, le64_to_cpu(wqe[3]));

	if (id >= ISIM_MAX_CEQS || !sdev->ceq[id].live)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	isim_eq_kill(sdev, &sdev->ceq[id]);
}

/**
 * isim_aeq_create - CREATE_AEQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_aeq_create(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	int min = isim_eq_init(sdev, &sdev->aeq, wqe, IRDMA_MAX_AEQ_ENTRIES);

	if (min)
		isim_fail(res, min);
}

/**
 * isim_aeq_destroy - DESTROY_AEQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_aeq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	if (!sdev->aeq.live)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	isim_eq_kill(sdev, &sdev->aeq);
}

/**
 * isim_aeq_post_qp - post an asynchronous event about a QP (or a CQ)
 * @sdev: the simulated function
 * @code: the AE code
 * @id: the QP, or the CQ for a CQ's source
 * @source: which side of it (IRDMA_AE_SOURCE_*), as silicon reports it
 * @wqe_idx: the WQE concerned
 * @state: the QP's state (enum irdma_qp_hw_state)
 */
void isim_aeq_post_qp(struct isim_dev *sdev, u32 code, u32 id, u8 source,
		      u32 wqe_idx, u8 state)
{
	isim_aeq_post_full(sdev, code, id, source, wqe_idx, state, 0);
}
EXPORT_SYMBOL_IF_KUNIT(isim_aeq_post_qp);

/**
 * isim_aeq_post_ctx - post an asynchronous event with a completion context
 * @sdev: the simulated function
 * @code: the AE code
 * @id: the object
 * @ctx: its completion context; qword 0 keeps bits 63:6
 */
void isim_aeq_post_ctx(struct isim_dev *sdev, u32 code, u32 id, u64 ctx)
{
	isim_aeq_post_full(sdev, code, id, 0, 0, 0, ctx & ~0x3fULL);
}

/**
 * isim_aeq_post_full - post an asynchronous event, every field given
 * @sdev: the simulated function
 * @code: the AE code
 * @id: the QP, CQ or SRQ
 * @source: which side of a QP (IRDMA_AE_SOURCE_*)
 * @wqe_idx: the WQE concerned
 * @state: a QP's state (enum irdma_qp_hw_state)
 * @q0: qword 0 (a completion context)
 */
void isim_aeq_post_full(struct isim_dev *sdev, u32 code, u32 id, u8 source,
			u32 wqe_idx, u8 state, u64 q0)
{
	u64 aeqe[2] = {
		q0,
		FIELD_PREP(IRDMA_AEQE_QPCQID_LOW, id) |
		FIELD_PREP(IRDMA_AEQE_QPCQID_HI, id >> 18) |
		FIELD_PREP(IRDMA_AEQE_AECODE, code) |
		FIELD_PREP(IRDMA_AEQE_AESRC, source) |
		FIELD_PREP(IRDMA_AEQE_WQDESCIDX, wqe_idx) |
		FIELD_PREP(IRDMA_AEQE_IWSTATE, state),
	};

	isim_eq_post(sdev, &sdev->aeq, IRDMA_PFINT_AEQCTL, aeqe, 2);
}

/**
 * isim_aeq_post_tcp - post a QP's asynchronous event, with the QP's state
 *	and, for an iWARP QP, its TCP connection's
 * @sdev: the simulated function
 * @code: the AE code
 * @qp: the QP
 * @source: which side of it (IRDMA_AE_SOURCE_*)
 * @wqe_idx: the WQE concerned
 */
void isim_aeq_post_tcp(struct isim_dev *sdev, u32 code, const struct isim_qp *qp,
		       u8 source, u32 wqe_idx)
{
	u64 aeqe[2] = {
		0,
		FIELD_PREP(IRDMA_AEQE_QPCQID_LOW, qp->id) |
		FIELD_PREP(IRDMA_AEQE_QPCQID_HI, qp->id >> 18) |
		FIELD_PREP(IRDMA_AEQE_AECODE, code) |
		FIELD_PREP(IRDMA_AEQE_AESRC, source) |
		FIELD_PREP(IRDMA_AEQE_WQDESCIDX, wqe_idx) |
		FIELD_PREP(IRDMA_AEQE_IWSTATE, qp->state) |
		FIELD_PREP(IRDMA_AEQE_TCPSTATE, qp->tcp.state),
	};

	isim_eq_post(sdev, &sdev->aeq, IRDMA_PFINT_AEQCTL, aeqe, 2);
}

/**
 * isim_aeq_post_q2 - post an iWARP QP's asynchronous event about a frame
 *	the engine wrote into the QP's Q2 buffer (the AEQE says so)
 * @sdev: the simulated function
 * @code: the AE code
 * @qp: the QP
 */
void isim_aeq_post_q2(struct isim_dev *sdev, u32 code, const struct isim_qp *qp)
{
	u64 aeqe[2] = {
		0,
		FIELD_PREP(IRDMA_AEQE_QPCQID_LOW, qp->id) |
		FIELD_PREP(IRDMA_AEQE_QPCQID_HI, qp->id >> 18) |
		FIELD_PREP(IRDMA_AEQE_AECODE, code) |
		FIELD_PREP(IRDMA_AEQE_AESRC, IRDMA_AE_SOURCE_RSVD) |
		FIELD_PREP(IRDMA_AEQE_IWSTATE, qp->state) |
		FIELD_PREP(IRDMA_AEQE_TCPSTATE, qp->tcp.state) |
		FIELD_PREP(IRDMA_AEQE_Q2DATA, 1),
	};

	isim_eq_post(sdev, &sdev->aeq, IRDMA_PFINT_AEQCTL, aeqe, 2);
}

/**
 * isim_fault_queue_ae - have the engine raise an asynchronous event
 * @sdev: the simulated function
 * @code: the AE code
 * @id: the QP or CQ it concerns
 * @source: the AEQE's source field (IRDMA_AE_SOURCE_*)
 */
void isim_fault_queue_ae(struct isim_dev *sdev, u32 code, u32 id, u8 source)
{
	struct isim_faults *f = &sdev->faults;

	spin_lock(&f->ae_lock);
	kfifo_put(&f->aes, (u64)source << 48 | (u64)code << 32 | id);
	spin_unlock(&f->ae_lock);
}
EXPORT_SYMBOL_IF_KUNIT(isim_fault_queue_ae);

/**
 * isim_fault_post_aes - raise the events debugfs queued
 * @sdev: the simulated function
 *
 * Return: true if any was raised.
 */
bool isim_fault_post_aes(struct isim_dev *sdev)
{
	struct isim_faults *f = &sdev->faults;
	bool work = false;
	u64 ae;

	for (;;) {
		spin_lock(&f->ae_lock);
		if (!kfifo_get(&f->aes, &ae)) {
			spin_unlock(&f->ae_lock);
			break;
		}
		spin_unlock(&f->ae_lock);
		isim_aeq_post_qp(sdev, (ae >> 32) & 0xffff, lower_32_bits(ae),
				 ae >> 48, 0, 0);
		work = true;
	}
	return work;
}
