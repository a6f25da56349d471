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
#define IRDMA_MAX_MGS_PER_CTX		8
#define IRDMA_MAX_PAGES_PER_FMR		262144
#define IRDMA_TIMESTAMP_MASK		0x1ffff
#define IRDMA_PAGE_SIZE_CAP		(SZ_4K | SZ_2M | SZ_1G)
/* Objects of each kind the driver keeps for itself (PDs 1, 2: ILQ, IEQ). */
#define IRDMA_RSVD_PDS			3
#define IRDMA_RSVD_QPS			3
#define IRDMA_RSVD_CQS			3
#define IRDMA_RSVD_MRS			1

/**
 * struct irdma_device - an RDMA function as ib_core sees it
 * @ibdev: the ib_device
 * @fn: the function's hardware state
 */
struct irdma_device {
	struct ib_device ibdev;
	struct irdma_fn fn;
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
 * @resize_list: old rings still holding completions
 * @sw_cqes: completions the driver made for work the hardware never saw
 * @armed: an event is requested and not yet delivered
 * @armed_solicited: the request is for a solicited completion only
 * @refs: holders besides the owner (event delivery)
 * @unused: the last reference went away
 */
struct irdma_cq {
	struct ib_cq ibcq;
	struct irdma_cq_hw_info hw;
	struct irdma_uk_cq uk;
	struct irdma_dma_mem ring;
	struct irdma_dma_mem shadow;
	spinlock_t lock; /* the rings, arming and @resize_list */
	struct list_head resize_list;
	struct list_head sw_cqes;
	bool armed;
	bool armed_solicited;
	refcount_t refs;
	struct completion unused;
};

/**
 * struct irdma_qp - a queue pair
 * @ibqp: ib_core's part
 * @iwdev: the device
 * @id: the hardware's QP number
 * @uk: the producer's view of the work queues
 * @queues: the kernel QP's rings and shadow area
 * @send_cq: where send completions go
 * @recv_cq: where receive completions go
 * @lock: posting and the QP's state
 * @state: the QP's state as ib_core knows it
 * @sig_all: every send WQE is signaled
 * @sq_flushed: the hardware flushed the SQ; later work completes in software
 * @rq_flushed: the same for the RQ
 */
struct irdma_qp {
	struct ib_qp ibqp;
	struct irdma_device *iwdev;
	u32 id;
	struct irdma_uk_qp uk;
	struct irdma_dma_mem queues;
	struct irdma_cq *send_cq;
	struct irdma_cq *recv_cq;
	spinlock_t lock; /* posting and state */
	enum ib_qp_state state;
	bool sig_all;
	bool sq_flushed;
	bool rq_flushed;
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

static inline struct irdma_cq *to_iwcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct irdma_cq, ibcq);
}

static inline struct irdma_qp *to_iwqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct irdma_qp, ibqp);
}

/**
 * struct irdma_ucontext - a user-space context
 * @ibucontext: ib_core's part
 * @db_entry: the doorbell page's mmap entry
 * @abi_ver: the provider's ABI version
 */
struct irdma_ucontext {
	struct ib_ucontext ibucontext;
	struct rdma_user_mmap_entry *db_entry;
	u8 abi_ver;
};

/**
 * struct irdma_mmap_entry - a BAR0 page user space may map
 * @rdma_entry: ib_core's part
 * @bar_offset: the page's offset in BAR0
 */
struct irdma_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	u64 bar_offset;
};

static inline struct irdma_device *to_iwdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct irdma_device, ibdev);
}

static inline struct irdma_device *fn_to_iwdev(struct irdma_fn *fn)
{
	return container_of(fn, struct irdma_device, fn);
}

enum ib_wc_status irdma_flush_err_to_ib_wc_status(enum irdma_flush_opcode opcode);
u16 irdma_get_mr_access(int access);
int irdma_ib_register_device(struct irdma_device *iwdev);
void irdma_ib_unregister_device(struct irdma_device *iwdev);
void irdma_port_ibevent(struct irdma_device *iwdev, bool active);
int irdma_register_notifiers(void);

/* verbs_cq.c */
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct uverbs_attr_bundle *attrs);
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);
int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *entry);
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void irdma_cq_ceq_event(struct irdma_fn *fn, u64 ctx);
void irdma_clean_cqes(struct irdma_qp *qp, struct irdma_cq *cq);
void irdma_cq_add_sw_cqe(struct irdma_cq *cq, struct irdma_sw_cqe *cqe);
void irdma_unregister_notifiers(void);

#endif /* IRDMA_VERBS_H */
