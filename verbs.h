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
#define IRDMA_FEATURE_RTS_AE		BIT_ULL(0)
#define IRDMA_FEATURE_CQ_RESIZE		BIT_ULL(1)
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
 * struct irdma_cq - a completion queue
 * @ibcq: ib_core's part
 */
struct irdma_cq {
	struct ib_cq ibcq;
};

/**
 * struct irdma_qp - a queue pair
 * @ibqp: ib_core's part
 */
struct irdma_qp {
	struct ib_qp ibqp;
};

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
void irdma_unregister_notifiers(void);

#endif /* IRDMA_VERBS_H */
