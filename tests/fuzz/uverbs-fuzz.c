// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * uverbs-fuzz: random, bounded sequences of irdma verbs through the raw
 * uverbs write() commands, with irdma's own driver data (irdma-abi.h),
 * the way a hostile or broken process could send them.
 *
 *   uverbs-fuzz DEVICE SEED OPS SECONDS [GID-FILE]
 *
 * From SEED the run is reproducible (same kernel, same device): every
 * choice comes from one xorshift generator. It ends by itself after OPS
 * operations or SECONDS seconds, whichever comes first. Sizes, counts,
 * flags, addresses, handles and lengths are mutated around the values a
 * provider would send; objects are destroyed in use, twice, or never;
 * queue memory is deregistered under its queue; the file is closed and
 * opened again mid-way; random WQEs are written straight into the rings
 * of the process's own QPs and their doorbell is rung. Every call may
 * fail: what is checked is the kernel (the caller reads its log). The
 * summary gives, per command, how often it was sent and how often it
 * succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>

#define PAGE		4096
#define MAX_OBJS	24
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Commands, for the summary. */
enum fz_op {
	OP_CONTEXT, OP_ALLOC_PD, OP_DEALLOC_PD, OP_REG_MR, OP_DEREG_MR,
	OP_CREATE_CQ, OP_RESIZE_CQ, OP_DESTROY_CQ, OP_CREATE_QP, OP_MODIFY_QP,
	OP_QUERY_QP, OP_DESTROY_QP, OP_WQE, OP_REOPEN, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"get_context", "alloc_pd", "dealloc_pd", "reg_mr", "dereg_mr",
	"create_cq", "resize_cq", "destroy_cq", "create_qp", "modify_qp",
	"query_qp", "destroy_qp", "wqe+doorbell", "close+reopen",
};

/* An object the kernel gave a handle for (or once did). */
struct fz_obj {
	int live;
	__u32 handle;
	__u32 hw_id;		/* QP number, CQ number */
	void *mem;		/* MRs: the memory registered */
	size_t len;		/* MRs: its size as allocated */
	__u32 reg_type;		/* MRs: IRDMA_MEMREG_TYPE_* */
	__u32 sq_pages;		/* MRs of QP rings */
	void *rings;		/* QPs: the rings named at create */
};

static struct {
	const char *dev;
	int fd;
	int have_ctx;
	struct irdma_alloc_ucontext_resp ctx;
	__u32 *db;
	struct fz_obj pd[MAX_OBJS], mr[MAX_OBJS], cq[MAX_OBJS], qp[MAX_OBJS];
	__u8 gid[16];
	int have_gid;
	unsigned long sent[OP_COUNT], ok[OP_COUNT];
	__u64 rng;
} fz;

/* xorshift64*: the run's only source of choices. */
static __u64 rnd(void)
{
	fz.rng ^= fz.rng >> 12;
	fz.rng ^= fz.rng << 25;
	fz.rng ^= fz.rng >> 27;
	return fz.rng * 0x2545f4914f6cdd1dULL;
}

static __u32 pick(__u32 n)
{
	return n ? rnd() % n : 0;
}

static int chance(__u32 percent)
{
	return pick(100) < percent;
}

/* A number around the edges sizes and counts have. */
static __u64 edgy(void)
{
	switch (pick(9)) {
	case 0: return 0;
	case 1: return pick(16);
	case 2: return 1ULL << pick(32);
	case 3: return (1ULL << pick(32)) - 1;
	case 4: return 0xffffffffULL - pick(4);
	case 5: return 0x7fffffffULL + pick(3);
	case 6: return rnd();
	case 7: return pick(PAGE * 4);
	default: return (1ULL << pick(32)) + 1;
	}
}

/* Mostly @usual, sometimes anything. */
static __u64 mostly(__u64 usual)
{
	return chance(80) ? usual : edgy();
}

/* A handle: of a live object of the table mostly, else stale or random. */
static __u32 handle_of(const struct fz_obj *t, int *idx)
{
	int i = pick(MAX_OBJS), tries;

	for (tries = 0; tries < MAX_OBJS && !t[i].live && chance(90); tries++)
		i = (i + 1) % MAX_OBJS;
	*idx = i;
	if (chance(5))
		return (__u32)edgy();
	return t[i].handle;
}

static int free_slot(const struct fz_obj *t)
{
	int i;

	for (i = 0; i < MAX_OBJS; i++)
		if (!t[i].live && !t[i].mem)
			return i;
	return -1;
}

/* One write() command; 0 or the errno. */
static int ucmd(enum fz_op op, __u32 command, void *req, size_t req_len,
		const void *drv, size_t drv_len, void *resp, size_t resp_len)
{
	__u64 words[128] = {};
	struct ib_uverbs_cmd_hdr *hdr = (void *)words;
	size_t len = sizeof(*hdr) + req_len + drv_len;
	int err;

	if (len > sizeof(words))
		return E2BIG;
	hdr->command = command;
	hdr->in_words = len / 4;
	hdr->out_words = resp_len / 4;
	if (resp)
		*(__u64 *)req = (uintptr_t)resp;
	memcpy((char *)words + sizeof(*hdr), req, req_len);
	if (drv_len)
		memcpy((char *)words + sizeof(*hdr) + req_len, drv, drv_len);
	fz.sent[op]++;
	err = write(fz.fd, words, len) == (ssize_t)len ? 0 : errno;
	if (!err)
		fz.ok[op]++;
	return err;
}

/* Driver data of a random length around @len (short, exact, long). */
static size_t drv_len(size_t len)
{
	if (chance(85))
		return len;
	return chance(50) ? pick(len) : len + 8 * pick(4);
}

static void op_context(void)
{
	struct irdma_alloc_ucontext_req req = {
		.userspace_ver = mostly(IRDMA_ABI_VER),
		.comp_mask = chance(50) ? IRDMA_ALLOC_UCTX_USE_RAW_ATTR : edgy(),
	};
	struct ib_uverbs_get_context core = {};
	struct {
		struct ib_uverbs_get_context_resp core;
		struct irdma_alloc_ucontext_resp drv;
	} resp = {};

	if (ucmd(OP_CONTEXT, IB_USER_VERBS_CMD_GET_CONTEXT, &core, sizeof(core),
		 &req, drv_len(sizeof(req)), &resp, sizeof(resp)))
		return;
	fz.have_ctx = 1;
	fz.ctx = resp.drv;
	if (!fz.db) {
		fz.db = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, fz.fd,
			     fz.ctx.db_mmap_key);
		if (fz.db == MAP_FAILED)
			fz.db = NULL;
	}
}

static void op_alloc_pd(void)
{
	struct ib_uverbs_alloc_pd req = {};
	struct {
		struct ib_uverbs_alloc_pd_resp core;
		struct irdma_alloc_pd_resp drv;
	} resp = {};
	int i = free_slot(fz.pd);

	if (i < 0)
		return;
	if (!ucmd(OP_ALLOC_PD, IB_USER_VERBS_CMD_ALLOC_PD, &req, sizeof(req),
		  NULL, 0, &resp, chance(90) ? sizeof(resp) : sizeof(resp.core))) {
		fz.pd[i].live = 1;
		fz.pd[i].handle = resp.core.pd_handle;
	}
}

static void op_dealloc_pd(void)
{
	struct ib_uverbs_dealloc_pd req = {};
	int i;

	req.pd_handle = handle_of(fz.pd, &i);
	if (!ucmd(OP_DEALLOC_PD, IB_USER_VERBS_CMD_DEALLOC_PD, &req, sizeof(req),
		  NULL, 0, NULL, 0))
		fz.pd[i].live = 0;
}

/* Memory for a registration: mostly fresh pages, sometimes worse. */
static void *fz_memory(size_t len, int *owned)
{
	void *mem = NULL;

	*owned = 0;
	switch (pick(10)) {
	case 0:		/* read-only pages */
		mem = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			return NULL;
		*owned = 2;
		return mem;
	case 1:		/* an address nothing is mapped at */
		return (void *)(uintptr_t)(0x10000000000ULL + pick(1 << 20) * PAGE);
	default:
		if (posix_memalign(&mem, PAGE, len))
			return NULL;
		memset(mem, 0, len);
		*owned = 1;
		return mem;
	}
}

/* Give back an MR's memory, once the kernel let go of it. */
static void fz_free_mem(struct fz_obj *o)
{
	if (o->mem && (o->reg_type & 0x100))
		munmap(o->mem, o->len);
	else if (o->mem)
		free(o->mem);
	o->mem = NULL;
}

static void op_reg_mr(void)
{
	struct irdma_mem_reg_req drv = {
		.reg_type = chance(90) ? pick(3) : (__u16)edgy(),
	};
	struct ib_uverbs_reg_mr req = {};
	struct {
		struct ib_uverbs_reg_mr_resp core;
		__u64 pad[2];
	} resp = {};
	__u32 pages = 1 + pick(8);
	int i = free_slot(fz.mr), j, owned;
	void *mem;

	if (i < 0)
		return;
	mem = fz_memory((size_t)pages * PAGE, &owned);
	if (!mem)
		return;
	if (drv.reg_type == IRDMA_MEMREG_TYPE_QP) {
		drv.sq_pages = mostly(1 + pick(pages > 2 ? pages - 2 : 1));
		drv.rq_pages = mostly(pages > (__u32)drv.sq_pages + 1 ?
				      pages - (int)drv.sq_pages - 1 : 1);
	} else if (drv.reg_type == IRDMA_MEMREG_TYPE_CQ) {
		drv.cq_pages = mostly(pages);
	}
	req.start = (uintptr_t)mem;
	req.length = mostly((__u64)pages * PAGE);
	req.hca_va = chance(90) ? req.start : edgy();
	req.pd_handle = handle_of(fz.pd, &j);
	req.access_flags = chance(70) ? 1 : pick(0x20);
	if (!ucmd(OP_REG_MR, IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req), &drv,
		  drv_len(sizeof(drv)), &resp, sizeof(resp))) {
		fz.mr[i] = (struct fz_obj){
			.live = 1, .handle = resp.core.mr_handle,
			.len = (size_t)pages * PAGE,
			.reg_type = drv.reg_type, .sq_pages = drv.sq_pages,
		};
		fz.mr[i].mem = owned ? mem : NULL;
		if (owned == 2)
			fz.mr[i].reg_type |= 0x100;
		return;
	}
	if (owned == 1)
		free(mem);
	else if (owned == 2)
		munmap(mem, (size_t)pages * PAGE);
}

static void op_dereg_mr(void)
{
	struct ib_uverbs_dereg_mr req = {};
	int i;

	req.mr_handle = handle_of(fz.mr, &i);
	if (ucmd(OP_DEREG_MR, IB_USER_VERBS_CMD_DEREG_MR, &req, sizeof(req), NULL, 0,
		 NULL, 0))
		return;
	/* Freed only once deregistered: the kernel may have pinned it. */
	fz.mr[i].live = 0;
	fz_free_mem(&fz.mr[i]);
}

/* The user address of a registered ring of @type, or something else. */
static __u64 ring_addr(__u32 type)
{
	int i, k;

	for (k = 0; k < MAX_OBJS && chance(95); k++) {
		i = pick(MAX_OBJS);
		if (fz.mr[i].live && (fz.mr[i].reg_type & 0xff) == type && fz.mr[i].mem)
			return (uintptr_t)fz.mr[i].mem + (chance(85) ? 0 : PAGE);
	}
	return edgy();
}

static void op_create_cq(void)
{
	struct ib_uverbs_create_cq req = {
		.cqe = chance(70) ? 1 + pick(512) : (__u32)edgy(),
		.comp_vector = chance(90) ? 0 : (__u32)edgy(),
		.comp_channel = -1,
	};
	struct irdma_create_cq_req drv = {
		.user_cq_buf = ring_addr(IRDMA_MEMREG_TYPE_CQ),
		.user_shadow_area = ring_addr(IRDMA_MEMREG_TYPE_CQ),
	};
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct irdma_create_cq_resp drv;
	} resp = {};
	int i = free_slot(fz.cq);

	if (i < 0)
		return;
	if (!ucmd(OP_CREATE_CQ, IB_USER_VERBS_CMD_CREATE_CQ, &req, sizeof(req), &drv,
		  chance(10) ? 0 : drv_len(sizeof(drv)), &resp, sizeof(resp))) {
		fz.cq[i].live = 1;
		fz.cq[i].handle = resp.core.cq_handle;
		fz.cq[i].hw_id = resp.drv.cq_id;
	}
}

static void op_resize_cq(void)
{
	struct ib_uverbs_resize_cq req = {
		.cqe = chance(70) ? 1 + pick(1024) : (__u32)edgy(),
	};
	struct irdma_resize_cq_req drv = {
		.user_cq_buffer = ring_addr(IRDMA_MEMREG_TYPE_CQ),
	};
	struct ib_uverbs_resize_cq_resp resp = {};
	int i;

	req.cq_handle = handle_of(fz.cq, &i);
	ucmd(OP_RESIZE_CQ, IB_USER_VERBS_CMD_RESIZE_CQ, &req, sizeof(req), &drv,
	     drv_len(sizeof(drv)), &resp, sizeof(resp));
}

static void op_destroy_cq(void)
{
	struct ib_uverbs_destroy_cq req = {};
	struct ib_uverbs_destroy_cq_resp resp;
	int i;

	req.cq_handle = handle_of(fz.cq, &i);
	if (!ucmd(OP_DESTROY_CQ, IB_USER_VERBS_CMD_DESTROY_CQ, &req, sizeof(req),
		  NULL, 0, &resp, sizeof(resp)))
		fz.cq[i].live = 0;
}

static void op_create_qp(void)
{
	static const __u8 types[] = { 2, 2, 2, 4, 4, 3, 1, 8, 0xff };
	struct ib_uverbs_create_qp req = {
		.max_send_wr = chance(70) ? 1 + pick(256) : (__u32)edgy(),
		.max_recv_wr = chance(70) ? 1 + pick(256) : (__u32)edgy(),
		.max_send_sge = chance(80) ? 1 + pick(13) : (__u32)edgy(),
		.max_recv_sge = chance(80) ? 1 + pick(13) : (__u32)edgy(),
		.max_inline_data = chance(80) ? pick(102) : (__u32)edgy(),
		.sq_sig_all = pick(2),
		.qp_type = types[pick(sizeof(types))],
	};
	struct irdma_create_qp_req drv = {
		.user_wqe_bufs = ring_addr(IRDMA_MEMREG_TYPE_QP),
		.user_compl_ctx = rnd(),
	};
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct irdma_create_qp_resp drv;
	} resp = {};
	int i = free_slot(fz.qp), j;

	if (i < 0)
		return;
	req.pd_handle = handle_of(fz.pd, &j);
	req.send_cq_handle = handle_of(fz.cq, &j);
	req.recv_cq_handle = chance(80) ? req.send_cq_handle : handle_of(fz.cq, &j);
	if (!ucmd(OP_CREATE_QP, IB_USER_VERBS_CMD_CREATE_QP, &req, sizeof(req), &drv,
		  drv_len(sizeof(drv)), &resp, sizeof(resp))) {
		fz.qp[i].live = 1;
		fz.qp[i].handle = resp.core.qp_handle;
		fz.qp[i].hw_id = resp.drv.qp_id;
		fz.qp[i].rings = (void *)(uintptr_t)drv.user_wqe_bufs;
	}
}

static void op_modify_qp(void)
{
	struct ib_uverbs_modify_qp req = {
		.attr_mask = chance(70) ? (__u32)pick(1 << 21) : (__u32)edgy(),
		.qp_state = pick(8),
		.cur_qp_state = pick(8),
		.path_mtu = pick(7),
		.qkey = rnd(),
		.rq_psn = rnd(),
		.sq_psn = rnd(),
		.dest_qp_num = chance(80) ? pick(16) : (__u32)rnd(),
		.qp_access_flags = pick(0x10),
		.pkey_index = chance(90) ? 0 : (__u16)rnd(),
		.max_rd_atomic = pick(256),
		.max_dest_rd_atomic = pick(256),
		.min_rnr_timer = pick(32),
		.port_num = chance(90) ? 1 : pick(256),
		.timeout = pick(32),
		.retry_cnt = pick(8),
		.rnr_retry = pick(8),
	};
	struct irdma_modify_qp_req drv = {
		.sq_flush = pick(2), .rq_flush = pick(2),
	};
	int i;

	req.qp_handle = handle_of(fz.qp, &i);
	req.dest.sgid_index = chance(80) ? pick(4) : pick(256);
	req.dest.hop_limit = pick(256);
	req.dest.is_global = chance(90);
	req.dest.port_num = 1;
	if (fz.have_gid && chance(80))
		memcpy(req.dest.dgid, fz.gid, 16);
	else
		for (int k = 0; k < 16; k++)
			req.dest.dgid[k] = rnd();
	ucmd(OP_MODIFY_QP, IB_USER_VERBS_CMD_MODIFY_QP, &req, sizeof(req), &drv,
	     chance(50) ? 0 : drv_len(sizeof(drv)), NULL, 0);
}

static void op_query_qp(void)
{
	struct ib_uverbs_query_qp req = { .attr_mask = (__u32)rnd() };
	struct ib_uverbs_query_qp_resp resp;
	int i;

	req.qp_handle = handle_of(fz.qp, &i);
	ucmd(OP_QUERY_QP, IB_USER_VERBS_CMD_QUERY_QP, &req, sizeof(req), NULL, 0,
	     &resp, sizeof(resp));
}

static void op_destroy_qp(void)
{
	struct ib_uverbs_destroy_qp req = {};
	struct ib_uverbs_destroy_qp_resp resp;
	int i;

	req.qp_handle = handle_of(fz.qp, &i);
	if (!ucmd(OP_DESTROY_QP, IB_USER_VERBS_CMD_DESTROY_QP, &req, sizeof(req),
		  NULL, 0, &resp, sizeof(resp)))
		fz.qp[i].live = 0;
}

/* Whether the QP's rings still lie in memory this process registered. */
static int rings_registered(const void *rings)
{
	int i;

	for (i = 0; i < MAX_OBJS; i++)
		if (fz.mr[i].live && fz.mr[i].mem == rings &&
		    (fz.mr[i].reg_type & 0xff) == IRDMA_MEMREG_TYPE_QP &&
		    !(fz.mr[i].reg_type & 0x100))
			return fz.mr[i].sq_pages ? (int)fz.mr[i].sq_pages : 1;
	return 0;
}

/*
 * Random WQEs straight into a live QP's SQ, valid bits and all, then the
 * QP's number into the doorbell: what the engine must survive from a
 * process that writes its own rings.
 */
static void op_wqe(void)
{
	__u64 *sq;
	int i, pages, n, q, k;

	i = pick(MAX_OBJS);
	if (!fz.qp[i].live || !fz.db)
		return;
	pages = rings_registered(fz.qp[i].rings);
	if (!pages)
		return;
	sq = fz.qp[i].rings;
	n = 1 + pick(8);
	q = pick(pages * PAGE / 32);
	for (k = 0; k < n * 4 && q * 4 + k < pages * PAGE / 8; k++) {
		__u64 v = rnd();

		if (k % 4 == 3 && chance(70))	/* a header-like qword */
			v = (v & ~(0x3fULL << 32)) | ((__u64)pick(0x20) << 32);
		sq[q * 4 + k] = v;
	}
	fz.sent[OP_WQE]++;
	fz.ok[OP_WQE]++;
	__atomic_store_n(fz.db, fz.qp[i].hw_id, __ATOMIC_RELEASE);
}

/*
 * What a provider does, so that the fuzzing reaches live objects: a PD,
 * a CQ on rings registered as libirdma registers them, and an RC QP on
 * rings large enough for small capacities, taken through INIT, RTR (to
 * itself or another of the process's QPs) and RTS. Each step is one of
 * the ordinary commands; any may fail, and the rest still runs.
 */
static __u32 live_handle(const struct fz_obj *t, int *idx)
{
	int i, k;

	for (k = 0; k < MAX_OBJS; k++) {
		i = pick(MAX_OBJS);
		if (t[i].live) {
			*idx = i;
			return t[i].handle;
		}
	}
	*idx = -1;
	return 0;
}

static int reg_rings(void *mem, size_t len, __u16 type, __u16 a, __u16 b)
{
	struct irdma_mem_reg_req drv = { .reg_type = type };
	struct ib_uverbs_reg_mr req = {
		.start = (uintptr_t)mem, .length = len, .hca_va = (uintptr_t)mem,
		.access_flags = 1,
	};
	struct {
		struct ib_uverbs_reg_mr_resp core;
		__u64 pad[2];
	} resp = {};
	int i = free_slot(fz.mr), j;

	if (i < 0)
		return -1;
	if (type == IRDMA_MEMREG_TYPE_CQ) {
		drv.cq_pages = a;
	} else {
		drv.sq_pages = a;
		drv.rq_pages = b;
	}
	req.pd_handle = live_handle(fz.pd, &j);
	if (ucmd(OP_REG_MR, IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req), &drv,
		 sizeof(drv), &resp, sizeof(resp)))
		return -1;
	fz.mr[i] = (struct fz_obj){
		.live = 1, .handle = resp.core.mr_handle, .mem = mem, .len = len,
		.reg_type = type, .sq_pages = drv.sq_pages,
	};
	return i;
}

static void build_cq(void)
{
	struct ib_uverbs_create_cq req = { .cqe = 1 + pick(128), .comp_channel = -1 };
	struct irdma_create_cq_req drv = {};
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct irdma_create_cq_resp drv;
	} resp = {};
	void *ring, *shadow;
	int i = free_slot(fz.cq), r, sh;

	if (i < 0 || posix_memalign(&ring, PAGE, 2 * PAGE))
		return;
	if (posix_memalign(&shadow, PAGE, PAGE)) {
		free(ring);
		return;
	}
	memset(ring, 0, 2 * PAGE);
	memset(shadow, 0, PAGE);
	r = reg_rings(ring, 2 * PAGE, IRDMA_MEMREG_TYPE_CQ, 2, 0);
	sh = reg_rings(shadow, PAGE, IRDMA_MEMREG_TYPE_CQ, 1, 0);
	if (r < 0)
		free(ring);
	if (sh < 0)
		free(shadow);
	if (r < 0 || sh < 0)
		return;
	drv.user_cq_buf = (uintptr_t)ring;
	drv.user_shadow_area = (uintptr_t)shadow;
	if (!ucmd(OP_CREATE_CQ, IB_USER_VERBS_CMD_CREATE_CQ, &req, sizeof(req), &drv,
		  sizeof(drv), &resp, sizeof(resp))) {
		fz.cq[i].live = 1;
		fz.cq[i].handle = resp.core.cq_handle;
		fz.cq[i].hw_id = resp.drv.cq_id;
	}
}

static int modify(__u32 handle, struct ib_uverbs_modify_qp *req)
{
	req->qp_handle = handle;
	return ucmd(OP_MODIFY_QP, IB_USER_VERBS_CMD_MODIFY_QP, req, sizeof(*req),
		    NULL, 0, NULL, 0);
}

/* RESET to RTS, its peer @dest (a QP number of this process). */
static void connect_qp(__u32 handle, __u32 dest)
{
	struct ib_uverbs_modify_qp req = {
		.attr_mask = (1 << 0) | (1 << 3) | (1 << 4) | (1 << 5),
		.qp_state = 1, .port_num = 1, .qp_access_flags = 0xe,
	};

	if (modify(handle, &req) || !fz.have_gid)
		return;
	memset(&req, 0, sizeof(req));
	req.attr_mask = (1 << 0) | (1 << 7) | (1 << 8) | (1 << 20) | (1 << 12) |
			(1 << 17) | (1 << 15);
	req.qp_state = 2;
	req.path_mtu = 3;
	req.dest_qp_num = dest;
	req.rq_psn = pick(1 << 24);
	req.max_dest_rd_atomic = 1 + pick(8);
	req.min_rnr_timer = pick(32);
	memcpy(req.dest.dgid, fz.gid, 16);
	req.dest.sgid_index = fz.have_gid - 1;
	req.dest.hop_limit = 64;
	req.dest.is_global = 1;
	req.dest.port_num = 1;
	if (modify(handle, &req))
		return;
	memset(&req, 0, sizeof(req));
	req.attr_mask = (1 << 0) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 16) |
			(1 << 13);
	req.qp_state = 3;
	req.timeout = 14;
	req.retry_cnt = pick(8);
	req.rnr_retry = pick(8);
	req.sq_psn = pick(1 << 24);
	req.max_rd_atomic = 1 + pick(8);
	modify(handle, &req);
}

static void build_qp(void)
{
	struct ib_uverbs_create_qp req = {
		.max_send_wr = 1 + pick(16), .max_recv_wr = 1 + pick(16),
		.max_send_sge = 1 + pick(3), .max_recv_sge = 1 + pick(3),
		.max_inline_data = pick(2) ? 0 : 64, .qp_type = 2,
	};
	struct irdma_create_qp_req drv = { .user_compl_ctx = rnd() };
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct irdma_create_qp_resp drv;
	} resp = {};
	int i = free_slot(fz.qp), j, k, r;
	void *rings;

	if (i < 0 || posix_memalign(&rings, PAGE, 16 * PAGE))
		return;
	memset(rings, 0, 16 * PAGE);
	r = reg_rings(rings, 16 * PAGE, IRDMA_MEMREG_TYPE_QP, 8, 7);
	if (r < 0) {
		free(rings);
		return;
	}
	req.pd_handle = live_handle(fz.pd, &j);
	req.send_cq_handle = live_handle(fz.cq, &j);
	req.recv_cq_handle = req.send_cq_handle;
	drv.user_wqe_bufs = (uintptr_t)rings;
	if (ucmd(OP_CREATE_QP, IB_USER_VERBS_CMD_CREATE_QP, &req, sizeof(req), &drv,
		 sizeof(drv), &resp, sizeof(resp)))
		return;
	fz.qp[i].live = 1;
	fz.qp[i].handle = resp.core.qp_handle;
	fz.qp[i].hw_id = resp.drv.qp_id;
	fz.qp[i].rings = rings;
	k = pick(MAX_OBJS);
	connect_qp(fz.qp[i].handle, fz.qp[k].live ? fz.qp[k].hw_id : fz.qp[i].hw_id);
}

/* One provider-like step: whichever object is missing first. */
static void op_build(void)
{
	int i;

	if (!live_handle(fz.pd, &i) && i < 0)
		op_alloc_pd();
	else if (!live_handle(fz.cq, &i) && i < 0)
		build_cq();
	else if (chance(50))
		build_cq();
	else
		build_qp();
}

/* Close the file with whatever it holds; open it again, empty. */
static void op_reopen(void)
{
	int i;

	fz.sent[OP_REOPEN]++;
	if (fz.db)
		munmap(fz.db, PAGE);
	fz.db = NULL;
	close(fz.fd);
	/* The kernel let go of everything: the memory is ours again. */
	for (i = 0; i < MAX_OBJS; i++)
		fz_free_mem(&fz.mr[i]);
	memset(fz.pd, 0, sizeof(fz.pd));
	memset(fz.mr, 0, sizeof(fz.mr));
	memset(fz.cq, 0, sizeof(fz.cq));
	memset(fz.qp, 0, sizeof(fz.qp));
	fz.have_ctx = 0;
	fz.fd = open(fz.dev, O_RDWR);
	if (fz.fd < 0) {
		perror(fz.dev);
		exit(2);
	}
	fz.ok[OP_REOPEN]++;
}

/* The GID (and its index, from the file's name) QPs are connected with. */
static void read_gid(const char *path)
{
	const char *base = strrchr(path, '/');
	unsigned int g[8];
	FILE *f = fopen(path, "r");
	int k;

	if (!f)
		return;
	if (fscanf(f, "%x:%x:%x:%x:%x:%x:%x:%x", &g[0], &g[1], &g[2], &g[3],
		   &g[4], &g[5], &g[6], &g[7]) == 8) {
		for (k = 0; k < 8; k++) {
			fz.gid[2 * k] = g[k] >> 8;
			fz.gid[2 * k + 1] = g[k] & 0xff;
		}
		fz.have_gid = 1 + (base ? atoi(base + 1) : 0);
	}
	fclose(f);
}

/**
 * main - fuzz one uverbs device
 * @argc: argument count
 * @argv: DEVICE SEED OPS SECONDS [GID-FILE]
 *
 * Return: 0 once the operations or the seconds are spent, 2 on a usage
 * or setup error. A kernel that survived is the caller's to check.
 */
int main(int argc, char **argv)
{
	static void (*const ops[])(void) = {
		op_alloc_pd, op_alloc_pd, op_dealloc_pd,
		op_reg_mr, op_reg_mr, op_reg_mr, op_dereg_mr,
		op_create_cq, op_create_cq, op_resize_cq, op_destroy_cq,
		op_create_qp, op_create_qp, op_modify_qp, op_modify_qp,
		op_modify_qp, op_query_qp, op_destroy_qp,
		op_wqe, op_wqe, op_wqe, op_context,
		op_build, op_build, op_build, op_build, op_build,
	};
	unsigned long n, max_ops;
	time_t end;
	int i;

	if (argc < 5) {
		fprintf(stderr, "usage: %s DEVICE SEED OPS SECONDS [GID-FILE]\n", argv[0]);
		return 2;
	}
	fz.dev = argv[1];
	fz.rng = strtoull(argv[2], NULL, 0) * 2 + 1;
	max_ops = strtoul(argv[3], NULL, 0);
	end = time(NULL) + strtol(argv[4], NULL, 0);
	if (argc > 5)
		read_gid(argv[5]);
	fz.fd = open(fz.dev, O_RDWR);
	if (fz.fd < 0) {
		perror(fz.dev);
		return 2;
	}
	printf("seed %s\n", argv[2]);
	fflush(stdout);
	for (n = 0; n < max_ops && time(NULL) < end; n++) {
		if (!fz.have_ctx || chance(1))
			op_context();
		else if (pick(1000) < 3)
			op_reopen();
		else
			ops[pick(ARRAY_SIZE(ops))]();
	}
	printf("%lu operations\n", n);
	for (i = 0; i < OP_COUNT; i++)
		printf("  %-14s sent %7lu  succeeded %7lu\n", op_names[i], fz.sent[i],
		       fz.ok[i]);
	/* Whatever is left goes with the file. */
	if (fz.db)
		munmap(fz.db, PAGE);
	close(fz.fd);
	return 0;
}
