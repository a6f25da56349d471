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
#include <linux/hashtable.h>
#include <linux/kfifo.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <linux/etherdevice.h>
#include <linux/irq_work.h>

#include "../hwdefs.h"
#include "irdma_sim.h"

struct perf_event;
struct seq_file;

#define ISIM_DRV_NAME		"irdma_sim"
#define ISIM_MSIX_COUNT		4	/* AEQ and CEQ 0, plus three CEQs */
#define ISIM_MAX_DEVICES		64
#define ISIM_MAX_CEQS		64
#define ISIM_MAX_SDS		64	/* 128 MiB of FPM space per function */
#define ISIM_FIRST_SD_ODD	24	/* first segment of odd-numbered native functions */
#define ISIM_MAX_ARPS		2048	/* the ARP table's entries */
#define ISIM_MAX_ENGINES		4	/* engine threads, one per CPU */
#define ISIM_MAX_AHS		131072	/* address handles the HMC offers */
#define ISIM_MAX_CQS		8192	/* completion queues the HMC offers */
#define ISIM_AH_CHUNK		256	/* address handles per table chunk */
#define ISIM_LAT_BUCKETS		20	/* response times to 2^18 us and over */

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
#define ISIM_CQP_MIN_NS	(200 * NSEC_PER_USEC)
/*
 * How long a trap waits for what a thread has (the last CQP's state to go,
 * the CQP lock) before it leaves the write to the threads.
 */
#define ISIM_TRAP_WAIT_NS	(250 * NSEC_PER_MSEC)
/* The longest hold of the CQP lock debugfs asks for: shorter than that. */
#define ISIM_HOLD_CQP_MAX_MS	200

/* Doorbell registers read back this value once the engine took a write. */
#define ISIM_DB_IDLE		0xffffffff

/**
 * struct isim_cqp - the control QP as the engine sees it
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
struct isim_cqp {
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
 * struct isim_ring - where a queue's ring lives
 * @base: its DMA address, or (@virt) the index of its first PBLE
 * @virt: described by PBLEs, one per 4 KiB page
 * @levels: PBLE levels (1, or 2/3 for two)
 */
struct isim_ring {
	u64 base;
	bool virt;
	u8 levels;
};

/**
 * struct isim_cq - a completion queue
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
struct isim_cq {
	u32 id;
	struct isim_ring ring;
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

struct isim_ieq_hold;

/**
 * struct isim_tcp_conn - the TCP connection an offloaded iWARP QP carries,
 *	from the context the driver loaded at RTS
 * @offloaded: the QP has the connection (it went to RTS with one)
 * @state: the TCP state (IRDMA_TCP_STATE_*), as AEs report it
 * @local_port: this end's port
 * @remote_port: the peer's
 * @mss: the most a segment carries (SNDMSS)
 * @ttl: the IP TTL or hop limit
 * @tos: the IP TOS or traffic class
 * @insert_vlan: frames carry a VLAN tag
 * @vlan_tag: the tag (VLAN id and priority)
 * @snd_nxt: the next sequence number to send
 * @snd_una: the oldest one not acknowledged
 * @rcv_nxt: the next one expected
 * @rcv_wnd: this end's window, in bytes
 * @rcv_wscale: this end's window scale
 * @ird: inbound RDMA reads the QP takes at once
 * @ord: outbound RDMA reads it has in flight at most
 * @rd_ok: it answers RDMA reads
 * @wait_pdu: the SQ waits for the peer's first PDU (the LSMM asked so)
 * @pdu_rcvd: the first PDU came
 * @fin_pending: a FIN goes once the SQ is empty (the QP is CLOSING)
 * @read_lost: an RDMA read the peer found out of bounds waits at the SQ's
 *	head for a response that never comes (the peer terminates)
 * @q2_pa: the QP's Q2 buffer (the context's), where a TERMINATE taken goes
 * @term_pending: a TERMINATE is to go (the peer's engine was busy)
 * @term_fin: a FIN follows it
 * @term_len: its payload's length
 * @term_msn: its DDP message sequence number (1 but for the term_bad_msn knob)
 * @term_msg: its payload, read from Q2 when MODIFY_QP asked for it
 * @lost_since: when a message first found no offloaded peer (0: none)
 * @ieq_qpn: the QP taking its exceptions (the IEQ), from the context
 * @sends_rx: untagged messages on queue 0 (sends) taken: the last MSN
 * @ieq: the FPDU held while its pieces go through the IEQ (ieq.c)
 */
struct isim_tcp_conn {
	bool offloaded;
	u8 state;
	u16 local_port;
	u16 remote_port;
	u16 mss;
	u8 ttl;
	u8 tos;
	bool insert_vlan;
	u16 vlan_tag;
	u32 snd_nxt;
	u32 snd_una;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u8 rcv_wscale;
	u16 ird;
	u16 ord;
	bool rd_ok;
	bool wait_pdu;
	bool pdu_rcvd;
	bool fin_pending;
	bool read_lost;
	u64 q2_pa;
	bool term_pending;
	bool term_fin;
	u8 term_len;
	u8 term_msn;
	u8 term_msg[15];
	unsigned long lost_since;
	u16 ieq_qpn;
	u32 sends_rx;
	struct isim_ieq_hold *ieq;
};

/**
 * struct isim_qp - a queue pair as the engine keeps it
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
 * @tcp: an iWARP QP's TCP connection (iwarp.c)
 */
struct isim_qp {
	u32 id;
	u8 type;
	u8 state;
	u64 shadow_pa;
	struct isim_ring sq;
	u32 sq_size;
	u32 sq_tail;
	bool sq_polarity;
	struct isim_ring rq;
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
	struct isim_tcp_conn tcp;
};

/**
 * struct isim_mr - a memory key (region or window)
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
struct isim_mr {
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
 * struct isim_ah - an address handle
 * @valid: made, and not yet destroyed
 * @pd: protection domain
 * @ipv4: IPv4 addressing
 * @src_ip: source address
 * @dest_ip: destination address
 * @arp_idx: ARP entry of the destination MAC
 * @mac: source MAC
 * @hop_limit: IPv4 TTL or IPv6 hop limit of the frames a UDA QP sends
 * @tc: their TOS or traffic class
 * @flow_label: their IPv6 flow label
 * @vlan_tag: the VLAN tag they carry, if @insert_vlan
 * @insert_vlan: a VLAN tag goes in
 * @loopback: they come back to this function instead of leaving it
 */
struct isim_ah {
	bool valid;
	u32 pd;
	bool ipv4;
	u32 src_ip[4];
	u32 dest_ip[4];
	u16 arp_idx;
	u8 mac[ETH_ALEN];
	u8 hop_limit;
	u8 tc;
	u32 flow_label;
	u16 vlan_tag;
	bool insert_vlan;
	bool loopback;
};

/**
 * struct isim_mg - a multicast group
 * @ipv4: an IPv4 group
 * @ip: its address, host-order words (IPv4 in word 0)
 * @qp: member QPs
 * @count: entries in @qp
 */
struct isim_mg {
	bool ipv4;
	u32 ip[4];
	u32 qp[IRDMA_MAX_MGS_PER_CTX];
	u32 count;
};

/**
 * struct isim_eq - an event queue (a CEQ or the AEQ)
 * @live: created
 * @ring: where the ring is: one block, or pages its PBLEs list (VMAP)
 * @size: entries in the ring
 * @head: next entry the engine fills
 * @polarity: valid bit of the current pass
 */
struct isim_eq {
	bool live;
	struct isim_ring ring;
	u32 size;
	u32 head;
	bool polarity;
};

/**
 * struct isim_vector - interrupt state of one MSI-X vector
 * @enabled: the driver enabled it (GLINT_DYN_CTL.INTENA); firing masks it
 * @pending: an interrupt waits for the vector to be enabled
 */
struct isim_vector {
	bool enabled;
	bool pending;
};

/**
 * struct isim_steer - where TCP segments go: the steering tables
 * @apbvt: the accelerated port bit vector, a bit per local TCP port
 * @qhash: the quad hash's entries (struct isim_qhash_entry)
 * @qhash_count: entries in @qhash
 * @rxq: TCP frames the switch handed to the engine, for its threads
 *
 * Only the engine touches the tables (with its lock held, or stopped);
 * the switch reads @apbvt, racing with its changes as a frame on the
 * wire races with the command that changes the vector.
 */
struct isim_steer {
	DECLARE_BITMAP(apbvt, 65536);
	DECLARE_HASHTABLE(qhash, 6);
	u32 qhash_count;
	struct sk_buff_head rxq;
};

/**
 * struct isim_hmc - the function's private memory (FPM) layout
 * @committed: COMMIT_FPM_VAL has placed the objects
 * @base: FPM address of each object type
 * @cnt: committed count of each object type
 * @size: bytes per object of each type
 * @sd: the segment descriptors as programmed (data words)
 * @arp: the ARP table's MAC addresses, by entry
 * @arp_valid: which entries are in use
 */
struct isim_hmc {
	bool committed;
	u64 base[IRDMA_HMC_OBJ_COUNT];
	u32 cnt[IRDMA_HMC_OBJ_COUNT];
	u32 size[IRDMA_HMC_OBJ_COUNT];
	u64 sd[ISIM_MAX_SDS];
	u64 arp[ISIM_MAX_ARPS];
	DECLARE_BITMAP(arp_valid, ISIM_MAX_ARPS);
};

/**
 * struct isim_stats - what the engine did, for tests and debugfs
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
 * @tcp_steered: TCP frames the switch handed to the engine (a port of its
 *	APBVT)
 * @tcp_to_lan: of those, frames no quad hash entry took: on to the LAN
 * @tcp_rx_dropped: frames lost: the queue full, no receive posted for a
 *	UDA QP, or a frame its buffer cannot hold
 * @uda_tx: frames UDA QPs sent
 * @uda_rx: frames UDA QPs received
 * @stream_unmodelled: frames for an offloaded iWARP stream, not modelled
 * @iwarp_offloaded: iWARP QPs that took a connection (went to RTS)
 * @iwarp_lsmm: MPA replies iWARP QPs sent as their first stream data
 * @iwarp_fin_tx: FINs offloaded connections sent
 * @iwarp_fin_rx: FINs they took
 * @iwarp_rst_tx: resets they sent
 * @iwarp_rst_rx: resets they took
 * @iwarp_unreached: messages of an offloaded connection that found no
 *	offloaded peer (not yet, or never)
 * @iwarp_term_tx: TERMINATE messages offloaded connections sent
 * @iwarp_term_tx_ctrl: the Terminate control word of the last one sent
 * @iwarp_term_rx: TERMINATE messages they took
 * @iwarp_term_rx_ctrl: the Terminate control word of the last one taken
 * @ieq_split_msgs: messages arriving here sent to the IEQ in pieces
 *	(the ieq_split knob), not placed by the engine
 * @ieq_segs_tx: the pieces (TCP segments) that went into the IEQ
 * @ieq_lpb_ok: FPDUs the IEQ looped back as they were sent
 * @ieq_lpb_bad: looped-back data that was not (sequence or bytes)
 * @ieq_lost: split messages whose FPDU never came back: their sender gave up
 * @gen_ae: asynchronous events the driver asked for (FLUSH_WQES with
 *	GENERATE_AE)
 * @cq_acks: CQACK writes taken
 * @cq_acks_unmatched: those whose CQ had no event to acknowledge (the
 *	number read was another write's, or stale)
 * @cq_events_held: events a CQ was due but not given then, its last one
 *	not acknowledged
 * @cq_events_released: held events given when the acknowledgment came
 */
struct isim_stats {
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
	u64 tcp_steered;
	u64 tcp_to_lan;
	u64 tcp_rx_dropped;
	u64 uda_tx;
	u64 uda_rx;
	u64 stream_unmodelled;
	u64 iwarp_offloaded;
	u64 iwarp_lsmm;
	u64 iwarp_fin_tx;
	u64 iwarp_fin_rx;
	u64 iwarp_rst_tx;
	u64 iwarp_rst_rx;
	u64 iwarp_unreached;
	u64 iwarp_term_tx;
	u32 iwarp_term_tx_ctrl;
	u64 iwarp_term_rx;
	u32 iwarp_term_rx_ctrl;
	u64 ieq_split_msgs;
	u64 ieq_segs_tx;
	u64 ieq_lpb_ok;
	u64 ieq_lpb_bad;
	u64 ieq_lost;
	u64 gen_ae;
	atomic64_t cq_acks;
	atomic64_t cq_acks_unmatched;
	atomic64_t cq_events_held;
	atomic64_t cq_events_released;
};

/* Queue-set handles a WORK_SCHED_NODE leaf can have (10 bits). */
#define ISIM_QSET_HANDLES	1024
/* Queue sets ice attaches for one function: one a traffic class and more. */
#define ISIM_MAX_QSETS		16
/* Traffic classes the port has enabled: DCB off, as ice's default. */
#define ISIM_LAN_MAX_TC		8

/**
 * struct isim_qset - a queue set the LAN side attached to the scheduler
 * @teid: the scheduler node's id (0: the slot is free)
 * @qs_handle: the queue set
 * @tc: its traffic class
 */
struct isim_qset {
	u32 teid;
	u16 qs_handle;
	u8 tc;
};

/**
 * struct isim_lan - what the LAN driver set up for the RDMA engine (lan.c)
 * @lock: guards @qset and @teids
 * @qset: the queue sets attached
 * @teids: TEIDs handed out so far
 * @live: queue-set handles that may transmit, for the engine
 * @rdma_filter: RoCE packets are steered to the engine
 * @leaf_weight: by queue-set handle, the weight its scheduler leaf was
 *	last given (WORK_SCHED_NODE), for tests
 * @qos: the port's traffic classes (DCB), as the LAN side set them
 */
struct isim_lan {
	spinlock_t lock; /* the queue-set table */
	struct isim_qset qset[ISIM_MAX_QSETS];
	u32 teids;
	DECLARE_BITMAP(live, ISIM_QSET_HANDLES);
	bool rdma_filter;
	u8 leaf_weight[ISIM_QSET_HANDLES];
	struct irdma_sim_qos qos;
};

/* Kinds of answers whose response time is recorded (latency.c). */
enum isim_lat_kind {
	ISIM_LAT_CQP_CREATE,
	ISIM_LAT_CQP_DESTROY,
	ISIM_LAT_CQP_CMD,
	ISIM_LAT_CCQ_EVENT,
	ISIM_LAT_KINDS,
};

/**
 * struct isim_lat_hist - response times of one kind of answer
 * @bucket: answers by time, bucket b holding [2^(b-1), 2^b) us
 * @sum_ns: all of their times
 * @max_ns: the longest
 * @max_what: what the longest answered (a CQP opcode)
 */
struct isim_lat_hist {
	atomic64_t bucket[ISIM_LAT_BUCKETS];
	atomic64_t sum_ns;
	atomic64_t max_ns;
	atomic_t max_what;
};

#define ISIM_LAT_SLOW_KEEP	16	/* slow answers kept, the latest */

/**
 * struct isim_lat_slow - one answer that took over a millisecond
 * @kind: what kind (enum isim_lat_kind)
 * @what: what it answered (a CQP opcode)
 * @us: how long it took
 * @pick_us: how long until the engine took it up (0: not known)
 * @trap: answered in the doorbell's trap, not by a thread
 * @untrapped: the doorbell's write was not trapped (found by looking)
 */
struct isim_lat_slow {
	u8 kind;
	u8 what;
	bool trap;
	bool untrapped;
	u32 us;
	u32 pick_us;
};

/* The doorbell registers trapped, in the order they get a debug register. */
enum isim_trap_reg {
	ISIM_TRAP_CQPDB,
	ISIM_TRAP_CCQPLOW,
	ISIM_TRAP_CQACK,
	ISIM_TRAPS,
};

/**
 * struct isim_doorbell - the function's trapped doorbells (doorbell.c)
 * @bp: the wide breakpoint on each register (NULL: that one is polled)
 * @rung_ns: when each was written, earliest not yet taken (0: none)
 * @kick: after a trap, from hard interrupt context: posts the CCQ's event
 *	if one is due, and wakes the engine threads if the trap left them work
 * @threads_due: the trap left work to the threads: ISIM_KICK_RINGER (CQP
 *	WQEs, for the thread of the CPU that rang first) or ISIM_KICK_ALL
 * @kicks: bumped at each kick; a thread sleeps only if it saw the last
 * @traps: writes trapped
 * @fast: CQP WQEs executed right in the trap
 * @found: batches of CQP WQEs found by looking, their CQPDB write not
 *	trapped (or not yet, when a thread looked first)
 * @left_by_looks: writes threads found before their trap and left to it
 * @lock_waits: traps that waited a millisecond or more for the CQP lock
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
 *	SQ itself (isim_engine_run_sq())
 * @user_left: trapped writes whose WQEs the process left to the threads
 *	(a long message, or a thread at work)
 * @armed: entry in the list of functions with doorbells armed
 */
struct isim_doorbell {
	struct perf_event * __percpu *bp[ISIM_TRAPS];
	struct list_head armed;
	atomic64_t rung_ns[ISIM_TRAPS];
	struct irq_work kick;
	u8 threads_due;
	atomic_t kicks;
	atomic64_t traps;
	atomic64_t fast;
	atomic64_t left;
	atomic64_t found;
	atomic64_t left_by_looks;
	atomic64_t lock_waits;
	u32 rung_head;
	int rung_cpu;
	int ringer_cpu;
	u64 left_to_trap[ISIM_TRAPS];
	atomic64_t user_traps;
	atomic64_t user_watches;
	atomic64_t user_runs;
	atomic64_t user_left;
};

/**
 * struct isim_faults - what debugfs asked the engine to get wrong
 * @fail_op: CQP opcode to fail, -1 for none
 * @fail_count: failures left to inject for @fail_op
 * @delay_op: CQP opcode to hold back, -1 for none
 * @delay_ms: how long to hold it
 * @ae_lock: protects @aes
 * @aes: asynchronous events to post (code << 32 | QP/CQ id)
 * @hold_ms: how long @hold keeps its lock
 * @hold_cqp: @hold keeps the CQP lock too (interrupts off), from the next
 *	trap that takes that lock on
 * @hold_go: that trap came
 * @hold_has_lock: @hold has the CQP lock
 * @hold: holds a lock, as a thread whose CPU the host took away
 * @hold_taken: @hold has the engine lock
 * @ieq_split: messages still to arrive in pieces through the IEQ (iwarp.c)
 * @ieq_pieces: into how many TCP segments each goes
 * @ieq_dup: the first piece goes twice
 * @ieq_badcrc: the FPDU's CRC is wrong
 * @term_bad_msn: TERMINATEs still to go out with a wrong DDP message
 *	sequence number (iwarp.c), as a faulty peer's would
 */
struct isim_faults {
	s32 fail_op;
	u32 fail_count;
	s32 delay_op;
	u32 delay_ms;
	u32 hold_ms;
	bool hold_cqp;
	bool hold_go;
	bool hold_has_lock;
	struct work_struct hold;
	struct completion hold_taken;
	spinlock_t ae_lock; /* the queue of events to raise */
	DECLARE_KFIFO(aes, u64, 16);
	atomic_t ieq_split;
	u8 ieq_pieces;
	bool ieq_dup;
	bool ieq_badcrc;
	atomic_t term_bad_msn;
};

/**
 * struct isim_dev - one simulated function
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
 *	quick to answer for a while after (isim_engine_step())
 * @cqp_lock: the CQP's ring position and the CCQ, between the engine
 *	threads and the CQPDB trap (which only ever tries it)
 * @eq_lock: the EQs' rings and the vectors, between the engine threads
 *	and a trapped doorbell's irq_work (the CCQ's events)
 * @db: trapped doorbells
 * @db_pfn: the page of BAR0 holding the doorbells user space maps, or 0
 *	if user space's mappings are not watched
 * @userdb: entry in the list of functions whose mappings are watched
 * @lat: response times, by enum isim_lat_kind
 * @lat_slow: the latest answers over a millisecond, a ring
 * @lat_slow_next: how many were ever kept there
 * @ccqp_looked_ns: when the engine last found CCQPLOW with nothing new
 * @cqp_cleanup_due: the CQP went down; its function's state is still to go
 * @cqp: the control QP
 * @hmc: the FPM layout and segment descriptors
 * @steer: the APBVT and the quad hash
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
 * @ah_chunks: address handles by index, ISIM_AH_CHUNK to a chunk (a
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
struct isim_dev {
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
	struct msix_entry msix[ISIM_MSIX_COUNT];
	unsigned long irq_pending;
	struct irq_work irq_work;
	struct irdma_sim_adev *sadev;
	struct list_head list;
	struct task_struct *engine[ISIM_MAX_ENGINES];
	struct completion engine_running;
	struct mutex engine_lock; /* one engine thread works at a time */
	u64 engine_worked_ns;
	spinlock_t cqp_lock; /* CQP ring position, CCQ: threads and trap */
	spinlock_t eq_lock; /* EQ rings and vectors: threads and irq_work */
	struct isim_doorbell db;
	unsigned long db_pfn;
	struct list_head userdb;
	struct isim_lat_hist lat[ISIM_LAT_KINDS];
	struct isim_lat_slow lat_slow[ISIM_LAT_SLOW_KEEP];
	atomic_t lat_slow_next;
	u64 ccqp_looked_ns;
	bool cqp_cleanup_due;
	struct isim_cqp cqp;
	struct isim_hmc hmc;
	struct isim_steer steer;
	struct xarray cqs;
	struct isim_cq ccq;
	bool ccq_live;
	DECLARE_BITMAP(cq_unacked, ISIM_MAX_CQS);
	atomic_t cq_ack_credit;
	DECLARE_BITMAP(cq_held, ISIM_MAX_CQS);
	bool cq_held_due;
	struct xarray qps;
	struct xarray srqs;
	struct xarray mrs;
	struct isim_ah **ah_chunks;
	struct xarray mgs;
	struct list_head peer;
	struct list_head port;
	u32 push_pages;
	DECLARE_BITMAP(push_used, IRDMA_SIM_PUSH_PAGES);
	struct isim_eq ceq[ISIM_MAX_CEQS];
	struct isim_eq aeq;
	struct isim_vector vec[ISIM_MSIX_COUNT];
	struct isim_stats stats;
	u64 counters[IRDMA_STAT_COUNT];
	struct isim_lan lan;
	struct isim_faults faults;
	struct dentry *debugfs;
	struct work_struct reset_work;
	bool dying;
};

static inline u32 isim_rd32(struct isim_dev *sdev, u32 reg)
{
	return readl(sdev->regs + reg);
}

static inline void isim_wr32(struct isim_dev *sdev, u32 reg, u32 val)
{
	writel(val, sdev->regs + reg);
}

/* Free every object an xarray holds, and empty it (function reset). */
static inline void isim_xa_free_all(struct xarray *xa)
{
	unsigned long id;
	void *obj;

	xa_for_each(xa, id, obj)
		kfree(xa_erase(xa, id));
}

static inline struct isim_dev *to_isim_dev(struct device *dev)
{
	return container_of(dev, struct isim_dev, dev);
}

/* netdev.c */
int isim_netdev_create(struct isim_dev *sdev);
void isim_netdev_rx(struct isim_dev *sdev, struct sk_buff *skb);
void isim_switch_send(struct isim_dev *sdev, struct sk_buff *skb, bool loopback);
void isim_netdev_destroy(struct isim_dev *sdev);

/* irq.c */
int isim_irqs_alloc(struct isim_dev *sdev);
void isim_irqs_free(struct isim_dev *sdev);
void isim_irq_raise(struct isim_dev *sdev, unsigned int vector);

/* regs.c */
void isim_regs_reset(struct isim_dev *sdev);
bool isim_regs_poll(struct isim_dev *sdev, bool *quick);
bool isim_db_taken(struct isim_dev *sdev, u32 reg);
bool isim_regs_cqp_ctx(struct isim_dev *sdev);

/* dma.c */
void *isim_dma_map(struct isim_dev *sdev, u64 addr, size_t len);
int isim_dma_read(struct isim_dev *sdev, u64 addr, void *buf, size_t len);
int isim_dma_write(struct isim_dev *sdev, u64 addr, const void *buf, size_t len);
int isim_dma_read_qword(struct isim_dev *sdev, u64 addr, u64 *val);
int isim_dma_write_qword(struct isim_dev *sdev, u64 addr, u64 val);

/* cqp.c */
void isim_cqp_create(struct isim_dev *sdev, u64 ctx_pa);
void isim_cqp_down(struct isim_dev *sdev);
void isim_cqp_cleanup(struct isim_dev *sdev);
void isim_cqp_destroy(struct isim_dev *sdev);
bool isim_cqp_run(struct isim_dev *sdev, bool *young);

/**
 * struct isim_cqp_result - how a CQP command completed
 * @maj: major error code, 0 for success
 * @min: minor error code
 * @ret_val: the op's return value
 * @held: held back on request (debugfs delay_cqp_op)
 */
struct isim_cqp_result {
	u16 maj;
	u16 min;
	u32 ret_val;
	bool held;
};

/* Minor codes of the CQP errors the engine reports (major 0xffff). */
#define ISIM_MIN_BAD_OPCODE	0x8001
#define ISIM_MIN_BAD_PARAM	0x8003
#define ISIM_MIN_DMA_FAULT	0x8004
#define ISIM_MIN_NO_SPACE	0x8005
#define ISIM_MIN_UNMODELLED	0x8006	/* valid, but not modelled here */
#define ISIM_MIN_INJECTED	0x80ff

/* Complete a CQP command with an error. */
static inline void isim_fail(struct isim_cqp_result *res, u16 min)
{
	res->maj = IRDMA_CQP_MAJ_ERROR;
	res->min = min;
}

/* hmc.c */
void isim_hmc_query(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res);
void isim_hmc_commit(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_hmc_update_sds(struct isim_dev *sdev, const __le64 *wqe,
			 struct isim_cqp_result *res);
void isim_hmc_manage_arp(struct isim_dev *sdev, const __le64 *wqe,
			 struct isim_cqp_result *res);
int isim_hmc_fpm_to_pa(struct isim_dev *sdev, u64 fpm, u64 *pa, u32 *contig);
int isim_hmc_read_pble(struct isim_dev *sdev, u64 idx, u64 *val);
int isim_ring_pa(struct isim_dev *sdev, const struct isim_ring *ring, u64 off,
		 u64 *pa);

/* cq.c */
struct isim_cq *isim_cq_find(struct isim_dev *sdev, u32 id);
void isim_cq_create(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res);
void isim_cq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_cq_modify(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res);
int isim_cq_post(struct isim_dev *sdev, struct isim_cq *cq, const u64 *cqe);
int isim_cq_write(struct isim_dev *sdev, struct isim_cq *cq, const u64 *cqe,
		  bool *notify);
void isim_ccq_map(struct isim_dev *sdev, struct isim_cq *ccq);
int isim_cq_post_ext(struct isim_dev *sdev, struct isim_cq *cq, const u64 *cqe,
		     const u64 *ext);
void isim_cq_check_arms(struct isim_dev *sdev);
void isim_cqs_destroy_all(struct isim_dev *sdev);
void isim_cq_ack(struct isim_dev *sdev, u32 id);
bool isim_cq_release_held(struct isim_dev *sdev);

/* eq.c */
void isim_ceq_create(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_ceq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res);
void isim_aeq_create(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_aeq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res);
void isim_ceq_post(struct isim_dev *sdev, u32 ceq_id, u64 ctx);
void isim_aeq_post_q2(struct isim_dev *sdev, u32 code, const struct isim_qp *qp);
void isim_aeq_post_tcp(struct isim_dev *sdev, u32 code, const struct isim_qp *qp,
		       u8 source, u32 wqe_idx);
void isim_aeq_post_qp(struct isim_dev *sdev, u32 code, u32 id, u8 source,
		      u32 wqe_idx, u8 state);
void isim_aeq_post_ctx(struct isim_dev *sdev, u32 code, u32 id, u64 ctx);
void isim_aeq_post_full(struct isim_dev *sdev, u32 code, u32 id, u8 source,
			u32 wqe_idx, u8 state, u64 q0);
void isim_fault_queue_ae(struct isim_dev *sdev, u32 code, u32 id, u8 source);
bool isim_fault_post_aes(struct isim_dev *sdev);
void isim_vector_fire(struct isim_dev *sdev, u32 msix_idx);
bool isim_vectors_poll(struct isim_dev *sdev);

/* mem.c: memory keys, address handles, scheduler nodes */
void isim_mr_alloc(struct isim_dev *sdev, const __le64 *wqe,
		   struct isim_cqp_result *res);
void isim_mr_reg(struct isim_dev *sdev, const __le64 *wqe,
		 struct isim_cqp_result *res);
void isim_mr_dealloc(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_ah_cmd(struct isim_dev *sdev, const __le64 *wqe,
		 struct isim_cqp_result *res);
bool isim_ah_cmd_atomic(struct isim_dev *sdev, const __le64 *wqe);
int isim_ahs_alloc(struct isim_dev *sdev);
void isim_ahs_clear(struct isim_dev *sdev);
void isim_ahs_free(struct isim_dev *sdev);
void isim_ws_node(struct isim_dev *sdev, const __le64 *wqe,
		  struct isim_cqp_result *res);
void isim_mg_cmd(struct isim_dev *sdev, const __le64 *wqe,
		 struct isim_cqp_result *res);
void isim_mem_destroy_all(struct isim_dev *sdev);
u32 isim_mr_index(struct isim_dev *sdev, u32 stag);

/**
 * struct isim_access - a memory access through a key
 * @stag: the key
 * @pd: the accessing QP's PD
 * @priv: the QP is privileged (STag 0 means physical addresses)
 * @rights: IRDMA_MR_RIGHT_* the access needs
 */
struct isim_access {
	u32 stag;
	u32 pd;
	bool priv;
	u8 rights;
};

int isim_mem_copy(struct isim_dev *sdev, const struct isim_access *acc, u64 addr,
		  void *buf, u32 len, bool to_mem);
int isim_mr_invalidate(struct isim_dev *sdev, u32 stag, u32 pd, bool remote);
int isim_mr_fast_reg(struct isim_dev *sdev, u32 pd, const __le64 *wqe);
int isim_mw_bind(struct isim_dev *sdev, u32 pd, const __le64 *wqe);
struct isim_ah *isim_ah_get(struct isim_dev *sdev, u32 id);

/* qp.c: queue pairs and the fabric */
void isim_qp_create(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res);
void isim_qp_modify(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res);
void isim_qp_destroy(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_qp_flush(struct isim_dev *sdev, const __le64 *wqe,
		   struct isim_cqp_result *res);
void isim_qps_destroy_all(struct isim_dev *sdev);
void isim_qp_suspend(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_qp_resume(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res);

/**
 * struct isim_tcp_frame - a TCP segment off the wire, read
 * @ipv4: an IPv4 packet
 * @vlan_valid: it came with a VLAN tag
 * @vlan_tci: the tag
 * @smac: the source MAC
 * @local_ip: its destination address, host-order words (IPv4 in word 3)
 * @remote_ip: its source address
 * @local_port: its destination port
 * @remote_port: its source port
 * @l3_off: where its IP header starts
 * @l3_len: the IP header's length
 * @l4_len: the TCP header's and data's length
 */
struct isim_tcp_frame {
	bool ipv4;
	bool vlan_valid;
	u16 vlan_tci;
	u8 smac[ETH_ALEN];
	u32 local_ip[4];
	u32 remote_ip[4];
	u16 local_port;
	u16 remote_port;
	u32 l3_off;
	u32 l3_len;
	u32 l4_len;
};

/* steer.c */
bool isim_tcp_frame_parse(const struct sk_buff *skb, struct isim_tcp_frame *f);
bool isim_steer_take(struct isim_dev *sdev, struct sk_buff *skb);
bool isim_steer_rx_run(struct isim_dev *sdev);
bool isim_uda_receive(struct isim_dev *sdev, struct isim_qp *qp,
		      const struct sk_buff *skb, const struct isim_tcp_frame *f);
void isim_steer_apbvt(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res);
void isim_steer_qhash(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res);
void isim_steer_clear(struct isim_dev *sdev);

/**
 * struct isim_tcp_tuple - a connection's ends, as the quad hash keys it
 * @ipv4: IPv4 addresses (in word 3)
 * @local_ip: this end's address, host-order words
 * @remote_ip: the peer's
 * @local_port: this end's port
 * @remote_port: the peer's
 * @vlan: the VLAN id, with bit 15 set when there is one
 */
struct isim_tcp_tuple {
	bool ipv4;
	u32 local_ip[4];
	u32 remote_ip[4];
	u16 local_port;
	u16 remote_port;
	u16 vlan;
};

bool isim_steer_conn_bind(struct isim_dev *sdev, const struct isim_tcp_tuple *t,
			  u32 qpn);
void isim_steer_conn_unbind(struct isim_dev *sdev, const struct isim_tcp_tuple *t,
			    u32 qpn);
int isim_steer_conn_qpn(struct isim_dev *sdev, const struct isim_tcp_tuple *t,
			u32 *qpn);

/**
 * struct isim_wire_addr - the Ethernet and IP headers of a frame the
 *	engine builds
 * @ipv4: IPv4 (else IPv6)
 * @src_ip: source address, host-order words (IPv4 in word 3)
 * @dest_ip: destination address
 * @tos: IPv4 TOS or IPv6 traffic class
 * @ttl: TTL or hop limit
 * @flow_label: IPv6 flow label
 * @smac: source MAC
 * @dmac: destination MAC
 * @insert_vlan: a VLAN tag goes in
 * @vlan_tag: the tag
 * @loopback: the frame goes back into the port, not out
 */
struct isim_wire_addr {
	bool ipv4;
	u32 src_ip[4];
	u32 dest_ip[4];
	u8 tos;
	u8 ttl;
	u32 flow_label;
	u8 smac[ETH_ALEN];
	u8 dmac[ETH_ALEN];
	bool insert_vlan;
	u16 vlan_tag;
	bool loopback;
};

/* iwarp.c */
void isim_iwarp_segment_rx(struct isim_dev *sdev, struct isim_qp *qp,
			   const struct sk_buff *skb, const struct isim_tcp_frame *f);

/* wire.c */
int isim_wire_tcp_send(struct isim_dev *sdev, const struct isim_wire_addr *a,
		       const void *seg, u32 len);
struct sk_buff *isim_wire_tcp_skb(const struct isim_wire_addr *a, const void *seg,
				  u32 len);
int isim_wire_tcp_image(const struct isim_wire_addr *a, const void *seg, u32 len,
			void *out, u32 room);

/* push.c */
void isim_push_manage(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res);
bool isim_push_valid(struct isim_dev *sdev, u32 idx);
bool isim_push_poll(struct isim_dev *sdev);

/* srq.c */
void isim_srq_create(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_srq_modify(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res);
void isim_srq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res);
void isim_srqs_destroy_all(struct isim_dev *sdev);
int isim_srq_peek(struct isim_dev *sdev, u32 id, u32 pd, __le64 *wqe, u32 *idx);
void isim_srq_advance(struct isim_dev *sdev, u32 id);
bool isim_qps_run(struct isim_dev *sdev, bool *quick);
bool isim_qp_run_sq(struct isim_dev *sdev, u32 qpn, bool *backlog);
void isim_uda_sqs_run(struct isim_dev *sdev);
void isim_count_msg(struct isim_dev *sdev, bool ipv4, u32 len, bool tx, int rdma);
void isim_peer_add(struct isim_dev *sdev);
void isim_lan_init(struct isim_dev *sdev);
void isim_lan_reset(struct isim_dev *sdev);
int isim_qset_add(struct isim_dev *sdev, u16 qs_handle, u8 tc, u32 *teid);
void isim_qset_del(struct isim_dev *sdev, u32 teid);
bool isim_qset_live(struct isim_dev *sdev, u16 qs_handle);
int isim_lan_count(struct isim_dev *sdev, bool *filter);
void isim_peer_del(struct isim_dev *sdev);

/* debugfs.c */
void isim_debugfs_add(struct isim_dev *sdev);
void isim_debugfs_del(struct isim_dev *sdev);
void isim_debugfs_init(void);
void isim_debugfs_exit(void);

/* bus.c */
void isim_reset_schedule(struct isim_dev *sdev);

/* event.c: the LAN side's events for the driver */
void isim_event_init(struct isim_dev *sdev);
void isim_event_send(struct isim_dev *sdev, unsigned long type, u32 reg);
int isim_event_parse(struct isim_dev *sdev, const char *cmd);
int isim_qos_set(struct isim_dev *sdev, const struct irdma_sim_qos *qos);
void isim_qos_get(struct isim_dev *sdev, struct irdma_sim_qos *qos);

/* engine.c */
int isim_engine_start(struct isim_dev *sdev);
void isim_engine_stop(struct isim_dev *sdev);
void isim_engine_hold(struct work_struct *work);
void isim_engine_hold_meet(struct isim_dev *sdev);
bool isim_engine_step(struct isim_dev *sdev, bool *quick);
void isim_engine_kick(struct isim_dev *sdev);
void isim_engine_kick_here(struct isim_dev *sdev);
void isim_engine_kick_ringer(struct isim_dev *sdev);
bool isim_engine_ringer_here(struct isim_dev *sdev, int cpu);
void isim_engine_run_sq(struct isim_dev *sdev, u32 qpn);

/* doorbell.c */
void isim_doorbell_init(struct isim_dev *sdev);
void isim_doorbell_arm(struct isim_dev *sdev);
void isim_doorbell_disarm(struct isim_dev *sdev);
u64 isim_doorbell_take(struct isim_dev *sdev, enum isim_trap_reg reg);
bool isim_doorbell_leave(struct isim_dev *sdev, enum isim_trap_reg reg, u32 val,
			 u64 looked, u64 now);

/* userdb.c */
void isim_userdb_init(void);
void isim_userdb_exit(void);
void isim_userdb_tidy(void);
void isim_userdb_add(struct isim_dev *sdev);
void isim_userdb_del(struct isim_dev *sdev);

/* cqp.c, the trap's part */
/**
 * struct isim_trap_wait - a trap's wait for the CQP lock
 * @start: when it began
 * @counted: it was counted as a long one
 */
struct isim_trap_wait {
	u64 start;
	bool counted;
};

void isim_cqp_trap_wait_begin(struct isim_dev *sdev, struct isim_trap_wait *wait);
bool isim_cqp_trap_patient(struct isim_dev *sdev, struct isim_trap_wait *wait);
bool isim_cqp_trap_await_cleanup(struct isim_dev *sdev);
/* What a trap leaves to be done after it (isim_cqp_fast()). */
#define ISIM_TRAP_LEFT_THREADS	BIT(0)
#define ISIM_TRAP_LEFT_EVENT	BIT(1)
#define ISIM_TRAP_LEFT_RINGER	BIT(2)

/* Whom a trap's kick wakes (struct isim_doorbell's threads_due). */
#define ISIM_KICK_ALL		1
#define ISIM_KICK_RINGER		2
unsigned int isim_cqp_fast(struct isim_dev *sdev);
bool isim_cqp_notify(struct isim_dev *sdev);
bool isim_ccq_take_arm(struct isim_dev *sdev);

/* latency.c */
u64 isim_lat_now(void);
void isim_lat_record(struct isim_dev *sdev, enum isim_lat_kind kind, u64 since,
		     u64 picked, u32 what, bool trapped);
void isim_lat_reset(struct isim_dev *sdev);
void isim_lat_show(struct seq_file *m, struct isim_dev *sdev);

#endif /* IRDMA_SIM_INTERNAL_H */
