// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One RC QP connected to itself that must keep working across what the
 * test does to the port meanwhile (a change of its traffic classes): an
 * RDMA write and read-back, every byte compared, before and after. It
 * prints "ready" after the first round and waits for a line on standard
 * input before the second.
 *
 *   qp-hold DEVICE GID-INDEX
 */
#include <stdint.h>

#include "ibv-self.h"

#define PAGE	4096UL
#define LEN	512

static int round_trip(struct ibv_mr *mr, __u8 *mem, int round)
{
	int i;

	for (i = 0; i < LEN; i++)
		mem[i] = (__u8)(round * 37 + i);
	memset(mem + PAGE, 0, LEN);
	memset(mem + 2 * PAGE, 0, LEN);
	post(IBV_WR_RDMA_WRITE, 2 * round, mem, LEN, mr->lkey,
	     (uintptr_t)mem + PAGE, mr->rkey);
	if (status_of(2 * round) != IBV_WC_SUCCESS)
		return 1;
	post(IBV_WR_RDMA_READ, 2 * round + 1, mem + 2 * PAGE, LEN, mr->lkey,
	     (uintptr_t)mem + PAGE, mr->rkey);
	if (status_of(2 * round + 1) != IBV_WC_SUCCESS)
		return 1;
	return memcmp(mem, mem + PAGE, LEN) || memcmp(mem, mem + 2 * PAGE, LEN);
}

/**
 * main - a write and a read, a pause, a write and a read
 * @argc: argument count
 * @argv: device name, GID index
 *
 * Return: 0 if both rounds moved the right bytes, 1 otherwise, 2 on a
 * usage error.
 */
int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	char line[16];
	__u8 *mem;

	if (argc != 3)
		return 2;
	pd = self_open(argv[1], atoi(argv[2]), &ctx, &list);
	mr = self_mem(pd, 3, &mem);
	if (round_trip(mr, mem, 1)) {
		printf("FAIL: before\n");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		die("no go-ahead", EIO);
	if (round_trip(mr, mem, 2)) {
		printf("FAIL: after\n");
		return 1;
	}
	ibv_dereg_mr(mr);
	self_close(pd, ctx, list);
	printf("ok: the QP moved the right bytes before and after\n");
	return 0;
}
