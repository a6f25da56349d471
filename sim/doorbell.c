// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Trapped doorbells. Silicon sees a doorbell the moment it is written and
 * needs no CPU to act on it. The simulator's register window is plain
 * memory, so it asks the CPUs to tell it: a write watchpoint in the debug
 * registers of every CPU (a "wide" hardware breakpoint) on CQPDB, where a
 * driver rings CQP commands, on CCQPLOW, where it creates the CQP, and on
 * CQACK, where it acknowledges CQ events (each write is one, whatever its
 * value: cq.c).
 *
 * The watchpoint fires right after the store, on the storing CPU, in the
 * storing context, even one with interrupts off: it runs as a debug
 * exception, NMI-like. That is where the engine's time-critical path runs:
 *
 *  - the CQP commands a driver may busy-wait for with interrupts off
 *    (address handles, made by ib_cm and the MAD layer under spinlocks)
 *    are executed right there, without a thread (cqp.c, isim_cqp_fast());
 *  - everything else wakes the engine threads through an irq_work, which
 *    runs as soon as the storing CPU takes interrupts again; the same
 *    irq_work posts the event of a CCQ completion written in the trap, so
 *    that it follows the completion at once, as on silicon.
 *
 * So a driver spinning on every CPU with interrupts off still sees its
 * address handle made; the threads keep the rest (and the data path, whose
 * doorbells user space rings through its own mappings, which a kernel
 * watchpoint does not see). x86 has four debug registers; a function that
 * finds none free for a register is polled there, as before. The CQP's
 * registers come first: a driver spins on them for at most 10 ms during
 * bring-up (the stock driver's budget), and a look at an idle function may
 * come later than that when the host takes a CPU away. So a function that
 * finds no debug register for CQPDB or CCQPLOW takes the one another
 * function traps CQACK with; that CQACK is polled from then on (the
 * acknowledgment credits in cq.c cover a write a look misses). Two
 * functions then trap both CQP registers each.
 */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>

#include "sim.h"

/* The functions with doorbells armed, and the lock over their arming. */
static LIST_HEAD(isim_doorbell_armed);
static DEFINE_MUTEX(isim_doorbell_mutex);

static const u32 isim_trap_regs[ISIM_TRAPS] = {
	[ISIM_TRAP_CQPDB] = IRDMA_PFPE_CQPDB,
	[ISIM_TRAP_CCQPLOW] = IRDMA_PFPE_CCQPLOW,
	[ISIM_TRAP_CQACK] = IRDMA_PFPE_CQACK,
};

/*
 * The CQP's creation or its going down, answered in the trap; what is
 * left (the state of a CQP that went down) is the threads'. True if
 * nothing is.
 */
static bool isim_doorbell_ccqp(struct isim_dev *sdev)
{
	u32 low = isim_rd32(sdev, IRDMA_PFPE_CCQPLOW);
	struct isim_trap_wait wait;
	bool done;

	/* A creation: the last CQP's state goes first. */
	if ((low || isim_rd32(sdev, IRDMA_PFPE_CCQPHIGH)) &&
	    !isim_cqp_trap_await_cleanup(sdev))
		return false;
	isim_cqp_trap_wait_begin(sdev, &wait);
	while (!spin_trylock(&sdev->cqp_lock))
		if (!isim_cqp_trap_patient(sdev, &wait))
			return false;
	done = isim_regs_cqp_ctx(sdev);
	spin_unlock(&sdev->cqp_lock);
	return done && !READ_ONCE(sdev->cqp_cleanup_due);
}

/* The watchpoint's handler: #DB context, so only NMI-safe work. */
static void isim_doorbell_hit(struct perf_event *bp,
			      struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	struct isim_dev *sdev = bp->overflow_handler_context;
	unsigned long reg = bp->attr.bp_addr - (unsigned long)sdev->regs;
	bool cqpdb = reg == IRDMA_PFPE_CQPDB;
	unsigned int left = 0;
	s64 none = 0;

	/* An event acknowledged: every write counts, the same value again too. */
	if (reg == IRDMA_PFPE_CQACK) {
		isim_cq_ack(sdev, isim_rd32(sdev, IRDMA_PFPE_CQACK));
		/* An event it held is the threads' to give. */
		if (READ_ONCE(sdev->cq_held_due)) {
			WRITE_ONCE(sdev->db.threads_due, ISIM_KICK_ALL);
			irq_work_queue(&sdev->db.kick);
		}
		return;
	}

	/* The engine's own write, setting CCQPLOW back to idle. */
	if (!cqpdb && isim_rd32(sdev, IRDMA_PFPE_CCQPLOW) == ISIM_DB_IDLE)
		return;
	atomic64_inc(&sdev->db.traps);
	/* Which write it was, for a thread that found it before this ran. */
	if (cqpdb) {
		WRITE_ONCE(sdev->db.rung_head, isim_rd32(sdev, IRDMA_PFPE_CQPDB) + 1);
		WRITE_ONCE(sdev->db.rung_cpu, smp_processor_id());
	}
	/* The earliest write not yet taken starts the clock. */
	atomic64_try_cmpxchg(&sdev->db.rung_ns[cqpdb ? ISIM_TRAP_CQPDB : ISIM_TRAP_CCQPLOW],
			     &none, isim_lat_now());
	if (cqpdb)
		left = isim_cqp_fast(sdev);
	else if (!isim_doorbell_ccqp(sdev))
		left = ISIM_TRAP_LEFT_THREADS;
	if (!left)
		return;
	if (left & ISIM_TRAP_LEFT_THREADS)
		WRITE_ONCE(sdev->db.threads_due, left & ISIM_TRAP_LEFT_RINGER ?
			   ISIM_KICK_RINGER : ISIM_KICK_ALL);
	irq_work_queue(&sdev->db.kick);
}

/*
 * Right after a trap that left something, as soon as the storing CPU takes
 * interrupts: the CCQ's event, then the threads' wake-up if they have work.
 */
static void isim_doorbell_kick(struct irq_work *work)
{
	struct isim_dev *sdev = container_of(work, struct isim_dev, db.kick);
	u8 due = xchg(&sdev->db.threads_due, 0);

	isim_cqp_notify(sdev);
	/* The irq_work runs on the CPU that rang: see isim_cqp_run(). */
	if (due == ISIM_KICK_RINGER)
		isim_engine_kick_ringer(sdev);
	else if (due)
		isim_engine_kick(sdev);
}

/**
 * isim_doorbell_init - a function's doorbells, none trapped yet
 * @sdev: the simulated function
 */
void isim_doorbell_init(struct isim_dev *sdev)
{
	init_irq_work(&sdev->db.kick, isim_doorbell_kick);
	INIT_LIST_HEAD(&sdev->db.armed);
	sdev->db.ringer_cpu = -1;
}

static int isim_doorbell_arm_one(struct isim_dev *sdev, enum isim_trap_reg reg)
{
	struct perf_event * __percpu *bp;
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)(sdev->regs + isim_trap_regs[reg]);
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_W;
	bp = register_wide_hw_breakpoint(&attr, isim_doorbell_hit, sdev);
	if (IS_ERR(bp))
		return PTR_ERR(bp);
	WRITE_ONCE(sdev->db.bp[reg], bp);
	return 0;
}

/*
 * A function trapping CQACK gives its debug register up; its CQACK is
 * polled from here on, from idle (a look takes any other value for a write).
 */
static bool isim_doorbell_give_cqack(struct isim_dev *to)
{
	struct isim_dev *sdev;

	lockdep_assert_held(&isim_doorbell_mutex);
	list_for_each_entry(sdev, &isim_doorbell_armed, db.armed) {
		struct perf_event * __percpu *bp = sdev->db.bp[ISIM_TRAP_CQACK];

		if (!bp)
			continue;
		WRITE_ONCE(sdev->db.bp[ISIM_TRAP_CQACK], NULL);
		unregister_wide_hw_breakpoint(bp);
		isim_wr32(sdev, IRDMA_PFPE_CQACK, ISIM_DB_IDLE);
		dev_info(&sdev->dev, "register %#x polled: its debug register went to %s\n",
			 isim_trap_regs[ISIM_TRAP_CQACK], dev_name(&to->dev));
		return true;
	}
	return false;
}

/**
 * isim_doorbell_arm - trap the function's doorbells where debug registers
 * are free
 * @sdev: the simulated function; its register window is in place
 *
 * One free for neither CQP register is taken from another function's CQACK.
 */
void isim_doorbell_arm(struct isim_dev *sdev)
{
	int i, err;

	if (!IS_ENABLED(CONFIG_HAVE_HW_BREAKPOINT))
		return;
	mutex_lock(&isim_doorbell_mutex);
	for (i = 0; i < ISIM_TRAPS; i++) {
		err = isim_doorbell_arm_one(sdev, i);
		/* The CQP's registers before another function's CQACK. */
		while (err == -ENOSPC && i != ISIM_TRAP_CQACK &&
		       isim_doorbell_give_cqack(sdev))
			err = isim_doorbell_arm_one(sdev, i);
		if (err)
			dev_info(&sdev->dev, "register %#x polled: no debug register (%d)\n",
				 isim_trap_regs[i], err);
	}
	list_add_tail(&sdev->db.armed, &isim_doorbell_armed);
	mutex_unlock(&isim_doorbell_mutex);
}

/**
 * isim_doorbell_disarm - stop trapping; no handler runs after this returns
 * @sdev: the simulated function
 */
void isim_doorbell_disarm(struct isim_dev *sdev)
{
	int i;

	mutex_lock(&isim_doorbell_mutex);
	list_del_init(&sdev->db.armed);
	for (i = 0; i < ISIM_TRAPS; i++) {
		if (!sdev->db.bp[i])
			continue;
		unregister_wide_hw_breakpoint(sdev->db.bp[i]);
		WRITE_ONCE(sdev->db.bp[i], NULL);
	}
	mutex_unlock(&isim_doorbell_mutex);
	irq_work_sync(&sdev->db.kick);
}

/**
 * isim_doorbell_take - when a doorbell was rung, if its trap saw it
 * @sdev: the simulated function
 * @reg: which doorbell
 *
 * Return: the time of the earliest trapped write not yet taken, or 0.
 */
u64 isim_doorbell_take(struct isim_dev *sdev, enum isim_trap_reg reg)
{
	return atomic64_xchg(&sdev->db.rung_ns[reg], 0);
}

/*
 * Looks further apart than this leave a write they find to its trap. The
 * trap comes 10 to 250 us after the store under TCG; threads that poll
 * look every 10-20 us, idle ones every 1-2 ms.
 */
#define ISIM_DB_LOOK_GAP_NS	(100 * NSEC_PER_USEC)

/**
 * isim_doorbell_leave - whether a thread leaves a write it found to the
 * write's trap
 * @sdev: the simulated function
 * @reg: the doorbell
 * @val: the value found there
 * @looked: when the thread last looked and found nothing new
 * @now: when it looked this time
 *
 * A thread that happens to look between a store and its trap knows only
 * that the write came after its last look; answered and timed from there,
 * an answer would be recorded up to a look interval too slow. The trap is
 * coming: it answers the write (or stamps it and wakes the threads). The
 * write is left once; if it is still there at the next look (no trap came),
 * that look takes it.
 *
 * Context: under the CQP lock.
 * Return: true to leave the write for now.
 */
bool isim_doorbell_leave(struct isim_dev *sdev, enum isim_trap_reg reg, u32 val,
			 u64 looked, u64 now)
{
	u64 mark = BIT_ULL(32) | val;

	if (in_nmi() || !sdev->db.bp[reg] || now - looked < ISIM_DB_LOOK_GAP_NS ||
	    atomic64_read(&sdev->db.rung_ns[reg]) || sdev->db.left_to_trap[reg] == mark) {
		sdev->db.left_to_trap[reg] = 0;
		return false;
	}
	sdev->db.left_to_trap[reg] = mark;
	atomic64_inc(&sdev->db.left_by_looks);
	return true;
}
