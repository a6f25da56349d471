// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What a user registration costs the kernel is charged to the user's
 * memory cgroup: registering queue memory makes the driver list the
 * addresses of all its 4 KiB pages (8 bytes a page) for a moment, and that
 * list is the user's to pay for. Run inside a cgroup: the memory is
 * touched first, the cgroup's peak is reset (on an fd of memory.peak,
 * kernel 6.12), the memory is registered as a CQ's ring, and the peak must
 * have risen by most of the list's size.
 *
 *   mr-memcg /dev/infiniband/uverbsN CGROUP-DIR MIB
 *
 * Prints the rise in bytes; exits 0 if it covers three quarters of the
 * list, 1 if not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>

#include "uverbs-cmd.h"

#define PAGE	4096UL

static void die(const char *what, int err)
{
	printf("FAIL: %s: %s\n", what, strerror(err));
	exit(1);
}

/* A cgroup file's number, read through @cfd from its start. */
static unsigned long long read_counter(int cfd)
{
	char buf[32] = "";

	if (pread(cfd, buf, sizeof(buf) - 1, 0) <= 0)
		die("reading a memory counter", errno);
	return strtoull(buf, NULL, 10);
}

/**
 * main - register queue memory in a cgroup and check what it was charged
 * @argc: argument count
 * @argv: the uverbs device, the cgroup's directory, the size in MiB
 *
 * Return: 0 if the cgroup's peak rose by three quarters of the page list
 * or more, 1 if not or on a setup failure, 2 on a usage error.
 */
int main(int argc, char **argv)
{
	struct irdma_alloc_ucontext_resp uctx = {};
	struct irdma_mem_reg_req drv = { .reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = 1 };
	struct ib_uverbs_reg_mr req = { .access_flags = 1 };
	struct {
		struct ib_uverbs_reg_mr_resp core;
		__u64 pad[2];
	} resp = {};
	unsigned long long before, peak, list;
	char path[512];
	size_t len, off;
	const char *what;
	int peakfd, curfd, err;
	__u32 pd = 0;
	__u8 *mem;

	if (argc != 4) {
		fprintf(stderr, "usage: %s UVERBS-DEVICE CGROUP-DIR MIB\n", argv[0]);
		return 2;
	}
	len = strtoul(argv[3], NULL, 0) << 20;
	list = len / PAGE * 8;

	err = open_context_pd(argv[1], &uctx, &pd, &what);
	if (err)
		die(what, err);

	/* All of it present before the peak is reset. */
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap", errno);
	for (off = 0; off < len; off += PAGE)
		mem[off] = 0x5a;

	snprintf(path, sizeof(path), "%s/memory.peak", argv[2]);
	peakfd = open(path, O_RDWR);
	snprintf(path, sizeof(path), "%s/memory.current", argv[2]);
	curfd = open(path, O_RDONLY);
	if (peakfd < 0 || curfd < 0)
		die("the cgroup's memory files", errno);
	if (write(peakfd, "reset", 5) != 5)
		die("resetting memory.peak", errno);
	before = read_counter(curfd);

	req.start = (uintptr_t)mem;
	req.hca_va = (uintptr_t)mem;
	req.length = len;
	req.pd_handle = pd;
	err = cmd(IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req), &drv, sizeof(drv),
		  &resp, sizeof(resp));
	if (err)
		die("REG_MR", err);
	peak = read_counter(peakfd);

	printf("%s MiB in 4 KiB pages: page list %llu bytes, cgroup peak rose %lld bytes\n",
	       argv[3], list, (long long)(peak - before));
	return peak >= before + list * 3 / 4 ? 0 : 1;
}
