// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * User MRs on huge pages, through libibverbs and the irdma provider as
 * applications use them: several 2 MiB pages, hugetlbfs or transparent,
 * not in physical order, and RDMA writes, reads and sends at offsets
 * inside every one of them. Each operation's bytes are compared, and at
 * the end the whole region against what it should hold: a device that
 * reads the page list at the wrong page size puts the bytes on the wrong
 * page (or another process's memory) and completes without error.
 *
 *   mr-huge DEVICE GID-INDEX hugetlb|thp PAGES
 *
 * An RC QP connected to itself moves the data. hugetlb needs PAGES free
 * huge pages (vm.nr_hugepages); thp needs transparent huge pages on
 * madvise or always. Root, to read pagemap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/types.h>
#include <infiniband/verbs.h>

#include "ibv-self.h"

#define PAGE	4096UL
#define HUGE	(2UL << 20)
#define WRITE_LEN	300
#define READ_LEN	700
#define SEND_LEN	200

/* The page frame behind @va, or 0 if it has none. */
static __u64 pfn_of(const void *va)
{
	__u64 entry = 0;
	int pm = open("/proc/self/pagemap", O_RDONLY);

	if (pm < 0)
		die("opening pagemap", errno);
	if (pread(pm, &entry, sizeof(entry), (uintptr_t)va / PAGE * 8) != sizeof(entry))
		entry = 0;
	close(pm);
	return entry >> 63 ? entry & ((1ULL << 55) - 1) : 0;
}

/* Each 2 MiB page is one huge page; not all follow each other in memory. */
static int huge_and_scattered(const __u8 *mem, int n)
{
	int k, in_order = 1;

	for (k = 0; k < n; k++) {
		__u64 first = pfn_of(mem + k * HUGE);

		if (!first || first % (HUGE / PAGE) ||
		    pfn_of(mem + (k + 1) * HUGE - PAGE) != first + HUGE / PAGE - 1)
			return -1;
		if (k && pfn_of(mem + (k - 1) * HUGE) + HUGE / PAGE != first)
			in_order = 0;
	}
	return !in_order;
}

/* @n huge pages, touched last first, so that they are not in order. */
static __u8 *huge_region(int thp, int n)
{
	__u8 *mem, *raw;
	int tries, k, ok;

	for (tries = 0; tries < 4; tries++) {
		if (thp) {
			raw = mmap(NULL, (n + 1) * HUGE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (raw == MAP_FAILED)
				die("anonymous memory", errno);
			mem = (__u8 *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
			if (madvise(mem, n * HUGE, MADV_HUGEPAGE))
				die("madvise(MADV_HUGEPAGE)", errno);
		} else {
			mem = mmap(NULL, n * HUGE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
			if (mem == MAP_FAILED)
				die("hugetlb pages (vm.nr_hugepages?)", errno);
		}
		for (k = n - 1; k >= 0; k--)
			memset(mem + k * HUGE, 0, HUGE);
		ok = huge_and_scattered(mem, n);
		if (ok < 0)
			die(thp ? "not backed by transparent huge pages" :
				  "not backed by huge pages", EINVAL);
		if (ok)
			return mem;
		/* In order after all: these stay mapped, others are taken. */
	}
	die("huge pages out of physical order", EAGAIN);
	return NULL;
}

/* The next @n completions, which must be successful and @ids' (any order). */
static void complete(const __u64 *ids, int n, const char *what)
{
	struct ibv_wc wc;
	int got = 0, tries, i, r;

	for (tries = 0; tries < 20000 && got < n; tries++) {
		r = ibv_poll_cq(cq, 1, &wc);
		if (r < 0)
			die("ibv_poll_cq", EIO);
		if (!r) {
			usleep(100);
			continue;
		}
		for (i = 0; i < n && ids[i] != wc.wr_id; i++)
			;
		if (wc.status != IBV_WC_SUCCESS || i == n) {
			printf("FAIL: %s: completion %llu: %s (vendor error %#x)\n", what,
			       (unsigned long long)wc.wr_id, ibv_wc_status_str(wc.status),
			       wc.vendor_err);
			exit(1);
		}
		got++;
	}
	if (got < n) {
		printf("FAIL: %s: %d of %d completions\n", what, got, n);
		exit(1);
	}
}

static void fill(__u8 *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (__u8)(seed * 31 + i * 7 + (i >> 8));
}

static int check(const char *what, int k, const void *got, const void *want, size_t len)
{
	int bad = memcmp(got, want, len) != 0;

	printf("%s: %s in huge page %d\n", bad ? "FAIL" : "ok", what, k);
	return bad;
}

/**
 * main - writes, reads and sends through a user MR on huge pages
 * @argc: argument count
 * @argv: device name, GID index, hugetlb or thp, number of huge pages
 *
 * Return: 0 if every byte went where it was sent, 1 otherwise or on a
 * setup failure, 2 on a usage error.
 */
int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_mr *mr, *lmr;
	struct ibv_pd *pd;
	__u8 *mem, *want, *local;
	int n, k, thp, gidx, bad = 0;

	if (argc != 5 || (strcmp(argv[3], "thp") && strcmp(argv[3], "hugetlb"))) {
		fprintf(stderr, "usage: %s DEVICE GID-INDEX hugetlb|thp PAGES\n", argv[0]);
		return 2;
	}
	gidx = atoi(argv[2]);
	thp = !strcmp(argv[3], "thp");
	n = atoi(argv[4]);
	if (n < 2 || n > 64)
		return 2;

	pd = self_open(argv[1], gidx, &ctx, &list);

	mem = huge_region(thp, n);
	want = calloc(n, HUGE);
	local = calloc(1, 2 * PAGE);
	if (!want || !local)
		die("memory", ENOMEM);
	mr = ibv_reg_mr(pd, mem, n * HUGE, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	lmr = ibv_reg_mr(pd, local, 2 * PAGE, IBV_ACCESS_LOCAL_WRITE);
	if (!mr || !lmr)
		die("ibv_reg_mr", errno);
	printf("%d %s pages at %p, MR rkey %#x\n", n, thp ? "transparent huge" : "hugetlb",
	       (void *)mem, mr->rkey);

	for (k = 0; k < n; k++) {
		/* Past the first 4 KiB of the page, a different place in each. */
		__u64 off = k * HUGE + PAGE * (2 * k + 1) + 8 * k + 24;
		struct ibv_sge rsge = { (uintptr_t)(mem + off + 3 * PAGE), SEND_LEN, mr->lkey };
		struct ibv_recv_wr rwr = { .wr_id = 300 + k, .sg_list = &rsge, .num_sge = 1 };
		struct ibv_recv_wr *rbad;

		/* An RDMA write into the page. */
		fill(local, WRITE_LEN, k);
		post(IBV_WR_RDMA_WRITE, 100 + k, local, WRITE_LEN, lmr->lkey,
		     (uintptr_t)mem + off, mr->rkey);
		complete((__u64[]){ 100 + k }, 1, "RDMA write");
		memcpy(want + off, local, WRITE_LEN);
		bad += check("RDMA write", k, mem + off, want + off, WRITE_LEN);

		/* An RDMA read out of it, of bytes the CPU put there. */
		fill(mem + off + PAGE, READ_LEN, 100 + k);
		memcpy(want + off + PAGE, mem + off + PAGE, READ_LEN);
		memset(local, 0, READ_LEN);
		post(IBV_WR_RDMA_READ, 200 + k, local, READ_LEN, lmr->lkey,
		     (uintptr_t)mem + off + PAGE, mr->rkey);
		complete((__u64[]){ 200 + k }, 1, "RDMA read");
		bad += check("RDMA read", k, local, mem + off + PAGE, READ_LEN);

		/* A send received into it. */
		if (ibv_post_recv(qp, &rwr, &rbad))
			die("ibv_post_recv", errno);
		fill(local, SEND_LEN, 200 + k);
		post(IBV_WR_SEND, 400 + k, local, SEND_LEN, lmr->lkey, 0, 0);
		complete((__u64[]){ 300 + k, 400 + k }, 2, "send and receive");
		memcpy(want + off + 3 * PAGE, local, SEND_LEN);
		bad += check("send", k, mem + off + 3 * PAGE, want + off + 3 * PAGE, SEND_LEN);
	}
	/* Nothing landed anywhere else in the region. */
	for (k = 0; k < n; k++)
		if (memcmp(mem + k * HUGE, want + k * HUGE, HUGE)) {
			printf("FAIL: bytes changed elsewhere in huge page %d\n", k);
			bad++;
		}
	ibv_dereg_mr(mr);
	ibv_dereg_mr(lmr);
	self_close(pd, ctx, list);
	printf("%s: writes, reads and sends through %d %s pages\n", bad ? "FAIL" : "PASS",
	       n, thp ? "transparent huge" : "hugetlb");
	return bad ? 1 : 0;
}
