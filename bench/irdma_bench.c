// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_bench: measures the kernel verbs of an RDMA device and prints the
 * numbers; it asserts nothing. Loaded with dev=<name> (default irdma0), it
 * runs once at load and stays loaded until removed.
 *
 *   post_send+poll_cq   a signaled 64-byte RDMA write, posted and polled
 *   send+recv           a 64-byte send into a posted receive, both polled
 *   qp_lifecycle        create, modify to RTS, destroy an RC QP
 *   fast_reg            register a 4-page MR by work request, invalidate it
 *   cqp                 create and destroy a CQ (two CQP commands)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *dev = "irdma0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "RDMA device to measure");

static unsigned int iters = 2000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "operations per data-path measurement");

#define BENCH_BUF	4096

struct bench {
	struct ib_device *ibdev;
	const struct ib_gid_attr *gid;
	u8 dmac[ETH_ALEN];
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *a, *b;
	void *buf;
	u64 dma;
};

static const struct ib_gid_attr *bench_gid(struct ib_device *ibdev)
{
	const struct ib_gid_attr *attr;
	int i;

	for (i = 0; i < 16; i++) {
		attr = rdma_get_gid_attr(ibdev, 1, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP)
			return attr;
		rdma_put_gid_attr(attr);
	}
	return NULL;
}

static struct ib_qp *bench_qp(struct bench *b)
{
	struct ib_qp_init_attr init = {
		.send_cq = b->cq, .recv_cq = b->cq, .qp_type = IB_QPT_RC,
		.cap = { .max_send_wr = 64, .max_recv_wr = 64,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ib_create_qp(b->pd, &init);
}

static int bench_connect(struct bench *b, struct ib_qp *qp, u32 dest)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT, .port_num = 1,
				   .qp_access_flags = IB_ACCESS_REMOTE_WRITE };
	union ib_gid dgid;
	int err;

	err = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = dest;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 1;
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	dgid = b->gid->gid;
	rdma_ah_set_grh(&attr.ah_attr, &dgid, 0, b->gid->index, 64, 0);
	ether_addr_copy(attr.ah_attr.roce.dmac, b->dmac);
	err = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.timeout = 14;
	attr.max_rd_atomic = 1;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

/* Poll until @n completions, all successful; false on error or timeout. */
static bool bench_poll(struct bench *b, int n)
{
	unsigned long end = jiffies + 10 * HZ;
	struct ib_wc wc[4];
	int got, i;

	while (n > 0) {
		got = ib_poll_cq(b->cq, min(n, 4), wc);
		for (i = 0; i < got; i++)
			if (wc[i].status != IB_WC_SUCCESS)
				return false;
		n -= got;
		if (!got) {
			if (time_after(jiffies, end))
				return false;
			cond_resched();
		}
	}
	return true;
}

static void bench_report(const char *what, unsigned int n, ktime_t start,
			 const char *unit_per_op)
{
	s64 ns = ktime_to_ns(ktime_sub(ktime_get(), start));

	if (!n || ns <= 0)
		return;
	pr_info("%s: %u ops in %lld us: %lld ns/op, %lld ops/s%s\n", what, n,
		ns / 1000, ns / n, div64_s64((s64)n * NSEC_PER_SEC, ns),
		unit_per_op);
}

static void bench_write(struct bench *b)
{
	struct ib_sge sge = { b->dma, 64, b->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = { .opcode = IB_WR_RDMA_WRITE, .send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge, .num_sge = 1 },
		.remote_addr = b->dma + 2048, .rkey = b->pd->unsafe_global_rkey,
	};
	ktime_t start = ktime_get();
	unsigned int i;

	for (i = 0; i < iters; i++)
		if (ib_post_send(b->a, &wr.wr, NULL) || !bench_poll(b, 1))
			break;
	bench_report("post_send+poll_cq (64 B RDMA write)", i, start, "");
}

static void bench_send(struct bench *b)
{
	struct ib_sge sge = { b->dma, 64, b->pd->local_dma_lkey };
	struct ib_sge rsge = { b->dma + 1024, 64, b->pd->local_dma_lkey };
	struct ib_send_wr wr = { .opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
				 .sg_list = &sge, .num_sge = 1 };
	struct ib_recv_wr rwr = { .sg_list = &rsge, .num_sge = 1 };
	ktime_t start = ktime_get();
	unsigned int i;

	for (i = 0; i < iters; i++)
		if (ib_post_recv(b->b, &rwr, NULL) || ib_post_send(b->a, &wr, NULL) ||
		    !bench_poll(b, 2))
			break;
	bench_report("send+recv (64 B, both polled)", i, start, "");
}

static void bench_qp_lifecycle(struct bench *b)
{
	unsigned int i, n = max(iters / 40, 10U);
	ktime_t start = ktime_get();
	struct ib_qp *qp;

	for (i = 0; i < n; i++) {
		qp = bench_qp(b);
		if (IS_ERR(qp))
			break;
		if (bench_connect(b, qp, b->b->qp_num)) {
			ib_destroy_qp(qp);
			break;
		}
		ib_destroy_qp(qp);
	}
	bench_report("qp_lifecycle (create, RESET->RTS, destroy)", i, start, "");
}

static void bench_fast_reg(struct bench *b)
{
	unsigned int i, n = max(iters / 4, 10U);
	struct scatterlist sg[4];
	struct ib_reg_wr reg = {};
	struct ib_send_wr inv = {};
	ktime_t start;
	struct ib_mr *mr;
	u8 key = 0;

	mr = ib_alloc_mr(b->pd, IB_MR_TYPE_MEM_REG, 4);
	if (IS_ERR(mr))
		return;
	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++) {
		sg_dma_address(&sg[i]) = b->dma;
		sg_dma_len(&sg[i]) = PAGE_SIZE;
	}
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	inv.opcode = IB_WR_LOCAL_INV;
	inv.send_flags = IB_SEND_SIGNALED;
	start = ktime_get();
	for (i = 0; i < n; i++) {
		ib_update_fast_reg_key(mr, ++key);
		if (ib_map_mr_sg(mr, sg, 4, NULL, PAGE_SIZE) != 4)
			break;
		reg.key = mr->rkey;
		inv.ex.invalidate_rkey = mr->rkey;
		if (ib_post_send(b->a, &reg.wr, NULL) || !bench_poll(b, 1) ||
		    ib_post_send(b->a, &inv, NULL) || !bench_poll(b, 1))
			break;
	}
	bench_report("fast_reg (4-page REG_MR + LOCAL_INV)", i, start, " registrations");
	ib_dereg_mr(mr);
}

static void bench_cqp(struct bench *b)
{
	unsigned int i, n = max(iters / 10, 10U);
	ktime_t start = ktime_get();
	struct ib_cq *cq;

	for (i = 0; i < n; i++) {
		cq = ib_alloc_cq(b->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
		if (IS_ERR(cq))
			break;
		ib_free_cq(cq);
	}
	bench_report("cqp (CREATE_CQ + DESTROY_CQ)", 2 * i, start, " CQP commands");
}

static void bench_cleanup(struct bench *b)
{
	if (b->buf) {
		ib_dma_unmap_single(b->ibdev, b->dma, BENCH_BUF, DMA_BIDIRECTIONAL);
		kfree(b->buf);
	}
	if (!IS_ERR_OR_NULL(b->a))
		ib_destroy_qp(b->a);
	if (!IS_ERR_OR_NULL(b->b))
		ib_destroy_qp(b->b);
	if (!IS_ERR_OR_NULL(b->cq))
		ib_free_cq(b->cq);
	if (!IS_ERR_OR_NULL(b->pd))
		ib_dealloc_pd(b->pd);
	if (b->gid)
		rdma_put_gid_attr(b->gid);
	ib_device_put(b->ibdev);
}

static int __init irdma_bench_init(void)
{
	struct bench b = {};
	struct net_device *ndev;

	b.ibdev = ib_device_get_by_name(dev, RDMA_DRIVER_UNKNOWN);
	if (!b.ibdev) {
		pr_err("no RDMA device %s\n", dev);
		return -ENODEV;
	}
	b.gid = bench_gid(b.ibdev);
	ndev = ib_device_get_netdev(b.ibdev, 1);
	if (!b.gid || !ndev) {
		pr_err("%s has no RoCEv2 GID or netdev\n", dev);
		dev_put(ndev);
		bench_cleanup(&b);
		return -ENODEV;
	}
	ether_addr_copy(b.dmac, ndev->dev_addr);
	dev_put(ndev);

	b.pd = ib_alloc_pd(b.ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	b.cq = IS_ERR(b.pd) ? NULL : ib_alloc_cq(b.ibdev, NULL, 256, 0, IB_POLL_DIRECT);
	b.a = IS_ERR_OR_NULL(b.cq) ? NULL : bench_qp(&b);
	b.b = IS_ERR_OR_NULL(b.a) ? NULL : bench_qp(&b);
	b.buf = IS_ERR_OR_NULL(b.b) ? NULL : kzalloc(BENCH_BUF, GFP_KERNEL);
	if (!b.buf || bench_connect(&b, b.a, b.b->qp_num) ||
	    bench_connect(&b, b.b, b.a->qp_num)) {
		pr_err("setting up on %s failed\n", dev);
		bench_cleanup(&b);
		return -EIO;
	}
	b.dma = ib_dma_map_single(b.ibdev, b.buf, BENCH_BUF, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(b.ibdev, b.dma)) {
		kfree(b.buf);
		b.buf = NULL;
		bench_cleanup(&b);
		return -EIO;
	}

	pr_info("measuring %s, %u iterations\n", dev, iters);
	bench_write(&b);
	bench_send(&b);
	bench_qp_lifecycle(&b);
	bench_fast_reg(&b);
	bench_cqp(&b);
	bench_cleanup(&b);
	return 0;
}

static void __exit irdma_bench_exit(void)
{
}

module_init(irdma_bench_init);
module_exit(irdma_bench_exit);
MODULE_DESCRIPTION("Kernel verbs benchmark for irdma");
MODULE_LICENSE("Dual BSD/GPL");
