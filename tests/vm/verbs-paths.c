// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Three verbs paths the perftest and rdma_cm tools do not take, each with
 * its outcome checked, for the trace comparison of the two drivers:
 *
 *  - a CQ resized while it holds completions: the four RDMA writes
 *    completed before ibv_resize_cq() are still polled after it, then
 *    four more on the larger ring, bytes compared;
 *  - a QP moved to the error state with receives posted: each comes
 *    back flushed (IBV_WC_WR_FLUSH_ERR), in order;
 *  - two UD QPs attached to one multicast group and detached again.
 *
 *   verbs-paths DEVICE GID-INDEX
 */
#include <stdint.h>
#include <arpa/inet.h>

#include "ibv-self.h"

#define PAGE	4096UL
#define LEN	256
#define NRECV	4

/* Four RDMA writes of a pattern from page 0 to page 1, one per quarter. */
static void four_writes(struct ibv_mr *mr, __u8 *mem, int round)
{
	int i;

	for (i = 0; i < 4 * LEN; i++)
		mem[i] = (__u8)(round * 29 + i);
	memset(mem + PAGE, 0, 4 * LEN);
	for (i = 0; i < 4; i++)
		post(IBV_WR_RDMA_WRITE, 100 * round + i, mem + i * LEN, LEN,
		     mr->lkey, (uintptr_t)mem + PAGE + i * LEN, mr->rkey);
}

static int resize_with_completions(struct ibv_mr *mr, __u8 *mem)
{
	int round, i;

	for (round = 1; round <= 2; round++) {
		four_writes(mr, mem, round);
		/* Let the writes complete into the ring about to be replaced. */
		usleep(200000);
		if (round == 1 && ibv_resize_cq(cq, 256))
			die("ibv_resize_cq to 256", errno);
		for (i = 0; i < 4; i++)
			if (status_of(100 * round + i) != IBV_WC_SUCCESS) {
				printf("FAIL: write %d of round %d\n", i, round);
				return 1;
			}
		if (memcmp(mem, mem + PAGE, 4 * LEN)) {
			printf("FAIL: bytes of round %d\n", round);
			return 1;
		}
	}
	printf("ok: CQ resized to %d entries with four completions in it\n",
	       cq->cqe);
	return 0;
}

static int flush_receives(struct ibv_mr *mr, __u8 *mem)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_sge sge = { (uintptr_t)mem + 2 * PAGE, LEN, mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	int i;

	for (i = 0; i < NRECV; i++) {
		wr.wr_id = 1000 + i;
		if (ibv_post_recv(qp, &wr, &bad))
			die("ibv_post_recv", errno);
	}
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		die("to ERR", errno);
	for (i = 0; i < NRECV; i++)
		if (status_of(1000 + i) != IBV_WC_WR_FLUSH_ERR) {
			printf("FAIL: receive %d not flushed\n", i);
			return 1;
		}
	printf("ok: %d receives flushed after the move to ERR\n", NRECV);
	return 0;
}

static struct ibv_qp *ud_qp(struct ibv_pd *pd)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x11111111,
	};
	struct ibv_qp *q = ibv_create_qp(pd, &init);

	if (!q)
		die("UD ibv_create_qp", errno);
	if (ibv_modify_qp(q, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY))
		die("UD to INIT", errno);
	return q;
}

static int multicast(struct ibv_pd *pd)
{
	union ibv_gid group = {};
	struct ibv_qp *q[2];
	int i, err;

	/* 239.1.2.3 as a RoCEv2 GID: ::ffff:239.1.2.3 */
	group.raw[10] = 0xff;
	group.raw[11] = 0xff;
	inet_pton(AF_INET, "239.1.2.3", &group.raw[12]);
	for (i = 0; i < 2; i++) {
		q[i] = ud_qp(pd);
		err = ibv_attach_mcast(q[i], &group, 0);
		if (err)
			die("ibv_attach_mcast", err);
	}
	for (i = 1; i >= 0; i--) {
		err = ibv_detach_mcast(q[i], &group, 0);
		if (err)
			die("ibv_detach_mcast", err);
		if (ibv_destroy_qp(q[i]))
			die("UD ibv_destroy_qp", errno);
	}
	printf("ok: two UD QPs attached to 239.1.2.3 and detached\n");
	return 0;
}

/**
 * main - a CQ resize, a flush, a multicast group
 * @argc: argument count
 * @argv: device name, GID index
 *
 * Return: 0 if every path did what it should, 1 otherwise, 2 on a usage
 * error.
 */
int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	__u8 *mem;
	int bad;

	if (argc != 3)
		return 2;
	pd = self_open(argv[1], atoi(argv[2]), &ctx, &list);
	mr = self_mem(pd, 3, &mem);
	bad = resize_with_completions(mr, mem) || flush_receives(mr, mem) ||
	      multicast(pd);
	ibv_dereg_mr(mr);
	self_close(pd, ctx, list);
	free(mem);
	return bad;
}
