// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The BAR0 register file. The window is plain memory: the driver's writel()
 * lands there and the engine notices by looking. Registers that carry a
 * value (CQPDB holds the SQ head) are compared with the last value taken;
 * doorbells whose value may repeat (CQARM, GLINT_DYN_CTL, CCQPLOW, and
 * CQACK where it is not trapped) are set back to ISIM_DB_IDLE once their
 * write has been taken.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>

#include "sim.h"
#include "trace.h"

/**
 * isim_regs_reset - the registers' values after a function reset
 * @sdev: the simulated function
 */
void isim_regs_reset(struct isim_dev *sdev)
{
	int i;

	memset_io(sdev->regs, 0, sdev->push_pages ? IRDMA_SIM_NATIVE_BAR_SIZE :
						   IRDMA_SIM_BAR_SIZE);
	bitmap_zero(sdev->push_used, IRDMA_SIM_PUSH_PAGES);
	for (i = 0; i < 3; i++)
		isim_wr32(sdev, IRDMA_GLPE_CPUSTATUS(i), IRDMA_CPUSTATUS_PE_READY);
	/* An 8 MiB doorbell window. */
	isim_wr32(sdev, IRDMA_GLPCI_LBARCTRL,
		  FIELD_PREP(IRDMA_LBARCTRL_PE_DB_SIZE, 2));
	isim_wr32(sdev, IRDMA_PFPE_CCQPLOW, ISIM_DB_IDLE);
	isim_wr32(sdev, IRDMA_PFPE_CQARM, ISIM_DB_IDLE);
	isim_wr32(sdev, IRDMA_PFPE_CQACK, ISIM_DB_IDLE);
	isim_wr32(sdev, IRDMA_PFPE_WQEALLOC, ISIM_DB_IDLE);
	isim_wr32(sdev, IRDMA_DB_WQE_ALLOC, ISIM_DB_IDLE);
	isim_wr32(sdev, IRDMA_DB_CQ_ARM, ISIM_DB_IDLE);
}

/**
 * isim_db_taken - take a doorbell write: it rang if it no longer reads
 * idle, and is reset to idle
 * @sdev: the simulated function
 * @reg: the doorbell's offset
 *
 * Return: true if it rang since it was last taken.
 */
bool isim_db_taken(struct isim_dev *sdev, u32 reg)
{
	u32 val = isim_rd32(sdev, reg);

	if (val == ISIM_DB_IDLE)
		return false;
	trace_irdma_sim_reg(sdev->id, reg, val);
	isim_wr32(sdev, reg, ISIM_DB_IDLE);
	return true;
}

/**
 * isim_regs_cqp_ctx - the CCQPHIGH/CCQPLOW handshake: CCQPHIGH then CCQPLOW
 * create the CQP, zeros in both take it down
 * @sdev: the simulated function
 *
 * A CQP is not created while the last one's state is still to go.
 *
 * Context: under the CQP lock; a thread or the CCQPLOW trap.
 * Return: true if a write was taken.
 */
bool isim_regs_cqp_ctx(struct isim_dev *sdev)
{
	/* Taken before the look: a write landing after it is not missed. */
	u64 looked = isim_lat_now(), since;
	u32 low = isim_rd32(sdev, IRDMA_PFPE_CCQPLOW);
	u32 high;

	lockdep_assert_held(&sdev->cqp_lock);
	if (low == ISIM_DB_IDLE) {
		sdev->ccqp_looked_ns = looked;
		/*
		 * A trap that came after a thread took its write has nothing
		 * to time: its stamp would start the clock of the next write.
		 */
		isim_doorbell_take(sdev, ISIM_TRAP_CCQPLOW);
		return false;
	}
	/* The driver wrote HIGH before LOW. */
	smp_rmb();
	high = isim_rd32(sdev, IRDMA_PFPE_CCQPHIGH);
	if ((low || high) && !sdev->cqp.up && READ_ONCE(sdev->cqp_cleanup_due))
		return false;
	if (isim_doorbell_leave(sdev, ISIM_TRAP_CCQPLOW, low, sdev->ccqp_looked_ns, looked))
		return false;
	/* The trap's time, unless older than a look that found nothing. */
	since = max(isim_doorbell_take(sdev, ISIM_TRAP_CCQPLOW), sdev->ccqp_looked_ns);
	trace_irdma_sim_reg(sdev->id, IRDMA_PFPE_CCQPHIGH, high);
	trace_irdma_sim_reg(sdev->id, IRDMA_PFPE_CCQPLOW, low);
	isim_wr32(sdev, IRDMA_PFPE_CCQPLOW, ISIM_DB_IDLE);

	if (!low && !high) {
		if (sdev->cqp.up) {
			isim_cqp_down(sdev);
			isim_lat_record(sdev, ISIM_LAT_CQP_DESTROY, since, 0, 0, true);
		}
	} else if (!sdev->cqp.up) {
		isim_cqp_create(sdev, (u64)high << 32 | low);
		isim_lat_record(sdev, ISIM_LAT_CQP_CREATE, since, 0, 0, true);
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(isim_regs_cqp_ctx);

/* The handshake from a thread; the state of a CQP taken down goes here. */
static bool isim_regs_poll_cqp_ctx(struct isim_dev *sdev)
{
	bool work = READ_ONCE(sdev->cqp_cleanup_due);

	isim_cqp_cleanup(sdev);
	spin_lock_irq(&sdev->cqp_lock);
	work |= isim_regs_cqp_ctx(sdev);
	spin_unlock_irq(&sdev->cqp_lock);
	isim_cqp_cleanup(sdev);
	return work;
}

/**
 * isim_regs_poll - take the register writes made since the last look
 * @sdev: the simulated function
 * @quick: set if the work found keeps the threads quick to answer (see
 *	isim_engine_step())
 *
 * Return: true if there was anything to do.
 */
bool isim_regs_poll(struct isim_dev *sdev, bool *quick)
{
	bool work = false, young = false, sq;

	work |= isim_regs_poll_cqp_ctx(sdev);
	work |= isim_cqp_run(sdev, &young);
	/* A command not yet due keeps the threads looking. */
	*quick |= young;
	/* CQACK, where it has no trap: the last write since the last look. */
	if (!READ_ONCE(sdev->db.bp[ISIM_TRAP_CQACK])) {
		u32 acked = isim_rd32(sdev, IRDMA_PFPE_CQACK);

		if (acked != ISIM_DB_IDLE) {
			isim_wr32(sdev, IRDMA_PFPE_CQACK, ISIM_DB_IDLE);
			isim_cq_ack(sdev, acked);
		}
	}
	work |= isim_cq_release_held(sdev);
	/* The kernel's and user space's CQ arm doorbells. */
	if (isim_db_taken(sdev, IRDMA_PFPE_CQARM) | isim_db_taken(sdev, IRDMA_DB_CQ_ARM)) {
		isim_cq_check_arms(sdev);
		work = true;
	}
	/*
	 * SQ doorbells only wake the engine: it walks every SQ by valid bits.
	 * Those the SQs hold are work that keeps the threads quick only as
	 * isim_qps_run() says.
	 */
	work |= isim_db_taken(sdev, IRDMA_PFPE_WQEALLOC);
	sq = isim_db_taken(sdev, IRDMA_DB_WQE_ALLOC);
	work |= isim_push_poll(sdev);
	sq |= isim_qps_run(sdev, quick);
	work |= isim_vectors_poll(sdev);
	*quick |= work;
	return work || sq;
}
