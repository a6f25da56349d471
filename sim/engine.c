// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The engine: threads of each simulated function execute the hardware's
 * work. Register writes are plain stores into the register window; the
 * CQP's doorbells are trapped (doorbell.c) and wake the threads at once,
 * the rest the threads find by looking: they poll while there is work
 * and back off to sleeping when the function is idle.
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/sched/stat.h>

#include "sim.h"

/*
 * After work (most work: see isim_engine_step()), a function stays quick to
 * answer for ISIM_FAST_NS: one of its threads keeps looking without a pause
 * while its CPU has nothing else to run (as KVM polls before halting a
 * vCPU); without such a thread, they look ~10 us apart, or ~100 us apart on
 * a CPU where a task waits to run (a real-time thread looking every 10 us
 * starves it).
 * A driver polling a register for 10 ms (the stock driver's budget for a
 * CQP command before the CCQ exists) is answered within the budget even
 * across the pauses of its bring-up. Then the threads look ~1 ms apart, and
 * an idle function costs a wake-up a millisecond.
 *
 * One thread in the whole simulator busy-polls at a time: a guest CPU that
 * spins keeps a host core, and the host needs one for the guest's timers
 * and files.
 */
#define ISIM_FAST_NS	(20 * NSEC_PER_MSEC)

static struct task_struct *isim_poller;

/**
 * isim_engine_step - look for new work once and do it
 * @sdev: the simulated function
 * @quick: set if the work keeps the threads quick to answer for ISIM_FAST_NS
 *	(so does a CQP command not yet due, ISIM_CQP_MIN_NS)
 *
 * Any work does, except short WQEs of user QPs: their processes run those
 * themselves (isim_engine_run_sq()) unless a thread holds the engine lock,
 * and a thread kept quick by them would hold it in nearly every look, so
 * that the processes seldom could. Polling ping-pong processes then also
 * never get the CPU the poller keeps: the scheduler crowds them onto the
 * other one.
 *
 * Return: true if there was work.
 */
bool isim_engine_step(struct isim_dev *sdev, bool *quick)
{
	bool work = isim_regs_poll(sdev, quick);

	/* Frames off the wire: a connection manager waits for each. */
	if (isim_steer_rx_run(sdev)) {
		*quick = true;
		work = true;
	}
	if (isim_fault_post_aes(sdev)) {
		*quick = true;
		work = true;
	}
	return work;
}

/* A thread of @sdev polls without pausing: it needs no wake-up. */
static bool isim_engine_polled(struct isim_dev *sdev)
{
	struct task_struct *t = READ_ONCE(isim_poller);
	int i;

	for (i = 0; t && i < ISIM_MAX_ENGINES; i++)
		if (READ_ONCE(sdev->engine[i]) == t)
			return true;
	return false;
}

/*
 * Wake the function's threads on @cpu (all of them for -1, or if none runs
 * there), unless one of them polls. The kick is counted first: ordered
 * with the poller's giving up, see isim_engine_unpoll().
 */
static void isim_engine_wake(struct isim_dev *sdev, int cpu)
{
	bool woken = false;
	int i;

	atomic_inc_return(&sdev->db.kicks);
	if (isim_engine_polled(sdev))
		return;
	for (i = 0; i < ISIM_MAX_ENGINES; i++) {
		struct task_struct *t = READ_ONCE(sdev->engine[i]);

		if (t && (cpu < 0 || task_cpu(t) == cpu)) {
			wake_up_process(t);
			woken = true;
		}
	}
	if (!woken && cpu >= 0)
		isim_engine_wake(sdev, -1);
}

/**
 * isim_engine_kick - wake the engine threads now (a trapped doorbell)
 * @sdev: the simulated function
 *
 * Context: any but NMI; the trap gets here through an irq_work.
 */
void isim_engine_kick(struct isim_dev *sdev)
{
	isim_engine_wake(sdev, -1);
}

/**
 * isim_engine_kick_here - wake the engine thread of this CPU now (a trapped
 * doorbell of a process running here)
 * @sdev: the simulated function
 *
 * The process rang and goes on spinning on its CQ: the thread on its CPU
 * runs first (it is above every normal task), and no other CPU is
 * disturbed, least of all one spinning for what this doorbell brings.
 *
 * Context: interrupts off, not NMI.
 */
void isim_engine_kick_here(struct isim_dev *sdev)
{
	isim_engine_wake(sdev, smp_processor_id());
}

/**
 * isim_engine_kick_ringer - wake the engine thread of this CPU, which rang
 * CQP WQEs a thread must execute
 * @sdev: the simulated function
 *
 * Woken even while another thread polls: only this one may answer before
 * ISIM_CQP_MIN_NS (isim_cqp_run()). It runs when the driver that rang lets
 * this CPU go, which for a driver that sleeps for its answer is when it
 * sleeps.
 *
 * Context: hard interrupt (the trap's irq_work, on the CPU that rang).
 */
void isim_engine_kick_ringer(struct isim_dev *sdev)
{
	int cpu = smp_processor_id(), i;

	WRITE_ONCE(sdev->db.ringer_cpu, cpu);
	atomic_inc(&sdev->db.kicks);
	for (i = 0; i < ISIM_MAX_ENGINES; i++) {
		struct task_struct *t = READ_ONCE(sdev->engine[i]);

		if (t && task_cpu(t) == cpu) {
			wake_up_process(t);
			return;
		}
	}
	/* No thread here (more CPUs than threads): any, in their time. */
	isim_engine_wake(sdev, -1);
}

/**
 * isim_engine_ringer_here - whether the caller is the engine thread of @cpu
 * @sdev: the simulated function
 * @cpu: the CPU that rang CQP WQEs
 *
 * The threads are bound to their CPUs and run above every normal task: while
 * that thread runs, the driver that rang there has let the CPU go.
 *
 * Return: true if so.
 */
bool isim_engine_ringer_here(struct isim_dev *sdev, int cpu)
{
	int i;

	if (cpu != raw_smp_processor_id())
		return false;
	for (i = 0; i < ISIM_MAX_ENGINES; i++)
		if (READ_ONCE(sdev->engine[i]) == current)
			return true;
	return false;
}

/**
 * isim_engine_run_sq - execute a QP's SQ for the process that rang it, in
 * its time
 * @sdev: the simulated function
 * @qpn: the QP whose WQE_ALLOC the process wrote, or ISIM_DB_IDLE
 *
 * Silicon starts on a WQE at once; a software device does the work in the
 * system call that posts it. The process rang with a plain store
 * (userdb.c), so it does the work on its way back to user space, under the
 * engine lock like a thread's look: then the peer sees its completion as
 * soon as it is written, with no thread to wake on the way and none that
 * holds the CPU of a process waiting for it. Long messages (over
 * ISIM_SHORT_MSG bytes) it leaves to the threads, which move them while the
 * process posts more; nor does it wait for a thread at work, which finds
 * the WQEs by itself.
 *
 * Context: process context, may sleep.
 */
void isim_engine_run_sq(struct isim_dev *sdev, u32 qpn)
{
	bool backlog = false;

	/* A thread at work already: the process does not wait for it. */
	if (!mutex_trylock(&sdev->engine_lock)) {
		backlog = true;
	} else {
		/*
		 * The write is taken here, so that the threads do not count
		 * it as work of theirs and stay quick for nothing.
		 */
		if (qpn != ISIM_DB_IDLE) {
			isim_db_taken(sdev, IRDMA_DB_WQE_ALLOC);
			if (isim_qp_run_sq(sdev, qpn, &backlog))
				atomic64_inc(&sdev->db.user_runs);
		}
		mutex_unlock(&sdev->engine_lock);
	}
	if (!backlog)
		return;
	atomic64_inc(&sdev->db.user_left);
	/* The thread of this CPU first, as for a trap that queued no work. */
	isim_engine_wake(sdev, get_cpu());
	put_cpu();
}

/*
 * Poll without pausing if this CPU has nothing else to run and no other
 * thread polls. Return: true if the caller is (still) the poller.
 */
static bool isim_engine_poll(void)
{
	if (!single_task_running())
		return false;
	return READ_ONCE(isim_poller) == current ||
	       (!READ_ONCE(isim_poller) && !cmpxchg(&isim_poller, NULL, current));
}

/*
 * Stop polling. A kick that saw this thread polling woke nobody; the full
 * barrier pairs with the kick's, so that either the kick sees no poller and
 * wakes the threads, or the thread sees the kick and does not sleep.
 */
static void isim_engine_unpoll(void)
{
	if (READ_ONCE(isim_poller) == current) {
		WRITE_ONCE(isim_poller, NULL);
		/* Pairs with the kick's atomic_inc_return(). */
		smp_mb();
	}
}

/* Sleep between @min_us and @max_us, less if kicked since @seen. */
static void isim_engine_idle(struct isim_dev *sdev, int seen,
			     unsigned int min_us, unsigned int max_us)
{
	ktime_t until = ktime_add_us(ktime_get(), min_us);

	set_current_state(TASK_INTERRUPTIBLE);
	if (atomic_read(&sdev->db.kicks) == seen && !kthread_should_stop())
		schedule_hrtimeout_range(&until, (u64)(max_us - min_us) * NSEC_PER_USEC,
					 HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
}

/*
 * Sleep until the CQP command the threads found too young falls due, less
 * if kicked since @seen. Return: false if there is none to wait for.
 */
static bool isim_engine_wait_due(struct isim_dev *sdev, int seen)
{
	u64 due = READ_ONCE(sdev->cqp.due_ns);
	ktime_t until;

	if (!due || (s64)(due - isim_lat_now()) <= 0)
		return false;
	isim_engine_unpoll();
	until = ns_to_ktime(due);
	set_current_state(TASK_INTERRUPTIBLE);
	if (atomic_read(&sdev->db.kicks) == seen && !kthread_should_stop())
		schedule_hrtimeout_range(&until, 10 * NSEC_PER_USEC, HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
	return true;
}

/*
 * The thread of a CPU that rang a command for it (isim_engine_kick_ringer())
 * waits for the engine lock rather than stand by: the thread holding it
 * leaves that command to this one. Return: true with the lock taken.
 */
static bool isim_engine_lock_ringer(struct isim_dev *sdev)
{
	int cpu = raw_smp_processor_id();

	if (READ_ONCE(sdev->db.ringer_cpu) != cpu)
		return false;
	mutex_lock(&sdev->engine_lock);
	return true;
}

/*
 * An empty step takes tens of microseconds; one that took over a
 * millisecond lost its CPU meanwhile (the thread runs above every normal
 * task): the host's doing, under emulation. Counted, so that slow answers
 * can be told from a CPU that was not running. Under the engine lock.
 */
static void isim_engine_note_stall(struct isim_dev *sdev, u64 ns)
{
	if (ns < NSEC_PER_MSEC)
		return;
	sdev->stats.stalls++;
	sdev->stats.stall_max_ns = max(sdev->stats.stall_max_ns, ns);
}

static int isim_engine_thread(void *data)
{
	struct isim_dev *sdev = data;
	bool work, quick;
	int seen;

	complete(&sdev->engine_running);
	while (!kthread_should_stop()) {
		seen = atomic_read(&sdev->db.kicks);
		/* One thread at a time does the work; the others stand by. */
		work = false;
		quick = false;
		if (mutex_trylock(&sdev->engine_lock) || isim_engine_lock_ringer(sdev)) {
			u64 start = ktime_get_ns();

			/* This look sees what the ringer's kick was for. */
			cmpxchg(&sdev->db.ringer_cpu, raw_smp_processor_id(), -1);

			work = isim_engine_step(sdev, &quick);
			if (!work)
				isim_engine_note_stall(sdev, ktime_get_ns() - start);
			mutex_unlock(&sdev->engine_lock);
		}
		if (quick)
			WRITE_ONCE(sdev->engine_worked_ns, ktime_get_ns());
		if (work) {
			cond_resched();
			continue;
		}
		/*
		 * A command not yet due: sleep until it is, rather than poll
		 * (a vCPU that spins loses its host core for milliseconds).
		 */
		if (isim_engine_wait_due(sdev, seen))
			continue;
		if (ktime_get_ns() - READ_ONCE(sdev->engine_worked_ns) < ISIM_FAST_NS) {
			if (isim_engine_poll()) {
				cpu_relax();
				continue;
			}
			isim_engine_unpoll();
			/* Another thread looks all the time already. */
			if (isim_engine_polled(sdev))
				isim_engine_idle(sdev, seen, 1000, 2000);
			/* A task waits for this CPU: looks would starve it. */
			else if (!single_task_running())
				isim_engine_idle(sdev, seen, 100, 200);
			else
				isim_engine_idle(sdev, seen, 10, 20);
		} else {
			isim_engine_unpoll();
			isim_engine_idle(sdev, seen, 1000, 2000);
		}
	}
	isim_engine_unpoll();
	return 0;
}

/* How long an armed hold of the CQP lock waits for a trap to meet. */
#define ISIM_HOLD_ARMED_MAX	(10 * HZ)
/* How long the trap that meets it waits for the hold to have the lock. */
#define ISIM_HOLD_MEET_NS	(50 * NSEC_PER_MSEC)

/*
 * A thread taken off its CPU in the middle of its CQP step: the engine
 * lock from now on, so that no thread takes a write meanwhile; the CQP
 * lock too, interrupts off, from the moment a trap comes that takes it
 * (the host takes a CPU away at any moment: the one that rang need not
 * know when). Until then the hold spins, interrupts on, letting others
 * run.
 */
static void isim_engine_hold_cqp(struct isim_dev *sdev, u32 ms)
{
	struct isim_faults *f = &sdev->faults;
	unsigned long end = jiffies + ISIM_HOLD_ARMED_MAX;
	u64 start;

	mutex_lock(&sdev->engine_lock);
	complete(&f->hold_taken);
	/* Acquire: pairs with the trap's release of hold_go. */
	while (!smp_load_acquire(&f->hold_go)) {
		if (time_after(jiffies, end) || READ_ONCE(sdev->dying)) {
			WRITE_ONCE(f->hold_cqp, false);
			goto out;
		}
		cond_resched();
		cpu_relax();
	}
	spin_lock_irq(&sdev->cqp_lock);
	/* Release: the lock is ours before the waiting trap reads so. */
	smp_store_release(&f->hold_has_lock, true);
	/* On the clock the trap waits by (a delay loop's may run slow or fast). */
	start = isim_lat_now();
	while (isim_lat_now() - start < (u64)ms * NSEC_PER_MSEC)
		cpu_relax();
	spin_unlock_irq(&sdev->cqp_lock);
out:
	mutex_unlock(&sdev->engine_lock);
}

/**
 * isim_engine_hold - keep the engine's threads from working for a while
 * @work: the function's faults.hold
 *
 * Holds the engine lock for faults.hold_ms, as a thread holding it does
 * when the host takes its CPU away (tens of milliseconds under
 * emulation): whatever only the threads do waits meanwhile. With
 * faults.hold_cqp, the CQP lock too, with interrupts off, from the next
 * trap that takes it on: a thread taken off its CPU in the middle of a
 * step it takes that lock for, the trap finding it taken.
 */
void isim_engine_hold(struct work_struct *work)
{
	struct isim_dev *sdev = container_of(work, struct isim_dev, faults.hold);
	u32 ms = READ_ONCE(sdev->faults.hold_ms);

	if (READ_ONCE(sdev->faults.hold_cqp))
		return isim_engine_hold_cqp(sdev, ms);
	mutex_lock(&sdev->engine_lock);
	complete(&sdev->faults.hold_taken);
	msleep(ms);
	mutex_unlock(&sdev->engine_lock);
}

/**
 * isim_engine_hold_meet - a trap about to take the CQP lock starts an
 *	armed hold of it, and lets the hold take it first
 * @sdev: the simulated function
 *
 * Context: the debug exception of a trapped write (NMI-like).
 */
void isim_engine_hold_meet(struct isim_dev *sdev)
{
	struct isim_faults *f = &sdev->faults;
	u64 start;

	if (likely(!READ_ONCE(f->hold_cqp)) || READ_ONCE(f->hold_go))
		return;
	/* Release: pairs with the hold's acquire of hold_go. */
	smp_store_release(&f->hold_go, true);
	start = isim_lat_now();
	/* Acquire: pairs with the hold's release of hold_has_lock. */
	while (!smp_load_acquire(&f->hold_has_lock) &&
	       isim_lat_now() - start < ISIM_HOLD_MEET_NS)
		cpu_relax();
}

/**
 * isim_engine_start - start the function's engine threads
 * @sdev: the simulated function
 *
 * Silicon works beside the CPUs, whatever they do: a driver busy-waiting
 * for a register (the stock driver gives a polled CQP command 10 ms, in a
 * kernel that will not preempt it) must not keep the engine from running.
 * So the engine is one thread on each CPU (up to ISIM_MAX_ENGINES), taking
 * turns at the same work.
 *
 * Return: 0 or a negative errno; nothing is left running on error.
 */
int isim_engine_start(struct isim_dev *sdev)
{
	unsigned int cpu, n = 0;
	struct task_struct *t;

	mutex_init(&sdev->engine_lock);
	sdev->engine_worked_ns = ktime_get_ns();
	for_each_online_cpu(cpu) {
		if (n == ISIM_MAX_ENGINES)
			break;
		init_completion(&sdev->engine_running);
		t = kthread_create(isim_engine_thread, sdev, "irdma_sim%u/%u",
				   sdev->id, cpu);
		if (IS_ERR(t)) {
			isim_engine_stop(sdev);
			return PTR_ERR(t);
		}
		kthread_bind(t, cpu);
		/*
		 * Above every normal task, as hardware is: a thread holding the
		 * engine lock is never displaced by a driver that then busy-waits
		 * on the same CPU for an answer only the lock holder can give
		 * (a CQPTAIL poll with its 10 ms). Its work is bounded: a step
		 * reports work only when a queue moved on.
		 */
		sched_set_fifo_low(t);
		WRITE_ONCE(sdev->engine[n++], t);
		wake_up_process(t);
		/* A driver may poll for an answer within 10 ms of the plug. */
		wait_for_completion(&sdev->engine_running);
	}
	return 0;
}

/**
 * isim_engine_stop - stop the function's engine threads
 * @sdev: the simulated function
 */
void isim_engine_stop(struct isim_dev *sdev)
{
	int i;

	for (i = 0; i < ISIM_MAX_ENGINES; i++) {
		struct task_struct *t = sdev->engine[i];

		if (!t)
			continue;
		/* A kick under way may still be waking it. */
		WRITE_ONCE(sdev->engine[i], NULL);
		irq_work_sync(&sdev->db.kick);
		kthread_stop(t);
	}
}
