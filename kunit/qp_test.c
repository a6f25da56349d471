// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the kernel verbs against the simulator: RC and UD
 * traffic through ib_core's API, checked by data bytes, completion
 * statuses and opcodes, immediate data, error statuses and flushes.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/genalloc.h>
#include <linux/if_vlan.h>
#include <linux/kthread.h>
#include <linux/rtnetlink.h>
#include <linux/scatterlist.h>
#include <linux/stop_machine.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "../verbs.h"
#include "../sim/irdma_sim.h"
#include "../sim/sim.h"

#define TEST_FN_ID	21
#define TEST_BUF	8192
#define TEST_DEPTH	64

struct qp_env {
	struct kunit *test;
	struct auxiliary_device *adev;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *a, *b;
	struct ib_srq *srq;
	const struct ib_gid_attr *gid;
	u8 *buf[2];
	u64 dma[2];
	int blocks;
	bool added;
	union ib_gid dgid;
	u8 mac[ETH_ALEN];
};

static const struct ib_gid_attr *qp_env_gid(struct ib_device *ibdev)
{
	const struct ib_gid_attr *attr;
	int i, tries;

	for (tries = 0; tries < 200; tries++) {
		for (i = 0; i < 8; i++) {
			attr = rdma_get_gid_attr(ibdev, 1, i);
			if (IS_ERR(attr))
				continue;
			if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP)
				return attr;
			rdma_put_gid_attr(attr);
		}
		usleep_range(10000, 20000);
	}
	return NULL;
}

static struct ib_qp *qp_env_qp(struct kunit *test, struct qp_env *e,
			       enum ib_qp_type type)
{
	struct ib_qp_init_attr init = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = TEST_DEPTH,
			.max_recv_wr = TEST_DEPTH,
			.max_send_sge = 3,
			.max_recv_sge = 3,
			.max_inline_data = 64,
		},
	};
	struct ib_qp *qp;

	init.srq = e->srq;
	qp = ib_create_qp(e->pd, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	KUNIT_EXPECT_GE(test, init.cap.max_send_wr, TEST_DEPTH);
	return qp;
}

/* RESET to RTS, talking to @dest on this function. */
static int qp_env_connect(struct qp_env *e, struct ib_qp *qp, u32 dest,
			  u8 rnr_retry)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_LOCAL_WRITE,
	};
	int err;

	err = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = dest;
	attr.rq_psn = 1;
	attr.max_dest_rd_atomic = 4;
	attr.min_rnr_timer = 1;
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	rdma_ah_set_grh(&attr.ah_attr, &e->dgid, 0, e->gid->index, 64, 0);
	ether_addr_copy(attr.ah_attr.roce.dmac, e->mac);
	err = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 1;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = rnr_retry;
	attr.max_rd_atomic = 4;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

static void qp_env_cleanup(void *data)
{
	struct qp_env *e = data;
	int i;

	for (i = 0; i < 2; i++) {
		if (e->buf[i] && e->dma[i])
			ib_dma_unmap_single(e->ibdev, e->dma[i], TEST_BUF,
					    DMA_BIDIRECTIONAL);
		kfree(e->buf[i]);
	}
	if (!IS_ERR_OR_NULL(e->a))
		ib_destroy_qp(e->a);
	if (!IS_ERR_OR_NULL(e->b))
		ib_destroy_qp(e->b);
	if (!IS_ERR_OR_NULL(e->srq))
		KUNIT_EXPECT_EQ(e->test, ib_destroy_srq_user(e->srq, NULL), 0);
	if (!IS_ERR_OR_NULL(e->cq))
		ib_free_cq(e->cq);
	if (!IS_ERR_OR_NULL(e->pd))
		ib_dealloc_pd(e->pd);
	if (e->gid)
		rdma_put_gid_attr(e->gid);
	if (e->adev)
		put_device(&e->adev->dev);
	if (e->added) {
		KUNIT_EXPECT_EQ(e->test, irdma_sim_del(TEST_FN_ID), 0);
		KUNIT_EXPECT_EQ(e->test, irdma_dma_outstanding(), e->blocks);
	}
	memset(e, 0, sizeof(*e));
}

/*
 * A function and two connected RC QPs. With @srq the function has the
 * sim's SRQ extension and both QPs receive from the shared receive queue
 * @srq describes.
 */
static struct qp_env *qp_env_setup_srq(struct kunit *test, u8 rnr_retry,
				       struct ib_srq_init_attr *srq)
{
	struct qp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct irdma_fn *fn;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, qp_env_cleanup, e), 0);
	e->test = test;
	e->blocks = irdma_dma_outstanding();
	KUNIT_ASSERT_EQ(test, srq ? irdma_sim_add_srq(TEST_FN_ID) :
			      irdma_sim_add(TEST_FN_ID, true), 0);
	e->added = true;
	e->adev = irdma_sim_adev(TEST_FN_ID);
	KUNIT_ASSERT_NOT_NULL(test, e->adev);
	KUNIT_ASSERT_NOT_NULL(test, e->adev->dev.driver);
	e->ibdev = &fn_to_iwdev(auxiliary_get_drvdata(e->adev))->ibdev;
	fn = auxiliary_get_drvdata(e->adev);
	ether_addr_copy(e->mac, fn->res.netdev->dev_addr);
	e->gid = qp_env_gid(e->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, e->gid);
	e->dgid = e->gid->gid;
	e->pd = ib_alloc_pd(e->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->pd));
	e->cq = ib_alloc_cq(e->ibdev, NULL, 4 * TEST_DEPTH, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->cq));
	/* The E810 has no SRQs: only the extension offers them. */
	KUNIT_EXPECT_EQ(test, e->ibdev->attrs.max_srq > 0, !!srq);
	if (srq) {
		e->srq = ib_create_srq(e->pd, srq);
		KUNIT_ASSERT_FALSE(test, IS_ERR(e->srq));
	}
	e->a = qp_env_qp(test, e, IB_QPT_RC);
	e->b = qp_env_qp(test, e, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, qp_env_connect(e, e->a, e->b->qp_num, rnr_retry), 0);
	KUNIT_ASSERT_EQ(test, qp_env_connect(e, e->b, e->a->qp_num, rnr_retry), 0);
	for (i = 0; i < 2; i++) {
		e->buf[i] = kzalloc(TEST_BUF, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, e->buf[i]);
		e->dma[i] = ib_dma_map_single(e->ibdev, e->buf[i], TEST_BUF,
					      DMA_BIDIRECTIONAL);
		KUNIT_ASSERT_FALSE(test, ib_dma_mapping_error(e->ibdev, e->dma[i]));
	}
	return e;
}

static struct qp_env *qp_env_setup(struct kunit *test, u8 rnr_retry)
{
	return qp_env_setup_srq(test, rnr_retry, NULL);
}

static void qp_env_teardown(struct kunit *test, struct qp_env *e)
{
	kunit_release_action(test, qp_env_cleanup, e);
}

/* Poll until @n completions arrived or about @ms milliseconds passed. */
static int qp_env_poll_for(struct qp_env *e, struct ib_wc *wc, int n, int ms)
{
	int got = 0, tries;

	for (tries = 0; tries < ms && got < n; tries++) {
		got += ib_poll_cq(e->cq, n - got, wc + got);
		if (got < n)
			usleep_range(500, 1000);
	}
	return got;
}

/* Poll until @n completions arrived or two seconds passed. */
static int qp_env_poll(struct qp_env *e, struct ib_wc *wc, int n)
{
	return qp_env_poll_for(e, wc, n, 2000);
}

static void qp_env_post_recv(struct kunit *test, struct qp_env *e,
			     struct ib_qp *qp, int idx, u64 wr_id)
{
	struct ib_sge sge = {
		.addr = e->dma[idx], .length = TEST_BUF, .lkey = e->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, NULL), 0);
}

static struct ib_wc *qp_env_find(struct ib_wc *wc, int n, u64 wr_id)
{
	int i;

	for (i = 0; i < n; i++)
		if (wc[i].wr_id == wr_id)
			return &wc[i];
	return NULL;
}

/* The completion of @wr_id among @n, which must be there. */
static struct ib_wc *qp_env_wc(struct kunit *test, struct ib_wc *wc, int n,
			       u64 wr_id)
{
	struct ib_wc *found = qp_env_find(wc, n, wr_id);

	KUNIT_ASSERT_NOT_NULL_MSG(test, found, "no completion of wr_id %llu", wr_id);
	return found;
}

/* One signalled send from QP a to QP b, with a receive posted for it. */
static void qp_env_send(struct kunit *test, struct qp_env *e, u64 wr_id, u32 len)
{
	struct ib_sge sge = { e->dma[0], len, e->pd->local_dma_lkey };
	struct ib_send_wr wr = {
		.wr_id = wr_id, .opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED, .sg_list = &sge, .num_sge = 1,
	};

	qp_env_post_recv(test, e, e->b, 1, wr_id + 100);
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
}

static void irdma_qp_rc_send_test(struct kunit *test)
{
	struct ib_sge sge[2];
	struct ib_send_wr wr = {};
	struct ib_wc wc[4], *s, *r;
	struct qp_env *e;
	int i;

	e = qp_env_setup(test, 7);
	for (i = 0; i < 3000; i++)
		e->buf[0][i] = i * 7 + 3;
	qp_env_post_recv(test, e, e->b, 1, 100);
	/* Two fragments, the second from the middle of the buffer. */
	sge[0] = (struct ib_sge){ e->dma[0], 1000, e->pd->local_dma_lkey };
	sge[1] = (struct ib_sge){ e->dma[0] + 1000, 2000, e->pd->local_dma_lkey };
	wr.wr_id = 1;
	wr.opcode = IB_WR_SEND_WITH_IMM;
	wr.ex.imm_data = cpu_to_be32(0xabcd1234);
	wr.send_flags = IB_SEND_SIGNALED;
	wr.sg_list = sge;
	wr.num_sge = 2;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);

	s = qp_env_find(wc, 2, 1);
	r = qp_env_find(wc, 2, 100);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, s->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, s->opcode, IB_WC_SEND);
	KUNIT_EXPECT_EQ(test, r->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, r->byte_len, 3000);
	KUNIT_EXPECT_TRUE(test, r->wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(r->ex.imm_data), 0xabcd1234);
	KUNIT_EXPECT_EQ(test, r->qp->qp_num, e->b->qp_num);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[0], e->buf[1], 3000), 0);

	/* Inline: the bytes travel in the WQE. */
	memset(e->buf[1], 0, TEST_BUF);
	qp_env_post_recv(test, e, e->b, 1, 101);
	sge[0] = (struct ib_sge){ (uintptr_t)"inline payload 0123456789 abcdefghijklmnop", 42, 0 };
	wr.wr_id = 2;
	wr.opcode = IB_WR_SEND;
	wr.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE;
	wr.num_sge = 1;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	r = qp_env_find(wc, 2, 101);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->byte_len, 42);
	KUNIT_EXPECT_FALSE(test, r->wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[1], (void *)(uintptr_t)sge[0].addr, 42), 0);
	qp_env_teardown(test, e);
}

static void irdma_qp_rc_write_read_test(struct kunit *test)
{
	struct rdma_hw_stats *stats;
	struct ib_rdma_wr wr = {};
	struct ib_sge sge;
	struct ib_wc wc[4], *r;
	struct qp_env *e;
	int i;

	e = qp_env_setup(test, 7);
	for (i = 0; i < TEST_BUF; i++)
		e->buf[0][i] = i ^ 0x5a;
	/* WRITE through the all-memory rkey, unsignaled then signaled. */
	sge = (struct ib_sge){ e->dma[0], 4096, e->pd->local_dma_lkey };
	wr.wr.wr_id = 10;
	wr.wr.opcode = IB_WR_RDMA_WRITE;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.remote_addr = e->dma[1] + 100;
	wr.rkey = e->pd->unsafe_global_rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
	wr.wr.wr_id = 11;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.remote_addr = e->dma[1] + 100 + 4096;
	sge.addr = e->dma[0] + 4096;
	sge.length = 2000;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 11);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[1] + 100, e->buf[0], 6096), 0);

	/* WRITE with immediate consumes a receive. */
	qp_env_post_recv(test, e, e->b, 1, 200);
	wr.wr.wr_id = 12;
	wr.wr.opcode = IB_WR_RDMA_WRITE_WITH_IMM;
	wr.wr.ex.imm_data = cpu_to_be32(77);
	sge.length = 16;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	r = qp_env_find(wc, 2, 200);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(r->ex.imm_data), 77);

	/* READ it all back into the first buffer's second half. */
	memset(e->buf[0] + 4096, 0, 4096);
	wr.wr.wr_id = 13;
	wr.wr.opcode = IB_WR_RDMA_READ;
	wr.remote_addr = e->dma[1] + 100;
	sge.addr = e->dma[0] + 4096;
	sge.length = 3000;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 13);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wc[0].byte_len, 3000);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[0] + 4096, e->buf[1] + 100, 3000), 0);

	/* The counters saw it: three writes and a read, each way. */
	stats = e->ibdev->ops.alloc_hw_port_stats(e->ibdev, 1);
	KUNIT_ASSERT_NOT_NULL(test, stats);
	KUNIT_EXPECT_EQ(test, e->ibdev->ops.get_hw_stats(e->ibdev, stats, 1, 0),
			IRDMA_STAT_COUNT);
	KUNIT_EXPECT_EQ(test, stats->value[IRDMA_STAT_RDMATXWRS], 3);
	KUNIT_EXPECT_EQ(test, stats->value[IRDMA_STAT_RDMARXWRS], 3);
	KUNIT_EXPECT_EQ(test, stats->value[IRDMA_STAT_RDMATXRDS], 1);
	KUNIT_EXPECT_EQ(test, stats->value[IRDMA_STAT_RDMARXRDS], 1);
	KUNIT_EXPECT_GE(test, stats->value[IRDMA_STAT_IP6TXOCTS], 4096 + 2000 + 16 + 3000);
	KUNIT_EXPECT_EQ(test, stats->value[IRDMA_STAT_UDPTXPKTS],
			stats->value[IRDMA_STAT_IP6TXPKTS] + stats->value[IRDMA_STAT_IP4TXPKTS]);
	KUNIT_EXPECT_STREQ(test, stats->descs[IRDMA_STAT_RDMATXWRS].name, "iwOutRdmaWrites");
	rdma_free_hw_stats_struct(stats);
	qp_env_teardown(test, e);
}

/* Fast registration over scattered pages, then invalidation. */
static void qp_env_fast_reg(struct kunit *test, struct qp_env *e)
{
	struct page *pages[3];
	struct scatterlist sgl[3];
	struct ib_reg_wr reg = {};
	struct ib_rdma_wr wr = {};
	struct ib_send_wr inv = {};
	struct ib_sge sge;
	struct ib_wc wc[4];
	struct ib_mr *mr;
	int i, n;

	sg_init_table(sgl, 3);
	for (i = 0; i < 3; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		sg_set_page(&sgl[i], pages[i], PAGE_SIZE, 0);
	}
	n = ib_dma_map_sg(e->ibdev, sgl, 3, DMA_BIDIRECTIONAL);
	KUNIT_ASSERT_EQ(test, n, 3);
	mr = ib_alloc_mr(e->pd, IB_MR_TYPE_MEM_REG, 3);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sgl, 3, NULL, PAGE_SIZE), 3);
	ib_update_fast_reg_key(mr, 0x42);

	reg.wr.wr_id = 20;
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.key = mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->b, &reg.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_REG_MR);

	/* A write across the page boundaries lands in the right pages. */
	for (i = 0; i < 8000; i++)
		e->buf[0][i] = i * 13;
	sge = (struct ib_sge){ e->dma[0], 8000, e->pd->local_dma_lkey };
	wr.wr.wr_id = 21;
	wr.wr.opcode = IB_WR_RDMA_WRITE;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.remote_addr = mr->iova + 1000;
	wr.rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(pages[0]) + 1000, e->buf[0],
				     PAGE_SIZE - 1000), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(pages[1]),
				     e->buf[0] + PAGE_SIZE - 1000, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(pages[2]),
				     e->buf[0] + 2 * PAGE_SIZE - 1000,
				     8000 - (2 * PAGE_SIZE - 1000)), 0);

	/* Invalidated, the key no longer works: the writer's QP fails. */
	inv.wr_id = 22;
	inv.opcode = IB_WR_LOCAL_INV;
	inv.send_flags = IB_SEND_SIGNALED;
	inv.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->b, &inv, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_LOCAL_INV);

	wr.wr.wr_id = 23;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
	wr.wr.wr_id = 24;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
	n = qp_env_poll(e, wc, 3);
	KUNIT_ASSERT_GE(test, n, 2);
	KUNIT_EXPECT_EQ(test, qp_env_wc(test, wc, n, 23)->status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, qp_env_wc(test, wc, n, 24)->status, IB_WC_WR_FLUSH_ERR);

	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	ib_dma_unmap_sg(e->ibdev, sgl, 3, DMA_BIDIRECTIONAL);
	for (i = 0; i < 3; i++)
		__free_page(pages[i]);
}

static void irdma_qp_fast_reg_test(struct kunit *test)
{
	struct qp_env *e = qp_env_setup(test, 7);

	qp_env_fast_reg(test, e);
	qp_env_teardown(test, e);
}

/* A send before the receive is posted waits (RNR) and then goes through. */
static void irdma_qp_rnr_test(struct kunit *test)
{
	struct ib_sge sge;
	struct ib_send_wr wr = {};
	struct ib_wc wc[4];
	struct qp_env *e;

	e = qp_env_setup(test, 7);
	sge = (struct ib_sge){ e->dma[0], 64, e->pd->local_dma_lkey };
	wr.wr_id = 30;
	wr.opcode = IB_WR_SEND;
	wr.send_flags = IB_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
	msleep(20);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(e->cq, 4, wc), 0);
	qp_env_post_recv(test, e, e->b, 1, 300);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_SUCCESS);
	qp_env_teardown(test, e);

	/* Without RNR retries the send fails and the QP flushes. */
	e = qp_env_setup(test, 0);
	qp_env_post_recv(test, e, e->a, 0, 301);
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	KUNIT_EXPECT_EQ(test, qp_env_wc(test, wc, 2, 30)->status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, qp_env_wc(test, wc, 2, 301)->status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, qp_env_wc(test, wc, 2, 301)->opcode, IB_WC_RECV);
	qp_env_teardown(test, e);
}

/* Moving to the error state flushes posted work, later work too. */
static void irdma_qp_flush_test(struct kunit *test)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_sge sge;
	struct ib_send_wr wr = {};
	struct ib_wc wc[8];
	struct qp_env *e;
	int n;

	e = qp_env_setup(test, 7);
	qp_env_post_recv(test, e, e->b, 1, 400);
	qp_env_post_recv(test, e, e->b, 1, 401);
	qp_env_post_recv(test, e, e->b, 1, 402);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(e->b, &attr, IB_QP_STATE), 0);
	n = qp_env_poll(e, wc, 3);
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 400);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 401);
	KUNIT_EXPECT_EQ(test, wc[2].wr_id, 402);
	KUNIT_EXPECT_EQ(test, wc[2].status, IB_WC_WR_FLUSH_ERR);

	/* Work posted after the flush completes in software, unsignaled too. */
	sge = (struct ib_sge){ e->dma[1], 64, e->pd->local_dma_lkey };
	wr.wr_id = 403;
	wr.opcode = IB_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->b, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 403);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_SEND);
	qp_env_teardown(test, e);
}

/* Malformed work requests: a clear errno and bad_wr at the culprit. */
static void irdma_qp_bad_wr_test(struct kunit *test)
{
	struct ib_sge sge[4];
	struct ib_send_wr wr[2] = {}, *bad = NULL;
	struct ib_recv_wr rwr = {};
	const struct ib_recv_wr *rbad = NULL;
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };
	struct qp_env *e;

	e = qp_env_setup(test, 7);
	memset(sge, 0, sizeof(sge));
	wr[0].opcode = IB_WR_SEND;
	wr[0].sg_list = sge;
	wr[0].num_sge = 1;
	wr[0].next = &wr[1];
	wr[1].opcode = IB_WR_ATOMIC_CMP_AND_SWP;
	wr[1].sg_list = sge;
	wr[1].num_sge = 1;
	KUNIT_EXPECT_EQ(test, ib_post_send(e->a, wr, (const struct ib_send_wr **)&bad),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr[1]);
	wr[0].num_sge = 4;
	wr[0].next = NULL;
	KUNIT_EXPECT_EQ(test, ib_post_send(e->a, wr, (const struct ib_send_wr **)&bad),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr[0]);
	rwr.sg_list = sge;
	rwr.num_sge = 4;
	KUNIT_EXPECT_EQ(test, ib_post_recv(e->a, &rwr, &rbad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rbad, &rwr);
	/* RTS to RTR is no transition. */
	KUNIT_EXPECT_EQ(test, ib_modify_qp(e->a, &attr, IB_QP_STATE), -EINVAL);
	qp_env_teardown(test, e);
}

/*
 * An error event from the RQ (a receive whose key is bad) moves the QP to
 * error with its context naming that receive, where the stock driver
 * puts it: ERR_RQ_IDX_VALID and ERR_RQ_IDX, in quanta.
 */
static void irdma_qp_rq_error_idx_test(struct kunit *test)
{
	struct ib_sge sge = {};
	struct ib_send_wr wr = {
		.wr_id = 20, .opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1,
	};
	struct ib_recv_wr rwr = { .wr_id = 50, .sg_list = &sge, .num_sge = 1 };
	struct ib_wc wc[4], *r;
	struct irdma_qp *qp;
	struct qp_env *e;
	__le64 *ctx;
	u32 idx;
	int i;

	e = qp_env_setup(test, 7);
	qp = to_iwqp(e->b);
	/* Two receives used up; the third has a key nobody registered. */
	for (i = 0; i < 2; i++) {
		qp_env_send(test, e, 10 + i, 16);
		KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	}
	ctx = qp->ctx.va + IRDMA_QP_HOST_CTX;
	KUNIT_EXPECT_FALSE(test, le64_to_cpu(ctx[0]) & IRDMA_QPC_ERR_RQ_IDX_VALID);
	sge = (struct ib_sge){ e->dma[1], 64, 0x7700 };
	KUNIT_ASSERT_EQ(test, ib_post_recv(e->b, &rwr, NULL), 0);
	sge.lkey = e->pd->local_dma_lkey;
	sge.addr = e->dma[0];
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	r = qp_env_find(wc, 2, 50);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_NE(test, r->status, IB_WC_SUCCESS);

	mutex_lock(&qp->mutex);
	KUNIT_EXPECT_EQ(test, qp->ib_state, IB_QPS_ERR);
	KUNIT_EXPECT_TRUE(test, le64_to_cpu(ctx[0]) & IRDMA_QPC_ERR_RQ_IDX_VALID);
	idx = FIELD_GET(IRDMA_QPC_ERR_RQ_IDX, le64_to_cpu(ctx[16]));
	KUNIT_EXPECT_EQ(test, idx, 2U << qp->hw.rq_shift);
	/* The send PSN applied at RTS (1 here) set the LSN to 0xffff. */
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPC_LSN, le64_to_cpu(ctx[10])), 0xffffULL);
	mutex_unlock(&qp->mutex);
	qp_env_teardown(test, e);
}

static void qp_env_cq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_CQ_ERR)
		complete(ctx);
}

static enum ib_qp_state qp_env_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	if (ib_query_qp(qp, &attr, IB_QP_STATE, &init))
		return IB_QPS_RESET;
	return attr.qp_state;
}

/*
 * Asynchronous events are taken by their code first, as the stock driver
 * takes them: a QP's fatal code with the reserved source still fails the
 * QP, an informational one with a QP's source leaves the QP as it is,
 * and a CQ operation error reaches the CQ's consumer as IB_EVENT_CQ_ERR.
 */
static void irdma_qp_ae_target_test(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 16 };
	DECLARE_COMPLETION_ONSTACK(cq_err);
	struct isim_dev *sdev;
	struct qp_env *e;
	struct ib_cq *cq;
	int tries;

	e = qp_env_setup(test, 7);
	sdev = to_isim_dev(e->adev->dev.parent);
	/* Raised in this order, taken in this order. */
	isim_fault_queue_ae(sdev, IRDMA_AE_LLP_DOUBT_REACHABILITY, e->a->qp_num,
			    IRDMA_AE_SOURCE_SQ);
	isim_fault_queue_ae(sdev, IRDMA_AE_LLP_TOO_MANY_RETRIES, e->b->qp_num,
			    IRDMA_AE_SOURCE_RSVD);
	for (tries = 0; tries < 200 && qp_env_state(e->b) != IB_QPS_ERR; tries++)
		usleep_range(10000, 20000);
	KUNIT_EXPECT_EQ(test, qp_env_state(e->b), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_env_state(e->a), IB_QPS_RTS);

	cq = ib_create_cq(e->ibdev, NULL, qp_env_cq_event, &cq_err, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	isim_fault_queue_ae(sdev, IRDMA_AE_CQ_OPERATION_ERROR, to_iwcq(cq)->hw.id,
			    IRDMA_AE_SOURCE_CQ);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&cq_err, 2 * HZ), 0);
	ib_destroy_cq(cq);
	qp_env_teardown(test, e);
}

/* Block sizes a fragmented machine has none of (test->priv). */
struct qp_test_no_blocks {
	size_t from;
	size_t to;
};

static int qp_test_dma_alloc_fragmented(struct irdma_fn *fn,
					struct irdma_dma_mem *mem, size_t size,
					gfp_t gfp)
{
	const struct qp_test_no_blocks *no = kunit_get_current_test()->priv;

	if (size >= no->from && size <= no->to)
		return -ENOMEM;
	return irdma_dma_alloc_block(fn, mem, size, gfp);
}

static void qp_test_fragment(struct kunit *test, struct qp_test_no_blocks *no)
{
	test->priv = no;
	kunit_activate_static_stub(test, irdma_dma_alloc,
				   qp_test_dma_alloc_fragmented);
}

/*
 * With no block of the AEQ's size to be had (on silicon it reaches
 * 8 MiB), the AEQ goes in 4 KiB pages the CREATE_AEQ names through
 * PBLEs: events still arrive in order across the pages, and a refused
 * DESTROY_AEQ keeps the pages until the CQP is down.
 */
static void irdma_qp_paged_aeq_test(struct kunit *test)
{
	/* The sim's AEQ: an entry per QP (4096) and per CQ (8192). */
	struct qp_test_no_blocks no = {
		.from = (4096 + 8192) * IRDMA_AEQE_SIZE,
		.to = (4096 + 8192) * IRDMA_AEQE_SIZE,
	};
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	struct qp_env *e;
	u32 i, notes = 2 * IRDMA_HW_PAGE_SIZE / IRDMA_AEQE_SIZE;
	int tries;

	qp_test_fragment(test, &no);
	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	sdev = to_isim_dev(e->adev->dev.parent);
	KUNIT_ASSERT_NULL(test, fn->aeq.ring.va);
	KUNIT_EXPECT_EQ(test, fn->aeq.pages.count,
			DIV_ROUND_UP(fn->aeq.size * IRDMA_AEQE_SIZE, IRDMA_HW_PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, fn->aeq.pble.level, 1);

	/* Two pages of events the QP ignores, then one that fails QP b. */
	for (i = 0; i < notes; i++)
		isim_aeq_post_qp(sdev, IRDMA_AE_RESET_NOT_SENT, e->a->qp_num,
				 IRDMA_AE_SOURCE_RQ, 0, 0);
	isim_aeq_post_qp(sdev, IRDMA_AE_LLP_TOO_MANY_RETRIES, e->b->qp_num,
			 IRDMA_AE_SOURCE_RSVD, 0, 0);
	for (tries = 0; tries < 200 && qp_env_state(e->b) != IB_QPS_ERR; tries++)
		usleep_range(10000, 20000);
	KUNIT_EXPECT_EQ(test, qp_env_state(e->b), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_env_state(e->a), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, sdev->stats.eq_faults, 0);

	/* The cleanup checks every page came back once the CQP was down. */
	irdma_sim_fail_cqp_op(TEST_FN_ID, IRDMA_CQPOP_DESTROY_AEQ, 1);
	qp_env_teardown(test, e);
}

/*
 * With no 2 MiB block to be had once the function is up, the PBLEs'
 * next segment is backed by 4 KiB pages behind a page of descriptors
 * (a paged segment), and a fast-registered MR whose PBLEs live there
 * takes RDMA writes into the right pages.
 */
static void irdma_qp_paged_pble_test(struct kunit *test)
{
	struct qp_test_no_blocks no = { .from = SZ_2M, .to = SZ_2M };
	struct irdma_pble_alloc first = {}, rest = {};
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	struct qp_env *e;
	size_t avail;
	u32 sd;

	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	sdev = to_isim_dev(e->adev->dev.parent);
	/* Use up the PBLEs of the segment backed at bring-up. */
	KUNIT_ASSERT_EQ(test, irdma_pble_alloc(fn, 1, IRDMA_PBLE_LEVEL1_ONLY, &first), 0);
	avail = gen_pool_avail(fn->pble.pool) / IRDMA_PBLE_SIZE;
	if (avail)
		KUNIT_ASSERT_EQ(test, irdma_pble_alloc(fn, avail, IRDMA_PBLE_LEVEL1_ONLY,
						       &rest), 0);
	KUNIT_ASSERT_LT(test, fn->pble.next_fpm, fn->pble.end_fpm);
	sd = fn->pble.next_fpm / IRDMA_HMC_SD_SIZE;
	kunit_info(test, "%zu PBLEs were left in the first segment; next is %u\n",
		   avail, sd);

	qp_test_fragment(test, &no);
	qp_env_fast_reg(test, e);
	KUNIT_EXPECT_NULL(test, fn->hmc.sd[sd].block.va);
	KUNIT_EXPECT_NOT_NULL(test, fn->hmc.sd[sd].pd_page.va);
	KUNIT_EXPECT_TRUE(test, sdev->hmc.sd[sd] & IRDMA_SD_DATA_VALID);
	KUNIT_EXPECT_FALSE(test, sdev->hmc.sd[sd] & IRDMA_SD_DATA_DIRECT);

	irdma_pble_free(fn, &rest);
	irdma_pble_free(fn, &first);
	qp_env_teardown(test, e);
}

/*
 * Every code the driver knows is classified; a code left out of the
 * sorted table would fall to the source's rule.
 */
static void irdma_ae_target_table_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_PRIV_OPERATION_DENIED, 0),
			IRDMA_AE_QP_ERROR);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_LLP_TOO_MANY_RETRIES, 0),
			IRDMA_AE_QP_ERROR);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_LCE_QP_CATASTROPHIC,
					      IRDMA_AE_SOURCE_CQ), IRDMA_AE_QP_ERROR);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_QP_SUSPEND_COMPLETE,
					      IRDMA_AE_SOURCE_SQ), IRDMA_AE_QP_NOTE);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_RESET_NOT_SENT,
					      IRDMA_AE_SOURCE_RQ), IRDMA_AE_QP_NOTE);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_RESOURCE_EXHAUSTION,
					      IRDMA_AE_SOURCE_SQ), IRDMA_AE_QP_NOTE);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_LCE_CQ_CATASTROPHIC,
					      IRDMA_AE_SOURCE_SQ), IRDMA_AE_CQ_ERROR);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_SRQ_LIMIT, 0),
			IRDMA_AE_SRQ_EVENT);
	/* Not in the table: the source decides. */
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_AMP_BAD_STAG_KEY,
					      IRDMA_AE_SOURCE_RQ), IRDMA_AE_QP_ERROR);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_AMP_BAD_STAG_KEY, 0),
			IRDMA_AE_NOTHING);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_CQ_OPERATION_ERROR,
					      IRDMA_AE_SOURCE_CQ), IRDMA_AE_CQ_ERROR);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(IRDMA_AE_CQ_OPERATION_ERROR,
					      IRDMA_AE_SOURCE_SQ), IRDMA_AE_QP_ERROR);
	KUNIT_EXPECT_EQ(test, irdma_ae_target(0x0fff, IRDMA_AE_SOURCE_CQ),
			IRDMA_AE_NOTHING);
}

/* A UD QP taken to RTS with Q_Key 0x1111. */
static struct ib_qp *qp_env_ud_qp(struct kunit *test, struct qp_env *e)
{
	struct ib_qp *qp = qp_env_qp(test, e, IB_QPT_UD);
	struct ib_qp_attr attr = {};

	attr.qp_state = IB_QPS_INIT;
	attr.qkey = 0x1111;
	attr.port_num = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
					   IB_QP_PORT | IB_QP_QKEY), 0);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN), 0);
	return qp;
}

/* An AH to the function's own GID and MAC. */
static void qp_env_ah_attr(struct qp_env *e, struct rdma_ah_attr *ah_attr)
{
	*ah_attr = (struct rdma_ah_attr){ .type = RDMA_AH_ATTR_TYPE_ROCE };
	rdma_ah_set_port_num(ah_attr, 1);
	rdma_ah_set_grh(ah_attr, &e->dgid, 0, e->gid->index, 64, 0);
	ether_addr_copy(ah_attr->roce.dmac, e->mac);
}

/*
 * Send 256 bytes from @ua to @ub through @ah with @qkey. With @ub's Q_Key
 * (0x1111): data, GRH area and source QP arrive. With another the
 * datagram is dropped and only the send completes.
 */
static void qp_env_ud_send(struct kunit *test, struct qp_env *e,
			   struct ib_qp *ua, struct ib_qp *ub, struct ib_ah *ah,
			   u64 wr_id, u32 qkey)
{
	struct ib_ud_wr wr = {};
	struct ib_wc wc[4], *r;
	struct ib_sge sge;
	int i;

	qp_env_post_recv(test, e, ub, 1, 500);
	for (i = 0; i < 256; i++)
		e->buf[0][i] = 255 - i;
	sge = (struct ib_sge){ e->dma[0], 256, e->pd->local_dma_lkey };
	wr.wr.wr_id = wr_id;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.ah = ah;
	wr.remote_qpn = ub->qp_num;
	wr.remote_qkey = qkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(ua, &wr.wr, NULL), 0);
	if (qkey != 0x1111) {
		KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, wr_id);
		msleep(20);
		KUNIT_EXPECT_EQ(test, ib_poll_cq(e->cq, 4, wc), 0);
		return;
	}
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	r = qp_env_find(wc, 2, 500);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->byte_len, 256 + 40);
	KUNIT_EXPECT_EQ(test, r->src_qp, ua->qp_num);
	KUNIT_EXPECT_TRUE(test, r->wc_flags & IB_WC_GRH);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[1] + 40, e->buf[0], 256), 0);
	r = qp_env_find(wc, 2, wr_id);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, IB_WC_SUCCESS);
}

/* UD through an address handle: GRH area, source QP, data, Q_Key. */
static void irdma_qp_ud_test(struct kunit *test)
{
	struct rdma_ah_attr ah_attr;
	struct irdma_cqp_wqe cmd;
	struct ib_qp *ua, *ub;
	struct ib_ah *ah, *ah2;
	u32 first, second;
	struct qp_env *e;

	e = qp_env_setup(test, 7);
	ua = qp_env_ud_qp(test, e);
	ub = qp_env_ud_qp(test, e);
	qp_env_ah_attr(e, &ah_attr);
	ah = rdma_create_ah(e->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	qp_env_ud_send(test, e, ua, ub, ah, 50, 0x1111);
	/* A wrong Q_Key: the datagram is dropped, the send still completes. */
	qp_env_ud_send(test, e, ua, ub, ah, 51, 0x2222);

	/*
	 * No VLAN: the tag field holds the id as ib_core gave it (0xffff)
	 * with no tag inserted, as the stock driver's CREATE_AH has it.
	 */
	irdma_build_ah(&cmd, &to_iwah(ah)->hw, IRDMA_CQPOP_CREATE_ADDR_HANDLE);
	KUNIT_EXPECT_EQ(test, cmd.q[1] & 0xffff, 0xffff);
	KUNIT_EXPECT_FALSE(test, cmd.q[3] & BIT_ULL(60));

	/* AH numbers go round: a freed one is not the next given. */
	ah2 = rdma_create_ah(e->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah2));
	first = to_iwah(ah)->hw.id;
	second = to_iwah(ah2)->hw.id;
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	ah = rdma_create_ah(e->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_NE(test, to_iwah(ah)->hw.id, first);
	KUNIT_EXPECT_GT(test, to_iwah(ah)->hw.id, second);
	rdma_destroy_ah(ah2, RDMA_DESTROY_AH_SLEEPABLE);

	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_destroy_qp(ua);
	ib_destroy_qp(ub);
	qp_env_teardown(test, e);
}

/* ARP table entries in use (entry 0, never handed out, included). */
static u32 qp_env_arp_used(struct qp_env *e)
{
	struct irdma_fn *fn = auxiliary_get_drvdata(e->adev);
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&fn->arp_lock, flags);
	n = bitmap_weight(fn->arp_used, fn->arp_size);
	spin_unlock_irqrestore(&fn->arp_lock, flags);
	return n;
}

/*
 * ARP entries last as long as something names them: AHs to three new
 * addresses (two AHs to the first) add three entries; each goes with the
 * last AH naming it; the QPs' entry goes with the QPs.
 */
static void irdma_qp_arp_reclaim_test(struct kunit *test)
{
	struct rdma_ah_attr attr;
	struct ib_ah *ah[4];
	struct qp_env *e;
	u32 base;
	int i;

	e = qp_env_setup(test, 7);
	base = qp_env_arp_used(e);
	/* Entry 0 and the connected QPs' peer (this function itself). */
	KUNIT_EXPECT_EQ(test, base, 2);
	for (i = 0; i < 4; i++) {
		qp_env_ah_attr(e, &attr);
		/* ::ffff:10.9.8.k, k = 1, 1, 2, 3 */
		memset(attr.grh.dgid.raw, 0, 10);
		attr.grh.dgid.raw[10] = 0xff;
		attr.grh.dgid.raw[11] = 0xff;
		attr.grh.dgid.raw[12] = 10;
		attr.grh.dgid.raw[13] = 9;
		attr.grh.dgid.raw[14] = 8;
		attr.grh.dgid.raw[15] = i ? i : 1;
		attr.roce.dmac[5] = 0x40 + attr.grh.dgid.raw[15];
		ah[i] = rdma_create_ah(e->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ah[i]));
	}
	KUNIT_EXPECT_EQ(test, qp_env_arp_used(e), base + 3);
	rdma_destroy_ah(ah[0], RDMA_DESTROY_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, qp_env_arp_used(e), base + 3);
	rdma_destroy_ah(ah[1], RDMA_DESTROY_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, qp_env_arp_used(e), base + 2);
	rdma_destroy_ah(ah[2], RDMA_DESTROY_AH_SLEEPABLE);
	rdma_destroy_ah(ah[3], RDMA_DESTROY_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, qp_env_arp_used(e), base);

	ib_destroy_qp(e->a);
	KUNIT_EXPECT_EQ(test, qp_env_arp_used(e), base);
	ib_destroy_qp(e->b);
	e->a = NULL;
	e->b = NULL;
	KUNIT_EXPECT_EQ(test, qp_env_arp_used(e), 1);
	qp_env_teardown(test, e);
}

/*
 * A count that runs out is -EOVERFLOW, as upstream's irdma_alloc_rsrc()
 * returns. Each count is made to run out here by lowering, for a moment,
 * the bound the driver allocates under.
 */
static void irdma_qp_count_errno_test(struct kunit *test)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct rdma_ah_attr ah_attr;
	struct irdma_hmc_objinfo *o;
	struct irdma_fn *fn;
	struct qp_env *e;
	u32 saved, max_pd;
	struct ib_qp *qp;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_ah *ah;

	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	o = fn->hmc.obj;

	init.send_cq = e->cq;
	init.recv_cq = e->cq;
	saved = o[IRDMA_HMC_QP].cnt;
	o[IRDMA_HMC_QP].cnt = IRDMA_RSVD_QPS;
	qp = ib_create_qp(e->pd, &init);
	o[IRDMA_HMC_QP].cnt = saved;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(qp), -EOVERFLOW);
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);

	saved = o[IRDMA_HMC_CQ].cnt;
	o[IRDMA_HMC_CQ].cnt = IRDMA_RSVD_CQS;
	cq = ib_alloc_cq(e->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	o[IRDMA_HMC_CQ].cnt = saved;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EOVERFLOW);
	if (!IS_ERR(cq))
		ib_free_cq(cq);

	max_pd = fn->max_pd;
	fn->max_pd = IRDMA_RSVD_PDS;
	pd = ib_alloc_pd(e->ibdev, 0);
	fn->max_pd = max_pd;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(pd), -EOVERFLOW);
	if (!IS_ERR(pd))
		ib_dealloc_pd(pd);

	saved = o[IRDMA_HMC_FSIAV].cnt;
	o[IRDMA_HMC_FSIAV].cnt = 1;
	qp_env_ah_attr(e, &ah_attr);
	ah = rdma_create_ah(e->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	o[IRDMA_HMC_FSIAV].cnt = saved;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ah), -EOVERFLOW);
	if (!IS_ERR(ah))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	qp_env_teardown(test, e);
}

struct qp_env_atomic_ah {
	struct qp_env *e;
	struct rdma_ah_attr attr;
	struct ib_ah *made;
	struct ib_ah *gone;
	int destroyed;
};

/* Under stop_machine: every other CPU spins with interrupts off. */
static int qp_env_atomic_ah(void *data)
{
	struct qp_env_atomic_ah *a = data;

	a->made = rdma_create_ah(a->e->pd, &a->attr, 0);
	if (!IS_ERR(a->gone))
		a->destroyed = rdma_destroy_ah_user(a->gone, 0, NULL);
	return 0;
}

/*
 * Address handles made and destroyed without sleeping while no CPU can
 * run anything else (ib_cm makes them so, under spinlocks): the device
 * makes progress with no CPU free, as silicon does. Without the
 * simulator's doorbell trap both would time out.
 */
static void irdma_qp_atomic_ah_test(struct kunit *test)
{
	struct qp_env_atomic_ah a = {};
	struct ib_qp *ua, *ub;
	struct qp_env *e;

	e = qp_env_setup(test, 7);
	ua = qp_env_ud_qp(test, e);
	ub = qp_env_ud_qp(test, e);
	a.e = e;
	qp_env_ah_attr(e, &a.attr);
	a.gone = rdma_create_ah(e->pd, &a.attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a.gone));

	KUNIT_ASSERT_EQ(test, stop_machine(qp_env_atomic_ah, &a, cpu_online_mask), 0);
	KUNIT_EXPECT_EQ(test, a.destroyed, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a.made));
	/* The handle made that way carries traffic. */
	qp_env_ud_send(test, e, ua, ub, a.made, 52, 0x1111);

	rdma_destroy_ah(a.made, RDMA_DESTROY_AH_SLEEPABLE);
	ib_destroy_qp(ua);
	ib_destroy_qp(ub);
	qp_env_teardown(test, e);
}

/* Resizing keeps the completions already in the old ring. */
static void irdma_qp_cq_resize_test(struct kunit *test)
{
	struct ib_sge sge;
	struct ib_send_wr wr = {};
	struct ib_wc wc[8];
	struct qp_env *e;
	int i, n;

	e = qp_env_setup(test, 7);
	sge = (struct ib_sge){ e->dma[0], 8, e->pd->local_dma_lkey };
	wr.opcode = IB_WR_RDMA_WRITE;
	wr.send_flags = IB_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	for (i = 0; i < 3; i++) {
		struct ib_rdma_wr rw = { .wr = wr, .remote_addr = e->dma[1],
					 .rkey = e->pd->unsafe_global_rkey };

		rw.wr.wr_id = 600 + i;
		KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &rw.wr, NULL), 0);
	}
	msleep(50);
	KUNIT_ASSERT_EQ(test, ib_resize_cq(e->cq, 1000), 0);
	KUNIT_EXPECT_GE(test, e->cq->cqe, 1000);
	for (i = 3; i < 5; i++) {
		struct ib_rdma_wr rw = { .wr = wr, .remote_addr = e->dma[1],
					 .rkey = e->pd->unsafe_global_rkey };

		rw.wr.wr_id = 600 + i;
		KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &rw.wr, NULL), 0);
	}
	n = qp_env_poll(e, wc, 5);
	KUNIT_ASSERT_EQ(test, n, 5);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 600 + i);
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_SUCCESS);
	}
	qp_env_teardown(test, e);
}

/*
 * An odd-numbered simulated function's FPM space starts at segment 24, as
 * a function's may on silicon: the driver commits, backs and uses it.
 */
static void irdma_qp_first_sd_test(struct kunit *test)
{
	struct irdma_fn *fn;
	struct qp_env *e;
	struct ib_wc wc[2];
	int i;

	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	KUNIT_EXPECT_EQ(test, TEST_FN_ID & 1, 1);
	KUNIT_EXPECT_EQ(test, fn->hmc.first_sd, ISIM_FIRST_SD_ODD);
	for (i = 0; i < IRDMA_HMC_OBJ_COUNT; i++)
		if (fn->hmc.obj[i].cnt)
			KUNIT_EXPECT_GE(test, fn->hmc.obj[i].base,
					(u64)ISIM_FIRST_SD_ODD * IRDMA_HMC_SD_SIZE);
	memset(e->buf[0], 0x3c, 128);
	qp_env_send(test, e, 1, 128);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[0], e->buf[1], 128), 0);
	qp_env_teardown(test, e);
}

static void qp_env_count_event(struct ib_cq *cq, void *ctx)
{
	atomic_inc(ctx);
}

/*
 * Every CQ event is acknowledged (CQACK): without it the simulator, as
 * silicon, gives the CQ no second event. Three rounds of arm, send to
 * self, event, poll.
 */
static void irdma_qp_cq_ack_test(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 16 };
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	atomic_t events = ATOMIC_INIT(0);
	struct ib_wc wc[2];
	struct isim_dev *sdev;
	struct qp_env *e;
	struct ib_qp *qp;
	struct ib_cq *cq;
	u64 acks, held;
	int round, got, tries;

	e = qp_env_setup(test, 7);
	sdev = to_isim_dev(e->adev->dev.parent);
	/* Polled, a write can be missed: the simulator does not hold events. */
	KUNIT_ASSERT_NOT_NULL(test, sdev->db.bp[ISIM_TRAP_CQACK]);
	cq = ib_create_cq(e->ibdev, qp_env_count_event, NULL, &events, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	init.send_cq = cq;
	init.recv_cq = cq;
	qp = ib_create_qp(e->pd, &init);
	if (IS_ERR(qp)) {
		ib_destroy_cq(cq);
		KUNIT_FAIL_AND_ABORT(test, "no QP: %ld", PTR_ERR(qp));
	}
	KUNIT_EXPECT_EQ(test, qp_env_connect(e, qp, qp->qp_num, 7), 0);
	acks = atomic64_read(&sdev->stats.cq_acks);
	held = atomic64_read(&sdev->stats.cq_events_held);

	for (round = 0; round < 3; round++) {
		struct ib_sge sge = { e->dma[0], 32, e->pd->local_dma_lkey };
		struct ib_sge rsge = { e->dma[1], 32, e->pd->local_dma_lkey };
		struct ib_recv_wr rwr = { .wr_id = 10 + round, .sg_list = &rsge,
					  .num_sge = 1 };
		struct ib_send_wr wr = {
			.wr_id = 20 + round, .opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED, .sg_list = &sge, .num_sge = 1,
		};

		KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
		KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr, NULL), 0);
		KUNIT_EXPECT_EQ(test, ib_post_send(qp, &wr, NULL), 0);
		for (tries = 0; tries < 400 && atomic_read(&events) <= round; tries++)
			usleep_range(5000, 6000);
		KUNIT_EXPECT_EQ(test, atomic_read(&events), round + 1);
		for (got = 0, tries = 0; tries < 400 && got < 2; tries++) {
			got += ib_poll_cq(cq, 2 - got, wc + got);
			if (got < 2)
				usleep_range(1000, 2000);
		}
		KUNIT_EXPECT_EQ(test, got, 2);
	}
	KUNIT_EXPECT_GE(test, atomic64_read(&sdev->stats.cq_acks) - acks, 3);
	KUNIT_EXPECT_EQ(test, atomic64_read(&sdev->stats.cq_events_held), held);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
	qp_env_teardown(test, e);
}

/* UD multicast: every member QP gets a copy; a detached one no more. */
static void irdma_qp_mcast_test(struct kunit *test)
{
	union ib_gid mgid = { .raw = { 0xff, 0x12, [15] = 0x42 } };
	struct rdma_ah_attr ah_attr = {};
	struct ib_qp_attr attr = {};
	struct ib_ud_wr wr = {};
	struct ib_qp *ud[3];
	struct ib_sge sge;
	struct ib_wc wc[8];
	struct ib_ah *ah;
	struct qp_env *e;
	int i, n;

	e = qp_env_setup(test, 7);
	for (i = 0; i < 3; i++) {
		ud[i] = qp_env_qp(test, e, IB_QPT_UD);
		attr.qp_state = IB_QPS_INIT;
		attr.qkey = 0x3333;
		attr.port_num = 1;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(ud[i], &attr, IB_QP_STATE |
						   IB_QP_PKEY_INDEX | IB_QP_PORT |
						   IB_QP_QKEY), 0);
		attr.qp_state = IB_QPS_RTR;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(ud[i], &attr, IB_QP_STATE), 0);
		attr.qp_state = IB_QPS_RTS;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(ud[i], &attr, IB_QP_STATE | IB_QP_SQ_PSN), 0);
	}
	KUNIT_ASSERT_EQ(test, ib_attach_mcast(ud[1], &mgid, 0), 0);
	KUNIT_ASSERT_EQ(test, ib_attach_mcast(ud[2], &mgid, 0), 0);
	qp_env_post_recv(test, e, ud[1], 1, 701);
	qp_env_post_recv(test, e, ud[2], 1, 702);

	ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&ah_attr, 1);
	rdma_ah_set_grh(&ah_attr, &mgid, 0, e->gid->index, 64, 0);
	ah = rdma_create_ah(e->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	strscpy(e->buf[0], "to the group", 64);
	sge = (struct ib_sge){ e->dma[0], 13, e->pd->local_dma_lkey };
	wr.wr.wr_id = 700;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.ah = ah;
	wr.remote_qpn = 0xffffff;
	wr.remote_qkey = 0x3333;
	KUNIT_ASSERT_EQ(test, ib_post_send(ud[0], &wr.wr, NULL), 0);
	n = qp_env_poll(e, wc, 3);
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_NOT_NULL(test, qp_env_find(wc, n, 701));
	KUNIT_EXPECT_NOT_NULL(test, qp_env_find(wc, n, 702));
	KUNIT_EXPECT_EQ(test, qp_env_wc(test, wc, n, 702)->byte_len, 13 + 40);
	KUNIT_EXPECT_STREQ(test, (char *)e->buf[1] + 40, "to the group");

	/* Detached, QP 2 gets nothing; QP 1 still does. */
	KUNIT_ASSERT_EQ(test, ib_detach_mcast(ud[2], &mgid, 0), 0);
	qp_env_post_recv(test, e, ud[1], 1, 711);
	qp_env_post_recv(test, e, ud[2], 1, 712);
	KUNIT_ASSERT_EQ(test, ib_post_send(ud[0], &wr.wr, NULL), 0);
	n = qp_env_poll(e, wc, 3);
	KUNIT_EXPECT_EQ(test, n, 2);
	KUNIT_EXPECT_NOT_NULL(test, qp_env_find(wc, n, 711));
	KUNIT_EXPECT_NULL(test, qp_env_find(wc, n, 712));

	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud[1], &mgid, 0), 0);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	for (i = 0; i < 3; i++)
		ib_destroy_qp(ud[i]);
	qp_env_teardown(test, e);
}

/* A memory window: a key of its own, given back at deallocation. */
static void irdma_qp_mw_test(struct kunit *test)
{
	struct qp_env *e = qp_env_setup(test, 7);
	struct ib_mw *mw = rdma_zalloc_drv_obj(e->ibdev, ib_mw);

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->device = e->ibdev;
	mw->pd = e->pd;
	mw->type = IB_MW_TYPE_2;
	KUNIT_ASSERT_EQ(test, e->ibdev->ops.alloc_mw(mw, NULL), 0);
	KUNIT_EXPECT_NE(test, mw->rkey >> 8, 0);
	KUNIT_EXPECT_EQ(test, e->ibdev->ops.dealloc_mw(mw), 0);
	kfree(mw);
	qp_env_teardown(test, e);
}

/* A fast-registered region of one page over @page, with @access. */
static struct ib_mr *qp_env_page_mr(struct kunit *test, struct qp_env *e,
				    struct scatterlist *sg, struct page *page,
				    int access)
{
	struct ib_reg_wr reg = {};
	struct ib_wc wc;
	struct ib_mr *mr;

	sg_init_table(sg, 1);
	sg_set_page(sg, page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(e->ibdev, sg, 1, DMA_BIDIRECTIONAL), 1);
	mr = ib_alloc_mr(e->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sg, 1, NULL, PAGE_SIZE), 1);
	reg.wr.wr_id = 30;
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.key = mr->rkey;
	reg.access = access;
	KUNIT_ASSERT_EQ(test, ib_post_send(e->b, &reg.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, &wc, 1), 1);
	KUNIT_ASSERT_EQ(test, wc.status, IB_WC_SUCCESS);
	return mr;
}

/* Bind @mw (type 1) in @mr on QP b as libirdma does: the key moves by one. */
static u32 qp_env_bind(struct kunit *test, struct qp_env *e, struct ib_mw *mw,
		       struct ib_mr *mr, u64 off, u64 len, u8 rights)
{
	struct irdma_qp *qp = to_iwqp(e->b);
	struct irdma_mw_bind b = {
		.wr_id = 40, .signaled = true,
		.mw_stag = (mw->rkey & ~0xffU) | ((mw->rkey + 1) & 0xff),
		.mr_stag = mr->rkey, .va = mr->iova + off, .len = len,
		.rights = rights,
	};
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	KUNIT_EXPECT_EQ(test, irdma_uk_post_mw_bind(&qp->uk, &b), 0);
	spin_unlock_irqrestore(&qp->lock, flags);
	return b.mw_stag;
}

static void qp_env_rdma(struct kunit *test, struct qp_env *e, enum ib_wr_opcode op,
			u64 wr_id, u64 addr, u32 rkey, u32 len)
{
	struct ib_sge sge = { e->dma[0], len, e->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = wr_id, .opcode = op, .send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge, .num_sge = 1 },
		.remote_addr = addr, .rkey = rkey,
	};

	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr.wr, NULL), 0);
}

/*
 * A type 1 memory window: bound in a region that allows it, it carries
 * remote writes and reads inside its bounds with its new key; its old
 * key no longer works; outside its bounds an access fails; a bind beyond
 * the region's rights fails as a bind error; invalidating it is refused.
 */
static void irdma_qp_mw_bind_test(struct kunit *test)
{
	const int access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			   IB_ACCESS_MW_BIND;
	struct ib_send_wr inv = { .wr_id = 50, .opcode = IB_WR_LOCAL_INV,
				  .send_flags = IB_SEND_SIGNALED };
	struct scatterlist sg;
	struct ib_wc wc[4];
	struct ib_mw *mw;
	struct ib_mr *mr;
	struct page *page;
	struct qp_env *e;
	u32 rkey, old;
	u8 *mem;
	int step, n;

	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, page);
	mem = page_address(page);
	for (step = 0; step < 4; step++) {
		e = qp_env_setup(test, 7);
		mr = qp_env_page_mr(test, e, &sg, page,
				    step == 2 ? IB_ACCESS_MW_BIND : access);
		mw = rdma_zalloc_drv_obj(e->ibdev, ib_mw);
		KUNIT_ASSERT_NOT_NULL(test, mw);
		mw->device = e->ibdev;
		mw->pd = e->pd;
		mw->type = IB_MW_TYPE_1;
		KUNIT_ASSERT_EQ(test, e->ibdev->ops.alloc_mw(mw, NULL), 0);
		old = mw->rkey;
		rkey = qp_env_bind(test, e, mw, mr, 256, 1024,
				   IRDMA_MR_RIGHT_REMOTE_WRITE | IRDMA_MR_RIGHT_REMOTE_READ);
		KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, 40);
		KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_BIND_MW);
		if (step == 2) {
			/* Remote writes through a window need the region's local write. */
			KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_MW_BIND_ERR);
			goto next;
		}
		KUNIT_ASSERT_EQ(test, wc[0].status, IB_WC_SUCCESS);
		switch (step) {
		case 0:
			/* Inside: a write lands, a read comes back. */
			memset(e->buf[0], 0x6b, 64);
			qp_env_rdma(test, e, IB_WR_RDMA_WRITE, 41, mr->iova + 300, rkey, 64);
			KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
			KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, memcmp(mem + 300, e->buf[0], 64), 0);
			KUNIT_EXPECT_EQ(test, mem[299], 0);
			memset(mem + 600, 0x2d, 32);
			qp_env_rdma(test, e, IB_WR_RDMA_READ, 42, mr->iova + 600, rkey, 32);
			KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
			KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, memcmp(mem + 600, e->buf[0], 32), 0);
			/* The key before the binding names nothing now. */
			qp_env_rdma(test, e, IB_WR_RDMA_WRITE, 43, mr->iova + 300, old, 8);
			break;
		case 1:
			/* Past the window's end, inside the region. */
			qp_env_rdma(test, e, IB_WR_RDMA_WRITE, 43, mr->iova + 1270, rkey, 16);
			break;
		case 3:
			/*
			 * A type 1 window cannot be invalidated: a general
			 * error, which the consumer sees as a flush.
			 */
			inv.ex.invalidate_rkey = rkey;
			KUNIT_ASSERT_EQ(test, ib_post_send(e->b, &inv, NULL), 0);
			KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 1), 1);
			KUNIT_EXPECT_EQ(test, wc[0].wr_id, 50);
			KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
			KUNIT_EXPECT_EQ(test, wc[0].vendor_err & 0xffff, IRDMA_FLUSH_GENERAL_ERR);
			goto next;
		}
		n = qp_env_poll(e, wc, 1);
		KUNIT_ASSERT_EQ(test, n, 1);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, 43);
		KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_REM_ACCESS_ERR);
next:
		KUNIT_EXPECT_EQ(test, e->ibdev->ops.dealloc_mw(mw), 0);
		kfree(mw);
		KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
		ib_dma_unmap_sg(e->ibdev, &sg, 1, DMA_BIDIRECTIONAL);
		qp_env_teardown(test, e);
	}
	__free_page(page);
}

/* One 100-byte send from QP a to QP b, its bytes checked. */
static void qp_env_send_check(struct kunit *test, struct qp_env *e)
{
	struct ib_sge sge = { e->dma[0], 100, e->pd->local_dma_lkey };
	struct ib_send_wr wr = {
		.wr_id = 1, .opcode = IB_WR_SEND, .sg_list = &sge, .num_sge = 1,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_wc wc[2], *r;
	int i;

	for (i = 0; i < 100; i++)
		e->buf[0][i] = 0x5a ^ i;
	memset(e->buf[1], 0, 100);
	qp_env_post_recv(test, e, e->b, 1, 2);
	KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	r = qp_env_find(wc, 2, 2);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[0], e->buf[1], 100), 0);
}

/*
 * Post @q (@quanta quanta, valid bits and all but the header's set here)
 * on QP a as work request @wr_id, in room a legal send of as many quanta
 * reserved, and ring.
 */
static void qp_env_post_raw(struct kunit *test, struct qp_env *e,
			    const u64 *q, u32 quanta, u64 wr_id)
{
	struct irdma_qp *qp = to_iwqp(e->a);
	struct irdma_sge sge[IRDMA_GEN2_MAX_WQ_FRAGS];
	struct irdma_sq_post p = {
		.wr_id = wr_id, .op = IRDMA_WQEOP_SEND, .signaled = true,
		.imm_valid = true, .sg = sge,
		/* An immediate and n fragments take 1 + (n + 1) / 2 quanta. */
		.num_sg = 2 * (quanta - 1) - 1,
	};
	unsigned long flags;
	__le64 *wqe;
	u64 valid;
	u32 i, idx, max_frags;
	int err;

	for (i = 0; i < p.num_sg; i++)
		sge[i] = (struct irdma_sge){ e->dma[0], 8, e->pd->local_dma_lkey };
	spin_lock_irqsave(&qp->lock, flags);
	/* Room for 8 quanta takes more fragments than this QP was made for. */
	max_frags = qp->uk.max_sq_frags;
	qp->uk.max_sq_frags = p.num_sg;
	err = irdma_uk_post_sq(&qp->uk, &p);
	qp->uk.max_sq_frags = max_frags;
	idx = (qp->uk.sq_ring.head + qp->uk.sq_ring.size - quanta) %
	      qp->uk.sq_ring.size;
	if (!err && qp->uk.sq_wr[idx].quanta != quanta)
		err = -ERANGE;
	if (!err) {
		wqe = qp->uk.sq + 4 * idx;
		valid = le64_to_cpu(wqe[3]) & IRDMA_WQE_VALID;
		for (i = 0; i < 4 * quanta; i++)
			if (i != 3)
				wqe[i] = cpu_to_le64(q[i] | (i % 4 == 3 ? valid : 0));
		dma_wmb();
		WRITE_ONCE(wqe[3], cpu_to_le64(q[3] | valid));
		irdma_uk_sq_ring_db(&qp->uk);
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	KUNIT_ASSERT_EQ(test, err, 0);
}

static u64 qp_env_frag(u32 len, u32 stag)
{
	return FIELD_PREP(IRDMA_WQE_FRAG_LEN, len) | FIELD_PREP(IRDMA_WQE_FRAG_STAG, stag);
}

/*
 * WQEs no driver writes, as a user process may write them into its own
 * ring: more fragments than the hardware takes, more inline data than
 * fits, fragment lengths whose sum wraps 32 bits (for a send and for a
 * read). Each ends the QP with an error completion; nothing is read past
 * the WQE or copied past a buffer (KASAN is on in this kernel), and the
 * peer receives nothing.
 */
static void irdma_qp_malformed_wqe_test(struct kunit *test)
{
	static const u32 wrap[] = { 0x100010, 0x7fffffff, 0x7ff00001 };
	enum { FRAGS16, INLINE255, SEND_WRAP, READ_WRAP, CASES };
	u64 q[IRDMA_MAX_QUANTA_PER_WR * 4];
	struct ib_wc wc[4];
	struct qp_env *e;
	u32 c, k, lkey;
	int n;

	for (c = 0; c < CASES; c++) {
		e = qp_env_setup(test, 7);
		lkey = e->pd->local_dma_lkey;
		memset(q, 0, sizeof(q));
		memset(e->buf[1], 0, TEST_BUF);
		qp_env_post_recv(test, e, e->b, 1, 900);
		switch (c) {
		case FRAGS16:
			/* The 16th would lie past the 8 quanta. */
			for (k = 0; k < 15; k++) {
				u64 *f = k ? q + 4 + 2 * (k - 1) : q;

				f[0] = e->dma[0];
				f[1] = qp_env_frag(8, lkey);
			}
			q[3] = FIELD_PREP(IRDMA_WQE_ADDFRAGCNT, 15);
			break;
		case INLINE255:
			q[3] = IRDMA_WQE_INLINEDATAFLAG |
			       FIELD_PREP(IRDMA_WQE_INLINEDATALEN, 255);
			break;
		case SEND_WRAP:
		case READ_WRAP:
			q[0] = e->dma[0];
			q[1] = qp_env_frag(wrap[0], lkey);
			for (k = 1; k < 3; k++) {
				q[4 + 2 * (k - 1)] = e->dma[0];
				q[5 + 2 * (k - 1)] = qp_env_frag(wrap[k], lkey);
			}
			q[3] = FIELD_PREP(IRDMA_WQE_ADDFRAGCNT, 2);
			if (c == READ_WRAP) {
				q[2] = e->dma[1];
				q[3] |= FIELD_PREP(IRDMA_WQE_REMSTAG,
						   e->pd->unsafe_global_rkey);
			}
			break;
		}
		q[3] |= FIELD_PREP(IRDMA_WQE_OPCODE, c == READ_WRAP ?
				   IRDMA_WQEOP_RDMA_READ : IRDMA_WQEOP_SEND) |
			IRDMA_WQE_SIGCOMPL;
		qp_env_post_raw(test, e, q, IRDMA_MAX_QUANTA_PER_WR, 800 + c);
		n = qp_env_poll(e, wc, 1);
		KUNIT_ASSERT_GE_MSG(test, n, 1, "case %u: no completion", c);
		KUNIT_EXPECT_EQ_MSG(test, wc[0].wr_id, 800 + c, "case %u", c);
		KUNIT_EXPECT_NE_MSG(test, wc[0].status, IB_WC_SUCCESS, "case %u", c);
		KUNIT_EXPECT_TRUE_MSG(test, !memchr_inv(e->buf[1], 0, TEST_BUF),
				      "case %u: the peer's buffer was written", c);
		qp_env_teardown(test, e);
	}
}

struct qp_env_destroy {
	struct irdma_fn *fn;
	struct ib_qp *qp;
	bool pending;
	struct completion done;
};

static int qp_env_ae_destroy_fn(void *data)
{
	struct qp_env_destroy *d = data;
	struct irdma_qp *qp = to_iwqp(d->qp);

	/*
	 * The event's work goes to this CPU's workqueue, whose worker cannot
	 * run while this real-time thread does not sleep: the work is still
	 * pending when the destroy begins (a QP in RESET is destroyed without
	 * a command before it gets there).
	 */
	sched_set_fifo(current);
	irdma_qp_async_event(d->fn, d->qp->qp_num, IRDMA_AE_AMP_INVALID_STAG,
			     IRDMA_AE_SOURCE_SQ, 0);
	d->pending = work_pending(&qp->ae_work);
	ib_destroy_qp(d->qp);
	complete(&d->done);
	return 0;
}

/*
 * A QP destroyed with its error event's work still pending: the destroy
 * returns (the work runs and gives back the QP it held), and the kernel
 * stays clean (nothing arms the flush work of a QP being freed).
 */
static void irdma_qp_destroy_pending_ae_test(struct kunit *test)
{
	struct qp_env_destroy d = {};
	struct task_struct *t;
	struct qp_env *e;

	e = qp_env_setup(test, 7);
	d.fn = auxiliary_get_drvdata(e->adev);
	d.qp = qp_env_qp(test, e, IB_QPT_RC);
	init_completion(&d.done);
	t = kthread_create(qp_env_ae_destroy_fn, &d, "irdma_test_destroy");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, raw_smp_processor_id());
	wake_up_process(t);
	KUNIT_ASSERT_TRUE_MSG(test, wait_for_completion_timeout(&d.done, 20 * HZ),
			      "destroy_qp never returned");
	KUNIT_EXPECT_TRUE(test, d.pending);
	qp_env_teardown(test, e);
}

struct qp_env_resize {
	struct ib_cq *cq;
	int entries;
	bool started;
	int ret;
	struct completion done;
};

static int qp_env_resize_fn(void *data)
{
	struct qp_env_resize *r = data;

	WRITE_ONCE(r->started, true);
	r->ret = ib_resize_cq(r->cq, r->entries);
	complete(&r->done);
	return 0;
}

/* CQP commands posted since @head (the ring's producer index then). */
static u32 qp_env_cqp_posted(struct irdma_fn *fn, u32 head)
{
	struct irdma_ring *ring = &fn->cqp.ring;

	return (READ_ONCE(ring->head) + ring->size - head) % ring->size;
}

/*
 * Two resizes of one kernel CQ at once: the second waits for the first
 * before it posts its command, so the hardware and the driver agree on
 * the ring (the hardware moves to the rings in the order the commands
 * run; unserialized, the driver could keep the other one). The
 * simulator's engine is held so the first command stays pending.
 */
static void irdma_qp_cq_resize_serial_test(struct kunit *test)
{
	struct qp_env_resize r[2] = {};
	struct task_struct *t[2];
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	struct qp_env *e;
	u32 head, posted;
	int i, ms;

	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	sdev = to_isim_dev(e->adev->dev.parent);
	for (i = 0; i < 2; i++) {
		r[i].cq = e->cq;
		r[i].entries = 300 + 300 * i;
		init_completion(&r[i].done);
	}

	mutex_lock(&sdev->engine_lock);
	head = READ_ONCE(fn->cqp.ring.head);
	for (i = 0; i < 2; i++) {
		t[i] = kthread_run(qp_env_resize_fn, &r[i], "irdma_test_resize%d", i);
		if (IS_ERR(t[i])) {
			mutex_unlock(&sdev->engine_lock);
			KUNIT_FAIL(test, "no resize thread: %ld", PTR_ERR(t[i]));
			if (i)
				wait_for_completion(&r[0].done);
			return;
		}
		/* The first one's command is posted before the second starts. */
		for (ms = 0; ms < 2000 && !i && !qp_env_cqp_posted(fn, head); ms++)
			usleep_range(1000, 2000);
	}
	/* Give the second every chance to post beside the first. */
	for (ms = 0; ms < 2000 && !READ_ONCE(r[1].started); ms++)
		usleep_range(1000, 2000);
	msleep(200);
	posted = qp_env_cqp_posted(fn, head);
	mutex_unlock(&sdev->engine_lock);
	for (i = 0; i < 2; i++)
		wait_for_completion(&r[i].done);

	KUNIT_EXPECT_EQ(test, posted, 1);
	KUNIT_EXPECT_EQ(test, r[0].ret, 0);
	KUNIT_EXPECT_EQ(test, r[1].ret, 0);
	KUNIT_EXPECT_GE(test, e->cq->cqe, 300);
	/* Completions arrive in the ring the driver reads. */
	qp_env_send_check(test, e);
	qp_env_teardown(test, e);
}

/*
 * Which SQ work keeps the simulator's threads quick to answer: a thread
 * that ran a short WQE of a user QP (one its process runs itself when the
 * engine lock is free) is not kept polling by it, or it would hold the lock
 * in every look from then on and crowd polling processes onto one CPU; a
 * kernel QP's WQE keeps it quick. QP a is made to look like a user QP to
 * the simulator for the first send; the engine lock keeps the threads out.
 */
static void irdma_qp_engine_quick_test(struct kunit *test)
{
	static const char msg[] = "a short message a process moves itself";
	struct ib_sge sge = { (uintptr_t)msg, sizeof(msg), 0 };
	struct ib_send_wr wr = {
		.opcode = IB_WR_SEND, .sg_list = &sge, .num_sge = 1,
		.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE,
	};
	bool quick[2] = { true, false }, work[2] = {};
	struct ib_wc wc[4], *r;
	struct isim_dev *sdev;
	struct isim_qp *sqp;
	struct qp_env *e;
	int i;

	e = qp_env_setup(test, 7);
	sdev = to_isim_dev(e->adev->dev.parent);
	for (i = 0; i < 2; i++) {
		memset(e->buf[1], 0, TEST_BUF);
		qp_env_post_recv(test, e, e->b, 1, 200 + i);
		mutex_lock(&sdev->engine_lock);
		sqp = xa_load(&sdev->qps, e->a->qp_num);
		if (!sqp || !sqp->priv) {
			mutex_unlock(&sdev->engine_lock);
			KUNIT_FAIL(test, "the simulator has no kernel QP %u", e->a->qp_num);
			break;
		}
		sqp->priv = i;
		wr.wr_id = 10 + i;
		if (!ib_post_send(e->a, &wr, NULL)) {
			quick[i] = false;
			work[i] = isim_qps_run(sdev, &quick[i]);
		}
		sqp->priv = true;
		mutex_unlock(&sdev->engine_lock);

		KUNIT_EXPECT_TRUE(test, work[i]);
		KUNIT_EXPECT_EQ(test, quick[i], !!i);
		KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
		r = qp_env_find(wc, 2, 200 + i);
		KUNIT_ASSERT_NOT_NULL(test, r);
		KUNIT_EXPECT_EQ(test, r->status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, r->byte_len, sizeof(msg));
		KUNIT_EXPECT_EQ(test, memcmp(e->buf[1], msg, sizeof(msg)), 0);
	}
	qp_env_teardown(test, e);
}

/*
 * Push pages, through the driver's own calls (Debian's provider has no
 * push path): pages are handed out in order, a QP context names only a
 * page handed out, and the function's 64 pages run out.
 */
static void irdma_qp_push_page_test(struct kunit *test)
{
	struct qp_env *e = qp_env_setup(test, 7);
	struct irdma_qp *a = to_iwqp(e->a), *b = to_iwqp(e->b);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTS, .min_rnr_timer = 1 };
	u32 taken[IRDMA_SIM_PUSH_PAGES];
	int i, n;

	irdma_alloc_push_page(a);
	irdma_alloc_push_page(b);
	KUNIT_ASSERT_TRUE(test, a->hw.push && b->hw.push);
	KUNIT_EXPECT_EQ(test, a->hw.push_idx, 0);
	KUNIT_EXPECT_EQ(test, b->hw.push_idx, 1);
	/* The contexts name the pages; traffic goes on. */
	KUNIT_EXPECT_EQ(test, ib_modify_qp(e->a, &attr, IB_QP_STATE | IB_QP_MIN_RNR_TIMER), 0);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(e->b, &attr, IB_QP_STATE | IB_QP_MIN_RNR_TIMER), 0);
	qp_env_send_check(test, e);

	/* A page given back may not be named. */
	irdma_dealloc_push_page(b);
	KUNIT_EXPECT_FALSE(test, b->hw.push);
	b->hw.push = true;
	b->hw.push_idx = 1;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(e->b, &attr, IB_QP_STATE | IB_QP_MIN_RNR_TIMER),
			-EINVAL);
	b->hw.push = false;

	/* 63 more pages are to be had, then none. */
	for (n = 0; n < IRDMA_SIM_PUSH_PAGES; n++) {
		irdma_alloc_push_page(b);
		if (!b->hw.push)
			break;
		taken[n] = b->hw.push_idx;
		b->hw.push = false;
	}
	KUNIT_EXPECT_EQ(test, n, IRDMA_SIM_PUSH_PAGES - 1);
	for (i = 0; i < n; i++) {
		b->hw.push = true;
		b->hw.push_idx = taken[i];
		irdma_dealloc_push_page(b);
	}
	irdma_alloc_push_page(b);
	KUNIT_EXPECT_TRUE(test, b->hw.push);
	KUNIT_EXPECT_EQ(test, b->hw.push_idx, 1);
	/* Destroying the QPs gives their pages back. */
	qp_env_teardown(test, e);
}

/* RC between QPs of two functions: the fabric carries it. */
/*
 * The LAN driver's side of the contract (ice on silicon, the native
 * front's callbacks here): the driver has the queue set its QPs name
 * attached to the transmit scheduler and the RDMA filter on while the
 * device lives. Without the queue set an SQ never runs; with the filter
 * off nothing reaches the engine, and the sender's retries run out. (That
 * both are undone when the driver lets go, tests/vm/sim-device.sh shows.)
 */
static void irdma_qp_lan_contract_test(struct kunit *test)
{
	struct ib_wc wc[4], *s;
	struct irdma_ws_leaf *leaf;
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	struct qp_env *e;
	bool filter;
	u64 refused;
	u32 teid;

	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	sdev = to_isim_dev(e->adev->dev.parent);
	leaf = &fn->ws.leaf[0];
	KUNIT_EXPECT_EQ(test, isim_lan_count(sdev, &filter), 1);
	KUNIT_EXPECT_TRUE(test, filter);
	KUNIT_ASSERT_TRUE(test, isim_qset_live(sdev, leaf->qs_handle));
	KUNIT_EXPECT_NE(test, leaf->teid, 0);
	KUNIT_EXPECT_EQ(test, to_iwqp(e->a)->hw.qs_handle, leaf->qs_handle);
	/* The leaf weighs its traffic class's share: all of the port. */
	KUNIT_EXPECT_EQ(test, fn->qos.num_tc, 1);
	KUNIT_EXPECT_EQ(test, sdev->lan.leaf_weight[leaf->qs_handle], 100);

	/* The queue set detached: the send waits in the SQ. */
	isim_qset_del(sdev, leaf->teid);
	refused = sdev->stats.tx_no_qset;
	memset(e->buf[1], 0, TEST_BUF);
	memset(e->buf[0], 0x5a, 64);
	qp_env_send(test, e, 1, 64);
	KUNIT_EXPECT_EQ(test, qp_env_poll_for(e, wc, 2, 200), 0);
	KUNIT_EXPECT_GT(test, sdev->stats.tx_no_qset, refused);
	KUNIT_EXPECT_EQ(test, e->buf[1][0], 0);

	/* Attached again: that send and the next go out. */
	KUNIT_ASSERT_EQ(test, isim_qset_add(sdev, leaf->qs_handle, 0, &teid), 0);
	leaf->teid = teid;
	qp_env_send(test, e, 2, 64);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 4), 4);
	s = qp_env_find(wc, 4, 1);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, s->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[0], e->buf[1], 64), 0);

	/* The filter off: the packets stay on the LAN side. */
	irdma_sim_rdma_filter(sdev, false);
	refused = sdev->stats.rx_filtered;
	qp_env_send(test, e, 3, 64);
	KUNIT_ASSERT_GE(test, qp_env_poll(e, wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 3);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_RETRY_EXC_ERR);
	KUNIT_EXPECT_GT(test, sdev->stats.rx_filtered, refused);
	irdma_sim_rdma_filter(sdev, true);
	qp_env_teardown(test, e);
}

/*
 * The priority of a RoCEv2 path's packets and their VLAN tag: the TOS's
 * priority (QPs take the DSCP's where the port maps DSCPs), in the tag's
 * top bits; with traffic classes told apart by VLAN priority, untagged
 * packets get VLAN 0.
 */
static void irdma_qp_vlan_prio_test(struct kunit *test)
{
	struct irdma_qos saved;
	struct irdma_fn *fn;
	struct qp_env *e;
	u16 tag;

	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	saved = fn->qos;
	/* IPTOS_LOWDELAY is interactive traffic, priority 6. */
	KUNIT_EXPECT_EQ(test, irdma_roce_user_pri(fn, e->gid, 0x10, IRDMA_UP_FROM_DSCP), 6);
	KUNIT_EXPECT_EQ(test, irdma_roce_user_pri(fn, e->gid, 0x10, IRDMA_UP_FROM_TOS), 6);
	KUNIT_EXPECT_TRUE(test, irdma_roce_vlan_tag(fn, 5, 6, &tag));
	KUNIT_EXPECT_EQ(test, tag, 5 | 6 << VLAN_PRIO_SHIFT);
	KUNIT_EXPECT_FALSE(test, irdma_roce_vlan_tag(fn, 0xffff, 6, &tag));

	/* DCB with two classes by VLAN priority. */
	fn->qos.num_tc = 2;
	KUNIT_EXPECT_TRUE(test, irdma_roce_vlan_tag(fn, 0xffff, 3, &tag));
	KUNIT_EXPECT_EQ(test, tag, 3 << VLAN_PRIO_SHIFT);

	/* By DSCP: QPs take the map's priority, address handles the TOS's. */
	fn->qos.dscp = true;
	fn->qos.dscp_map[0x10 >> 2] = 3;
	KUNIT_EXPECT_EQ(test, irdma_roce_user_pri(fn, e->gid, 0x10, IRDMA_UP_FROM_DSCP), 3);
	KUNIT_EXPECT_EQ(test, irdma_roce_user_pri(fn, e->gid, 0x10, IRDMA_UP_FROM_TOS), 6);
	KUNIT_EXPECT_FALSE(test, irdma_roce_vlan_tag(fn, 0xffff, 3, &tag));
	fn->qos = saved;
	qp_env_teardown(test, e);
}

static struct isim_qp *qp_env_sim_qp(struct isim_dev *sdev, struct ib_qp *qp)
{
	return xa_load(&sdev->qps, qp->qp_num);
}

/*
 * The port's traffic classes change (DCB), the LAN side telling the
 * driver before and after. Before: both QPs are suspended (SUSPEND_QP,
 * each reported), their queue set is gone, a send waits in the SQ and
 * no QP can be made. After, with priority 0 in class 1 of two: the QPs
 * send through class 1's new queue set (RESUME_QP), which weighs 60,
 * and the waiting send completes. A "tc-after" with no "tc-before" does
 * nothing. Changing the classes back takes the QPs to class 0 again.
 */
static void irdma_qp_tc_change_test(struct kunit *test)
{
	struct irdma_sim_qos two = {
		.num_tc = 2, .up2tc = { 1, 0, 0, 0, 0, 0, 0, 0 }, .rel_bw = { 40, 60 },
	};
	struct irdma_sim_qos one = { .num_tc = 1, .rel_bw = { 100 } };
	struct ib_qp_init_attr init = {};
	struct ib_wc wc[2];
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	struct ib_qp *extra;
	struct qp_env *e;
	u32 users;
	u64 events;
	u16 qs;
	bool filter;

	e = qp_env_setup(test, 7);
	fn = auxiliary_get_drvdata(e->adev);
	sdev = to_isim_dev(e->adev->dev.parent);
	events = sdev->stats.events;
	/* Ours and ib_core's GSI QP. */
	users = fn->ws.users;
	KUNIT_EXPECT_GE(test, users, 2);
	KUNIT_EXPECT_EQ(test, fn->ws.leaf[0].users, users);

	/* "After" with no "before": nothing changes. */
	KUNIT_ASSERT_EQ(test, irdma_sim_send_event(TEST_FN_ID,
						   BIT(IRDMA_SIM_EVENT_AFTER_TC), 0), 0);
	KUNIT_EXPECT_EQ(test, sdev->stats.events, events + 1);
	KUNIT_EXPECT_EQ(test, isim_lan_count(sdev, &filter), 1);
	KUNIT_EXPECT_FALSE(test, fn->ws.tc_change_pending);

	KUNIT_ASSERT_EQ(test, irdma_sim_send_event(TEST_FN_ID,
						   BIT(IRDMA_SIM_EVENT_BEFORE_TC), 0), 0);
	KUNIT_EXPECT_TRUE(test, fn->ws.tc_change_pending);
	KUNIT_EXPECT_EQ(test, atomic_read(&fn->ws.suspend_reqs), 0);
	KUNIT_EXPECT_TRUE(test, qp_env_sim_qp(sdev, e->a)->suspended);
	KUNIT_EXPECT_TRUE(test, qp_env_sim_qp(sdev, e->b)->suspended);
	KUNIT_EXPECT_EQ(test, isim_lan_count(sdev, &filter), 0);
	memset(e->buf[1], 0, TEST_BUF);
	memset(e->buf[0], 0x6b, 64);
	qp_env_send(test, e, 1, 64);
	KUNIT_EXPECT_EQ(test, qp_env_poll_for(e, wc, 2, 200), 0);
	init.send_cq = e->cq;
	init.recv_cq = e->cq;
	init.qp_type = IB_QPT_RC;
	init.cap.max_send_wr = 4;
	init.cap.max_recv_wr = 4;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	extra = ib_create_qp(e->pd, &init);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(extra), -EINVAL);
	if (!IS_ERR(extra))
		ib_destroy_qp(extra);

	/* The LAN side applies two classes, then says so. */
	spin_lock(&sdev->lan.lock);
	sdev->lan.qos = two;
	spin_unlock(&sdev->lan.lock);
	KUNIT_ASSERT_EQ(test, irdma_sim_send_event(TEST_FN_ID,
						   BIT(IRDMA_SIM_EVENT_AFTER_TC), 0), 0);
	KUNIT_EXPECT_FALSE(test, fn->ws.tc_change_pending);
	KUNIT_EXPECT_EQ(test, fn->qos.num_tc, 2);
	KUNIT_EXPECT_EQ(test, to_iwqp(e->a)->ws_tc, 1);
	qs = fn->ws.leaf[1].qs_handle;
	KUNIT_EXPECT_EQ(test, fn->ws.leaf[1].users, users);
	KUNIT_EXPECT_EQ(test, fn->ws.leaf[0].users, 0);
	KUNIT_EXPECT_EQ(test, isim_lan_count(sdev, &filter), 1);
	KUNIT_EXPECT_TRUE(test, isim_qset_live(sdev, qs));
	KUNIT_EXPECT_EQ(test, sdev->lan.leaf_weight[qs], 60);
	KUNIT_EXPECT_FALSE(test, qp_env_sim_qp(sdev, e->a)->suspended);
	KUNIT_EXPECT_EQ(test, qp_env_sim_qp(sdev, e->a)->qs_handle, qs);
	KUNIT_EXPECT_EQ(test, qp_env_sim_qp(sdev, e->b)->qs_handle, qs);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[0], e->buf[1], 64), 0);

	/* Back to one class, through the simulator's DCB path. */
	KUNIT_ASSERT_EQ(test, irdma_sim_set_qos(TEST_FN_ID, &one), 0);
	KUNIT_EXPECT_EQ(test, to_iwqp(e->a)->ws_tc, 0);
	KUNIT_EXPECT_EQ(test, fn->ws.leaf[0].users, users);
	KUNIT_EXPECT_EQ(test, isim_lan_count(sdev, &filter), 1);
	KUNIT_EXPECT_EQ(test, qp_env_sim_qp(sdev, e->b)->qs_handle,
			fn->ws.leaf[0].qs_handle);
	qp_env_send(test, e, 2, 64);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	qp_env_teardown(test, e);
}

/*
 * After a class change the scheduler refuses the new tree: every QP is
 * resumed as it was, then failed (a fatal event, the QP in error), and
 * nothing is left on the tree.
 */
/*
 * A new QP's context names the queue set of priority 0's class from its
 * CREATE_QP on, as the stock driver's does, not only once the QP has
 * joined the scheduler tree at RTR.
 */
static void irdma_qp_create_qs_handle_test(struct kunit *test)
{
	struct qp_env *e = qp_env_setup(test, 7);
	struct irdma_fn *fn = auxiliary_get_drvdata(e->adev);
	struct isim_dev *sdev = to_isim_dev(e->adev->dev.parent);
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct isim_qp *sqp;
	struct ib_qp *qp;

	init.send_cq = e->cq;
	init.recv_cq = e->cq;
	KUNIT_ASSERT_GT(test, fn->ws.leaf[0].users, 0);
	KUNIT_ASSERT_NE(test, fn->ws.leaf[0].qs_handle, 0);
	qp = ib_create_qp(e->pd, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	sqp = qp_env_sim_qp(sdev, qp);
	KUNIT_EXPECT_NOT_NULL(test, sqp);
	if (sqp)
		KUNIT_EXPECT_EQ(test, sqp->qs_handle, fn->ws.leaf[0].qs_handle);
	ib_destroy_qp(qp);
}

static void irdma_qp_tc_change_fail_test(struct kunit *test)
{
	struct qp_env *e = qp_env_setup(test, 7);
	struct irdma_fn *fn = auxiliary_get_drvdata(e->adev);
	struct isim_dev *sdev = to_isim_dev(e->adev->dev.parent);
	u64 resumed;
	int tries;

	KUNIT_ASSERT_EQ(test, irdma_sim_send_event(TEST_FN_ID,
						   BIT(IRDMA_SIM_EVENT_BEFORE_TC), 0), 0);
	resumed = sdev->stats.qps_resumed;
	/* Each QP tries the root node again, and is refused. */
	irdma_sim_fail_cqp_op(TEST_FN_ID, IRDMA_CQPOP_WORK_SCHED_NODE, 64);
	KUNIT_ASSERT_EQ(test, irdma_sim_send_event(TEST_FN_ID,
						   BIT(IRDMA_SIM_EVENT_AFTER_TC), 0), 0);
	irdma_sim_fail_cqp_op(TEST_FN_ID, IRDMA_CQPOP_WORK_SCHED_NODE, 0);
	KUNIT_EXPECT_GE(test, sdev->stats.qps_resumed, resumed + 2);
	for (tries = 0; tries < 200 && (qp_env_state(e->a) != IB_QPS_ERR ||
					qp_env_state(e->b) != IB_QPS_ERR); tries++)
		usleep_range(10000, 20000);
	KUNIT_EXPECT_EQ(test, qp_env_state(e->a), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_env_state(e->b), IB_QPS_ERR);
	KUNIT_EXPECT_FALSE(test, to_iwqp(e->a)->ws_joined);
	KUNIT_EXPECT_EQ(test, fn->ws.users, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&fn->ws.qps));
	qp_env_teardown(test, e);
}

/*
 * SQD: the hardware reports the SQ drained (the event the stock driver
 * waits for); the modify returns once it came, and the QP is in SQD.
 */
static void irdma_qp_sqd_test(struct kunit *test)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_SQD };
	struct qp_env *e = qp_env_setup(test, 7);

	KUNIT_EXPECT_EQ(test, ib_modify_qp(e->a, &attr, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, qp_env_state(e->a), IB_QPS_SQD);
	KUNIT_EXPECT_FALSE(test, to_iwqp(e->a)->suspend_pending);
	qp_env_teardown(test, e);
}

/*
 * An MTU change reaches the driver from the LAN side's worker: QPs made
 * afterwards take it.
 */
static void irdma_qp_mtu_event_test(struct kunit *test)
{
	struct qp_env *e = qp_env_setup(test, 7);
	struct irdma_fn *fn = auxiliary_get_drvdata(e->adev);
	struct net_device *ndev = fn->res.netdev;
	int tries, old = ndev->mtu;

	KUNIT_EXPECT_EQ(test, fn->mtu, old);
	rtnl_lock();
	KUNIT_EXPECT_EQ(test, dev_set_mtu(ndev, 1000), 0);
	rtnl_unlock();
	for (tries = 0; tries < 200 && READ_ONCE(fn->mtu) != 1000; tries++)
		usleep_range(5000, 10000);
	KUNIT_EXPECT_EQ(test, fn->mtu, 1000);
	rtnl_lock();
	dev_set_mtu(ndev, old);
	rtnl_unlock();
	for (tries = 0; tries < 200 && READ_ONCE(fn->mtu) != old; tries++)
		usleep_range(5000, 10000);
	KUNIT_EXPECT_EQ(test, fn->mtu, old);
	qp_env_teardown(test, e);
}

static void irdma_qp_two_fn_test(struct kunit *test)
{
	struct auxiliary_device *adev2;
	const struct ib_gid_attr *gid2;
	struct ib_device *ibdev2;
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr attr = {};
	struct ib_send_wr wr = {};
	struct ib_sge sge;
	struct ib_wc wc[2];
	struct ib_pd *pd2;
	struct ib_cq *cq2;
	struct ib_qp *c;
	struct irdma_fn *fn1, *fn2;
	struct qp_env *e;
	int n;

	e = qp_env_setup(test, 7);
	KUNIT_ASSERT_EQ(test, irdma_sim_add(TEST_FN_ID + 1, true), 0);
	adev2 = irdma_sim_adev(TEST_FN_ID + 1);
	KUNIT_ASSERT_NOT_NULL(test, adev2);
	fn2 = auxiliary_get_drvdata(adev2);
	ibdev2 = &fn_to_iwdev(fn2)->ibdev;
	gid2 = qp_env_gid(ibdev2);
	KUNIT_ASSERT_NOT_NULL(test, gid2);
	pd2 = ib_alloc_pd(ibdev2, 0);
	cq2 = ib_alloc_cq(ibdev2, NULL, 64, 0, IB_POLL_DIRECT);
	init = (struct ib_qp_init_attr){ .send_cq = cq2, .recv_cq = cq2,
		.qp_type = IB_QPT_RC, .cap = { 16, 16, 1, 1, 0 } };
	c = ib_create_qp(pd2, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));

	/* e->a on function 21 talks to c on function 22 and back. */
	attr.qp_state = IB_QPS_RESET;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(e->a, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_EQ(test, ib_destroy_qp(e->a), 0);
	e->a = qp_env_qp(test, e, IB_QPT_RC);
	e->dgid = gid2->gid;
	ether_addr_copy(e->mac, fn2->res.netdev->dev_addr);
	KUNIT_ASSERT_EQ(test, qp_env_connect(e, e->a, c->qp_num, 7), 0);
	e->dgid = e->gid->gid;
	fn1 = auxiliary_get_drvdata(e->adev);
	ether_addr_copy(e->mac, fn1->res.netdev->dev_addr);
	/* c's own source GID is function 22's. */
	{
		const struct ib_gid_attr *mine = e->gid;

		e->gid = gid2;
		KUNIT_ASSERT_EQ(test, qp_env_connect(e, c, e->a->qp_num, 7), 0);
		e->gid = mine;
	}

	strscpy(e->buf[0], "across functions", 64);
	sge = (struct ib_sge){ e->dma[0], 17, e->pd->local_dma_lkey };
	wr.wr_id = 800;
	wr.opcode = IB_WR_SEND;
	wr.send_flags = IB_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	{
		u8 *rbuf = kzalloc(64, GFP_KERNEL);
		u64 rdma = ib_dma_map_single(ibdev2, rbuf, 64, DMA_FROM_DEVICE);
		struct ib_sge rsge = { rdma, 64, pd2->local_dma_lkey };
		struct ib_recv_wr rwr = { .wr_id = 801, .sg_list = &rsge, .num_sge = 1 };

		KUNIT_ASSERT_EQ(test, ib_post_recv(c, &rwr, NULL), 0);
		KUNIT_ASSERT_EQ(test, ib_post_send(e->a, &wr, NULL), 0);
		KUNIT_EXPECT_EQ(test, qp_env_poll(e, wc, 1), 1);
		KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
		for (n = 0; n < 2000 && !ib_poll_cq(cq2, 1, wc); n++)
			usleep_range(500, 1000);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, 801);
		KUNIT_EXPECT_EQ(test, wc[0].byte_len, 17);
		ib_dma_unmap_single(ibdev2, rdma, 64, DMA_FROM_DEVICE);
		KUNIT_EXPECT_STREQ(test, (char *)rbuf, "across functions");
		kfree(rbuf);
	}
	ib_destroy_qp(c);
	ib_free_cq(cq2);
	ib_dealloc_pd(pd2);
	rdma_put_gid_attr(gid2);
	put_device(&adev2->dev);
	KUNIT_EXPECT_EQ(test, irdma_sim_del(TEST_FN_ID + 1), 0);
	qp_env_teardown(test, e);
}

static void qp_env_srq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		atomic_inc(ctx);
}

/* Post SRQ receives @first.. into 1 KiB slices of buffer 1. */
static void qp_env_post_srq(struct kunit *test, struct qp_env *e, int first,
			    int count)
{
	struct ib_sge sge;
	struct ib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	int i;

	for (i = first; i < first + count; i++) {
		sge = (struct ib_sge){ e->dma[1] + (i % 8) * 1024, 1024,
				       e->pd->local_dma_lkey };
		wr.wr_id = 200 + i;
		KUNIT_ASSERT_EQ(test, ib_post_srq_recv(e->srq, &wr, NULL), 0);
	}
}

/* Send @len bytes of pattern @seed from @from; its peer's SRQ takes it. */
static void qp_env_srq_send(struct kunit *test, struct qp_env *e,
			    struct ib_qp *from, u8 seed, u32 len, int recv)
{
	struct ib_sge sge = { e->dma[0], len, e->pd->local_dma_lkey };
	struct ib_send_wr wr = {
		.wr_id = seed, .opcode = IB_WR_SEND, .sg_list = &sge,
		.num_sge = 1, .send_flags = IB_SEND_SIGNALED,
	};
	struct ib_wc wc[2], *r;
	u32 i;

	for (i = 0; i < len; i++)
		e->buf[0][i] = seed + i;
	KUNIT_ASSERT_EQ(test, ib_post_send(from, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, qp_env_poll(e, wc, 2), 2);
	KUNIT_EXPECT_NOT_NULL(test, qp_env_find(wc, 2, seed));
	r = qp_env_find(wc, 2, 200 + recv);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, r->byte_len, len);
	KUNIT_EXPECT_PTR_EQ(test, r->qp, from == e->a ? e->b : e->a);
	/* RC completions name the receiving QP here, as upstream. */
	KUNIT_EXPECT_EQ(test, r->src_qp, r->qp->qp_num);
	KUNIT_EXPECT_EQ(test, memcmp(e->buf[1] + (recv % 8) * 1024, e->buf[0], len), 0);
}

static void irdma_qp_srq_test(struct kunit *test)
{
	atomic_t events = ATOMIC_INIT(0);
	struct ib_srq_init_attr init = {
		.event_handler = qp_env_srq_event,
		.srq_context = &events,
		.srq_type = IB_SRQT_BASIC,
		.attr = { .max_wr = 16, .max_sge = 2 },
	};
	struct ib_qp_attr err_attr = { .qp_state = IB_QPS_ERR };
	struct ib_recv_wr rwr = {}, *bad_rwr;
	struct ib_srq_attr attr;
	struct qp_env *e;
	int i, tries;

	e = qp_env_setup_srq(test, 7, &init);
	KUNIT_EXPECT_EQ(test, e->ibdev->attrs.max_srq, 1023);
	KUNIT_EXPECT_EQ(test, e->ibdev->attrs.max_srq_wr, 32767);
	KUNIT_EXPECT_EQ(test, e->ibdev->attrs.max_srq_sge, 13);
	/* 16 WRs of 2 SGEs: 64-byte WQEs, 64 quanta, 31 usable. */
	KUNIT_EXPECT_EQ(test, init.attr.max_wr, 31);
	KUNIT_ASSERT_EQ(test, ib_query_srq(e->srq, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.max_wr, 31);
	KUNIT_EXPECT_EQ(test, attr.max_sge, 3);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 0);

	/* The QPs' own receive queues are closed. */
	KUNIT_EXPECT_EQ(test, ib_post_recv(e->b, &rwr, (const struct ib_recv_wr **)&bad_rwr),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad_rwr, &rwr);

	/* Both QPs take from the one SRQ, in the order of posting. */
	qp_env_post_srq(test, e, 0, 4);
	qp_env_srq_send(test, e, e->a, 11, 1000, 0);
	qp_env_srq_send(test, e, e->b, 22, 24, 1);
	qp_env_srq_send(test, e, e->a, 33, 1024, 2);

	/* One left; four more make five. Below three fires once. */
	qp_env_post_srq(test, e, 4, 4);
	attr.srq_limit = 3;
	KUNIT_ASSERT_EQ(test, ib_modify_srq(e->srq, &attr, IB_SRQ_LIMIT), 0);
	KUNIT_ASSERT_EQ(test, ib_query_srq(e->srq, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 3);
	qp_env_srq_send(test, e, e->b, 44, 64, 3);
	qp_env_srq_send(test, e, e->a, 55, 64, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&events), 0);
	qp_env_srq_send(test, e, e->a, 66, 64, 5);
	for (tries = 0; tries < 200 && !atomic_read(&events); tries++)
		usleep_range(5000, 10000);
	KUNIT_EXPECT_EQ(test, atomic_read(&events), 1);
	KUNIT_ASSERT_EQ(test, ib_query_srq(e->srq, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 0);
	qp_env_srq_send(test, e, e->b, 77, 64, 6);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&events), 1);

	/* No resizing, no limit beyond the ring, no destroy while in use. */
	attr.max_wr = 8;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(e->srq, &attr, IB_SRQ_MAX_WR), -EINVAL);
	attr.srq_limit = 33;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(e->srq, &attr, IB_SRQ_LIMIT), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(e->srq, NULL), -EBUSY);

	/* A full SRQ refuses more, naming the first refused. */
	qp_env_post_srq(test, e, 8, 30);
	rwr.wr_id = 999;
	KUNIT_EXPECT_EQ(test, ib_post_srq_recv(e->srq, &rwr,
					       (const struct ib_recv_wr **)&bad_rwr),
			-ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad_rwr, &rwr);
	for (i = 0; i < 2; i++)
		qp_env_srq_send(test, e, e->a, 80 + i, 16, 7 + i);

	/* In error, a QP says it takes no more from the SRQ (ib_drain_qp()). */
	KUNIT_EXPECT_FALSE(test, completion_done(&e->b->srq_completion));
	KUNIT_ASSERT_EQ(test, ib_modify_qp(e->b, &err_attr, IB_QP_STATE), 0);
	KUNIT_EXPECT_TRUE(test, completion_done(&e->b->srq_completion));
	qp_env_teardown(test, e);
}

static struct kunit_case irdma_qp_cases[] = {
	KUNIT_CASE_SLOW(irdma_qp_mcast_test),
	KUNIT_CASE_SLOW(irdma_qp_mw_test),
	KUNIT_CASE_SLOW(irdma_qp_mw_bind_test),
	KUNIT_CASE_SLOW(irdma_qp_push_page_test),
	KUNIT_CASE_SLOW(irdma_qp_two_fn_test),
	KUNIT_CASE_SLOW(irdma_qp_lan_contract_test),
	KUNIT_CASE_SLOW(irdma_qp_vlan_prio_test),
	KUNIT_CASE_SLOW(irdma_qp_rc_send_test),
	KUNIT_CASE_SLOW(irdma_qp_rc_write_read_test),
	KUNIT_CASE_SLOW(irdma_qp_fast_reg_test),
	KUNIT_CASE_SLOW(irdma_qp_rnr_test),
	KUNIT_CASE_SLOW(irdma_qp_flush_test),
	KUNIT_CASE_SLOW(irdma_qp_bad_wr_test),
	KUNIT_CASE_SLOW(irdma_qp_rq_error_idx_test),
	KUNIT_CASE_SLOW(irdma_qp_ae_target_test),
	KUNIT_CASE_SLOW(irdma_qp_paged_aeq_test),
	KUNIT_CASE_SLOW(irdma_qp_paged_pble_test),
	KUNIT_CASE_SLOW(irdma_qp_tc_change_test),
	KUNIT_CASE_SLOW(irdma_qp_tc_change_fail_test),
	KUNIT_CASE_SLOW(irdma_qp_create_qs_handle_test),
	KUNIT_CASE_SLOW(irdma_qp_sqd_test),
	KUNIT_CASE_SLOW(irdma_qp_mtu_event_test),
	KUNIT_CASE(irdma_ae_target_table_test),
	KUNIT_CASE_SLOW(irdma_qp_ud_test),
	KUNIT_CASE_SLOW(irdma_qp_atomic_ah_test),
	KUNIT_CASE_SLOW(irdma_qp_cq_resize_test),
	KUNIT_CASE_SLOW(irdma_qp_cq_ack_test),
	KUNIT_CASE_SLOW(irdma_qp_first_sd_test),
	KUNIT_CASE_SLOW(irdma_qp_cq_resize_serial_test),
	KUNIT_CASE_SLOW(irdma_qp_engine_quick_test),
	KUNIT_CASE_SLOW(irdma_qp_destroy_pending_ae_test),
	KUNIT_CASE_SLOW(irdma_qp_malformed_wqe_test),
	KUNIT_CASE_SLOW(irdma_qp_arp_reclaim_test),
	KUNIT_CASE_SLOW(irdma_qp_count_errno_test),
	KUNIT_CASE_SLOW(irdma_qp_srq_test),
	{}
};

static struct kunit_suite irdma_qp_suite = {
	.name = "irdma_qp",
	.test_cases = irdma_qp_cases,
};

kunit_test_suite(irdma_qp_suite);
