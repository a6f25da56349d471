/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Internals of irdma_sim, the functional model of the E810 RDMA engine.
 */
#ifndef IRDMA_SIM_INTERNAL_H
#define IRDMA_SIM_INTERNAL_H

#include <linux/device.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <linux/completion.h>
#include <linux/kfifo.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <linux/etherdevice.h>
#include <linux/irq_work.h>

#include "../hwdefs.h"
#include "irdma_sim.h"

struct perf_event;
struct seq_file;

#define SIM_DRV_NAME		"irdma_sim"
#define SIM_MSIX_COUNT		4	/* AEQ and CEQ 0, plus three CEQs */
#define SIM_MAX_DEVICES		64
#define SIM_MAX_CEQS		64
#define SIM_MAX_SDS		64	/* 128 MiB of FPM space per function */
#define SIM_FIRST_SD_ODD	24	/* first segment of odd-numbered native functions */
#define SIM_MAX_ARPS		2048	/* the ARP table's entries */
#define SIM_MAX_ENGINES		4	/* engine threads, one per CPU */
#define SIM_MAX_AHS		131072	/* address handles the HMC offers */
#define SIM_MAX_CQS		8192	/* completion queues the HMC offers */
#define SIM_AH_CHUNK		256	/* address handles per table chunk */
#define SIM_LAT_BUCKETS		20	/* response times to 2^18 us and over */

/*
 * A command the threads execute is answered by the thread of the CPU that
 * rang it, which runs once the driver there lets the CPU go, or by any
 * thread from this long after its doorbell on (the trap answers the few a
 * driver busy-waits for at once). On silicon a command takes microseconds,
 * longer than the driver's way from its doorbell to its first look at the
 * CCQ, so a driver that sleeps for the completion (the stock driver's
 * irdma_wait_event()) finds nothing at that look and is woken by its CCQ
 * work. Under emulation that way takes tens of microseconds, and a thread
 * that was looking all the time answered first: the driver took its
 * completion itself, and the work its event queued ran late, for nothing,
 * at any moment. At the stock driver's teardown that moment was, now and
 * then, the one at which it polls the CCQ for CEQ 0's end without the lock
 * its work takes: both read the CQE, and the CQP's ring went one past its
 * head (stop 22's trace; 1 in ~2000 teardowns). The ringer's thread answers
 * as soon as the driver sleeps, with no timer to wait for (a woken vCPU or
 * an expired timer can take milliseconds under emulation); the time limit
 * is for a driver that spins.
 */
#define SIM_CQP_MIN_NS	(200 * NSEC_PER_USEC)

/* Doorbell registers read back this value once the engine took a write. */
#define SIM_DB_IDLE		0xffffffff

/**
 * struct sim_cqp - the control QP as the engine sees it
 * @up: created through CCQPHIGH/CCQPLOW
 * @sq_pa: DMA address of the SQ ring
 * @sq_size: WQEs in the ring
 * @tail: next WQE the engine executes
 * @polarity: valid bit the WQEs of the current pass carry
 * @compl_ctx: the host context's completion context, echoed in CQEs
 * @protocol: protocol the driver asked for (IRDMA_PROTOCOL_USED_*)
 * @sq_va: the ring in the kernel's mapping, checked at create (the trap
 *	reads WQEs through it, where the checked DMA path may not run)
 * @busy: the WQE at @tail is being executed outside the CQP lock
 * @batch_end: head the current batch of rung WQEs runs to
 * @batch_since: when the batch was rung (or last known not yet rung)
 * @looked_ns: when the engine last found CQPDB with nothing new
 * @picked_ns: when the engine took up the WQE it executes
 * @batch_cpu: the CPU whose store rang the batch, if trapped, or -1
 * @batch_trapped: the batch's CQPDB write was trapped (@batch_since is the
 *	trap's time, not a look's)
 * @notify_due: a CCQ completion owes the CCQ's CEQ an event
 * @notify_since: when the completion that owes it was written
 * @due_ns: when the WQE the threads last found too young falls due, or 0
 */
struct sim_cqp {
	bool up;
	u64 sq_pa;
	u32 sq_size;
	u32 tail;
	bool polarity;
	u64 compl_ctx;
	u8 protocol;
	void *sq_va;
	bool busy;
	u32 batch_end;
	u64 batch_since;
	u64 looked_ns;
	u64 picked_ns;
	int batch_cpu;
	bool batch_trapped;
	bool notify_due;
	u64 notify_since;
	u64 due_ns;
};

/**
 * struct sim_ring - where a queue's ring lives
 * @base: its DMA address, or (@virt) the index of its first PBLE
 * @virt: described by PBLEs, one per 4 KiB page
 * @levels: PBLE levels (1, or 2/3 for two)
 */
struct sim_ring {
	u64 base;
	bool virt;
	u8 levels;
};

/**
 * struct sim_cq - a completion queue
 * @id: CQ number
 * @ring: the CQE ring
 * @size: CQEs in the ring
 * @shadow_pa: DMA address of the shadow area
 * @ctx: the context CEQEs report for this CQ
 * @ceq_id: the CEQ its events go to
 * @ceq_valid: events are wanted at all
 * @head: next CQE slot the engine fills
 * @polarity: valid bit of the current pass
 * @arm_seq: last arm sequence number seen in the shadow area
 * @armed: an event is due at the next completion
 * @solicited_only: the armed event waits for a solicited completion
 * @resized: moved to a new ring the driver has not consumed from yet
 * @sw_select: the shadow area's count of freed rings at the resize
 * @ring_va: the CCQ's ring in the kernel's mapping (contiguous rings)
 * @shadow_va: the CCQ's shadow area in the kernel's mapping
 */
struct sim_cq {
	u32 id;
	struct sim_ring ring;
	u32 size;
	u64 shadow_pa;
	u64 ctx;
	u32 ceq_id;
	bool ceq_valid;
	u32 head;
	bool polarity;
	u8 arm_seq;
	bool armed;
	bool solicited_only;
	bool resized;
	u16 sw_select;
	void *ring_va;
	void *shadow_va;
};

/**
 * struct sim_qp - a queue pair as the engine keeps it
 * @id: QP number
 * @type: enum irdma_qp_hw_type
 * @state: enum irdma_qp_hw_state
 * @shadow_pa: the shadow area (the engine's SQ position goes there)
 * @sq: SQ ring
 * @sq_size: SQ quanta
 * @sq_tail: next SQ quantum to execute
 * @sq_polarity: valid bit of the current pass over the SQ
 * @rq: RQ ring
 * @rq_size: RQ WQEs
 * @rq_shift: an RQ WQE is 1 << @rq_shift quanta
 * @rq_head: next RQ WQE to fill
 * @rq_polarity: valid bit of the current pass over the RQ
 * @scq: CQ of send completions
 * @rcq: CQ of receive completions
 * @pd: protection domain
 * @compl_ctx: what CQEs carry for the QP
 * @priv: privileged (STag 0, fast registration)
 * @bind_en: may bind memory windows
 * @ipv4: IPv4 addressing
 * @src_ip: source address (host-order words)
 * @dest_ip: destination address
 * @arp_idx: ARP entry of the peer's MAC
 * @dest_qp: the peer QP (RC)
 * @qkey: Q_Key (UD)
 * @mac: source MAC
 * @rnr_retry: RNR retries allowed (7: forever)
 * @rnr_left: RNR retries left for the WQE at the SQ tail
 * @rnr_until: when the WQE at the SQ tail may be tried again
 * @srq: the shared receive queue its receives come from (0: its own RQ)
 * @qs_handle: the transmit queue set its SQ goes through
 * @suspended: SUSPEND_QP stopped its SQ until RESUME_QP
 */
struct sim_qp {
	u32 id;
	u8 type;
	u8 state;
	u64 shadow_pa;
	struct sim_ring sq;
	u32 sq_size;
	u32 sq_tail;
	bool sq_polarity;
	struct sim_ring rq;
	u32 rq_size;
	u8 rq_shift;
	u32 rq_head;
	bool rq_polarity;
	u32 scq;
	u32 rcq;
	u32 pd;
	u64 compl_ctx;
	bool priv;
	bool bind_en;
	bool ipv4;
	u32 src_ip[4];
	u32 dest_ip[4];
	u16 arp_idx;
	u16 qs_handle;
	u32 dest_qp;
	u32 qkey;
	u8 mac[ETH_ALEN];
	u8 rnr_retry;
	u8 rnr_left;
	unsigned long rnr_until;
	u32 srq;
	bool suspended;
};

/**
 * struct sim_mr - a memory key (region or window)
 * @stag: the full key
 * @pd: protection domain
 * @valid: registered (usable)
 * @fast_reg: allocated for fast registration (ALLOC_STAG)
 * @is_mw: a window
 * @mw_type1: a type 1 window (bound by BIND_MW, never invalidated)
 * @parent: a bound window's region's key
 * @va: first address (VA-based) or offset base
 * @len: length; 0 with no pages: all of memory
 * @zero_based: addresses count from the start
 * @rights: IRDMA_MR_RIGHT_*
 * @levels: 0, 1 or IRDMA_PBL_LEVELS_2
 * @first_pble: first PBLE (or root) index
 * @pa: the first page (no PBLEs)
 * @page_shift: log2 of the page size
 */
struct sim_mr {
	u32 stag;
	u32 pd;
	bool valid;
	bool fast_reg;
	bool is_mw;
	bool mw_type1;
	u32 parent;
	u64 va;
	u64 len;
	bool zero_based;
	u8 rights;
	u8 levels;
	u32 first_pble;
	u64 pa;
	u8 page_shift;
};

/**
 * struct sim_ah - an address handle
 * @valid: made, and not yet destroyed
 * @pd: protection domain
 * @ipv4: IPv4 addressing
 * @src_ip: source address
 * @dest_ip: destination address
 * @arp_idx: ARP entry of the destination MAC
 * @mac: source MAC
 */
struct sim_ah {
	bool valid;
	u32 pd;
	bool ipv4;
	u32 src_ip[4];
	u32 dest_ip[4];
	u16 arp_idx;
	u8 mac[ETH_ALEN];
};

/**
 * struct sim_mg - a multicast group
 * @ipv4: an IPv4 group
 * @ip: its address, host-order words (IPv4 in word 0)
 * @qp: member QPs
 * @count: entries in @qp
 */
struct sim_mg {
	bool ipv4;
	u32 ip[4];
	u32 qp[IRDMA_MAX_MGS_PER_CTX];
	u32 count;
};

/**
 * struct sim_eq - an event queue (a CEQ or the AEQ)
 * @live: created
 * @ring: where the ring is: one block, or pages its PBLEs list (VMAP)
 * @size: entries in the ring
 * @head: next entry the engine fills
 * @polarity: valid bit of the current pass
 */
struct sim_eq {
	bool live;
	struct sim_ring ring;
	u32 size;
	u32 head;
	bool polarity;
};

/**
 * struct sim_vector - interrupt state of one MSI-X vector
 * @enabled: the driver enabled it (GLINT_DYN_CTL.INTENA); firing masks it
 * @pending: an interrupt waits for the vector to be enabled
 */
struct sim_vector {
	bool enabled;
	bool pending;
};

/**
 * struct sim_hmc - the function's private memory (FPM) layout
 * @committed: COMMIT_FPM_VAL has placed the objects
 * @base: FPM address of each object type
 * @cnt: committed count of each object type
 * @size: bytes per object of each type
 * @sd: the segment descriptors as programmed (data words)
 * @arp: the ARP table's MAC addresses, by entry
 * @arp_valid: which entries are in use
 */
struct sim_hmc {
	bool committed;
	u64 base[IRDMA_HMC_OBJ_COUNT];
	u32 cnt[IRDMA_HMC_OBJ_COUNT];
	u32 size[IRDMA_HMC_OBJ_COUNT];
	u64 sd[SIM_MAX_SDS];
	u64 arp[SIM_MAX_ARPS];
	DECLARE_BITMAP(arp_valid, SIM_MAX_ARPS);
};

/**
 * struct sim_stats - what the engine did, for tests and debugfs
 * @cqp_ops: CQP WQEs executed
 * @cqp_errors: CQP WQEs completed with an error
 * @irqs: interrupts raised (under the EQ lock)
 * @ceqes: CEQ entries written (under the EQ lock)
 * @eq_faults: EQ entries lost to a PBLE that was not there (EQ lock)
 * @dma_faults: host memory accesses at invalid addresses
 * @faults_injected: CQP commands failed on request
 * @ud_dropped: UD datagrams nobody took (no QP, Q_Key, no receive posted)
 * @cq_overflows: completions lost to a full or missing CQ
 * @stalls: engine steps that found nothing yet took over 1 ms: the thread's
 *	CPU was taken from it (by the host, under emulation, or interrupts)
 * @stall_max_ns: the longest such step
 * @rnr_waits: sends that found no receive posted and wait to retry (under
 *	the engine lock)
 * @tx_no_qset: SQ runs refused because the QP's queue set is not attached
 * @events: events delivered to the driver's front (ice's IIDC events)
 * @qps_suspended: SUSPEND_QP commands carried out
 * @qps_resumed: RESUME_QP commands carried out
 * @resets: function resets done
 * @rx_filtered: messages that did not reach the engine: its RDMA filter
 *	was off (counted at the receiver)
 * @cq_acks: CQACK writes taken
 * @cq_acks_unmatched: those whose CQ had no event to acknowledge (the
 *	number read was another write's, or stale)
 * @cq_events_held: events a CQ was due but not given then, its last one
 *	not acknowledged
 * @cq_events_released: held events given when the acknowledgment came
 */
struct sim_stats {
	u64 cqp_ops;
	u64 cqp_errors;
	u64 irqs;
	u64 ceqes;
	u64 eq_faults;
	u64 dma_faults;
	u64 faults_injected;
	u64 ud_dropped;
	u64 cq_overflows;
	u64 stalls;
	u64 stall_max_ns;
	u64 rnr_waits;
	u64 tx_no_qset;
	u64 events;
	u64 qps_suspended;
	u64 qps_resumed;
	u64 resets;
	u64 rx_filtered;
	atomic64_t cq_acks;
	atomic64_t cq_acks_unmatched;
	atomic64_t cq_events_held;
	atomic64_t cq_events_released;
};

/* Queue-set handles a WORK_SCHED_NODE leaf can have (10 bits). */
#define SIM_QSET_HANDLES	1024
/* Queue sets ice attaches for one function: one a traffic class and more. */
#define SIM_MAX_QSETS		16
/* Traffic classes the port has enabled: DCB off, as ice's default. */
#define SIM_LAN_MAX_TC		8

/**
 * struct sim_qset - a queue set the LAN side attached to the scheduler
 * @teid: the scheduler node's id (0: the slot is free)
 * @qs_handle: the queue set
 * @tc: its traffic class
 */
struct sim_qset {
	u32 teid;
	u16 qs_handle;
	u8 tc;
};

/**
 * struct sim_lan - what the LAN driver set up for the RDMA engine (lan.c)
 * @lock: guards @qset and @teids
 * @qset: the queue sets attached
 * @teids: TEIDs handed out so far
 * @live: queue-set handles that may transmit, for the engine
 * @rdma_filter: RoCE packets are steered to the engine
 * @leaf_weight: by queue-set handle, the weight its scheduler leaf was
 *	last given (WORK_SCHED_NODE), for tests
 * @qos: the port's traffic classes (DCB), as the LAN side set them
 */
struct sim_lan {
	spinlock_t lock; /* the queue-set table */
	struct sim_qset qset[SIM_MAX_QSETS];
	u32 teids;
	DECLARE_BITMAP(live, SIM_QSET_HANDLES);
	bool rdma_filter;
	u8 leaf_weight[SIM_QSET_HANDLES];
	struct irdma_sim_qos qos;
};

/* Kinds of answers whose response time is recorded (latency.c). */
enum sim_lat_kind {
	SIM_LAT_CQP_CREATE,
	SIM_LAT_CQP_DESTROY,
	SIM_LAT_CQP_CMD,
	SIM_LAT_CCQ_EVENT,
	SIM_LAT_KINDS,
};

/**
 * struct sim_lat_hist - response times of one kind of answer
 * @bucket: answers by time, bucket b holding [2^(b-1), 2^b) us
 * @sum_ns: all of their times
 * @max_ns: the longest
 * @max_what: what the longest answered (a CQP opcode)
 */
struct sim_lat_hist {
	atomic64_t bucket[SIM_LAT_BUCKETS];
	atomic64_t sum_ns;
	atomic64_t max_ns;
	atomic_t max_what;
};

#define SIM_LAT_SLOW_KEEP	16	/* slow answers kept, the latest */

/**
 * struct sim_lat_slow - one answer that took over a millisecond
 * @kind: what kind (enum sim_lat_kind)
 * @what: what it answered (a CQP opcode)
 * @us: how long it took
 * @pick_us: how long until the engine took it up (0: not known)
 * @trap: answered in the doorbell's trap, not by a thread
 * @untrapped: the doorbell's write was not trapped (found by looking)
 */
struct sim_lat_slow {
	u8 kind;
	u8 what;
	bool trap;
	bool untrapped;
	u32 us;
	u32 pick_us;
};

/* The doorbell registers trapped, in the order they get a debug register. */
enum sim_trap_reg {
	SIM_TRAP_CQPDB,
	SIM_TRAP_CCQPLOW,
	SIM_TRAP_CQACK,
	SIM_TRAPS,
};

/**
 * struct sim_doorbell - the function's trapped doorbells (doorbell.c)
 * @bp: the wide breakpoint on each register (NULL: that one is polled)
 * @rung_ns: when each was written, earliest not yet taken (0: none)
 * @kick: after a trap, from hard interrupt context: posts the CCQ's event
 *	if one is due, and wakes the engine threads if the trap left them work
 * @threads_due: the trap left work to the threads: SIM_KICK_RINGER (CQP
 *	WQEs, for the thread of the CPU that rang first) or SIM_KICK_ALL
 * @kicks: bumped at each kick; a thread sleeps only if it saw the last
 * @traps: writes trapped
 * @fast: CQP WQEs executed right in the trap
 * @found: batches of CQP WQEs found by looking, their CQPDB write not
 *	trapped (or not yet, when a thread looked first)
 * @left_by_looks: writes threads found before their trap and left to it
 * @rung_head: the CQPDB value the last trapped CQPDB write wrote, plus 1
 * @rung_cpu: the CPU that made the last trapped CQPDB write
 * @ringer_cpu: the CPU whose engine thread a trap left CQP WQEs to and that
 *	has not taken the engine lock since, or -1
 * @left_to_trap: per register, the write a thread found before its trap and left
 *	to it (the value, with bit 32 set), or 0
 * @left: trapped CQPDB writes whose WQEs the trap left to a thread (one
 *	needed a thread, or the CQP lock stayed taken)
 * @user_traps: user space's WQE_ALLOC writes trapped (userdb.c)
 * @user_watches: processes whose WQE_ALLOC got a watchpoint
 * @user_runs: trapped writes after which the process executed WQEs of its
 *	SQ itself (sim_engine_run_sq())
 * @user_left: trapped writes whose WQEs the process left to the threads
 *	(a long message, or a thread at work)
 */
struct sim_doorbell {
	struct perf_event * __percpu *bp[SIM_TRAPS];
	atomic64_t rung_ns[SIM_TRAPS];
	struct irq_work kick;
	u8 threads_due;
	atomic_t kicks;
	atomic64_t traps;
	atomic64_t fast;
	atomic64_t left;
	atomic64_t found;
	atomic64_t left_by_looks;
	u32 rung_head;
	int rung_cpu;
	int ringer_cpu;
	u64 left_to_trap[SIM_TRAPS];
	atomic64_t user_traps;
	atomic64_t user_watches;
	atomic64_t user_runs;
	atomic64_t user_left;
};

/**
 * struct sim_faults - what debugfs asked the engine to get wrong
 * @fail_op: CQP opcode to fail, -1 for none
 * @fail_count: failures left to inject for @fail_op
 * @delay_op: CQP opcode to hold back, -1 for none
 * @delay_ms: how long to hold it
 * @ae_lock: protects @aes
 * @aes: asynchronous events to post (code << 32 | QP/CQ id)
 */
struct sim_faults {
	s32 fail_op;
	u32 fail_count;
	s32 delay_op;
	u32 delay_ms;
	spinlock_t ae_lock; /* the queue of events to raise */
	DECLARE_KFIFO(aes, u64, 16);
};

/**
 * struct sim_dev - one simulated function
 * @dev: the function's device on the irdma_sim bus (also its DMA device)
 * @dma_parms: its DMA parameters, as a PCI function has
 * @id: the number given at creation
 * @roce: RoCEv2 personality (else iWARP)
 * @srq: the engine has the SRQ extension (shared receive queues)
 * @first_sd: the first segment of its FPM space: FPM addresses (and
 *	segment numbers) below it are not its own
 * @regs: the BAR0 register window (memory the engine watches)
 * @own_regs: @regs was allocated here (else a front's PCI BAR)
 * @front: how the function is presented to a driver
 * @front_priv: the front's context
 * @plugged: the front presents it now
 * @front_lock: plugging, unplugging and events, one at a time
 * @mtu_work: tells the driver of an MTU change, as ice's service task
 * @netdev: the function's Ethernet device
 * @irq_base: first of @msix_count software IRQs
 * @msix: MSI-X table handed to the driver
 * @irq_pending: vectors raised, to be delivered by @irq_work
 * @irq_work: delivers them, in hard interrupt context (irq.c)
 * @sadev: what the driver's front-end binds to
 * @list: entry in the list of functions
 * @engine: the threads that execute the hardware's work, one per CPU
 * @engine_running: the last thread started has begun looking for work
 * @engine_lock: held by the thread doing the work
 * @engine_worked_ns: when a thread last found work that keeps the threads
 *	quick to answer for a while after (sim_engine_step())
 * @cqp_lock: the CQP's ring position and the CCQ, between the engine
 *	threads and the CQPDB trap (which only ever tries it)
 * @eq_lock: the EQs' rings and the vectors, between the engine threads
 *	and a trapped doorbell's irq_work (the CCQ's events)
 * @db: trapped doorbells
 * @db_pfn: the page of BAR0 holding the doorbells user space maps, or 0
 *	if user space's mappings are not watched
 * @userdb: entry in the list of functions whose mappings are watched
 * @lat: response times, by enum sim_lat_kind
 * @lat_slow: the latest answers over a millisecond, a ring
 * @lat_slow_next: how many were ever kept there
 * @ccqp_looked_ns: when the engine last found CCQPLOW with nothing new
 * @cqp_cleanup_due: the CQP went down; its function's state is still to go
 * @cqp: the control QP
 * @hmc: the FPM layout and segment descriptors
 * @cqs: live completion queues by number, but the CCQ
 * @ccq: the CCQ (CQ 0), kept here so that the trap can make it with no
 *	allocation (the stock driver busy-waits for it)
 * @ccq_live: @ccq exists; set after its fields (release)
 * @cq_unacked: CQs whose last event the driver has not acknowledged yet
 *	(CQACK), by number: they get no other until it does
 * @cq_ack_credit: CQACK writes whose CQ number was overwritten before
 *	their trap read it; each lets one unacknowledged CQ have an event
 * @cq_held: CQs due an event they did not get, for want of an
 *	acknowledgment: they get it when the acknowledgment comes
 * @cq_held_due: an acknowledgment came that may free a held event
 * @qps: live queue pairs by number
 * @srqs: live shared receive queues by number
 * @mrs: memory keys by index
 * @ah_chunks: address handles by index, SIM_AH_CHUNK to a chunk (a
 *	table the trap can write without allocating)
 * @mgs: multicast groups by index
 * @peer: entry in the list of functions the fabric reaches
 * @port: entry in the Ethernet switch's list of netdevs
 * @push_pages: push pages its BAR0 has room for (its own BAR0 only)
 * @push_used: the push pages handed out
 * @ceq: the completion event queues
 * @aeq: the asynchronous event queue
 * @vec: interrupt state of each MSI-X vector
 * @stats: counters
 * @counters: the RDMA engine's statistics (enum irdma_hw_stat)
 * @lan: what its LAN driver set up for it (queue sets, the RDMA filter)
 * @faults: fault injection
 * @debugfs: the function's debugfs directory
 * @reset_work: resets the function
 * @dying: being removed: no more resets
 */
struct sim_dev {
	struct device dev;
	struct device_dma_parameters dma_parms;
	u32 id;
	bool roce;
	bool srq;
	u32 first_sd;
	void __iomem *regs;
	bool own_regs;
	const struct irdma_sim_front *front;
	void *front_priv;
	bool plugged;
	struct mutex front_lock; /* plug, unplug, events */
	struct work_struct mtu_work;
	struct net_device *netdev;
	unsigned int irq_base;
	struct msix_entry msix[SIM_MSIX_COUNT];
	unsigned long irq_pending;
	struct irq_work irq_work;
	struct irdma_sim_adev *sadev;
	struct list_head list;
	struct task_struct *engine[SIM_MAX_ENGINES];
	struct completion engine_running;
	struct mutex engine_lock; /* one engine thread works at a time */
	u64 engine_worked_ns;
	spinlock_t cqp_lock; /* CQP ring position, CCQ: threads and trap */
	spinlock_t eq_lock; /* EQ rings and vectors: threads and irq_work */
	struct sim_doorbell db;
	unsigned long db_pfn;
	struct list_head userdb;
	struct sim_lat_hist lat[SIM_LAT_KINDS];
	struct sim_lat_slow lat_slow[SIM_LAT_SLOW_KEEP];
	atomic_t lat_slow_next;
	u64 ccqp_looked_ns;
	bool cqp_cleanup_due;
	struct sim_cqp cqp;
	struct sim_hmc hmc;
	struct xarray cqs;
	struct sim_cq ccq;
	bool ccq_live;
	DECLARE_BITMAP(cq_unacked, SIM_MAX_CQS);
	atomic_t cq_ack_credit;
	DECLARE_BITMAP(cq_held, SIM_MAX_CQS);
	bool cq_held_due;
	struct xarray qps;
	struct xarray srqs;
	struct xarray mrs;
	struct sim_ah **ah_chunks;
	struct xarray mgs;
	struct list_head peer;
	struct list_head port;
	u32 push_pages;
	DECLARE_BITMAP(push_used, IRDMA_SIM_PUSH_PAGES);
	struct sim_eq ceq[SIM_MAX_CEQS];
	struct sim_eq aeq;
	struct sim_vector vec[SIM_MSIX_COUNT];
	struct sim_stats stats;
	u64 counters[IRDMA_STAT_COUNT];
	struct sim_lan lan;
	struct sim_faults faults;
	struct dentry *debugfs;
	struct work_struct reset_work;
	bool dying;
};

static inline u32 sim_rd32(struct sim_dev *sdev, u32 reg)
{
	return readl(sdev->regs + reg);
}

static inline void sim_wr32(struct sim_dev *sdev, u32 reg, u32 val)
{
	writel(val, sdev->regs + reg);
}

/* Free every object an xarray holds, and empty it (function reset). */
static inline void sim_xa_free_all(struct xarray *xa)
{
	unsigned long id;
	void *obj;

	xa_for_each(xa, id, obj)
		kfree(xa_erase(xa, id));
}

static inline struct sim_dev *to_sim_dev(struct device *dev)
{
	return container_of(dev, struct sim_dev, dev);
}

/* netdev.c */
int sim_netdev_create(struct sim_dev *sdev);
void sim_netdev_destroy(struct sim_dev *sdev);

/* irq.c */
int sim_irqs_alloc(struct sim_dev *sdev);
void sim_irqs_free(struct sim_dev *sdev);
void sim_irq_raise(struct sim_dev *sdev, unsigned int vector);

/* regs.c */
void sim_regs_reset(struct sim_dev *sdev);
bool sim_regs_poll(struct sim_dev *sdev, bool *quick);
bool sim_db_taken(struct sim_dev *sdev, u32 reg);
bool sim_regs_cqp_ctx(struct sim_dev *sdev);

/* dma.c */
void *sim_dma_map(struct sim_dev *sdev, u64 addr, size_t len);
int sim_dma_read(struct sim_dev *sdev, u64 addr, void *buf, size_t len);
int sim_dma_write(struct sim_dev *sdev, u64 addr, const void *buf, size_t len);
int sim_dma_read_qword(struct sim_dev *sdev, u64 addr, u64 *val);
int sim_dma_write_qword(struct sim_dev *sdev, u64 addr, u64 val);

/* cqp.c */
void sim_cqp_create(struct sim_dev *sdev, u64 ctx_pa);
void sim_cqp_down(struct sim_dev *sdev);
void sim_cqp_cleanup(struct sim_dev *sdev);
void sim_cqp_destroy(struct sim_dev *sdev);
bool sim_cqp_run(struct sim_dev *sdev, bool *young);

/**
 * struct sim_cqp_result - how a CQP command completed
 * @maj: major error code, 0 for success
 * @min: minor error code
 * @ret_val: the op's return value
 * @held: held back on request (debugfs delay_cqp_op)
 */
struct sim_cqp_result {
	u16 maj;
	u16 min;
	u32 ret_val;
	bool held;
};

/* Minor codes of the CQP errors the engine reports (major 0xffff). */
#define SIM_MIN_BAD_OPCODE	0x8001
#define SIM_MIN_BAD_PARAM	0x8003
#define SIM_MIN_DMA_FAULT	0x8004
#define SIM_MIN_NO_SPACE	0x8005
#define SIM_MIN_INJECTED	0x80ff

/* Complete a CQP command with an error. */
static inline void sim_fail(struct sim_cqp_result *res, u16 min)
{
	res->maj = IRDMA_CQP_MAJ_ERROR;
	res->min = min;
}

/* hmc.c */
void sim_hmc_query(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res);
void sim_hmc_commit(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_hmc_update_sds(struct sim_dev *sdev, const __le64 *wqe,
			struct sim_cqp_result *res);
void sim_hmc_manage_arp(struct sim_dev *sdev, const __le64 *wqe,
			struct sim_cqp_result *res);
int sim_hmc_fpm_to_pa(struct sim_dev *sdev, u64 fpm, u64 *pa, u32 *contig);
int sim_hmc_read_pble(struct sim_dev *sdev, u64 idx, u64 *val);
int sim_ring_pa(struct sim_dev *sdev, const struct sim_ring *ring, u64 off,
		u64 *pa);

/* cq.c */
struct sim_cq *sim_cq_find(struct sim_dev *sdev, u32 id);
void sim_cq_create(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res);
void sim_cq_destroy(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_cq_modify(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res);
int sim_cq_post(struct sim_dev *sdev, struct sim_cq *cq, const u64 *cqe);
int sim_cq_write(struct sim_dev *sdev, struct sim_cq *cq, const u64 *cqe,
		 bool *notify);
void sim_ccq_map(struct sim_dev *sdev, struct sim_cq *ccq);
int sim_cq_post_ext(struct sim_dev *sdev, struct sim_cq *cq, const u64 *cqe,
		    const u64 *ext);
void sim_cq_check_arms(struct sim_dev *sdev);
void sim_cqs_destroy_all(struct sim_dev *sdev);
void sim_cq_ack(struct sim_dev *sdev, u32 id);
bool sim_cq_release_held(struct sim_dev *sdev);

/* eq.c */
void sim_ceq_create(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_ceq_destroy(struct sim_dev *sdev, const __le64 *wqe,
		     struct sim_cqp_result *res);
void sim_aeq_create(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_aeq_destroy(struct sim_dev *sdev, const __le64 *wqe,
		     struct sim_cqp_result *res);
void sim_ceq_post(struct sim_dev *sdev, u32 ceq_id, u64 ctx);
void sim_aeq_post_qp(struct sim_dev *sdev, u32 code, u32 id, u8 source,
		     u32 wqe_idx, u8 state);
void sim_aeq_post_ctx(struct sim_dev *sdev, u32 code, u32 id, u64 ctx);
void sim_aeq_post_full(struct sim_dev *sdev, u32 code, u32 id, u8 source,
		       u32 wqe_idx, u8 state, u64 q0);
void sim_fault_queue_ae(struct sim_dev *sdev, u32 code, u32 id, u8 source);
bool sim_fault_post_aes(struct sim_dev *sdev);
void sim_vector_fire(struct sim_dev *sdev, u32 msix_idx);
bool sim_vectors_poll(struct sim_dev *sdev);

/* mem.c: memory keys, address handles, scheduler nodes */
void sim_mr_alloc(struct sim_dev *sdev, const __le64 *wqe,
		  struct sim_cqp_result *res);
void sim_mr_reg(struct sim_dev *sdev, const __le64 *wqe,
		struct sim_cqp_result *res);
void sim_mr_dealloc(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_ah_cmd(struct sim_dev *sdev, const __le64 *wqe,
		struct sim_cqp_result *res);
bool sim_ah_cmd_atomic(struct sim_dev *sdev, const __le64 *wqe);
int sim_ahs_alloc(struct sim_dev *sdev);
void sim_ahs_clear(struct sim_dev *sdev);
void sim_ahs_free(struct sim_dev *sdev);
void sim_ws_node(struct sim_dev *sdev, const __le64 *wqe,
		 struct sim_cqp_result *res);
void sim_mg_cmd(struct sim_dev *sdev, const __le64 *wqe,
		struct sim_cqp_result *res);
void sim_mem_destroy_all(struct sim_dev *sdev);
u32 sim_mr_index(struct sim_dev *sdev, u32 stag);

/**
 * struct sim_access - a memory access through a key
 * @stag: the key
 * @pd: the accessing QP's PD
 * @priv: the QP is privileged (STag 0 means physical addresses)
 * @rights: IRDMA_MR_RIGHT_* the access needs
 */
struct sim_access {
	u32 stag;
	u32 pd;
	bool priv;
	u8 rights;
};

int sim_mem_copy(struct sim_dev *sdev, const struct sim_access *acc, u64 addr,
		 void *buf, u32 len, bool to_mem);
int sim_mr_invalidate(struct sim_dev *sdev, u32 stag, u32 pd, bool remote);
int sim_mr_fast_reg(struct sim_dev *sdev, u32 pd, const __le64 *wqe);
int sim_mw_bind(struct sim_dev *sdev, u32 pd, const __le64 *wqe);
struct sim_ah *sim_ah_get(struct sim_dev *sdev, u32 id);

/* qp.c: queue pairs and the fabric */
void sim_qp_create(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res);
void sim_qp_modify(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res);
void sim_qp_destroy(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_qp_flush(struct sim_dev *sdev, const __le64 *wqe,
		  struct sim_cqp_result *res);
void sim_qps_destroy_all(struct sim_dev *sdev);
void sim_qp_suspend(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_qp_resume(struct sim_dev *sdev, const __le64 *wqe,
		   struct sim_cqp_result *res);

/* push.c */
void sim_push_manage(struct sim_dev *sdev, const __le64 *wqe,
		     struct sim_cqp_result *res);
bool sim_push_valid(struct sim_dev *sdev, u32 idx);
bool sim_push_poll(struct sim_dev *sdev);

/* srq.c */
void sim_srq_create(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_srq_modify(struct sim_dev *sdev, const __le64 *wqe,
		    struct sim_cqp_result *res);
void sim_srq_destroy(struct sim_dev *sdev, const __le64 *wqe,
		     struct sim_cqp_result *res);
void sim_srqs_destroy_all(struct sim_dev *sdev);
int sim_srq_peek(struct sim_dev *sdev, u32 id, u32 pd, __le64 *wqe, u32 *idx);
void sim_srq_advance(struct sim_dev *sdev, u32 id);
bool sim_qps_run(struct sim_dev *sdev, bool *quick);
bool sim_qp_run_sq(struct sim_dev *sdev, u32 qpn, bool *backlog);
void sim_count_msg(struct sim_dev *sdev, bool ipv4, u32 len, bool tx, int rdma);
void sim_peer_add(struct sim_dev *sdev);
void sim_lan_init(struct sim_dev *sdev);
void sim_lan_reset(struct sim_dev *sdev);
int sim_qset_add(struct sim_dev *sdev, u16 qs_handle, u8 tc, u32 *teid);
void sim_qset_del(struct sim_dev *sdev, u32 teid);
bool sim_qset_live(struct sim_dev *sdev, u16 qs_handle);
int sim_lan_count(struct sim_dev *sdev, bool *filter);
void sim_peer_del(struct sim_dev *sdev);

/* debugfs.c */
void sim_debugfs_add(struct sim_dev *sdev);
void sim_debugfs_del(struct sim_dev *sdev);
void sim_debugfs_init(void);
void sim_debugfs_exit(void);

/* bus.c */
void sim_reset_schedule(struct sim_dev *sdev);

/* event.c: the LAN side's events for the driver */
void sim_event_init(struct sim_dev *sdev);
void sim_event_send(struct sim_dev *sdev, unsigned long type, u32 reg);
int sim_event_parse(struct sim_dev *sdev, const char *cmd);
int sim_qos_set(struct sim_dev *sdev, const struct irdma_sim_qos *qos);
void sim_qos_get(struct sim_dev *sdev, struct irdma_sim_qos *qos);

/* engine.c */
int sim_engine_start(struct sim_dev *sdev);
void sim_engine_stop(struct sim_dev *sdev);
bool sim_engine_step(struct sim_dev *sdev, bool *quick);
void sim_engine_kick(struct sim_dev *sdev);
void sim_engine_kick_here(struct sim_dev *sdev);
void sim_engine_kick_ringer(struct sim_dev *sdev);
bool sim_engine_ringer_here(struct sim_dev *sdev, int cpu);
void sim_engine_run_sq(struct sim_dev *sdev, u32 qpn);

/* doorbell.c */
void sim_doorbell_init(struct sim_dev *sdev);
void sim_doorbell_arm(struct sim_dev *sdev);
void sim_doorbell_disarm(struct sim_dev *sdev);
u64 sim_doorbell_take(struct sim_dev *sdev, enum sim_trap_reg reg);
bool sim_doorbell_leave(struct sim_dev *sdev, enum sim_trap_reg reg, u32 val,
			u64 looked, u64 now);

/* userdb.c */
void sim_userdb_init(void);
void sim_userdb_exit(void);
void sim_userdb_tidy(void);
void sim_userdb_add(struct sim_dev *sdev);
void sim_userdb_del(struct sim_dev *sdev);

/* cqp.c, the trap's part */
bool sim_cqp_trap_patient(u64 start);
/* What a trap leaves to be done after it (sim_cqp_fast()). */
#define SIM_TRAP_LEFT_THREADS	BIT(0)
#define SIM_TRAP_LEFT_EVENT	BIT(1)
#define SIM_TRAP_LEFT_RINGER	BIT(2)

/* Whom a trap's kick wakes (struct sim_doorbell's threads_due). */
#define SIM_KICK_ALL		1
#define SIM_KICK_RINGER		2
unsigned int sim_cqp_fast(struct sim_dev *sdev);
bool sim_cqp_notify(struct sim_dev *sdev);
bool sim_ccq_take_arm(struct sim_dev *sdev);

/* latency.c */
u64 sim_lat_now(void);
void sim_lat_record(struct sim_dev *sdev, enum sim_lat_kind kind, u64 since,
		    u64 picked, u32 what, bool trapped);
void sim_lat_reset(struct sim_dev *sdev);
void sim_lat_show(struct seq_file *m, struct sim_dev *sdev);

#endif /* IRDMA_SIM_INTERNAL_H */
