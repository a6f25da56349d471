// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * User space's SQ doorbells, watched. A provider rings WQE_ALLOC with a
 * plain store through its own mapping of the doorbell page: no system
 * call. Silicon starts on the WQE at once while the CPU goes back to
 * spinning on its CQ; the engine's threads would see the store only at
 * their next look, and when every CPU spins (a ping-pong between two
 * processes) that look waits for a timer QEMU fires late.
 *
 * So the moment ib_core maps a function's doorbell page into a process
 * (rdma_user_mmap_io(), for whichever driver asks: ours or the stock one),
 * a return probe notes the process and the address, and a work item puts a
 * write watchpoint on that process's WQE_ALLOC (a per-task hardware
 * breakpoint). The store then raises a debug exception in the process,
 * which queues a task work: on its way back to user space the process
 * executes the SQ it rang itself (isim_engine_run_sq()), as the system call
 * of a software RDMA device would, with no thread to wake or to leave the
 * CPU again. Where no task work can be queued, the exception kicks the
 * engine thread of that CPU instead, which runs before the process goes on.
 *
 * Best effort, never needed for correctness: a process whose watchpoint
 * could not be set (no debug register free, another thread of it ringing,
 * a child after fork) is served by the threads' looks as before. A
 * watchpoint goes with an exec, and is collected once its process exited
 * or its mapping is gone (at the next mapping, and before a function takes
 * debug registers for its CQP), or when its function goes.
 */
#include <linux/hw_breakpoint.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/perf_event.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/workqueue.h>

#include "sim.h"

/*
 * One process's watchpoint on one function's WQE_ALLOC. The list holds a
 * reference while the watchpoint is set, a queued task work another; the
 * function (@sdev, NULL once unwatched) is looked at under @lock.
 */
struct isim_userdb_watch {
	struct list_head list;
	struct isim_dev *sdev;
	struct task_struct *task;
	unsigned long va;
	unsigned long map_start;
	struct perf_event *bp;
	struct callback_head run;
	refcount_t ref;
	struct mutex lock; /* @sdev, against the task work */
	atomic_t queued;
	u32 qpn;
};

/* A mapping seen by the probe, to be watched from process context. */
struct isim_userdb_req {
	struct work_struct work;
	struct task_struct *task;
	unsigned long pfn;
	unsigned long va;
};

/* What the probe keeps between the call and its return. */
struct isim_userdb_call {
	struct vm_area_struct *vma;
	unsigned long pfn;
};

static DEFINE_MUTEX(isim_userdb_lock);	/* the two lists */
static LIST_HEAD(isim_userdb_devs);	/* functions whose page is watched */
static LIST_HEAD(isim_userdb_watches);
static struct workqueue_struct *isim_userdb_wq;
static bool isim_userdb_probing;
/* Holds perf's context-switch hook on while the module is loaded. */
static struct perf_event *isim_userdb_pin;
/* Task works queued and not yet done: the module's code runs them. */
static atomic_t isim_userdb_runs = ATOMIC_INIT(0);

static void isim_userdb_put(struct isim_userdb_watch *w)
{
	if (refcount_dec_and_test(&w->ref)) {
		put_task_struct(w->task);
		kfree(w);
	}
}

/* The task work: the process executes the SQ it rang. */
static void isim_userdb_run(struct callback_head *head)
{
	struct isim_userdb_watch *w = container_of(head, struct isim_userdb_watch, run);

	mutex_lock(&w->lock);
	atomic_set(&w->queued, 0);
	if (w->sdev)
		isim_engine_run_sq(w->sdev, xchg(&w->qpn, ISIM_DB_IDLE));
	mutex_unlock(&w->lock);
	isim_userdb_put(w);
	if (atomic_dec_and_test(&isim_userdb_runs))
		wake_up_var(&isim_userdb_runs);
}

/*
 * Queue the task work, unless it is queued already (it then runs the SQ
 * noted for it now). False if none could be: the process is exiting.
 */
static bool isim_userdb_queue(struct isim_userdb_watch *w)
{
	if (atomic_cmpxchg(&w->queued, 0, 1))
		return true;
	refcount_inc(&w->ref);
	atomic_inc(&isim_userdb_runs);
	init_task_work(&w->run, isim_userdb_run);
	if (!task_work_add(current, &w->run, TWA_RESUME))
		return true;
	/* The list's reference stays: this one cannot be the last. */
	atomic_dec(&isim_userdb_runs);
	refcount_dec(&w->ref);
	atomic_set(&w->queued, 0);
	return false;
}

/*
 * The watchpoint's handler. Only stores from user mode get here
 * (exclude_kernel), whose debug exception is not NMI-like: interrupts
 * off, a task work may be queued, a wake-up made.
 */
static void isim_userdb_hit(struct perf_event *bp, struct perf_sample_data *data,
			    struct pt_regs *regs)
{
	struct isim_userdb_watch *w = bp->overflow_handler_context;
	struct isim_dev *sdev = w->sdev;
	u32 qpn = isim_rd32(sdev, IRDMA_DB_WQE_ALLOC);

	/*
	 * The value a provider writes is the QP's number; ISIM_DB_IDLE means
	 * a thread took the write already: the thread here makes sure.
	 */
	atomic64_inc(&sdev->db.user_traps);
	if (qpn != ISIM_DB_IDLE) {
		WRITE_ONCE(w->qpn, qpn);
		if (isim_userdb_queue(w))
			return;
	}
	isim_engine_kick_here(sdev);
}

static void isim_userdb_unwatch(struct isim_userdb_watch *w)
{
	list_del(&w->list);
	unregister_hw_breakpoint(w->bp);
	/* A task work still queued finds no function. */
	mutex_lock(&w->lock);
	w->sdev = NULL;
	mutex_unlock(&w->lock);
	isim_userdb_put(w);
}

/* The process still maps the doorbell page where it was watched. */
static bool isim_userdb_mapped(struct isim_userdb_watch *w)
{
	struct vm_area_struct *vma;
	struct mm_struct *mm;
	bool mapped;

	if (READ_ONCE(w->task->exit_state) || (READ_ONCE(w->task->flags) & PF_EXITING))
		return false;
	mm = get_task_mm(w->task);
	if (!mm)
		return false;
	mmap_read_lock(mm);
	vma = vma_lookup(mm, w->map_start);
	mapped = vma && vma->vm_start == w->map_start && (vma->vm_flags & VM_PFNMAP);
	mmap_read_unlock(mm);
	mmput(mm);
	return mapped;
}

/* Watchpoints whose process exited or unmapped the page. Under the lock. */
static void isim_userdb_collect(void)
{
	struct isim_userdb_watch *w, *tmp;

	list_for_each_entry_safe(w, tmp, &isim_userdb_watches, list)
		if (!isim_userdb_mapped(w))
			isim_userdb_unwatch(w);
}

static bool isim_userdb_watched(struct isim_dev *sdev, struct task_struct *task,
				unsigned long va)
{
	struct isim_userdb_watch *w;

	list_for_each_entry(w, &isim_userdb_watches, list)
		if (w->sdev == sdev && w->task == task && w->va == va)
			return true;
	return false;
}

/* A write watchpoint on @va in the process, for @hit. */
static struct perf_event *isim_userdb_bp(struct isim_userdb_watch *w,
					 unsigned long va,
					perf_overflow_handler_t hit)
{
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = va;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_W;
	/* A new program has no such mapping. */
	attr.remove_on_exec = 1;
	/*
	 * The process's own stores only. The kernel writing there for it
	 * (a read() into the page) would come in a kernel debug exception,
	 * NMI-like, where no thread may be woken.
	 */
	attr.exclude_kernel = 1;
	return register_user_hw_breakpoint(&attr, hit, w, w->task);
}

static void isim_userdb_watch(struct isim_dev *sdev, struct task_struct *task,
			      unsigned long map_start)
{
	unsigned long va = map_start + offset_in_page(IRDMA_DB_WQE_ALLOC);
	struct isim_userdb_watch *w;
	struct perf_event *bp;

	if (isim_userdb_watched(sdev, task, va))
		return;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return;
	*w = (struct isim_userdb_watch) {
		.sdev = sdev, .task = task, .va = va, .map_start = map_start,
		.ref = REFCOUNT_INIT(1), .qpn = ISIM_DB_IDLE,
	};
	mutex_init(&w->lock);
	bp = isim_userdb_bp(w, va, isim_userdb_hit);
	if (IS_ERR(bp)) {
		dev_dbg(&sdev->dev, "WQE_ALLOC of pid %d polled (%ld)\n",
			task_pid_nr(task), PTR_ERR(bp));
		kfree(w);
		return;
	}
	w->bp = bp;
	get_task_struct(task);
	list_add_tail(&w->list, &isim_userdb_watches);
	atomic64_inc(&sdev->db.user_watches);
}

static void isim_userdb_work(struct work_struct *work)
{
	struct isim_userdb_req *req = container_of(work, struct isim_userdb_req, work);
	struct isim_dev *sdev;

	mutex_lock(&isim_userdb_lock);
	isim_userdb_collect();
	list_for_each_entry(sdev, &isim_userdb_devs, userdb) {
		if (sdev->db_pfn != req->pfn)
			continue;
		isim_userdb_watch(sdev, req->task, req->va);
		break;
	}
	mutex_unlock(&isim_userdb_lock);
	put_task_struct(req->task);
	kfree(req);
}

static int isim_userdb_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct isim_userdb_call *call = (void *)ri->data;

	/* rdma_user_mmap_io(ucontext, vma, pfn, size, prot, entry) */
	call->vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, 1);
	call->pfn = regs_get_kernel_argument(regs, 2);
	return 0;
}

static int isim_userdb_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct isim_userdb_call *call = (void *)ri->data;
	struct isim_userdb_req *req;

	/* It returns an int: the upper half of the register is not its. */
	if ((int)regs_return_value(regs) || (current->flags & PF_KTHREAD))
		return 0;
	req = kmalloc(sizeof(*req), GFP_ATOMIC);
	if (!req)
		return 0;
	INIT_WORK(&req->work, isim_userdb_work);
	req->task = get_task_struct(current);
	req->pfn = call->pfn;
	req->va = call->vma->vm_start;
	queue_work(isim_userdb_wq, &req->work);
	return 0;
}

static struct kretprobe isim_userdb_probe = {
	.kp.symbol_name = "rdma_user_mmap_io",
	.entry_handler = isim_userdb_entry,
	.handler = isim_userdb_ret,
	.data_size = sizeof(struct isim_userdb_call),
	.maxactive = 32,
};

/**
 * isim_userdb_tidy - let go of the watchpoints no process needs any more,
 * and of the debug registers they hold (before a function takes some)
 */
void isim_userdb_tidy(void)
{
	mutex_lock(&isim_userdb_lock);
	isim_userdb_collect();
	mutex_unlock(&isim_userdb_lock);
}

/**
 * isim_userdb_add - watch user space's mappings of a function's doorbells
 * @sdev: the simulated function, its engine running, not yet plugged (no
 *	driver maps its pages before)
 */
void isim_userdb_add(struct isim_dev *sdev)
{
	void *db = (void __force *)sdev->regs + IRDMA_DB_WQE_ALLOC;

	if (!IS_ENABLED(CONFIG_HAVE_HW_BREAKPOINT) || !isim_userdb_probing)
		return;
	/* The page a driver hands to user space: see its bar_pfn(). */
	sdev->db_pfn = sdev->own_regs ? vmalloc_to_pfn(db) :
					PHYS_PFN(slow_virt_to_phys(db));
	mutex_lock(&isim_userdb_lock);
	list_add_tail(&sdev->userdb, &isim_userdb_devs);
	mutex_unlock(&isim_userdb_lock);
}

/**
 * isim_userdb_del - stop watching a function's doorbells; no watchpoint of
 * it fires after this returns
 * @sdev: the simulated function, unplugged, its engine still running
 */
void isim_userdb_del(struct isim_dev *sdev)
{
	struct isim_userdb_watch *w, *tmp;

	if (!sdev->db_pfn)
		return;
	mutex_lock(&isim_userdb_lock);
	list_del(&sdev->userdb);
	list_for_each_entry_safe(w, tmp, &isim_userdb_watches, list)
		if (w->sdev == sdev)
			isim_userdb_unwatch(w);
	mutex_unlock(&isim_userdb_lock);
	sdev->db_pfn = 0;
}

/*
 * Every per-task watchpoint counts toward perf's scheduler hook, a static
 * key: the first one set turns it on by patching __schedule() and friends,
 * and a second after the last one went it is patched off again. With a
 * watchpoint per process that meant two live text patches for nearly
 * every verbs program, and under QEMU's multi-threaded TCG a vCPU can run
 * the patch's transient int3 after it is gone (seen once: an oops at
 * __schedule). One idle per-task event of our own, held from load to
 * unload, keeps the count above zero: the key flips once each way.
 */
static void isim_userdb_pin_sched(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
	};
	struct perf_event *event;

	/* The loader may exit: the event stays counted until released. */
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (IS_ERR(event)) {
		pr_info("irdma_sim: perf's scheduler hook not held (%ld)\n",
			PTR_ERR(event));
		return;
	}
	isim_userdb_pin = event;
}

/**
 * isim_userdb_init - start noting user space's doorbell mappings
 *
 * Without kprobes, or with ib_core's helper not probeable, every user
 * doorbell is polled, as before.
 */
void isim_userdb_init(void)
{
	int err;

	isim_userdb_wq = alloc_workqueue("irdma_sim_userdb", 0, 0);
	if (!isim_userdb_wq)
		return;
	err = register_kretprobe(&isim_userdb_probe);
	if (err) {
		pr_info("irdma_sim: user doorbells polled: no probe (%d)\n", err);
		destroy_workqueue(isim_userdb_wq);
		return;
	}
	isim_userdb_pin_sched();
	isim_userdb_probing = true;
}

/**
 * isim_userdb_exit - stop noting mappings; every function is gone
 */
void isim_userdb_exit(void)
{
	if (!isim_userdb_probing)
		return;
	unregister_kretprobe(&isim_userdb_probe);
	/* Requests queued by the probe: they find no function now. */
	destroy_workqueue(isim_userdb_wq);
	/* Task works still queued run this module's code: let them end. */
	wait_var_event(&isim_userdb_runs, !atomic_read(&isim_userdb_runs));
	if (isim_userdb_pin)
		perf_event_release_kernel(isim_userdb_pin);
	isim_userdb_pin = NULL;
	isim_userdb_probing = false;
}
