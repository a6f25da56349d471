/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the VM tests' libibverbs programs share: one CQ and one RC QP,
 * connected to itself over a RoCE GID, and posting through it.
 */
#ifndef IRDMA_TESTS_IBV_SELF_H
#define IRDMA_TESTS_IBV_SELF_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <infiniband/verbs.h>

static struct ibv_cq *cq;
static struct ibv_qp *qp;

static void die(const char *what, int err)
{
	printf("FAIL: %s: %s\n", what, strerror(err));
	exit(1);
}

/* The next completion's status, for @wr_id. */
static inline enum ibv_wc_status status_of(__u64 wr_id)
{
	struct ibv_wc wc;
	int tries, r;

	for (tries = 0; tries < 20000; tries++) {
		r = ibv_poll_cq(cq, 1, &wc);
		if (r < 0)
			die("ibv_poll_cq", EIO);
		if (r && wc.wr_id == wr_id)
			return wc.status;
		if (!r)
			usleep(100);
	}
	die("no completion", ETIMEDOUT);
	return IBV_WC_GENERAL_ERR;
}

static void post(enum ibv_wr_opcode op, __u64 wr_id, void *local, __u32 len,
		 __u32 lkey, __u64 remote, __u32 rkey)
{
	struct ibv_sge sge = { (uintptr_t)local, len, lkey };
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = remote, .rkey = rkey },
	}, *bad;

	if (ibv_post_send(qp, &wr, &bad))
		die("ibv_post_send", errno);
}

static void connect_self(int gidx)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};
	union ibv_gid gid;

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		die("to INIT", errno);
	if (ibv_query_gid(qp->context, 1, gidx, &gid))
		die("ibv_query_gid", errno);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = gid;
	a.ah_attr.grh.sgid_index = gidx;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			  IBV_QP_MIN_RNR_TIMER))
		die("to RTR", errno);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		die("to RTS", errno);
}

/* A fresh RC QP on the CQ, connected to itself (RTS). */
static void self_qp(struct ibv_pd *pd, int gidx)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp", errno);
	connect_self(gidx);
}

/* The device @name opened, a PD, the CQ and a self-connected QP. */
static struct ibv_pd *self_open(const char *name, int gidx,
				struct ibv_context **ctx, struct ibv_device ***list)
{
	struct ibv_pd *pd;
	int i;

	*ctx = NULL;
	*list = ibv_get_device_list(&i);
	while (*list && i-- > 0)
		if (!strcmp(ibv_get_device_name((*list)[i]), name))
			*ctx = ibv_open_device((*list)[i]);
	if (!*ctx)
		die(name, ENODEV);
	pd = ibv_alloc_pd(*ctx);
	cq = ibv_create_cq(*ctx, 32, NULL, NULL, 0);
	if (!pd || !cq)
		die("PD and CQ", errno);
	self_qp(pd, gidx);
	return pd;
}

/* @pages pages of memory, registered for local and remote access. */
static inline struct ibv_mr *self_mem(struct ibv_pd *pd, unsigned int pages,
				      __u8 **mem)
{
	struct ibv_mr *mr;

	*mem = aligned_alloc(4096, pages * 4096UL);
	if (!*mem)
		die("memory", ENOMEM);
	mr = ibv_reg_mr(pd, *mem, pages * 4096UL, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("ibv_reg_mr", errno);
	return mr;
}

/* Everything self_open() made goes, the device closed. */
static inline void self_close(struct ibv_pd *pd, struct ibv_context *ctx,
			      struct ibv_device **list)
{
	ibv_destroy_qp(qp);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
}

#endif /* IRDMA_TESTS_IBV_SELF_H */
