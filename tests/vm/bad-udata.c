// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Malformed user requests to irdma through the raw uverbs write()
 * interface: short and oversized driver data, unknown registration types,
 * rings never registered or registered as something else, impossible
 * sizes, handles used twice. Every call must fail with the errno the
 * driver documents; the caller checks the kernel log and leftovers.
 *
 *   bad-udata /dev/infiniband/uverbs0
 *   bad-udata /dev/infiniband/uverbs0 push GID-FILE
 *   bad-udata /dev/infiniband/uverbs0 doorbell SIM-STATS-FILE
 *
 * Where upstream irdma is known to accept what ours refuses (queue
 * memory pinned read-only, rings smaller than their queue, a queue's
 * rings deregistered under it, a user CQ over max_cqe),
 * BAD_UDATA_STOCK=1 in the environment skips those requests: they would
 * only show the oracle's defects.
 *
 * With "push" (irdma loaded with push_mode=1) it also takes a QP to RTS
 * through the extended modify command and follows its push pages' mmap
 * entries from the modify response to the QP's destruction. With
 * "doorbell" it maps the context's doorbell page and has the kernel write
 * into it, which the simulator must not count as the process ringing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>

#include "uverbs-cmd.h"

/* QP types as ib_core numbers them. */
#define QPT_RC	2
#define QPT_UC	3

static int failures;
/* The driver under test is Debian's irdma.ko. */
static int stock;
/* The QP the last successful create_qp() made. */
static __u32 last_qp;

static void expect(const char *what, int got, int want)
{
	if (got == want) {
		printf("ok: %s -> %s\n", what, want ? strerror(want) : "success");
		return;
	}
	printf("FAIL: %s -> %s, want %s\n", what, got ? strerror(got) : "success",
	       want ? strerror(want) : "success");
	failures++;
}

/* The get-context response: the core's, then the driver's. */
struct context_resp {
	struct ib_uverbs_get_context_resp core;
	struct irdma_alloc_ucontext_resp drv;
};

/* The response an i40iw provider expects (X722 only). */
#define I40IW_RESP_LEN	(sizeof(struct ib_uverbs_get_context_resp) + \
			 offsetof(struct irdma_alloc_ucontext_resp, feature_flags))

static int get_context(const void *drv, size_t drv_len,
		       struct context_resp *resp, size_t resp_len)
{
	struct ib_uverbs_get_context req = {};

	return cmd(IB_USER_VERBS_CMD_GET_CONTEXT, &req, sizeof(req), drv, drv_len,
		   resp, resp_len);
}

static __u32 reg_mr_access(__u32 pd, void *addr, size_t len, __u32 access,
			   const struct irdma_mem_reg_req *drv, size_t drv_len,
			   int *err)
{
	struct ib_uverbs_reg_mr req = {
		.start = (uintptr_t)addr, .length = len, .hca_va = (uintptr_t)addr,
		.pd_handle = pd, .access_flags = access,
	};
	struct {
		struct ib_uverbs_reg_mr_resp core;
		__u64 drv[2];
	} resp = {};

	*err = cmd(IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req), drv, drv_len,
		   &resp, sizeof(resp));
	return resp.core.mr_handle;
}

/* A registration with local write access, as libirdma makes them. */
static __u32 reg_mr(__u32 pd, void *addr, size_t len,
		    const struct irdma_mem_reg_req *drv, size_t drv_len, int *err)
{
	return reg_mr_access(pd, addr, len, 1, drv, drv_len, err);
}

static int dereg_mr(__u32 handle)
{
	struct ib_uverbs_dereg_mr req = { .mr_handle = handle };

	/* DEREG_MR has no response: its first field is the handle. */
	return cmd(IB_USER_VERBS_CMD_DEREG_MR, &req, sizeof(req), NULL, 0, NULL, 0);
}

static int create_cq(int cqe, const void *drv, size_t drv_len, __u32 *handle)
{
	struct ib_uverbs_create_cq req = { .cqe = cqe, .comp_channel = -1 };
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct irdma_create_cq_resp drv;
	} resp = {};
	int err = cmd(IB_USER_VERBS_CMD_CREATE_CQ, &req, sizeof(req), drv,
		      drv_len, &resp, sizeof(resp));

	*handle = resp.core.cq_handle;
	return err;
}

static int resize_cq(__u32 handle, int cqe, const void *drv, size_t drv_len)
{
	struct ib_uverbs_resize_cq req = { .cq_handle = handle, .cqe = cqe };
	struct ib_uverbs_resize_cq_resp resp = {};

	return cmd(IB_USER_VERBS_CMD_RESIZE_CQ, &req, sizeof(req), drv, drv_len,
		   &resp, sizeof(resp));
}

static int create_qp(__u32 pd, __u32 cq, int type, __u32 wrs,
		     __u32 inl, const void *drv, size_t drv_len)
{
	struct ib_uverbs_create_qp req = {
		.pd_handle = pd, .send_cq_handle = cq, .recv_cq_handle = cq,
		.max_send_wr = wrs, .max_recv_wr = 4, .max_send_sge = 1,
		.max_recv_sge = 1, .max_inline_data = inl, .qp_type = type,
	};
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct irdma_create_qp_resp drv;
	} resp = {};
	int err = cmd(IB_USER_VERBS_CMD_CREATE_QP, &req, sizeof(req), drv,
		      drv_len, &resp, sizeof(resp));

	if (!err)
		last_qp = resp.core.qp_handle;
	return err;
}

static int destroy_qp(__u32 handle)
{
	struct ib_uverbs_destroy_qp req = { .qp_handle = handle };
	struct ib_uverbs_destroy_qp_resp resp;

	return cmd(IB_USER_VERBS_CMD_DESTROY_QP, &req, sizeof(req), NULL, 0,
		   &resp, sizeof(resp));
}

static int destroy_cq(__u32 handle)
{
	struct ib_uverbs_destroy_cq req = { .cq_handle = handle };
	struct ib_uverbs_destroy_cq_resp resp;

	return cmd(IB_USER_VERBS_CMD_DESTROY_CQ, &req, sizeof(req), NULL, 0,
		   &resp, sizeof(resp));
}

/*
 * Queue memory the device writes: pinned writable whatever the access
 * asked for, as large as the queue, and held while the queue lives.
 */
static void queue_memory_test(__u32 pd)
{
	struct irdma_mem_reg_req cq_reg = { .reg_type = IRDMA_MEMREG_TYPE_CQ,
					    .cq_pages = 1 };
	struct irdma_mem_reg_req qp_reg = { .reg_type = IRDMA_MEMREG_TYPE_QP,
					    .sq_pages = 1, .rq_pages = 1 };
	struct irdma_create_cq_req cqreq = {};
	struct irdma_create_qp_req qpreq = {};
	char path[] = "/tmp/bad-udata-XXXXXX";
	__u32 ring, shadow, rings, cq, big;
	void *ro, *mem;
	int tmp, err;

	/* Its own pages: rings are found by their address. */
	if (posix_memalign(&mem, 4096, 5 * 4096)) {
		printf("FAIL: no memory\n");
		failures++;
		return;
	}
	memset(mem, 0, 5 * 4096);
	cqreq.user_cq_buf = (uintptr_t)mem;
	cqreq.user_shadow_area = (uintptr_t)mem + 4096;
	qpreq.user_wqe_bufs = (uintptr_t)mem + 2 * 4096;

	/* A read-only file mapping registered as a CQ ring, access 0. */
	tmp = mkstemp(path);
	if (tmp < 0 || ftruncate(tmp, 2 * 4096)) {
		printf("FAIL: no file to map\n");
		failures++;
		free(mem);
		return;
	}
	unlink(path);
	ro = mmap(NULL, 2 * 4096, PROT_READ, MAP_SHARED, tmp, 0);
	close(tmp);
	if (ro == MAP_FAILED) {
		printf("FAIL: cannot map the file\n");
		failures++;
		free(mem);
		return;
	}
	ring = reg_mr_access(pd, ro, 4096, 0, &cq_reg, sizeof(cq_reg), &err);
	expect("a CQ ring over a read-only file mapping, access 0", err, EFAULT);
	if (!err)
		dereg_mr(ring);
	munmap(ro, 2 * 4096);

	/* A one-page CQ ring: 128 CQEs fill it, 65536 do not fit. */
	ring = reg_mr(pd, mem, 4096, &cq_reg, sizeof(cq_reg), &err);
	expect("a one-page CQ ring", err, 0);
	shadow = reg_mr(pd, (char *)mem + 4096, 4096, &cq_reg, sizeof(cq_reg), &err);
	expect("its shadow area", err, 0);
	err = create_cq(65536, &cqreq, sizeof(cqreq), &big);
	expect("a CQ of 65536 entries on the one-page ring", err, EINVAL);
	if (!err)
		destroy_cq(big);
	expect("a CQ of 128 entries on it (refused ones give it back)",
	       create_cq(128, &cqreq, sizeof(cqreq), &cq), 0);
	expect("deregistering the live CQ's ring", dereg_mr(ring), EBUSY);
	expect("deregistering the live CQ's shadow area", dereg_mr(shadow), EBUSY);

	/* One page of SQ and one of RQ: 128 quanta each, no more. */
	rings = reg_mr(pd, (char *)mem + 2 * 4096, 3 * 4096, &qp_reg,
		       sizeof(qp_reg), &err);
	expect("QP rings of one SQ and one RQ page", err, 0);
	err = create_qp(pd, cq, QPT_RC, 1024, 0, &qpreq, sizeof(qpreq));
	expect("a QP of 1024 send WRs on the one-page SQ", err, EINVAL);
	if (!err)
		destroy_qp(last_qp);
	expect("a QP of 64 send WRs on it (refused ones give it back)",
	       create_qp(pd, cq, QPT_RC, 64, 0, &qpreq, sizeof(qpreq)), 0);
	expect("deregistering the live QP's rings", dereg_mr(rings), EBUSY);
	expect("destroying the QP", destroy_qp(last_qp), 0);
	expect("deregistering its rings once it is gone", dereg_mr(rings), 0);
	expect("destroying the CQ", destroy_cq(cq), 0);
	expect("deregistering its ring once it is gone", dereg_mr(ring), 0);
	expect("deregistering its shadow area", dereg_mr(shadow), 0);
	free(mem);
}

/*
 * The largest CQ, as libirdma asks for it: ring slots, two per completion
 * and one spare, so 2 * (max_cqe + 1) for max_cqe completions (which the
 * device's 21-bit size field holds); one slot more is refused.
 */
static void cq_limit_test(__u32 pd)
{
	struct irdma_mem_reg_req cq_reg = { .reg_type = IRDMA_MEMREG_TYPE_CQ };
	struct ib_uverbs_query_device_resp dev = {};
	struct ib_uverbs_query_device qd = {};
	struct irdma_create_cq_req cqreq = {};
	__u32 ring, shadow, cq, slots;
	size_t pages;
	void *mem;
	int err;

	err = cmd(IB_USER_VERBS_CMD_QUERY_DEVICE, &qd, sizeof(qd), NULL, 0, &dev,
		  sizeof(dev));
	expect("QUERY_DEVICE", err, 0);
	if (err)
		return;
	/* 128 CQEs of 32 bytes a page. */
	slots = 2 * (dev.max_cqe + 1);
	pages = (slots + 1 + 127) / 128;
	mem = mmap(NULL, (pages + 1) * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED) {
		printf("FAIL: no memory for a ring of %zu pages\n", pages);
		failures++;
		return;
	}
	cq_reg.cq_pages = pages;
	ring = reg_mr(pd, mem, pages * 4096, &cq_reg, sizeof(cq_reg), &err);
	expect("a CQ ring of 2 * (max_cqe + 1) + 1 slots", err, 0);
	cq_reg.cq_pages = 1;
	shadow = reg_mr(pd, (char *)mem + pages * 4096, 4096, &cq_reg, sizeof(cq_reg),
			&err);
	expect("its shadow area", err, 0);
	cqreq.user_cq_buf = (uintptr_t)mem;
	cqreq.user_shadow_area = (uintptr_t)mem + pages * 4096;
	err = create_cq(slots + 1, &cqreq, sizeof(cqreq), &cq);
	expect("a CQ ring of one slot more than max_cqe entries take", err, EINVAL);
	if (!err)
		destroy_cq(cq);
	err = create_cq(slots, &cqreq, sizeof(cqreq), &cq);
	expect("a CQ ring for max_cqe entries", err, 0);
	if (!err)
		expect("destroying it", destroy_cq(cq), 0);
	expect("deregistering the ring", dereg_mr(ring), 0);
	expect("deregistering the shadow area", dereg_mr(shadow), 0);
	munmap(mem, (pages + 1) * 4096);
}

#define BIT(n)			(1U << (n))

/* ib_qp_attr_mask bits, as ib_core numbers them. */
#define QPA_STATE		BIT(0)
#define QPA_ACCESS_FLAGS	BIT(3)
#define QPA_PKEY_INDEX		BIT(4)
#define QPA_PORT		BIT(5)
#define QPA_AV			BIT(7)
#define QPA_PATH_MTU		BIT(8)
#define QPA_TIMEOUT		BIT(9)
#define QPA_RETRY_CNT		BIT(10)
#define QPA_RNR_RETRY		BIT(11)
#define QPA_RQ_PSN		BIT(12)
#define QPA_MAX_QP_RD_ATOMIC	BIT(13)
#define QPA_MIN_RNR_TIMER	BIT(15)
#define QPA_SQ_PSN		BIT(16)
#define QPA_MAX_DEST_RD_ATOMIC	BIT(17)
#define QPA_DEST_QPN		BIT(20)

/* The extended modify: core and driver data in, both responses out. */
static int modify_qp_ex(struct ib_uverbs_ex_modify_qp *req,
			struct irdma_modify_qp_resp *drv_resp)
{
	struct irdma_modify_qp_req drv = {};
	struct {
		struct ib_uverbs_ex_modify_qp_resp core;
		struct irdma_modify_qp_resp drv;
	} resp = {};
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_modify_qp req;
		struct irdma_modify_qp_req drv;
	} buf = {
		.hdr = {
			.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
				   IB_USER_VERBS_EX_CMD_MODIFY_QP,
			.in_words = sizeof(*req) / 8,
			.out_words = sizeof(resp.core) / 8,
		},
		.ex = {
			.response = (uintptr_t)&resp,
			.provider_in_words = sizeof(drv) / 8,
			.provider_out_words = sizeof(resp.drv) / 8,
		},
		.req = *req,
		.drv = drv,
	};

	if (write(fd, &buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return errno;
	*drv_resp = resp.drv;
	return 0;
}

/* A user QP on registered rings, taken to RTS on itself; its push pages. */
static void push_test(__u32 pd, __u32 cq, const char *gid_file)
{
	struct irdma_mem_reg_req mreg = { .reg_type = IRDMA_MEMREG_TYPE_QP,
					  .sq_pages = 1, .rq_pages = 1 };
	struct ib_uverbs_create_qp qreq = {
		.pd_handle = pd, .send_cq_handle = cq, .recv_cq_handle = cq,
		.max_send_wr = 8, .max_recv_wr = 4, .max_send_sge = 1,
		.max_recv_sge = 1, .qp_type = QPT_RC,
	};
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct irdma_create_qp_resp drv;
	} qresp = {};
	struct irdma_create_qp_req drv = {};
	struct ib_uverbs_ex_modify_qp mod = {};
	struct irdma_modify_qp_resp mresp = {};
	struct ib_uverbs_destroy_qp dqp = {};
	struct ib_uverbs_destroy_qp_resp dqp_resp;
	unsigned int g[8];
	__u32 rings_mr;
	void *rings, *wqe, *db;
	FILE *f;
	int err, i;

	f = fopen(gid_file, "r");
	if (!f || fscanf(f, "%x:%x:%x:%x:%x:%x:%x:%x", &g[0], &g[1], &g[2], &g[3],
			 &g[4], &g[5], &g[6], &g[7]) != 8) {
		printf("FAIL: no GID in %s\n", gid_file);
		failures++;
		return;
	}
	fclose(f);
	if (posix_memalign(&rings, 4096, 3 * 4096))
		return;
	memset(rings, 0, 3 * 4096);
	rings_mr = reg_mr(pd, rings, 3 * 4096, &mreg, sizeof(mreg), &err);
	expect("push: QP ring registration", err, 0);
	drv.user_wqe_bufs = (uintptr_t)rings;
	err = cmd(IB_USER_VERBS_CMD_CREATE_QP, &qreq, sizeof(qreq), &drv, sizeof(drv),
		  &qresp, sizeof(qresp));
	expect("push: QP", err, 0);
	if (err)
		return;

	mod.base.qp_handle = qresp.core.qp_handle;
	mod.base.attr_mask = QPA_STATE | QPA_PKEY_INDEX | QPA_PORT | QPA_ACCESS_FLAGS;
	mod.base.qp_state = 1;	/* INIT */
	mod.base.port_num = 1;
	expect("push: to INIT", modify_qp_ex(&mod, &mresp), 0);
	expect("push: no page before RTS", mresp.push_valid ? EEXIST : 0, 0);
	memset(&mod.base, 0, sizeof(mod.base));
	mod.base.qp_handle = qresp.core.qp_handle;
	mod.base.attr_mask = QPA_STATE | QPA_AV | QPA_PATH_MTU | QPA_DEST_QPN |
			     QPA_RQ_PSN | QPA_MAX_DEST_RD_ATOMIC | QPA_MIN_RNR_TIMER;
	mod.base.qp_state = 2;	/* RTR */
	for (i = 0; i < 8; i++) {
		mod.base.dest.dgid[2 * i] = g[i] >> 8;
		mod.base.dest.dgid[2 * i + 1] = g[i] & 0xff;
	}
	mod.base.dest.sgid_index = atoi(strrchr(gid_file, '/') + 1);
	mod.base.dest.is_global = 1;
	mod.base.dest.hop_limit = 64;
	mod.base.dest.port_num = 1;
	mod.base.path_mtu = 3;	/* 1024 */
	mod.base.dest_qp_num = qresp.core.qpn;
	mod.base.rq_psn = 1;
	mod.base.max_dest_rd_atomic = 1;
	mod.base.min_rnr_timer = 1;
	expect("push: to RTR", modify_qp_ex(&mod, &mresp), 0);
	memset(&mod.base, 0, sizeof(mod.base));
	mod.base.qp_handle = qresp.core.qp_handle;
	mod.base.attr_mask = QPA_STATE | QPA_SQ_PSN | QPA_TIMEOUT | QPA_RETRY_CNT |
			     QPA_RNR_RETRY | QPA_MAX_QP_RD_ATOMIC;
	mod.base.qp_state = 3;	/* RTS */
	mod.base.sq_psn = 1;
	mod.base.timeout = 14;
	mod.base.retry_cnt = 7;
	mod.base.rnr_retry = 7;
	mod.base.max_rd_atomic = 1;
	expect("push: to RTS", modify_qp_ex(&mod, &mresp), 0);
	expect("push: a push page in the RTS response", mresp.push_valid ? 0 : ENOENT, 0);

	/* Both pages map; the doorbell takes a write. */
	wqe = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, fd, mresp.push_wqe_mmap_key);
	expect("push: mapping the push page", wqe == MAP_FAILED ? errno : 0, 0);
	db = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, fd, mresp.push_db_mmap_key);
	expect("push: mapping its doorbell", db == MAP_FAILED ? errno : 0, 0);
	if (db != MAP_FAILED) {
		__atomic_store_n((__u64 *)db, 1, __ATOMIC_RELEASE);
		munmap(db, 4096);
	}
	if (wqe != MAP_FAILED)
		munmap(wqe, 4096);

	/* The entries go with the QP. */
	dqp.qp_handle = qresp.core.qp_handle;
	err = cmd(IB_USER_VERBS_CMD_DESTROY_QP, &dqp, sizeof(dqp), NULL, 0,
		  &dqp_resp, sizeof(dqp_resp));
	expect("push: destroying the QP", err, 0);
	wqe = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, fd, mresp.push_wqe_mmap_key);
	expect("push: mapping the page after the QP is gone",
	       wqe == MAP_FAILED ? errno : 0, EINVAL);
	db = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, fd, mresp.push_db_mmap_key);
	expect("push: mapping its doorbell after the QP is gone",
	       db == MAP_FAILED ? errno : 0, EINVAL);
	expect("push: deregistering the QP rings", dereg_mr(rings_mr), 0);
	free(rings);
}

/* A counter of the simulator's debugfs "stats" file, or -1. */
static long sim_stat(const char *stats, const char *name)
{
	char line[128];
	long val = -1;
	size_t len = strlen(name);
	FILE *f = fopen(stats, "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ' ')
			val = strtol(line + len + 1, NULL, 10);
	if (f)
		fclose(f);
	return val;
}

/*
 * The kernel writing into the doorbell page for the process (a read()
 * into it) is no doorbell of the process's: the simulator's watchpoint on
 * WQE_ALLOC (sim/userdb.c) takes user mode stores only, not a kernel
 * store in a debug exception where it could not wake a thread safely.
 */
static void doorbell_test(const struct context_resp *ctx, const char *stats)
{
	long watched = sim_stat(stats, "user_doorbells_watched"), trapped;
	__u32 *db;
	int i, zero, tries;

	db = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, fd, ctx->drv.db_mmap_key);
	expect("doorbell: mapping the doorbell page", db == MAP_FAILED ? errno : 0, 0);
	if (db == MAP_FAILED)
		return;
	/* The watchpoint is set by a work item after the mapping. */
	for (tries = 0; tries < 1000; tries++) {
		if (sim_stat(stats, "user_doorbells_watched") > watched)
			break;
		usleep(10000);
	}
	expect("doorbell: a watchpoint on WQE_ALLOC",
	       sim_stat(stats, "user_doorbells_watched") > watched ? 0 : ENOENT, 0);

	trapped = sim_stat(stats, "user_doorbells_trapped");
	zero = open("/dev/zero", O_RDONLY);
	for (i = 0; i < 10; i++)
		if (read(zero, db, 4) != 4)
			break;
	expect("doorbell: the kernel writes into the page 10 times",
	       i == 10 ? 0 : errno, 0);
	close(zero);
	expect("doorbell: kernel stores not taken for the process's",
	       sim_stat(stats, "user_doorbells_trapped") == trapped ? 0 : EBUSY, 0);
	__atomic_store_n(db, 0, __ATOMIC_RELEASE);
	expect("doorbell: the process's own store taken",
	       sim_stat(stats, "user_doorbells_trapped") == trapped + 1 ? 0 : ENOENT, 0);
	munmap(db, 4096);
}

/**
 * main - send the malformed requests and count the wrong answers
 * @argc: argument count
 * @argv: the uverbs device (default /dev/infiniband/uverbs0), then
 *	optionally "push" and the sysfs file of an IPv4 GID, or "doorbell"
 *	and the simulator's debugfs stats file
 *
 * Return: 0 if every request got its errno, 1 otherwise, 2 on setup failure.
 */
int main(int argc, char **argv)
{
	struct irdma_alloc_ucontext_req uctx = { .userspace_ver = IRDMA_ABI_VER };
	struct context_resp gc_resp;
	struct ib_uverbs_alloc_pd pdreq = {};
	struct {
		struct ib_uverbs_alloc_pd_resp core;
		struct irdma_alloc_pd_resp drv;
	} pdresp = {};
	struct ib_uverbs_destroy_cq dcq = {};
	struct ib_uverbs_destroy_cq_resp dcq_resp;
	struct irdma_mem_reg_req mreg = {};
	struct irdma_create_cq_req cqreq = {};
	struct irdma_create_qp_req qpreq = {};
	struct irdma_resize_cq_req rsreq = {};
	__u32 pd, mr, ring_mr, shadow_mr, resize_mr, bad_mr, cq, bad_cq;
	int ring_gone = 0;
	void *mem;
	int err;

	stock = getenv("BAD_UDATA_STOCK") && !strcmp(getenv("BAD_UDATA_STOCK"), "1");
	fd = open(argc > 1 ? argv[1] : "/dev/infiniband/uverbs0", O_RDWR);
	if (fd < 0 || posix_memalign(&mem, 4096, 8 * 4096))
		return 2;
	memset(mem, 0, 8 * 4096);

	/* The user context: the provider's ABI version and sizes. */
	uctx.userspace_ver = 3;
	err = get_context(&uctx, sizeof(uctx), &gc_resp, sizeof(gc_resp));
	expect("context for ABI 3", err, EINVAL);
	uctx.userspace_ver = IRDMA_ABI_VER;
	err = get_context(&uctx, 4, &gc_resp, sizeof(gc_resp));
	expect("context with a 4-byte request", err, EINVAL);
	err = get_context(&uctx, sizeof(uctx), &gc_resp, I40IW_RESP_LEN);
	expect("context with the i40iw response size", err, EOPNOTSUPP);
	err = get_context(&uctx, sizeof(uctx), &gc_resp, sizeof(gc_resp));
	expect("context", err, 0);
	err = cmd(IB_USER_VERBS_CMD_ALLOC_PD, &pdreq, sizeof(pdreq), NULL, 0,
		  &pdresp, sizeof(pdresp.core));
	expect("PD without room for the driver's response", err, EINVAL);
	err = cmd(IB_USER_VERBS_CMD_ALLOC_PD, &pdreq, sizeof(pdreq), NULL, 0,
		  &pdresp, sizeof(pdresp));
	expect("PD", err, 0);
	pd = pdresp.core.pd_handle;

	/* Registrations. */
	reg_mr(pd, mem, 4096, &mreg, 0, &err);
	expect("registration without driver data", err, EINVAL);
	mreg.reg_type = 7;
	reg_mr(pd, mem, 4096, &mreg, sizeof(mreg), &err);
	expect("registration of unknown type 7", err, EINVAL);
	mreg = (struct irdma_mem_reg_req){ .reg_type = IRDMA_MEMREG_TYPE_QP,
					   .sq_pages = 100, .rq_pages = 1 };
	reg_mr(pd, mem, 4096, &mreg, sizeof(mreg), &err);
	expect("QP rings of 101 pages in one page", err, EINVAL);
	mreg = (struct irdma_mem_reg_req){ .reg_type = IRDMA_MEMREG_TYPE_CQ,
					   .cq_pages = 2 };
	reg_mr(pd, mem, 4096, &mreg, sizeof(mreg), &err);
	expect("CQ ring of 2 pages in one page", err, EINVAL);
	mreg = (struct irdma_mem_reg_req){ .reg_type = IRDMA_MEMREG_TYPE_MEM };
	reg_mr(pd, mem, 1ULL << 46, &mreg, sizeof(mreg), &err);
	expect("a 64 TiB region", err, EINVAL);
	mr = reg_mr(pd, mem, 4096, &mreg, sizeof(mreg), &err);
	expect("a one-page region", err, 0);
	expect("deregistering it", dereg_mr(mr), 0);
	expect("deregistering it again", dereg_mr(mr), ENOENT);

	/* CQs: rings must have been registered as CQ memory. */
	cqreq.user_cq_buf = (uintptr_t)mem;
	cqreq.user_shadow_area = (uintptr_t)mem + 4096;
	expect("CQ on a ring never registered",
	       create_cq(16, &cqreq, sizeof(cqreq), &cq), EPROTO);
	expect("CQ with a 4-byte request", create_cq(16, &cqreq, 4, &cq), EINVAL);
	err = create_cq(16, NULL, 0, &bad_cq);
	expect("CQ without driver data (kernel memory for a user CQ)", err, EINVAL);
	if (!err)
		destroy_cq(bad_cq);
	mreg = (struct irdma_mem_reg_req){ .reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = 1 };
	ring_mr = reg_mr(pd, mem, 4096, &mreg, sizeof(mreg), &err);
	expect("CQ ring registration", err, 0);
	shadow_mr = reg_mr(pd, (char *)mem + 4096, 4096, &mreg, sizeof(mreg), &err);
	expect("CQ shadow registration", err, 0);
	expect("CQ", create_cq(64, &cqreq, sizeof(cqreq), &cq), 0);
	/* Resizing: to a registered ring only. */
	rsreq.user_cq_buffer = (uintptr_t)mem + 3 * 4096;
	expect("resize with a 4-byte request", resize_cq(cq, 128, &rsreq, 4), EINVAL);
	expect("resize to a ring never registered",
	       resize_cq(cq, 128, &rsreq, sizeof(rsreq)), ENOMEM);
	mreg = (struct irdma_mem_reg_req){ .reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = 1 };
	resize_mr = reg_mr(pd, (char *)mem + 3 * 4096, 4096, &mreg, sizeof(mreg), &err);
	expect("registering a new ring", err, 0);
	if (!stock) {
		rsreq.user_cq_buffer = (uintptr_t)mem + 4 * 4096;
		mreg.cq_pages = 1;
		bad_mr = reg_mr(pd, (char *)mem + 4 * 4096, 4096, &mreg,
				sizeof(mreg), &err);
		expect("registering a one-page ring", err, 0);
		expect("resize to 65536 entries on it",
		       resize_cq(cq, 65536, &rsreq, sizeof(rsreq)), EINVAL);
		/* A count with the top bit set is no small CQ. */
		expect("resize to 2^31 entries on it",
		       resize_cq(cq, INT32_MIN, &rsreq, sizeof(rsreq)), EINVAL);
		expect("deregistering it", dereg_mr(bad_mr), 0);
		rsreq.user_cq_buffer = (uintptr_t)mem + 3 * 4096;
	}
	expect("resize to it", resize_cq(cq, 128, &rsreq, sizeof(rsreq)), 0);
	if (!stock) {
		expect("deregistering the CQ's ring in use", dereg_mr(resize_mr), EBUSY);
		expect("deregistering the ring resized away from", dereg_mr(ring_mr), 0);
		ring_gone = 1;
	}

	/* A ring registration serves one CQ. */
	expect("a second CQ on the same ring",
	       create_cq(64, &cqreq, sizeof(cqreq), &bad_cq), EPROTO);

	/* QPs: rings registered as QP memory, sizes the hardware takes. */
	qpreq.user_wqe_bufs = (uintptr_t)mem + 2 * 4096;
	expect("QP on rings never registered",
	       create_qp(pd, cq, QPT_RC, 8, 0, &qpreq, sizeof(qpreq)), ENODATA);
	qpreq.user_wqe_bufs = (uintptr_t)mem;
	expect("QP on rings registered for a CQ",
	       create_qp(pd, cq, QPT_RC, 8, 0, &qpreq, sizeof(qpreq)), ENODATA);
	expect("QP with an 8-byte request",
	       create_qp(pd, cq, QPT_RC, 8, 0, &qpreq, 8), EINVAL);
	expect("QP with 2^20 send WRs",
	       create_qp(pd, cq, QPT_RC, 1 << 20, 0, &qpreq, sizeof(qpreq)), EINVAL);
	expect("QP with 500 inline bytes",
	       create_qp(pd, cq, QPT_RC, 8, 500, &qpreq, sizeof(qpreq)), EINVAL);
	expect("UC QP", create_qp(pd, cq, QPT_UC, 8, 0, &qpreq, sizeof(qpreq)),
	       EOPNOTSUPP);

	if (!stock && argc == 2) {
		queue_memory_test(pd);
		cq_limit_test(pd);
	}
	if (argc > 3 && !strcmp(argv[2], "push"))
		push_test(pd, cq, argv[3]);
	if (argc > 3 && !strcmp(argv[2], "doorbell"))
		doorbell_test(&gc_resp, argv[3]);

	/* Handles used twice. */
	dcq.cq_handle = cq;
	err = cmd(IB_USER_VERBS_CMD_DESTROY_CQ, &dcq, sizeof(dcq), NULL, 0,
		  &dcq_resp, sizeof(dcq_resp));
	expect("destroying the CQ", err, 0);
	err = cmd(IB_USER_VERBS_CMD_DESTROY_CQ, &dcq, sizeof(dcq), NULL, 0,
		  &dcq_resp, sizeof(dcq_resp));
	expect("destroying it again", err, ENOENT);
	if (!ring_gone)
		expect("deregistering the CQ ring", dereg_mr(ring_mr), 0);
	expect("deregistering the CQ shadow", dereg_mr(shadow_mr), 0);
	expect("deregistering the shadow again", dereg_mr(shadow_mr), ENOENT);
	expect("deregistering the resized ring", dereg_mr(resize_mr), 0);

	close(fd);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
