// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues: rings of 32-byte CQEs in host memory. The engine
 * fills them with the valid bit of the current pass; a CQ armed through
 * its shadow area (and the CQARM doorbell) gets one CEQE at its next
 * completion.
 *
 * A driver acknowledges each CEQE it takes by writing the CQ's number to
 * CQACK, as upstream does for every CEQE before it handles it; a CQ whose
 * last event is not acknowledged gets no other: one due meanwhile is held,
 * the CQ staying armed, and given when the acknowledgment comes (user
 * space may arm again before the kernel has taken the CEQE). CQACK is trapped
 * (doorbell.c): a value written twice in a row is two acknowledgments,
 * which looking at the register cannot tell. Where no debug register is
 * left for it, the register is looked at, and since writes may then be
 * missed, arming a CQ acknowledges its event too.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/slab.h>

#include "sim.h"

/* A CQ's ring: a contiguous address, or PBLEs (VIRTMAP). */
static struct isim_ring isim_cq_ring(const __le64 *wqe)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	bool virt = hdr & IRDMA_CQCMD_VIRTMAP;

	return (struct isim_ring) {
		.virt = virt,
		.levels = FIELD_GET(IRDMA_CQCMD_LPBLSIZE, hdr),
		.base = virt ? FIELD_GET(IRDMA_CQPSQ_FIRSTPMPBLIDX, le64_to_cpu(wqe[6])) :
			       le64_to_cpu(wqe[4]),
	};
}

/**
 * isim_cq_find - a live CQ by number
 * @sdev: the simulated function
 * @id: its number; 0 is the CCQ
 *
 * Context: any, the trap's included (no lock taken).
 * Return: the CQ, or NULL if there is none of that number.
 */
struct isim_cq *isim_cq_find(struct isim_dev *sdev, u32 id)
{
	if (id)
		return xa_load(&sdev->cqs, id);
	/* Pairs with isim_ccq_create()'s release: its fields are in place. */
	return smp_load_acquire(&sdev->ccq_live) ? &sdev->ccq : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(isim_cq_find);

/*
 * The CCQ: made in place, its fields before the flag that says it lives,
 * since the trap may make it (the stock driver polls for it with a
 * 10 ms budget and nothing else to wake a thread).
 */
static void isim_ccq_create(struct isim_dev *sdev, const struct isim_cq *ccq)
{
	sdev->ccq = *ccq;
	isim_ccq_map(sdev, &sdev->ccq);
	/* Pairs with isim_cq_find()'s acquire. */
	smp_store_release(&sdev->ccq_live, true);
}

/**
 * isim_cq_create - CREATE_CQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * Context: a thread; or the trap, for the CCQ in contiguous memory (no
 * allocation then).
 */
void isim_cq_create(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 id = FIELD_GET(IRDMA_CQCMD_CQID, hdr);
	u32 size = FIELD_GET(IRDMA_CQCMD_CQSIZE, le64_to_cpu(wqe[0]));
	struct isim_cq made, *cq;
	u64 arm;

	/* Only the CCQ may exist before the HMC has room for CQs. */
	if ((id && (!sdev->hmc.committed || id >= sdev->hmc.cnt[IRDMA_HMC_CQ])) ||
	    !size || !le64_to_cpu(wqe[5]))
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (!(hdr & IRDMA_CQCMD_VIRTMAP) && !le64_to_cpu(wqe[4]))
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (isim_cq_find(sdev, id))
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	if (isim_dma_read_qword(sdev, le64_to_cpu(wqe[5]) + 32, &arm))
		return isim_fail(res, ISIM_MIN_DMA_FAULT);

	made = (struct isim_cq) {
		.id = id,
		.size = size,
		.ctx = le64_to_cpu(wqe[1]),
		.ring = isim_cq_ring(wqe),
		.shadow_pa = le64_to_cpu(wqe[5]),
		.ceq_id = FIELD_GET(IRDMA_CQCMD_CEQID, hdr),
		.ceq_valid = !!(hdr & IRDMA_CQCMD_CEQIDVALID),
		.polarity = true,
		.arm_seq = FIELD_GET(IRDMA_CQ_DBSA_ARM_SEQ_NUM, arm),
	};
	clear_bit(id, sdev->cq_unacked);
	clear_bit(id, sdev->cq_held);
	if (!id)
		return isim_ccq_create(sdev, &made);

	cq = kmemdup(&made, sizeof(made), GFP_KERNEL);
	if (!cq)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (xa_err(xa_store(&sdev->cqs, id, cq, GFP_KERNEL))) {
		kfree(cq);
		isim_fail(res, ISIM_MIN_BAD_PARAM);
	}
}

/**
 * isim_cq_destroy - DESTROY_CQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * Context: a thread; or the trap, for the CCQ.
 */
void isim_cq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	u32 id = FIELD_GET(IRDMA_CQCMD_CQID, le64_to_cpu(wqe[3]));
	struct isim_cq *cq;

	if (!id) {
		if (!isim_cq_find(sdev, 0))
			return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
		WRITE_ONCE(sdev->ccq_live, false);
		return;
	}
	cq = xa_erase(&sdev->cqs, id);
	if (!cq)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	clear_bit(id, sdev->cq_held);
	kfree(cq);
}

/**
 * isim_cq_modify - MODIFY_CQ: move a CQ to a new ring (resize)
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * The engine writes the new ring from its start with a fresh pass; the
 * driver drains the old one on its own.
 */
void isim_cq_modify(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	struct isim_cq *cq = isim_cq_find(sdev, FIELD_GET(IRDMA_CQCMD_CQID, hdr));
	u32 size = FIELD_GET(IRDMA_CQCMD_CQSIZE, le64_to_cpu(wqe[0]));
	u64 arm;

	if (!cq)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	if (!(hdr & IRDMA_CQCMD_CQRESIZE) || !size ||
	    (!(hdr & IRDMA_CQCMD_VIRTMAP) && !le64_to_cpu(wqe[4])))
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	cq->ring = isim_cq_ring(wqe);
	cq->size = size;
	if (!cq->id) {
		cq->ring_va = NULL;
		isim_ccq_map(sdev, cq);
	}
	cq->head = 0;
	cq->polarity = true;
	cq->resized = true;
	if (!isim_dma_read_qword(sdev, cq->shadow_pa + 32, &arm))
		cq->sw_select = FIELD_GET(IRDMA_CQ_DBSA_SW_CQ_SELECT, arm);
}

/**
 * isim_cqs_destroy_all - forget every CQ (function reset)
 * @sdev: the simulated function
 */
void isim_cqs_destroy_all(struct isim_dev *sdev)
{
	struct isim_cq *cq;
	unsigned long id;

	WRITE_ONCE(sdev->ccq_live, false);
	xa_for_each(&sdev->cqs, id, cq) {
		xa_erase(&sdev->cqs, id);
		kfree(cq);
	}
	bitmap_zero(sdev->cq_unacked, ISIM_MAX_CQS);
	bitmap_zero(sdev->cq_held, ISIM_MAX_CQS);
	atomic_set(&sdev->cq_ack_credit, 0);
}

/**
 * isim_cq_ack - a CQACK write: the driver took the CQ's event
 * @sdev: the simulated function
 * @id: the value written, the CQ's number
 *
 * Context: any, the trap's included.
 */
void isim_cq_ack(struct isim_dev *sdev, u32 id)
{
	atomic64_inc(&sdev->stats.cq_acks);
	if (id < ISIM_MAX_CQS && test_and_clear_bit(id, sdev->cq_unacked)) {
		if (test_bit(id, sdev->cq_held))
			WRITE_ONCE(sdev->cq_held_due, true);
		return;
	}
	/*
	 * The trap reads the register after the store, some microseconds
	 * later under emulation: a CPU acknowledging another CQ meanwhile
	 * overwrote this write's value, and this read finds that CQ's (whose
	 * own trap then finds it done). Each write acknowledges one event: the
	 * one whose number was lost is owed a credit.
	 */
	atomic_inc(&sdev->cq_ack_credit);
	atomic64_inc(&sdev->stats.cq_acks_unmatched);
	if (!bitmap_empty(sdev->cq_held, ISIM_MAX_CQS))
		WRITE_ONCE(sdev->cq_held_due, true);
}

/*
 * The CQ, armed, is due an event: it may have one if its last was
 * acknowledged (or a write whose number was lost may stand for it). One
 * it may have is then unacknowledged until CQACK says otherwise. A CQ
 * with no CEQ gets no event, so needs no acknowledgment.
 */
static bool isim_cq_event_free(struct isim_dev *sdev, struct isim_cq *cq)
{
	if (!cq->ceq_valid)
		return true;
	if (!test_and_set_bit(cq->id, sdev->cq_unacked) ||
	    atomic_add_unless(&sdev->cq_ack_credit, -1, 0)) {
		clear_bit(cq->id, sdev->cq_held);
		return true;
	}
	/* Still armed: the event comes with the acknowledgment. */
	set_bit(cq->id, sdev->cq_held);
	atomic64_inc(&sdev->stats.cq_events_held);
	return false;
}

/* A qword of the CQ's shadow area (@off: its byte offset). */
static int isim_cq_shadow(struct isim_dev *sdev, struct isim_cq *cq, u32 off,
			  u64 *val)
{
	if (cq->shadow_va) {
		*val = le64_to_cpu(READ_ONCE(*(__le64 *)(cq->shadow_va + off)));
		return 0;
	}
	return isim_dma_read_qword(sdev, cq->shadow_pa + off, val);
}

/* A qword of the CQE at ring slot @idx (@q: which qword). */
static int isim_cq_store(struct isim_dev *sdev, struct isim_cq *cq, u32 idx,
			 u32 q, u64 val)
{
	u64 off = (u64)idx * IRDMA_CQE_SIZE + 8 * q, pa;

	if (cq->ring_va) {
		WRITE_ONCE(*(__le64 *)(cq->ring_va + off), cpu_to_le64(val));
		return 0;
	}
	if (isim_ring_pa(sdev, &cq->ring, off, &pa))
		return -EFAULT;
	return isim_dma_write_qword(sdev, pa, val);
}

/* CQEs written but not yet taken: the shadow area holds the consumer. */
static bool isim_cq_has_cqes(struct isim_dev *sdev, struct isim_cq *cq)
{
	u64 sa;

	if (isim_cq_shadow(sdev, cq, 0, &sa))
		return false;
	return FIELD_GET(IRDMA_CQ_DBSA_CQEIDX, sa) != cq->head;
}

/**
 * isim_ccq_map - let the trap write the CCQ: its ring and shadow area in
 * the kernel's mapping, when both are contiguous host memory
 * @sdev: the simulated function
 * @ccq: the CCQ, being created
 */
void isim_ccq_map(struct isim_dev *sdev, struct isim_cq *ccq)
{
	if (ccq->ring.virt)
		return;
	ccq->ring_va = isim_dma_map(sdev, ccq->ring.base,
				    (size_t)ccq->size * IRDMA_CQE_SIZE);
	ccq->shadow_va = isim_dma_map(sdev, ccq->shadow_pa, 64);
	if (!ccq->shadow_va)
		ccq->ring_va = NULL;
}

/**
 * isim_cq_write - write one CQE, leaving its event to the caller
 * @sdev: the simulated function
 * @cq: the CQ
 * @cqe: the CQE's four qwords; the valid bit is added here
 * @notify: set if the CQ was armed for this CQE (it is disarmed)
 *
 * Context: for the CCQ, under the CQP lock; from the trap if the CCQ is
 * mapped (isim_ccq_map()).
 * Return: 0, or -ENOSPC if the CQ is full (the CQE is dropped), -EFAULT
 * if its ring is not host memory.
 */
int isim_cq_write(struct isim_dev *sdev, struct isim_cq *cq, const u64 *cqe,
		  bool *notify)
{
	u64 sa;
	int i;

	*notify = false;
	/*
	 * Until the driver says it let the old ring go, the consumer index in
	 * the shadow area may be the old ring's.
	 */
	if (cq->resized && !isim_cq_shadow(sdev, cq, 32, &sa) &&
	    FIELD_GET(IRDMA_CQ_DBSA_SW_CQ_SELECT, sa) != cq->sw_select)
		cq->resized = false;
	if (!cq->resized && !isim_cq_shadow(sdev, cq, 0, &sa) &&
	    FIELD_GET(IRDMA_CQ_DBSA_CQEIDX, sa) == (cq->head + 1) % cq->size)
		return -ENOSPC;

	for (i = 0; i < 3; i++)
		if (isim_cq_store(sdev, cq, cq->head, i, cqe[i]))
			return -EFAULT;
	/* The valid bit goes last: the driver reads the rest once it sees it. */
	dma_wmb();
	if (isim_cq_store(sdev, cq, cq->head, 3, (cqe[3] & ~IRDMA_CQE_VALID) |
			 FIELD_PREP(IRDMA_CQE_VALID, cq->polarity)))
		return -EFAULT;

	if (++cq->head == cq->size) {
		cq->head = 0;
		cq->polarity = !cq->polarity;
	}
	if (cq->armed && (!cq->solicited_only ||
			  (cqe[3] & (IRDMA_CQE_SOEVENT | IRDMA_CQE_ERROR))) &&
	    isim_cq_event_free(sdev, cq)) {
		cq->armed = false;
		*notify = true;
	}
	return 0;
}

/**
 * isim_cq_post - write one CQE, and its event if the CQ is armed for it
 * @sdev: the simulated function
 * @cq: the CQ
 * @cqe: the CQE's four qwords; the valid bit is added here
 *
 * Return: 0, or -ENOSPC if the CQ is full (the CQE is dropped), -EFAULT
 * if its ring is not host memory.
 */
int isim_cq_post(struct isim_dev *sdev, struct isim_cq *cq, const u64 *cqe)
{
	bool notify;
	int err = isim_cq_write(sdev, cq, cqe, &notify);

	if (!err && notify && cq->ceq_valid)
		isim_ceq_post(sdev, cq->ceq_id, cq->ctx);
	return err;
}

/**
 * isim_cq_post_ext - write an extended completion: the CQE and, in the next
 * slot, its extension
 * @sdev: the simulated function
 * @cq: the CQ
 * @cqe: the CQE's four qwords (the extended bit is added here)
 * @ext: the extension's four qwords
 *
 * Return: 0, -ENOSPC if the CQ has no room for both, -EFAULT.
 */
int isim_cq_post_ext(struct isim_dev *sdev, struct isim_cq *cq, const u64 *cqe,
		     const u64 *ext)
{
	u32 next = (cq->head + 1) % cq->size;
	bool ext_pol = next ? cq->polarity : !cq->polarity;
	u64 slot;
	u64 base[4] = { cqe[0], cqe[1], cqe[2], cqe[3] | IRDMA_CQE_EXTENDED };
	u64 sa;
	int i;

	if (!cq->resized && !isim_dma_read_qword(sdev, cq->shadow_pa, &sa) &&
	    (FIELD_GET(IRDMA_CQ_DBSA_CQEIDX, sa) == (cq->head + 2) % cq->size ||
	     FIELD_GET(IRDMA_CQ_DBSA_CQEIDX, sa) == next))
		return -ENOSPC;
	if (isim_ring_pa(sdev, &cq->ring, (u64)next * IRDMA_CQE_SIZE, &slot))
		return -EFAULT;
	for (i = 0; i < 3; i++)
		if (isim_dma_write_qword(sdev, slot + 8 * i, ext[i]))
			return -EFAULT;
	if (isim_dma_write_qword(sdev, slot + 24, (ext[3] & ~IRDMA_CQE_VALID) |
				FIELD_PREP(IRDMA_CQE_VALID, ext_pol)))
		return -EFAULT;
	/* The CQE itself goes last, so the consumer sees both or neither. */
	i = isim_cq_post(sdev, cq, base);
	if (!i && ++cq->head == cq->size) {
		cq->head = 0;
		cq->polarity = !cq->polarity;
	}
	return i;
}

/*
 * Take an arm request from the shadow area's @arm qword, if it is new.
 * True if an event is due now (CQEs were waiting): the CQ is disarmed.
 */
static bool isim_cq_arm(struct isim_dev *sdev, struct isim_cq *cq, u64 arm)
{
	u8 seq = FIELD_GET(IRDMA_CQ_DBSA_ARM_SEQ_NUM, arm);

	if (seq == cq->arm_seq)
		return false;
	cq->arm_seq = seq;
	cq->armed = true;
	cq->solicited_only = !(arm & IRDMA_CQ_DBSA_ARM_NEXT);
	if (!READ_ONCE(sdev->db.bp[ISIM_TRAP_CQACK]))
		clear_bit(cq->id, sdev->cq_unacked);
	if (cq->solicited_only || !isim_cq_has_cqes(sdev, cq) ||
	    !isim_cq_event_free(sdev, cq))
		return false;
	cq->armed = false;
	return true;
}

/**
 * isim_ccq_take_arm - take the CCQ's arm request, from the CQPDB trap
 * @sdev: the simulated function
 *
 * The arm doorbell is not trapped (the debug registers go to the CQP's
 * doorbells); a trap that is about to complete commands takes the CCQ's
 * arm first, as silicon would have taken it when it was written.
 *
 * Context: under the CQP lock; the trap reads only a shadow area it has
 * mapped (isim_ccq_map()).
 * Return: true if an event is due now (CQEs were waiting): the CCQ is
 * disarmed.
 */
bool isim_ccq_take_arm(struct isim_dev *sdev)
{
	struct isim_cq *ccq = isim_cq_find(sdev, 0);
	u64 arm;

	lockdep_assert_held(&sdev->cqp_lock);
	if (!ccq || !ccq->shadow_va)
		return false;
	arm = le64_to_cpu(READ_ONCE(*(__le64 *)(ccq->shadow_va + 32)));
	return isim_cq_arm(sdev, ccq, arm);
}

/**
 * isim_cq_check_arms - take the arm requests made since the last look
 * @sdev: the simulated function
 *
 * A CQ is armed when its shadow area's arm sequence number moves. One
 * armed while CQEs are waiting reports at once.
 */
void isim_cq_check_arms(struct isim_dev *sdev)
{
	struct isim_cq *cq;
	unsigned long id;
	bool notify;
	u64 arm;

	/* The CCQ's state is shared with the trap: under the CQP lock. */
	spin_lock_irq(&sdev->cqp_lock);
	cq = isim_cq_find(sdev, 0);
	notify = cq && !isim_cq_shadow(sdev, cq, 32, &arm) && isim_cq_arm(sdev, cq, arm);
	spin_unlock_irq(&sdev->cqp_lock);
	if (notify && cq->ceq_valid)
		isim_ceq_post(sdev, cq->ceq_id, cq->ctx);

	xa_for_each(&sdev->cqs, id, cq) {
		if (isim_cq_shadow(sdev, cq, 32, &arm))
			continue;
		if (isim_cq_arm(sdev, cq, arm) && cq->ceq_valid)
			isim_ceq_post(sdev, cq->ceq_id, cq->ctx);
	}
}

/*
 * A held event, if its CQ is acknowledged now (or a write whose number
 * was lost stands for it): the CQ, still armed, has it. True if it is due.
 */
static bool isim_cq_release(struct isim_dev *sdev, struct isim_cq *cq)
{
	if (!test_bit(cq->id, sdev->cq_held))
		return false;
	/* Its event came meanwhile (a credit stood for the acknowledgment). */
	if (!cq->armed) {
		clear_bit(cq->id, sdev->cq_held);
		return false;
	}
	if (test_bit(cq->id, sdev->cq_unacked) &&
	    !atomic_add_unless(&sdev->cq_ack_credit, -1, 0))
		return false;
	clear_bit(cq->id, sdev->cq_held);
	cq->armed = false;
	set_bit(cq->id, sdev->cq_unacked);
	atomic64_inc(&sdev->stats.cq_events_released);
	return true;
}

/**
 * isim_cq_release_held - give held events whose acknowledgment came
 * @sdev: the simulated function
 *
 * Return: true if an acknowledgment had come since the last look.
 */
bool isim_cq_release_held(struct isim_dev *sdev)
{
	struct isim_cq *cq;
	unsigned long id;
	bool post;

	if (!READ_ONCE(sdev->cq_held_due) || !xchg(&sdev->cq_held_due, false))
		return false;
	for_each_set_bit(id, sdev->cq_held, ISIM_MAX_CQS) {
		if (!id) {
			/* The CCQ's state is shared with the trap. */
			spin_lock_irq(&sdev->cqp_lock);
			cq = isim_cq_find(sdev, 0);
			post = cq && isim_cq_release(sdev, cq);
			spin_unlock_irq(&sdev->cqp_lock);
		} else {
			cq = isim_cq_find(sdev, id);
			post = cq && isim_cq_release(sdev, cq);
		}
		if (!cq)
			clear_bit(id, sdev->cq_held);
		else if (post)
			isim_ceq_post(sdev, cq->ceq_id, cq->ctx);
	}
	return true;
}
