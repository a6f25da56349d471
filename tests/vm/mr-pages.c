// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A user MR on 2 MiB pages that are not physically contiguous: the device
 * must be told the MR's page size, or it takes each PBLE for a 4 KiB page
 * and an RDMA write lands on the wrong page (and past the PBLE list, in
 * memory of anyone). Raw uverbs commands and WQEs written as libirdma
 * writes them: a PD, a CQ, an RC QP connected to itself, a destination MR
 * over two huge pages touched in reverse order, then inline RDMA writes at
 * offsets within the MR's first 8 KiB (which a 4 KiB reading would send
 * into the second huge page, still the MR's own memory).
 *
 *   mr-pages /dev/infiniband/uverbsN GID-FILE
 *
 * Needs two free 2 MiB huge pages (vm.nr_hugepages) and root (pagemap).
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

#define PAGE		4096UL
#define HUGE		(2UL << 20)
#define QUANTUM_QWORDS	4

/* An SQ WQE's header qword (the E810's layout, as libirdma writes it). */
#define WQE_OP_RDMA_WRITE	0x00ULL
#define WQE_OPCODE_SHIFT	32
#define WQE_INLINE_LEN_SHIFT	48
#define BIT_ULL(n)		(1ULL << (n))
#define WQE_INLINE		BIT_ULL(57)
#define WQE_SIGNALED		BIT_ULL(62)
#define WQE_VALID		BIT_ULL(63)

static void die(const char *what, int err)
{
	printf("FAIL: %s: %s\n", what, strerror(err));
	exit(1);
}

/* A registration; its remote key. */
static __u32 reg(__u32 pd, void *mem, size_t len, __u32 access, __u16 type,
		 __u16 a, __u16 b)
{
	struct irdma_mem_reg_req drv = { .reg_type = type };
	struct ib_uverbs_reg_mr req = {
		.start = (uintptr_t)mem, .length = len, .hca_va = (uintptr_t)mem,
		.pd_handle = pd, .access_flags = access,
	};
	struct {
		struct ib_uverbs_reg_mr_resp core;
		__u64 pad[2];
	} resp = {};
	int err;

	if (type == IRDMA_MEMREG_TYPE_CQ) {
		drv.cq_pages = a;
	} else if (type == IRDMA_MEMREG_TYPE_QP) {
		drv.sq_pages = a;
		drv.rq_pages = b;
	}
	err = cmd(IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req), &drv, sizeof(drv),
		  &resp, sizeof(resp));
	if (err)
		die("REG_MR", err);
	return resp.core.rkey;
}

static __u32 modify(__u32 qp, struct ib_uverbs_modify_qp *req)
{
	req->qp_handle = qp;
	return cmd(IB_USER_VERBS_CMD_MODIFY_QP, req, sizeof(*req), NULL, 0, NULL, 0);
}

/* RESET to RTS, the QP its own peer. */
static void connect_self(__u32 qp, __u32 qpn, const __u8 *gid, int gidx)
{
	struct ib_uverbs_modify_qp req = {
		.attr_mask = (1 << 0) | (1 << 3) | (1 << 4) | (1 << 5),
		.qp_state = 1, .port_num = 1, .qp_access_flags = 0xe,
	};
	int err;

	err = modify(qp, &req);
	if (err)
		die("to INIT", err);
	memset(&req, 0, sizeof(req));
	req.attr_mask = (1 << 0) | (1 << 7) | (1 << 8) | (1 << 20) | (1 << 12) |
			(1 << 17) | (1 << 15);
	req.qp_state = 2;
	req.path_mtu = 3;
	req.dest_qp_num = qpn;
	req.max_dest_rd_atomic = 1;
	req.min_rnr_timer = 1;
	memcpy(req.dest.dgid, gid, 16);
	req.dest.sgid_index = gidx;
	req.dest.hop_limit = 64;
	req.dest.is_global = 1;
	req.dest.port_num = 1;
	err = modify(qp, &req);
	if (err)
		die("to RTR", err);
	memset(&req, 0, sizeof(req));
	req.attr_mask = (1 << 0) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 16) |
			(1 << 13);
	req.qp_state = 3;
	req.timeout = 14;
	req.retry_cnt = 7;
	req.rnr_retry = 7;
	req.max_rd_atomic = 1;
	err = modify(qp, &req);
	if (err)
		die("to RTS", err);
}

/* The page frame behind @va (root reads it from pagemap), or 0. */
static __u64 pfn_of(const void *va)
{
	__u64 entry = 0;
	int pm = open("/proc/self/pagemap", O_RDONLY);

	if (pm < 0)
		return 0;
	if (pread(pm, &entry, sizeof(entry), (uintptr_t)va / PAGE * 8) != sizeof(entry))
		entry = 0;
	close(pm);
	return entry >> 63 ? entry & ((1ULL << 55) - 1) : 0;
}

/*
 * Two huge pages, the second touched first: then not one run of physical
 * memory in order (checked), so the MR takes a list of two 2 MiB PBLEs.
 */
static __u8 *two_huge_pages(void)
{
	__u8 *mem;
	int tries;

	for (tries = 0; tries < 4; tries++) {
		mem = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (mem == MAP_FAILED)
			die("two huge pages (vm.nr_hugepages?)", errno);
		memset(mem + HUGE, 0, HUGE);
		memset(mem, 0, HUGE);
		if (!pfn_of(mem) || !pfn_of(mem + HUGE))
			die("reading pagemap", EPERM);
		if (pfn_of(mem) + HUGE / PAGE != pfn_of(mem + HUGE))
			return mem;
		/* In order after all: these stay mapped, others are taken. */
	}
	die("two huge pages out of order", EAGAIN);
	return NULL;
}

/* CQE @i of a CQ's first pass is written (its valid bit, qword 3, set). */
static int cqe_valid(const void *ring, int i)
{
	const __u64 *cqe = (const __u64 *)ring + 4 * i;

	return __atomic_load_n(&cqe[3], __ATOMIC_ACQUIRE) >> 63;
}

/**
 * main - RDMA writes through a user MR on two huge pages, checked
 * @argc: argument count
 * @argv: the uverbs device, then the sysfs file of the RoCE GID to use
 *
 * Return: 0 if every byte landed where it was sent, 1 otherwise or on a
 * setup failure, 2 on a usage error.
 */
int main(int argc, char **argv)
{
	struct irdma_alloc_ucontext_resp uctx = {};
	const char *what;
	__u32 pd = 0;
	struct ib_uverbs_create_cq cqreq = { .cqe = 8, .comp_channel = -1 };
	struct irdma_create_cq_req cqdrv = {};
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct irdma_create_cq_resp drv;
	} cq = {};
	struct ib_uverbs_create_qp qpreq = {
		.max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
		.max_recv_sge = 1, .max_inline_data = 64, .qp_type = 2,
		.sq_sig_all = 1,
	};
	struct irdma_create_qp_req qpdrv = {};
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct irdma_create_qp_resp drv;
	} qp = {};
	static const __u64 offsets[] = { 16, PAGE + 8 };
	__u32 rkey;
	unsigned int g[8];
	__u8 gid[16], *mem;
	__u64 *sq, pattern;
	void *cqring, *shadow, *rings;
	__u32 *db;
	int err, i, k, gidx, bad = 0;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: %s UVERBS-DEVICE GID-FILE\n", argv[0]);
		return 2;
	}
	f = fopen(argv[2], "r");
	if (!f || fscanf(f, "%x:%x:%x:%x:%x:%x:%x:%x", &g[0], &g[1], &g[2], &g[3],
			 &g[4], &g[5], &g[6], &g[7]) != 8)
		die("reading the GID", EINVAL);
	fclose(f);
	for (k = 0; k < 8; k++) {
		gid[2 * k] = g[k] >> 8;
		gid[2 * k + 1] = g[k] & 0xff;
	}
	gidx = atoi(strrchr(argv[2], '/') + 1);

	err = open_context_pd(argv[1], &uctx, &pd, &what);
	if (err)
		die(what, err);
	db = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, fd, uctx.db_mmap_key);
	if (db == MAP_FAILED)
		die("mapping the doorbell page", errno);

	if (posix_memalign(&cqring, PAGE, 2 * PAGE) || posix_memalign(&shadow, PAGE, PAGE) ||
	    posix_memalign(&rings, PAGE, 16 * PAGE))
		die("memory", ENOMEM);
	memset(cqring, 0, 2 * PAGE);
	memset(shadow, 0, PAGE);
	memset(rings, 0, 16 * PAGE);
	reg(pd, cqring, 2 * PAGE, 1, IRDMA_MEMREG_TYPE_CQ, 2, 0);
	reg(pd, shadow, PAGE, 1, IRDMA_MEMREG_TYPE_CQ, 1, 0);
	cqdrv.user_cq_buf = (uintptr_t)cqring;
	cqdrv.user_shadow_area = (uintptr_t)shadow;
	err = cmd(IB_USER_VERBS_CMD_CREATE_CQ, &cqreq, sizeof(cqreq), &cqdrv, sizeof(cqdrv),
		  &cq, sizeof(cq));
	if (err)
		die("CREATE_CQ", err);
	reg(pd, rings, 16 * PAGE, 1, IRDMA_MEMREG_TYPE_QP, 8, 7);
	qpreq.pd_handle = pd;
	qpreq.send_cq_handle = cq.core.cq_handle;
	qpreq.recv_cq_handle = cq.core.cq_handle;
	qpdrv.user_wqe_bufs = (uintptr_t)rings;
	err = cmd(IB_USER_VERBS_CMD_CREATE_QP, &qpreq, sizeof(qpreq), &qpdrv, sizeof(qpdrv),
		  &qp, sizeof(qp));
	if (err)
		die("CREATE_QP", err);
	connect_self(qp.core.qp_handle, qp.drv.qp_id, gid, gidx);

	mem = two_huge_pages();
	/* Local and remote write: the device writes it for the peer. */
	rkey = reg(pd, mem, 2 * HUGE, 1 | 2, IRDMA_MEMREG_TYPE_MEM, 0, 0);

	/* Inline RDMA writes, one quantum each: 8 data bytes in qword 1. */
	sq = rings;
	for (i = 0; i < 2; i++) {
		__u64 *wqe = sq + i * QUANTUM_QWORDS;

		pattern = 0x5a5a000000000000ULL | (offsets[i] << 8) | i;
		wqe[1] = pattern;
		wqe[2] = (uintptr_t)mem + offsets[i];
		__atomic_store_n(&wqe[3], rkey | WQE_OP_RDMA_WRITE << WQE_OPCODE_SHIFT |
				 WQE_INLINE | 8ULL << WQE_INLINE_LEN_SHIFT |
				 WQE_SIGNALED | WQE_VALID, __ATOMIC_RELEASE);
	}
	__atomic_store_n(db, qp.drv.qp_id, __ATOMIC_RELEASE);

	/* The writes are done once the CQ holds their two completions. */
	for (k = 0; k < 200 && !cqe_valid(cqring, 1); k++)
		usleep(10000);
	for (i = 0; i < 2; i++) {
		__u64 st = __atomic_load_n((__u64 *)cqring + 4 * i + 3, __ATOMIC_ACQUIRE);

		/* Major and minor error codes, bits 31:16 and 15:0 of qword 3. */
		printf("%s: completion %d: valid %llu, error %#llx\n",
		       st >> 63 && !(st & 0xffffffff) ? "ok" : "FAIL", i,
		       (unsigned long long)(st >> 63), (unsigned long long)(st & 0xffffffff));
		bad += !(st >> 63) || (st & 0xffffffff);
	}
	for (i = 0; i < 2; i++) {
		__u64 want = 0x5a5a000000000000ULL | (offsets[i] << 8) | i;
		__u64 got = __atomic_load_n((__u64 *)(mem + offsets[i]), __ATOMIC_ACQUIRE);

		printf("%s: RDMA write at MR offset %#llx: %#llx, want %#llx\n",
		       got == want ? "ok" : "FAIL", (unsigned long long)offsets[i],
		       (unsigned long long)got, (unsigned long long)want);
		bad += got != want;
	}
	/* Nothing anywhere else in the MR: a 4 KiB reading of the PBLEs puts
	 * the second write on the second huge page.
	 */
	for (k = 0; k < (int)(2 * HUGE / 8); k++) {
		__u64 off = (__u64)k * 8;

		if (off == offsets[0] || off == offsets[1])
			continue;
		if (((__u64 *)mem)[k]) {
			printf("FAIL: MR offset %#llx written: %#llx\n",
			       (unsigned long long)off, (unsigned long long)((__u64 *)mem)[k]);
			bad++;
			break;
		}
	}
	/* The process's objects go with its file. */
	close(fd);
	printf("%s: a user MR on two 2 MiB pages out of order\n", bad ? "FAIL" : "PASS");
	return bad ? 1 : 0;
}
