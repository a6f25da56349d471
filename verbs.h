/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The ib_device verbs layer.
 */
#ifndef IRDMA_VERBS_H
#define IRDMA_VERBS_H

#include <rdma/ib_verbs.h>

#include "main.h"

#define IRDMA_PKEY_TBL_SZ		1
#define IRDMA_ROCE_GID_TBL_SZ		32
#define IRDMA_MAX_PDS			262144
#define IRDMA_MAX_MR_SIZE		0x200000000000ULL
#define IRDMA_MAX_MSG_SIZE		0x7fffffff
#define IRDMA_MAX_PAGES_PER_FMR		262144
#define IRDMA_TIMESTAMP_MASK		0x1ffff
#define IRDMA_PAGE_SIZE_CAP		(SZ_4K | SZ_2M | SZ_1G)
/* Objects of each kind the driver keeps for itself (PDs 1, 2: ILQ, IEQ). */
/* A QP's context block: the Q2 buffer, then its host context. */
#define IRDMA_QP_CTX_BLOCK		512
#define IRDMA_QP_HOST_CTX		(IRDMA_QP_CTX_BLOCK / 2)
/* iWARP: the SQ quanta the connection manager's WQEs take. */
#define IRDMA_IWARP_CONN_WQES		3
#define IRDMA_RSVD_PDS			3
#define IRDMA_RSVD_QPS			3
#define IRDMA_RSVD_CQS			3
#define IRDMA_RSVD_MRS			1

/**
 * struct irdma_device - an RDMA function as ib_core sees it
 * @ibdev: the ib_device
 * @fn: the function's hardware state
 * @port_active: the port was last reported active (registration, its
 *	netdev up) rather than down (its netdev down, the device going):
 *	only an active port resets the connections its consumers abandon
 */
struct irdma_device {
	struct ib_device ibdev;
	struct irdma_fn fn;
	bool port_active;
};

/**
 * struct irdma_pd - a protection domain
 * @ibpd: ib_core's part
 * @id: the hardware's PD number
 */
struct irdma_pd {
	struct ib_pd ibpd;
	u32 id;
};

/**
 * struct irdma_cq_buf - a ring a CQ left by resizing, drained before the new
 * @list: entry in the CQ's list of old rings, newest first
 * @mem: the ring's memory
 * @uk: where its consumer stands
 */
struct irdma_cq_buf {
	struct list_head list;
	struct irdma_dma_mem mem;
	struct irdma_uk_cq uk;
};

/**
 * struct irdma_cq - a completion queue
 * @ibcq: ib_core's part
 * @hw: what the hardware was told at creation (and resizes)
 * @uk: the consumer's view of the current ring
 * @ring: the current ring's memory (kernel CQs)
 * @shadow: the shadow area's memory (kernel CQs)
 * @lock: consumption, arming and the list of old rings
 * @resize_mutex: one resize at a time
 * @resize_list: old rings still holding completions
 * @retired: old rings drained, waiting to be freed in process context
 * @free_work: frees @retired
 * @sw_cqes: completions the driver made for work the hardware never saw
 * @armed: an event is requested and not yet delivered
 * @armed_solicited: the request is for a solicited completion only
 * @refs: holders besides the owner (event delivery)
 * @unused: the last reference went away
 * @user: a user-space CQ (its provider polls and arms it)
 * @user_ring: a user CQ's ring registration
 * @user_shadow: a user CQ's shadow area registration
 */
struct irdma_cq {
	struct ib_cq ibcq;
	struct irdma_cq_hw_info hw;
	struct irdma_uk_cq uk;
	struct irdma_dma_mem ring;
	struct irdma_dma_mem shadow;
	spinlock_t lock; /* the rings, arming and @resize_list */
	struct mutex resize_mutex; /* resizes */
	struct list_head resize_list;
	struct list_head retired;
	struct work_struct free_work;
	struct list_head sw_cqes;
	bool armed;
	bool armed_solicited;
	refcount_t refs;
	struct completion unused;
	bool user;
	struct irdma_mr *user_ring;
	struct irdma_mr *user_shadow;
};

/**
 * struct irdma_ieq_stream - what the IEQ holds of an offloaded stream
 *	the engine could not place (an FPDU cut across segments)
 * @active: a partial sequence runs, from @fpsn
 * @failed: a bad FPDU came in it: the rest of it is dropped
 * @fpsn: the sequence's first partial sequence number (the engine's, Q2)
 * @seq: the stream position of @data's first byte
 * @data: the sequence's bytes from @seq on, in order, not yet sent back
 * @len: bytes in @data
 * @cap: bytes @data holds
 */
struct irdma_ieq_stream {
	bool active;
	bool failed;
	u32 fpsn;
	u32 seq;
	u8 *data;
	u32 len;
	u32 cap;
};

/* What irdma_ieq_stream_add() did with a segment. */
enum irdma_ieq_verdict {
	IRDMA_IEQ_TAKEN,	/* its new bytes follow those held */
	IRDMA_IEQ_OLD,		/* nothing new in it: dropped */
	IRDMA_IEQ_GAP,		/* bytes missing before it: dropped */
	IRDMA_IEQ_DROPPED,	/* past the window or the buffer, or the sequence failed */
};

/* Where a QP's loopback address handle for the IEQ stands. */
enum irdma_ieq_ah_state {
	IRDMA_IEQ_AH_NONE,
	IRDMA_IEQ_AH_PENDING,	/* its fields and ARP entry set; the work makes it */
	IRDMA_IEQ_AH_MADE,
};

/* The most a TCP header holds. */
#define IRDMA_TCP_MAX_HDR	60

/**
 * struct irdma_ieq_qp - an iWARP QP's exceptions (ieq.c)
 * @lock: all of it
 * @stream: the bytes held
 * @tcph: the TCP header of the last segment taken, for those sent back
 * @tcph_len: its length
 * @fin: a segment taken carried a FIN, after the byte before @fin_end
 * @fin_end: the sequence number after that segment's data
 * @ah: the loopback address handle the segments go back through
 * @ah_state: where @ah stands
 * @stopped: the QP is going away: nothing more is sent
 * @work: makes @ah (the CQP may be waited for there), sends what waits
 */
struct irdma_ieq_qp {
	spinlock_t lock; /* all of it */
	struct irdma_ieq_stream stream;
	u8 tcph[IRDMA_TCP_MAX_HDR];
	u8 tcph_len;
	bool fin;
	u32 fin_end;
	struct irdma_ah_hw_info ah;
	enum irdma_ieq_ah_state ah_state;
	bool stopped;
	struct delayed_work work;
};

/**
 * struct irdma_qp - a queue pair
 * @ibqp: ib_core's part
 * @iwdev: the device
 * @id: the hardware's QP number
 * @hw: what the hardware is told of the QP
 * @uk: the producer's view of the work queues
 * @queues: the kernel QP's rings and shadow area
 * @ctx: the host context (second half; the first is the iWARP Q2 buffer)
 * @sq_wr: per SQ quantum, the WQE starting there
 * @rq_wr_id: per RQ WQE, the consumer's id
 * @send_cq: where send completions go
 * @recv_cq: where receive completions go
 * @lock: posting and the flush state
 * @mutex: state changes
 * @ib_state: the QP's state as ib_core knows it
 * @hw_state: the state the hardware was last moved to
 * @iw_idle_owed: iWARP: the next INIT or RTR moves the QP to IDLE (the
 *	stock driver's rule: one that finds it done owes it again, so INIT
 *	and RTR alternate between sending IDLE and not)
 * @attr: attributes set through modify_qp, for query_qp
 * @sig_all: every send WQE is signaled
 * @flush_issued: the hardware was told to flush; later work completes in
 *	software
 * @flush_code: the completion code an error event chose for the flushes
 * @flush_sq_code: @flush_code applies to the send side
 * @flush_rq_code: @flush_code applies to the receive side
 * @ae_wqe_idx: the WQE the error event named (an RQ WQE when
 *	@flush_rq_code)
 * @ae_event: the ib_event an error event calls for
 * @ae_work: moves the QP to error after an error event
 * @flush_work: completes in software what the hardware did not flush
 * @refs: holders of the QP besides its owner
 * @unused: the last reference went away
 * @user: a user-space QP (its rings are the provider's)
 * @user_rings: a user QP's rings' registration
 * @user_sq_size: a user QP's SQ in WQEs of the largest size
 * @user_rq_size: a user QP's RQ in WQEs
 * @srq: the shared receive queue its receives come from (NULL: its own RQ)
 * @push_wqe_entry: mmap entry of its push page (user QPs in push mode)
 * @push_db_entry: mmap entry of the push page's doorbell
 * @ws_entry: entry in the list of QPs on the transmit scheduler
 * @ws_joined: on that list (it sends through its class's queue set)
 * @ws_tc: the traffic class whose queue set it sends through
 * @user_pri: its packets' user priority, which picks the class
 * @suspend_pending: moving to SQD, it waits for the hardware to say its
 *	SQ is drained
 * @cm_conn: iWARP: the connection it carries, from the connection
 *	manager's hand-over until the connection's close (cm.c)
 * @iw_conn: iWARP: the TCP numbers the hand-over loads into its context
 * @tcp_state: iWARP: the TCP state its last AE reported
 * @rts_ae: iWARP: the hardware reported the connection established
 * @cm_wait: iWARP: the hand-over waits there for @rts_ae
 * @ae_code: the error event @ae_work acts on
 * @ae_term: iWARP: that event ends the connection with a TERMINATE
 * @term_flags: iWARP: IRDMA_TERM_* of the terminate sequence (term.c)
 * @term_pending: iWARP: IRDMA_TERMW_* steps due to @term_work
 * @term_stopped: iWARP: the QP is going away: no step runs
 * @term_work: iWARP: runs the sequence's steps
 * @term_timer: iWARP: ends a sequence that took too long
 * @ieq: iWARP: the exceptions of its stream the IEQ took
 */
struct irdma_qp {
	struct ib_qp ibqp;
	struct irdma_device *iwdev;
	u32 id;
	struct irdma_qp_hw_info hw;
	struct irdma_uk_qp uk;
	struct irdma_dma_mem queues;
	struct irdma_dma_mem ctx;
	struct irdma_sq_wr *sq_wr;
	u64 *rq_wr_id;
	struct irdma_cq *send_cq;
	struct irdma_cq *recv_cq;
	spinlock_t lock; /* posting and the flush state */
	struct mutex mutex; /* state changes */
	enum ib_qp_state ib_state;
	u8 hw_state;
	bool iw_idle_owed;
	struct ib_qp_attr attr;
	bool sig_all;
	bool flush_issued;
	u16 flush_code;
	bool flush_sq_code;
	bool flush_rq_code;
	u32 ae_wqe_idx;
	enum ib_event_type ae_event;
	struct work_struct ae_work;
	struct delayed_work flush_work;
	refcount_t refs;
	struct completion unused;
	bool user;
	struct irdma_mr *user_rings;
	u32 user_sq_size;
	u32 user_rq_size;
	struct irdma_srq *srq;
	struct rdma_user_mmap_entry *push_wqe_entry;
	struct rdma_user_mmap_entry *push_db_entry;
	struct list_head ws_entry;
	bool ws_joined;
	u8 ws_tc;
	u8 user_pri;
	bool suspend_pending;
	struct irdma_cm_conn *cm_conn;
	struct irdma_iwarp_conn iw_conn;
	u8 tcp_state;
	bool rts_ae;
	wait_queue_head_t cm_wait;
	u16 ae_code;
	bool ae_term;
	u8 term_flags;
	unsigned long term_pending;
	bool term_stopped;
	struct work_struct term_work;
	struct delayed_work term_timer;
	struct irdma_ieq_qp ieq;
};

/* A terminate sequence's state (struct irdma_qp @term_flags). */
#define IRDMA_TERM_SENT		BIT(0)	/* our TERMINATE went */
#define IRDMA_TERM_DONE		BIT(1)	/* the QP went to error */
#define IRDMA_TERM_TOLD		BIT(2)	/* its consumer heard of the error */

/* Steps of the sequence due to its work (@term_pending bits). */
enum irdma_term_step {
	IRDMA_TERMW_TAKEN,	/* the peer's TERMINATE is in Q2 */
	IRDMA_TERMW_FIN,	/* ours went: the FIN follows */
	IRDMA_TERMW_DONE,	/* the end: the QP to error */
	IRDMA_TERMW_ACTIVE,	/* a sequence began (never cleared) */
};

/**
 * struct irdma_srq - a shared receive queue
 * @ibsrq: ib_core's part
 * @hw: what the hardware was told
 * @uk: the producer's view of the ring
 * @mem: the ring and, after it, the shadow area
 * @lock: posting and the release of consumed WQEs
 * @max_wr: work requests it holds, as reported
 * @limit: the armed limit (0: none armed)
 */
struct irdma_srq {
	struct ib_srq ibsrq;
	struct irdma_srq_hw_info hw;
	struct irdma_uk_srq uk;
	struct irdma_dma_mem mem;
	spinlock_t lock; /* posting and releasing */
	u32 max_wr;
	u32 limit;
};

/**
 * struct irdma_ah_share - a hardware AH that identical user AHs share
 * @node: entry in the function's table of shared AHs
 * @hw: its fields
 * @refs: AHs using it
 */
struct irdma_ah_share {
	struct hlist_node node;
	struct irdma_ah_hw_info hw;
	u32 refs;
};

/**
 * struct irdma_ah - an address handle
 * @ibah: ib_core's part
 * @hw: what the hardware was told
 * @attr: the attributes it was created with, for query_ah
 * @share: the shared hardware AH it uses (user AHs)
 */
struct irdma_ah {
	struct ib_ah ibah;
	struct irdma_ah_hw_info hw;
	struct rdma_ah_attr attr;
	struct irdma_ah_share *share;
};

/**
 * struct irdma_mr - a memory region
 * @ibmr: ib_core's part
 * @stag: its key
 * @pble: the page list (fast-register regions)
 * @max_pages: pages the page list holds
 * @npages: pages mapped by the last irdma_map_mr_sg()
 * @page_size: the page size of the last mapping
 * @first_page: the first page of the last mapping
 * @dma_mr: registers all of memory
 * @umem: pinned user memory
 * @reg_type: what user memory registers (enum irdma_memreg_type)
 * @user_base: the user address of a queue registration
 * @reg_list: entry in its context's queue registrations
 * @ring_pages: pages of a queue's rings (a CQ's ring, a QP's SQ and RQ)
 * @sq_pages: pages of a QP's SQ
 * @rq_pages: pages of a QP's RQ
 * @rq_page: the first page of a QP's RQ
 * @shadow: a QP's shadow area
 * @in_use: a queue lives on this queue registration
 */
struct irdma_mr {
	struct ib_mr ibmr;
	u32 stag;
	struct irdma_pble_alloc pble;
	u32 max_pages;
	u32 npages;
	u32 page_size;
	u64 first_page;
	bool dma_mr;
	struct ib_umem *umem;
	u8 reg_type;
	u64 user_base;
	struct list_head reg_list;
	u32 ring_pages;
	u32 sq_pages;
	u32 rq_pages;
	u64 rq_page;
	u64 shadow;
	bool in_use;
};

/**
 * struct irdma_mw - a memory window
 * @ibmw: ib_core's part (its rkey is the window's key)
 */
struct irdma_mw {
	struct ib_mw ibmw;
};

/**
 * struct irdma_sw_cqe - a completion the driver made itself
 * @list: entry in the CQ's @sw_cqes
 * @wc: the completion
 */
struct irdma_sw_cqe {
	struct list_head list;
	struct ib_wc wc;
};

static inline struct irdma_pd *to_iwpd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct irdma_pd, ibpd);
}

static inline struct irdma_cq *to_iwcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct irdma_cq, ibcq);
}

static inline struct irdma_qp *to_iwqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct irdma_qp, ibqp);
}

static inline struct irdma_srq *to_iwsrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct irdma_srq, ibsrq);
}

static inline struct irdma_ah *to_iwah(struct ib_ah *ibah)
{
	return container_of(ibah, struct irdma_ah, ibah);
}

static inline struct irdma_mr *to_iwmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct irdma_mr, ibmr);
}

/**
 * irdma_hw_page_size - the code REG_MR and fast-register WQEs give for a
 * region's page size
 * @bytes: the page size: 4 KiB, 2 MiB or 1 GiB
 *
 * Return: IRDMA_PAGE_SIZE_4K, _2M or _1G.
 */
static inline u8 irdma_hw_page_size(u32 bytes)
{
	if (bytes == SZ_1G)
		return IRDMA_PAGE_SIZE_1G;
	if (bytes == SZ_2M)
		return IRDMA_PAGE_SIZE_2M;
	return IRDMA_PAGE_SIZE_4K;
}

/**
 * struct irdma_ucontext - a user-space context
 * @ibucontext: ib_core's part
 * @db_entry: the doorbell page's mmap entry
 * @abi_ver: the provider's ABI version
 * @use_raw_attrs: the provider sends QP capacities as asked (else depths)
 * @reg_lock: the queue registrations
 * @qp_regs: registered QP rings, by user address
 * @cq_regs: registered CQ rings and shadow areas, by user address
 */
struct irdma_ucontext {
	struct ib_ucontext ibucontext;
	struct rdma_user_mmap_entry *db_entry;
	u8 abi_ver;
	bool use_raw_attrs;
	spinlock_t reg_lock; /* the queue registrations */
	struct list_head qp_regs;
	struct list_head cq_regs;
};

/**
 * struct irdma_mmap_entry - a BAR0 page user space may map
 * @rdma_entry: ib_core's part
 * @bar_offset: the page's offset in BAR0
 * @wc: map it write-combining (push WQE pages), else uncached
 */
struct irdma_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	u64 bar_offset;
	bool wc;
};

static inline struct irdma_device *to_iwdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct irdma_device, ibdev);
}

static inline struct irdma_device *fn_to_iwdev(struct irdma_fn *fn)
{
	return container_of(fn, struct irdma_device, fn);
}

/**
 * struct irdma_roce_path - the IP and L2 addressing of a RoCEv2 path
 * @ipv4: RoCEv2 over IPv4 (else over IPv6)
 * @src_ip: the source address, host-order words (IPv4 in word 3)
 * @dest_ip: the destination address, likewise
 * @mac: the source MAC address
 * @vlan: the source's VLAN id (0xffff for none)
 */
struct irdma_roce_path {
	bool ipv4;
	u32 src_ip[4];
	u32 dest_ip[4];
	u8 mac[ETH_ALEN];
	u16 vlan;
};

/* verbs.c */
enum ib_wc_status irdma_flush_err_to_ib_wc_status(enum irdma_flush_opcode opcode);
u16 irdma_get_mr_access(int access);
int irdma_ib_register_device(struct irdma_device *iwdev);
void irdma_ib_unregister_device(struct irdma_device *iwdev);
void irdma_port_ibevent(struct irdma_device *iwdev, enum ib_event_type type);
int irdma_register_notifiers(void);
void irdma_unregister_notifiers(void);
struct rdma_user_mmap_entry *
irdma_mmap_entry_insert(struct irdma_ucontext *uctx, u64 bar_offset, bool wc,
			u64 *key);

/* verbs_cq.c */
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct uverbs_attr_bundle *attrs);
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);
int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *entry);
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void irdma_clean_cqes(struct irdma_qp *qp, struct irdma_cq *cq);
void irdma_cq_add_sw_cqe(struct irdma_cq *cq, struct irdma_sw_cqe *cqe);
void irdma_cq_kick(struct irdma_cq *cq);
bool irdma_cq_hw_empty(struct irdma_cq *cq);
enum ib_wc_opcode irdma_sq_wc_opcode(u8 op);

/* verbs_qp.c */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init_attr,
		    struct ib_udata *udata);
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		    int attr_mask, struct ib_udata *udata);
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		   int attr_mask, struct ib_qp_init_attr *init_attr);
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
void irdma_qp_sw_flush_kick(struct irdma_qp *qp);
struct irdma_qp *irdma_qp_get_live(struct irdma_fn *fn, u32 qp_id);
void irdma_qp_put(struct irdma_qp *qp);
void irdma_qps_fail_unscheduled(struct irdma_fn *fn);

/* ws.c: the QPs' queue sets */
u16 irdma_ws_qs_handle(struct irdma_fn *fn, u8 user_pri);
int irdma_ws_qp_join(struct irdma_qp *qp, u8 user_pri);
void irdma_ws_qp_leave(struct irdma_qp *qp);

/* verbs_srq.c */
int irdma_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *initattrs,
		     struct ib_udata *udata);
int irdma_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		     enum ib_srq_attr_mask attr_mask, struct ib_udata *udata);
int irdma_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int irdma_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
void irdma_srq_caps(struct irdma_fn *fn);
void irdma_srq_release(struct irdma_srq *srq, u32 count);
void irdma_set_srq_ops(struct ib_device *ibdev);
void irdma_srq_query_device(struct irdma_fn *fn, struct ib_device_attr *props);

/* verbs_push.c */
struct irdma_modify_qp_resp;
bool irdma_push_wanted(const struct irdma_qp *qp);
void irdma_alloc_push_page(struct irdma_qp *qp);
void irdma_dealloc_push_page(struct irdma_qp *qp);
int irdma_push_mmap_setup(struct irdma_qp *qp, struct ib_udata *udata,
			  struct irdma_modify_qp_resp *resp);
void irdma_push_mmap_remove(struct irdma_qp *qp);

/* verbs_post.c */
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr);
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr);
int irdma_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr);

/* verbs_mr.c */
struct ib_mr *irdma_get_dma_mr(struct ib_pd *pd, int access);
struct ib_mr *irdma_reg_kernel_mr(struct ib_pd *pd, dma_addr_t addr, u32 size);
struct ib_mr *irdma_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			     u32 max_num_sg);
int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset);
int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int irdma_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int irdma_dealloc_mw(struct ib_mw *ibmw);
int irdma_create_stag(struct irdma_fn *fn, u32 *stag);
void irdma_free_stag(struct irdma_fn *fn, u32 stag);
int irdma_hwreg_mr(struct irdma_fn *fn, struct irdma_mr *mr,
		   struct ib_pd *pd, int access, u64 va, u64 len);

/* verbs_user.c */
bool irdma_qp_rings_flat(const u64 *addrs, u32 sq_pages, u32 rq_pages);
struct ib_mr *irdma_reg_user_mr(struct ib_pd *pd, u64 start, u64 len, u64 virt,
				int access, struct ib_udata *udata);
int irdma_dereg_user_queue(struct irdma_mr *mr, struct ib_udata *udata);
void irdma_queue_reg_release(struct irdma_fn *fn, struct irdma_mr *mr,
			     bool hw_done);
int irdma_user_cq_rings(struct ib_udata *udata, struct irdma_cq *cq);
int irdma_user_cq_resize_ring(struct ib_udata *udata,
			      struct irdma_cq_hw_info *hw,
			      struct irdma_mr **new_ring);
int irdma_setup_umode_qp(struct ib_udata *udata, struct irdma_qp *qp,
			 struct ib_qp_init_attr *init_attr);

/* verbs_mcast.c */
void irdma_mcast_mac(u32 *ip_addr, u8 *mac, bool ipv4);
int irdma_attach_mcast(struct ib_qp *ibqp, union ib_gid *ibgid, u16 lid);
int irdma_detach_mcast(struct ib_qp *ibqp, union ib_gid *ibgid, u16 lid);

/* verbs_stats.c */
int irdma_stats_init(struct irdma_fn *fn);
void irdma_stats_start(struct irdma_fn *fn);
void irdma_stats_fini(struct irdma_fn *fn);
struct rdma_hw_stats *irdma_alloc_hw_port_stats(struct ib_device *ibdev,
						u32 port_num);
int irdma_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		       u32 port_num, int index);

/* verbs_ah.c */
int irdma_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
		    struct ib_udata *udata);
int irdma_destroy_ah(struct ib_ah *ibah, u32 ah_flags);
int irdma_create_user_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
			 struct ib_udata *udata);
int irdma_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *ah_attr);
void irdma_arp_put(struct irdma_fn *fn, u32 idx);
int irdma_create_hw_ah(struct irdma_fn *fn, struct irdma_ah_hw_info *hw,
		       u32 flags);
void irdma_destroy_hw_ah(struct irdma_fn *fn, const struct irdma_ah_hw_info *hw);
int irdma_arp_add(struct irdma_fn *fn, const u32 *ip, bool ipv4,
		  const u8 *mac);
int irdma_roce_path_get(const struct ib_gid_attr *sgid_attr,
			const union ib_gid *dgid, struct irdma_roce_path *path);

/* Where a RoCEv2 path's user priority comes from. */
enum irdma_up_map {
	IRDMA_UP_FROM_TOS,
	IRDMA_UP_FROM_DSCP,
};

u8 irdma_roce_user_pri(struct irdma_fn *fn, const struct ib_gid_attr *sgid_attr,
		       u8 tos, enum irdma_up_map map);
bool irdma_roce_vlan_tag(struct irdma_fn *fn, u16 vlan, u8 up, u16 *tag);

/* verbs_iwcm.c */
void irdma_set_iw_cm_ops(struct ib_device *ibdev);

/* cm.c: iWARP's connection manager */
struct iw_cm_id;
struct iw_cm_conn_param;
int irdma_cm_init(struct irdma_device *iwdev);
void irdma_cm_fini(struct irdma_device *iwdev);
int irdma_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param);
int irdma_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param);
int irdma_cm_reject(struct iw_cm_id *cm_id, const void *pdata, u8 len);
int irdma_cm_listen(struct iw_cm_id *cm_id, int backlog);
int irdma_cm_unlisten(struct iw_cm_id *cm_id);
void irdma_cm_addrs_changed(struct irdma_device *iwdev, bool can_sleep);
void irdma_cm_addr_removed(struct irdma_device *iwdev, struct net_device *dev,
			   bool ipv4, const void *addr);
void irdma_cm_qp_closing(struct irdma_qp *qp, bool now);
void irdma_cm_qp_ae(struct irdma_qp *qp, u16 code, u8 tcp_state, bool error);
int irdma_qp_iwarp_rts(struct irdma_qp *qp);
void irdma_qp_iwarp_close(struct irdma_qp *qp, bool peer);
void irdma_qp_iwarp_fail(struct irdma_qp *qp, bool reset);
u32 irdma_qp_iwarp_err_flags(struct irdma_qp *qp, bool reset, bool event);
void irdma_qp_iwarp_error(struct irdma_qp *qp, bool reset, bool event);
void irdma_qp_iwarp_closed(struct irdma_qp *qp);
void irdma_cm_qp_terminated(struct irdma_qp *qp);

/* term.c: iWARP's TERMINATE */
void irdma_term_ctrl(u16 ae, u8 word[4]);
u16 irdma_term_check(const u8 *frame, u32 len, u8 *ctrl);
void irdma_qp_term_init(struct irdma_qp *qp);
void irdma_qp_term_stop(struct irdma_qp *qp);
void irdma_qp_term_end(struct irdma_qp *qp);
void irdma_qp_term_start(struct irdma_qp *qp, u16 ae);
bool irdma_qp_term_ae(struct irdma_qp *qp, u16 code);

/* ieq.c: the IEQ's exceptions of offloaded streams */
u32 irdma_ieq_fpdu_len(const u8 *mpa);
enum irdma_ieq_verdict irdma_ieq_stream_add(struct irdma_ieq_stream *s, u32 fpsn,
					    u32 seq, const u8 *data, u32 len, u32 wnd);
int irdma_ieq_stream_ready(const struct irdma_ieq_stream *s, u32 max_fpdu);
void irdma_ieq_stream_consume(struct irdma_ieq_stream *s, u32 len);
void irdma_ieq_qp_init(struct irdma_qp *qp);
void irdma_ieq_qp_stop(struct irdma_qp *qp);

/* ae.c: what an asynchronous event does to a QP */
void irdma_ae_qp_error(u16 code, u16 *flush, enum ib_event_type *event);

#endif /* IRDMA_VERBS_H */
