// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Enough user MRs that their PBLEs outgrow the PBLE segment the driver
 * backed at bring-up, so it must back another while the process that
 * registers runs; the test runs it where no 2 MiB block is to be had, so
 * that segment is paged. RDMA writes through the last MR land at offsets
 * across all of its pages, and RDMA reads bring them back, every byte
 * compared, on an RC QP connected to itself.
 *
 *   mr-paged DEVICE GID-INDEX MRS
 */
#include <stdint.h>
#include <sys/mman.h>

#include "ibv-self.h"

#define PAGE	4096UL
#define MIB	(1024UL * 1024)
#define SPAN	(64 * MIB)	/* each MR: 16384 pages, as many PBLEs */
#define STEP	MIB	/* one write per MiB */
#define LEN	256

/**
 * main - register MRS MRs over one buffer, use the last
 * @argc: argument count
 * @argv: device name, GID index, number of MRs
 *
 * Return: 0 if every write and read moved the right bytes, 1 otherwise,
 * 2 on a usage error.
 */
int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_mr **mrs, *lmr;
	__u8 *mem, *local;
	struct ibv_pd *pd;
	int gidx, n, i, k, bad = 0;
	size_t off;

	if (argc != 4)
		return 2;
	gidx = atoi(argv[2]);
	n = atoi(argv[3]);
	if (n < 1)
		return 2;
	pd = self_open(argv[1], gidx, &ctx, &list);
	/* Small pages: one PBLE for each 4 KiB of every MR. */
	mem = mmap(NULL, SPAN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap", errno);
	madvise(mem, SPAN, MADV_NOHUGEPAGE);
	memset(mem, 0, SPAN);
	local = aligned_alloc(PAGE, 2 * LEN);
	mrs = calloc(n, sizeof(*mrs));
	if (!local || !mrs)
		die("memory", ENOMEM);
	lmr = ibv_reg_mr(pd, local, 2 * LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!lmr)
		die("ibv_reg_mr (local)", errno);
	for (i = 0; i < n; i++) {
		mrs[i] = ibv_reg_mr(pd, mem, SPAN, IBV_ACCESS_LOCAL_WRITE |
				    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
		if (!mrs[i]) {
			printf("FAIL: MR %d of %d: %s\n", i + 1, n, strerror(errno));
			return 1;
		}
	}

	for (k = 0, off = 0; off < SPAN; off += STEP, k++) {
		__u64 at = off + (k * 4096UL + k * 24) % STEP;

		for (i = 0; i < LEN; i++)
			local[i] = (__u8)(k * 31 + i);
		post(IBV_WR_RDMA_WRITE, 2 * k, local, LEN, lmr->lkey,
		     (uintptr_t)mem + at, mrs[n - 1]->rkey);
		if (status_of(2 * k) != IBV_WC_SUCCESS)
			die("RDMA write", EIO);
		if (memcmp(mem + at, local, LEN)) {
			printf("FAIL: write %d at %#llx went elsewhere\n", k,
			       (unsigned long long)at);
			bad = 1;
		}
		memset(local + LEN, 0, LEN);
		post(IBV_WR_RDMA_READ, 2 * k + 1, local + LEN, LEN, lmr->lkey,
		     (uintptr_t)mem + at, mrs[n - 1]->rkey);
		if (status_of(2 * k + 1) != IBV_WC_SUCCESS)
			die("RDMA read", EIO);
		if (memcmp(local + LEN, local, LEN)) {
			printf("FAIL: read %d at %#llx brought other bytes\n", k,
			       (unsigned long long)at);
			bad = 1;
		}
	}
	for (i = 0; i < n; i++)
		if (ibv_dereg_mr(mrs[i]))
			die("ibv_dereg_mr", errno);
	ibv_dereg_mr(lmr);
	self_close(pd, ctx, list);
	if (!bad)
		printf("ok: %d MRs of %lu MiB; %d writes and reads through the last\n",
		       n, SPAN / MIB, k);
	return bad;
}
