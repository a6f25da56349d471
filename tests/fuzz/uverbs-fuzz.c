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
 *
 * The commands: GET_CONTEXT, QUERY_DEVICE, QUERY_PORT, ALLOC/DEALLOC_PD,
 * REG/REREG/DEREG_MR, ALLOC/DEALLOC_MW, CREATE_COMP_CHANNEL, CREATE/
 * RESIZE/DESTROY_CQ, POLL_CQ, REQ_NOTIFY_CQ, CREATE/MODIFY/QUERY/
 * DESTROY_SRQ, POST_SRQ_RECV, CREATE/MODIFY/QUERY/DESTROY_QP (RC and UD
 * among others), POST_SEND, POST_RECV, ATTACH/DETACH_MCAST, CREATE/
 * DESTROY_AH. The data path commands are refused for user objects; they
 * are sent for ib_core's unmarshalling and the driver's refusal.
 *
 * GID-FILE is one of the port's sysfs GIDs (.../gids/N): QPs connect to
 * it and AHs name it; its siblings (indexes 0 to 7) give AHs more GIDs.
 *
 * With UVERBS_FUZZ_MAKE_IT_FAIL=1 in its environment, once started it
 * marks itself for the kernel's fault injection (/proc/self/make-it-fail;
 * failslab with task-filter then fails some of the allocations the kernel
 * makes on its behalf).
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
#define FZ_GIDS		8	/* the port's GID indexes read, from 0 */
#define FZ_WRS		4	/* work requests in a post, at most */
#define FZ_SGES		3	/* scatter entries written per work request */
#define FZ_WCS		16	/* completions a poll asks for, at most */
#define QPT_RC		2	/* enum ib_qp_type */
#define QPT_UD		4
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Commands, for the summary. */
enum fz_op {
	OP_CONTEXT, OP_QUERY_DEVICE, OP_QUERY_PORT, OP_ALLOC_PD, OP_DEALLOC_PD,
	OP_REG_MR, OP_REREG_MR, OP_DEREG_MR, OP_ALLOC_MW, OP_DEALLOC_MW,
	OP_COMP_CHANNEL, OP_CREATE_CQ, OP_RESIZE_CQ, OP_POLL_CQ,
	OP_REQ_NOTIFY_CQ, OP_DESTROY_CQ, OP_CREATE_SRQ, OP_MODIFY_SRQ,
	OP_QUERY_SRQ, OP_POST_SRQ_RECV, OP_DESTROY_SRQ, OP_CREATE_QP,
	OP_MODIFY_QP, OP_QUERY_QP, OP_POST_SEND, OP_POST_RECV, OP_ATTACH_MCAST,
	OP_DETACH_MCAST, OP_DESTROY_QP, OP_CREATE_AH, OP_DESTROY_AH, OP_WQE,
	OP_REOPEN, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	[OP_CONTEXT] = "get_context",
	[OP_QUERY_DEVICE] = "query_device",
	[OP_QUERY_PORT] = "query_port",
	[OP_ALLOC_PD] = "alloc_pd",
	[OP_DEALLOC_PD] = "dealloc_pd",
	[OP_REG_MR] = "reg_mr",
	[OP_REREG_MR] = "rereg_mr",
	[OP_DEREG_MR] = "dereg_mr",
	[OP_ALLOC_MW] = "alloc_mw",
	[OP_DEALLOC_MW] = "dealloc_mw",
	[OP_COMP_CHANNEL] = "comp_channel",
	[OP_CREATE_CQ] = "create_cq",
	[OP_RESIZE_CQ] = "resize_cq",
	[OP_POLL_CQ] = "poll_cq",
	[OP_REQ_NOTIFY_CQ] = "req_notify_cq",
	[OP_DESTROY_CQ] = "destroy_cq",
	[OP_CREATE_SRQ] = "create_srq",
	[OP_MODIFY_SRQ] = "modify_srq",
	[OP_QUERY_SRQ] = "query_srq",
	[OP_POST_SRQ_RECV] = "post_srq_recv",
	[OP_DESTROY_SRQ] = "destroy_srq",
	[OP_CREATE_QP] = "create_qp",
	[OP_MODIFY_QP] = "modify_qp",
	[OP_QUERY_QP] = "query_qp",
	[OP_POST_SEND] = "post_send",
	[OP_POST_RECV] = "post_recv",
	[OP_ATTACH_MCAST] = "attach_mcast",
	[OP_DETACH_MCAST] = "detach_mcast",
	[OP_DESTROY_QP] = "destroy_qp",
	[OP_CREATE_AH] = "create_ah",
	[OP_DESTROY_AH] = "destroy_ah",
	[OP_WQE] = "wqe+doorbell",
	[OP_REOPEN] = "close+reopen",
};

/*
 * An object the kernel gave a handle for (or once did). Only MRs own
 * memory: AHs, MWs and SRQs own none (this ABI has no SRQ ring
 * registration, see op_create_srq()).
 */
struct fz_obj {
	int live;
	__u32 handle;
	__u32 hw_id;		/* QP, CQ, SRQ number; MR lkey, MW rkey, AH index */
	void *mem;		/* MRs: the memory registered */
	size_t len;		/* MRs: its size as allocated */
	__u32 reg_type;		/* MRs: IRDMA_MEMREG_TYPE_* */
	__u32 sq_pages;		/* MRs of QP rings */
	__u32 qp_type;		/* QPs: as created (QPT_RC, QPT_UD, ...) */
	void *rings;		/* QPs: the rings named at create */
};

static struct {
	const char *dev;
	int fd;
	int have_ctx;
	struct irdma_alloc_ucontext_resp ctx;
	__u32 *db;
	struct fz_obj pd[MAX_OBJS], mr[MAX_OBJS], cq[MAX_OBJS], qp[MAX_OBJS];
	struct fz_obj ah[MAX_OBJS], mw[MAX_OBJS], srq[MAX_OBJS];
	__u8 gid[16];
	int have_gid;
	__u8 port_gid[FZ_GIDS][16];	/* the GID file's siblings */
	int port_gid_ok[FZ_GIDS];
	size_t drv_tail;	/* zero bytes the next ucmd() appends */
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
	size_t len = sizeof(*hdr) + req_len + drv_len + fz.drv_tail;
	int err;

	fz.drv_tail = 0;
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

/*
 * Driver data of a random length around @len (short, exact, long). What
 * goes past the caller's @len bytes is zeros, appended by the next ucmd().
 */
static size_t drv_len(size_t len)
{
	if (chance(85))
		return len;
	if (chance(50))
		return pick(len);
	fz.drv_tail = 8 * pick(4);
	return len;
}

/*
 * Trailing words, mostly none, for a command whose core struct is all
 * ib_core reads (it wants them zero) or whose driver reads no request:
 * zeros or random, into @buf of @words words. Return: their bytes.
 */
static size_t junk(__u64 *buf, size_t words)
{
	size_t n, k;

	if (chance(90))
		return 0;
	n = 1 + pick(words);
	for (k = 0; k < n; k++)
		buf[k] = chance(50) ? 0 : rnd();
	return n * 8;
}

/* A port number: 1 (the device's one port) mostly, else 0 to 3. */
static __u8 port_num(void)
{
	return chance(90) ? 1 : pick(4);
}

/* A source GID index: the QPs' GID's mostly, else another, or anything. */
static __u8 sgid_index(void)
{
	if (fz.have_gid && chance(70))
		return fz.have_gid - 1;
	return chance(80) ? pick(FZ_GIDS) : pick(256);
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

/* The device's attributes; no driver data either way. */
static void op_query_device(void)
{
	struct ib_uverbs_query_device req = {};
	struct {
		struct ib_uverbs_query_device_resp core;
		__u64 pad[4];
	} resp;
	size_t len = sizeof(resp.core);
	__u64 extra[4];

	if (chance(10))		/* short (refused), or longer than needed */
		len = chance(50) ? pick(sizeof(resp.core)) : sizeof(resp);
	ucmd(OP_QUERY_DEVICE, IB_USER_VERBS_CMD_QUERY_DEVICE, &req, sizeof(req),
	     extra, junk(extra, ARRAY_SIZE(extra)), &resp, len);
}

/* A port's attributes, of port 1 mostly, or of ports that do not exist. */
static void op_query_port(void)
{
	struct ib_uverbs_query_port req = { .port_num = port_num() };
	struct ib_uverbs_query_port_resp resp;
	size_t len = sizeof(resp);
	__u64 extra[2];

	if (chance(5))
		len = pick(sizeof(resp));
	ucmd(OP_QUERY_PORT, IB_USER_VERBS_CMD_QUERY_PORT, &req, sizeof(req),
	     extra, junk(extra, ARRAY_SIZE(extra)), &resp, len);
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
			.hw_id = resp.core.lkey, .len = (size_t)pages * PAGE,
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

/*
 * REREG_MR, on any MR, queue registrations included: a new translation
 * (IB_MR_REREG_TRANS, 1), PD (2) or access (4), or flags ib_core refuses.
 * A new translation stays within the memory the MR already owns (or
 * names memory nobody has): whatever the kernel pins then, it is freed
 * with the MR, never before. The driver data is that of REG_MR.
 */
static void op_rereg_mr(void)
{
	struct ib_uverbs_rereg_mr req = {};
	struct irdma_mem_reg_req drv = {};
	struct {
		struct ib_uverbs_rereg_mr_resp core;
		__u64 pad[2];
	} resp = {};
	size_t off;
	int i, j;

	req.mr_handle = handle_of(fz.mr, &i);
	req.flags = chance(85) ? 1 + pick(7) : (__u32)edgy();
	if (fz.mr[i].mem && chance(85)) {
		off = chance(70) ? 0 : pick(fz.mr[i].len / PAGE) * PAGE;
		req.start = (uintptr_t)fz.mr[i].mem + off;
		req.length = chance(80) ? fz.mr[i].len - off :
					  pick(fz.mr[i].len - off + 1);
	} else {
		req.start = 0x10000000000ULL + pick(1 << 20) * PAGE;
		req.length = edgy();
	}
	req.hca_va = chance(85) ? req.start : edgy();
	req.pd_handle = handle_of(fz.pd, &j);
	req.access_flags = chance(70) ? 1 : pick(0x20);
	drv.reg_type = chance(80) ? fz.mr[i].reg_type & 0xff : (__u16)edgy();
	drv.sq_pages = mostly(fz.mr[i].sq_pages);
	drv.rq_pages = mostly(1);
	drv.cq_pages = mostly(fz.mr[i].len / PAGE);
	if (!ucmd(OP_REREG_MR, IB_USER_VERBS_CMD_REREG_MR, &req, sizeof(req), &drv,
		  chance(50) ? 0 : drv_len(sizeof(drv)), &resp,
		  chance(90) ? sizeof(resp) : sizeof(resp.core)))
		fz.mr[i].hw_id = resp.core.lkey;
}

/* A memory window of type 1 or 2 (or another), on a PD. */
static void op_alloc_mw(void)
{
	struct ib_uverbs_alloc_mw req = {
		.mw_type = chance(90) ? 1 + pick(2) : (__u8)edgy(),
	};
	struct {
		struct ib_uverbs_alloc_mw_resp core;
		__u64 pad[2];
	} resp = {};
	int i = free_slot(fz.mw), j;
	__u64 extra[4];

	if (i < 0)
		return;
	req.pd_handle = handle_of(fz.pd, &j);
	if (!ucmd(OP_ALLOC_MW, IB_USER_VERBS_CMD_ALLOC_MW, &req, sizeof(req), extra,
		  junk(extra, ARRAY_SIZE(extra)), &resp,
		  chance(90) ? sizeof(resp) : sizeof(resp.core))) {
		fz.mw[i].live = 1;
		fz.mw[i].handle = resp.core.mw_handle;
		fz.mw[i].hw_id = resp.core.rkey;
	}
}

static void op_dealloc_mw(void)
{
	struct ib_uverbs_dealloc_mw req = {};
	int i;

	req.mw_handle = handle_of(fz.mw, &i);
	if (!ucmd(OP_DEALLOC_MW, IB_USER_VERBS_CMD_DEALLOC_MW, &req, sizeof(req),
		  NULL, 0, NULL, 0))
		fz.mw[i].live = 0;
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

/* CREATE_CQ on whatever rings, its events to @channel (-1: none). */
static void create_cq(__s32 channel)
{
	struct ib_uverbs_create_cq req = {
		.cqe = chance(70) ? 1 + pick(512) : (__u32)edgy(),
		.comp_vector = chance(90) ? 0 : (__u32)edgy(),
		.comp_channel = channel,
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

/* A CQ without a channel mostly, else with an fd that is none. */
static void op_create_cq(void)
{
	create_cq(chance(90) ? -1 : chance(50) ? (__s32)pick(16) : (__s32)edgy());
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

/*
 * POLL_CQ (refused for a user CQ). ib_core writes every completion it
 * takes past the response header, whatever out_words says: the response
 * always has room for the FZ_WCS asked for at most.
 */
static void op_poll_cq(void)
{
	struct ib_uverbs_poll_cq req = {
		.ne = chance(90) ? 1 + pick(FZ_WCS) : 0,
	};
	__u64 resp[(sizeof(struct ib_uverbs_poll_cq_resp) +
		    FZ_WCS * sizeof(struct ib_uverbs_wc)) / 8];
	size_t len = sizeof(resp);
	__u64 extra[2];
	int i;

	req.cq_handle = handle_of(fz.cq, &i);
	if (chance(10))
		len = pick(sizeof(struct ib_uverbs_poll_cq_resp) + 1);
	ucmd(OP_POLL_CQ, IB_USER_VERBS_CMD_POLL_CQ, &req, sizeof(req), extra,
	     junk(extra, ARRAY_SIZE(extra)), resp, len);
}

/* REQ_NOTIFY_CQ (the driver refuses user CQs; ib_core answers 0). */
static void op_req_notify_cq(void)
{
	struct ib_uverbs_req_notify_cq req = {
		.solicited_only = chance(90) ? pick(2) : (__u32)rnd(),
	};
	__u64 extra[2];
	int i;

	req.cq_handle = handle_of(fz.cq, &i);
	ucmd(OP_REQ_NOTIFY_CQ, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &req, sizeof(req),
	     extra, junk(extra, ARRAY_SIZE(extra)), NULL, 0);
}

/*
 * CREATE_SRQ. The irdma-abi.h of this host has no SRQ request (no ring
 * and shadow area addresses, no IRDMA_MEMREG_TYPE_SRQ to register them
 * with), and the driver refuses user SRQs: the command goes with driver
 * data shaped like a ring address and a shadow area address (of queue
 * registrations of other types, or anything), of random length. An SRQ
 * made all the same is kept; it owns no memory of the process.
 */
static void op_create_srq(void)
{
	struct ib_uverbs_create_srq req = {
		.user_handle = rnd(),
		.max_wr = chance(70) ? 1 + pick(256) : (__u32)edgy(),
		.max_sge = chance(80) ? 1 + pick(13) : (__u32)edgy(),
		.srq_limit = chance(70) ? pick(16) : (__u32)edgy(),
	};
	__u64 drv[2] = { ring_addr(pick(3)), ring_addr(pick(3)) };
	struct {
		struct ib_uverbs_create_srq_resp core;
		__u32 drv[2];
	} resp = {};
	int i = free_slot(fz.srq), j;

	if (i < 0)
		return;
	req.pd_handle = handle_of(fz.pd, &j);
	if (!ucmd(OP_CREATE_SRQ, IB_USER_VERBS_CMD_CREATE_SRQ, &req, sizeof(req),
		  drv, chance(20) ? 0 : drv_len(sizeof(drv)), &resp,
		  chance(90) ? sizeof(resp) : sizeof(resp.core))) {
		fz.srq[i].live = 1;
		fz.srq[i].handle = resp.core.srq_handle;
		fz.srq[i].hw_id = resp.core.srqn;
	}
}

/* MODIFY_SRQ: IB_SRQ_MAX_WR (1) and IB_SRQ_LIMIT (2), or other bits. */
static void op_modify_srq(void)
{
	struct ib_uverbs_modify_srq req = {
		.attr_mask = chance(80) ? pick(4) : (__u32)edgy(),
		.max_wr = chance(70) ? 1 + pick(256) : (__u32)edgy(),
		.srq_limit = chance(70) ? pick(64) : (__u32)edgy(),
	};
	__u64 extra[4];
	int i;

	req.srq_handle = handle_of(fz.srq, &i);
	ucmd(OP_MODIFY_SRQ, IB_USER_VERBS_CMD_MODIFY_SRQ, &req, sizeof(req), extra,
	     junk(extra, ARRAY_SIZE(extra)), NULL, 0);
}

static void op_query_srq(void)
{
	struct ib_uverbs_query_srq req = {};
	struct ib_uverbs_query_srq_resp resp;
	__u64 extra[2];
	int i;

	req.srq_handle = handle_of(fz.srq, &i);
	ucmd(OP_QUERY_SRQ, IB_USER_VERBS_CMD_QUERY_SRQ, &req, sizeof(req), extra,
	     junk(extra, ARRAY_SIZE(extra)), &resp, sizeof(resp));
}

static void op_destroy_srq(void)
{
	struct ib_uverbs_destroy_srq req = {};
	struct ib_uverbs_destroy_srq_resp resp;
	int i;

	req.srq_handle = handle_of(fz.srq, &i);
	if (!ucmd(OP_DESTROY_SRQ, IB_USER_VERBS_CMD_DESTROY_SRQ, &req, sizeof(req),
		  NULL, 0, &resp, sizeof(resp)))
		fz.srq[i].live = 0;
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
	if (chance(10)) {	/* receives from an SRQ (live, stale or none) */
		req.is_srq = chance(90) ? 1 : (__u8)rnd();
		req.srq_handle = handle_of(fz.srq, &j);
	}
	if (!ucmd(OP_CREATE_QP, IB_USER_VERBS_CMD_CREATE_QP, &req, sizeof(req), &drv,
		  drv_len(sizeof(drv)), &resp, sizeof(resp))) {
		fz.qp[i].live = 1;
		fz.qp[i].handle = resp.core.qp_handle;
		fz.qp[i].hw_id = resp.drv.qp_id;
		fz.qp[i].qp_type = req.qp_type;
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

/* The work requests of a post, laid out as ib_core unmarshals them. */
struct fz_post {
	__u32 wr_count, sge_count, wqe_size;	/* as the command declares */
	size_t len;				/* bytes written into buf */
	__u64 buf[FZ_WRS * (sizeof(struct ib_uverbs_send_wr) + 24) / 8 +
		  FZ_WRS * FZ_SGES * sizeof(struct ib_uverbs_sge) / 8];
};

/* An address and key within a registered MR mostly, else anything. */
static __u64 mr_addr(__u32 *key)
{
	int i = pick(MAX_OBJS);

	if (fz.mr[i].live && fz.mr[i].mem && chance(80)) {
		*key = mostly(fz.mr[i].hw_id);
		return (uintptr_t)fz.mr[i].mem + pick(fz.mr[i].len);
	}
	*key = rnd();
	return edgy();
}

static void fz_sge(struct ib_uverbs_sge *sg)
{
	sg->addr = mr_addr(&sg->lkey);
	sg->length = chance(80) ? pick(PAGE) : (__u32)edgy();
}

/* A send WR: mostly an opcode ib_core takes (SEND or SEND_WITH_IMM on UD). */
static void fz_send_wr(struct ib_uverbs_send_wr *wr, __u32 num_sge, int ud)
{
	int i;

	wr->wr_id = rnd();
	wr->num_sge = num_sge;
	if (chance(90))
		wr->opcode = ud ? IB_UVERBS_WR_SEND + pick(2) : pick(14);
	else
		wr->opcode = edgy();
	wr->send_flags = chance(80) ? pick(32) : (__u32)rnd();
	wr->ex.invalidate_rkey = rnd();
	if (ud) {
		wr->wr.ud.ah = handle_of(fz.ah, &i);
		wr->wr.ud.remote_qpn = chance(80) ? fz.qp[pick(MAX_OBJS)].hw_id :
						    (__u32)rnd();
		wr->wr.ud.remote_qkey = rnd();
	} else if (wr->opcode == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP ||
		   wr->opcode == IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD) {
		wr->wr.atomic.remote_addr = mr_addr(&wr->wr.atomic.rkey);
		wr->wr.atomic.compare_add = rnd();
		wr->wr.atomic.swap = rnd();
	} else {
		wr->wr.rdma.remote_addr = mr_addr(&wr->wr.rdma.rkey);
	}
}

/*
 * Up to FZ_WRS work requests at a stride of wqe_size (the WR, then
 * zeros), then all their scatter entries (FZ_SGES a WR at most, whatever
 * its num_sge says). The counts declared are mostly the true ones, else
 * anything: ib_core must stay within what was written.
 */
static void fz_post(struct fz_post *p, int send, int ud)
{
	size_t base = send ? sizeof(struct ib_uverbs_send_wr) :
			     sizeof(struct ib_uverbs_recv_wr);
	size_t stride = base + 8 * (chance(85) ? 0 : pick(4));
	char *wrs = (char *)p->buf;
	struct ib_uverbs_sge *sg;
	__u32 n = pick(FZ_WRS + 1), sges = 0, k, num;

	memset(p->buf, 0, sizeof(p->buf));
	for (k = 0; k < n; k++) {
		num = chance(90) ? pick(FZ_SGES + 1) : (__u32)edgy();
		if (send) {
			fz_send_wr((void *)(wrs + k * stride), num, ud);
		} else {
			struct ib_uverbs_recv_wr *wr = (void *)(wrs + k * stride);

			wr->wr_id = rnd();
			wr->num_sge = num;
			wr->reserved = chance(90) ? 0 : (__u32)rnd();
		}
		sges += num < FZ_SGES ? num : FZ_SGES;
	}
	sg = (void *)(wrs + n * stride);
	for (k = 0; k < sges; k++)
		fz_sge(&sg[k]);
	p->len = n * stride + sges * sizeof(*sg);
	p->wr_count = chance(90) ? n : (__u32)edgy();
	p->wqe_size = chance(90) ? stride : chance(50) ? base - 8 : (__u32)edgy();
	p->sge_count = chance(90) ? sges : (__u32)edgy();
}

/*
 * One of the three post commands on @handle. Their requests share one
 * layout (response, handle, wr_count, sge_count, wqe_size, then the WRs),
 * as their responses do (bad_wr).
 */
static void post_cmd(enum fz_op op, __u32 command, __u32 handle, int send, int ud)
{
	struct ib_uverbs_post_recv req = { .qp_handle = handle };
	struct ib_uverbs_post_recv_resp resp;
	struct fz_post p;

	fz_post(&p, send, ud);
	req.wr_count = p.wr_count;
	req.sge_count = p.sge_count;
	req.wqe_size = p.wqe_size;
	ucmd(op, command, &req, sizeof(req), p.buf, p.len, &resp, sizeof(resp));
}

/* POST_SEND on a QP of the process (refused: its rings are user space's). */
static void op_post_send(void)
{
	__u32 handle;
	int i;

	handle = handle_of(fz.qp, &i);
	post_cmd(OP_POST_SEND, IB_USER_VERBS_CMD_POST_SEND, handle, 1,
		 fz.qp[i].qp_type == QPT_UD);
}

/* POST_RECV on a QP of the process (refused likewise). */
static void op_post_recv(void)
{
	int i;

	post_cmd(OP_POST_RECV, IB_USER_VERBS_CMD_POST_RECV, handle_of(fz.qp, &i), 0, 0);
}

/* POST_SRQ_RECV on an SRQ of the process, or a handle that is none. */
static void op_post_srq_recv(void)
{
	int i;

	post_cmd(OP_POST_SRQ_RECV, IB_USER_VERBS_CMD_POST_SRQ_RECV,
		 handle_of(fz.srq, &i), 0, 0);
}

/*
 * A multicast GID: mostly one of a few ff0e:: groups (so that joins and
 * leaves meet), or IPv4-mapped 224.0.0.0/4; with @wide, groups spread
 * over the low 32 bits, each a MAC and an ARP table entry of its own.
 * Now and then no multicast address at all.
 */
static void mcast_gid(__u8 *d, int wide)
{
	int k;

	memset(d, 0, 16);
	switch (pick(10)) {
	case 0:
	case 1:
		d[10] = 0xff;
		d[11] = 0xff;
		d[12] = 224 + pick(16);
		d[15] = pick(8);
		if (wide) {
			d[13] = rnd();
			d[14] = rnd();
		}
		break;
	case 2:
		if (chance(50))
			memcpy(d, fz.gid, 16);
		else
			for (k = 0; k < 16; k++)
				d[k] = rnd();
		break;
	default:
		d[0] = 0xff;
		d[1] = chance(90) ? 0x0e : pick(256);
		d[15] = pick(8);
		if (wide)
			for (k = 12; k < 16; k++)
				d[k] = rnd();
		break;
	}
}

/* A live UD QP of the process mostly, else any handle_of() one. */
static __u32 ud_qp(int *idx)
{
	int i, k;

	for (k = 0; k < MAX_OBJS && chance(95); k++) {
		i = pick(MAX_OBJS);
		if (fz.qp[i].live && fz.qp[i].qp_type == QPT_UD) {
			*idx = i;
			return fz.qp[i].handle;
		}
	}
	return handle_of(fz.qp, idx);
}

/* ATTACH_MCAST or DETACH_MCAST (the same layout), of a UD QP mostly. */
static void mcast(enum fz_op op, __u32 command)
{
	struct ib_uverbs_attach_mcast req = {
		.mlid = chance(90) ? 0 : (__u16)rnd(),
	};
	__u64 extra[2];
	int i;

	mcast_gid(req.gid, chance(20));
	req.qp_handle = ud_qp(&i);
	ucmd(op, command, &req, sizeof(req), extra,
	     junk(extra, ARRAY_SIZE(extra)), NULL, 0);
}

static void op_attach_mcast(void)
{
	mcast(OP_ATTACH_MCAST, IB_USER_VERBS_CMD_ATTACH_MCAST);
}

static void op_detach_mcast(void)
{
	mcast(OP_DETACH_MCAST, IB_USER_VERBS_CMD_DETACH_MCAST);
}

/* A GID of the port read at start, or the QPs' one. */
static const __u8 *port_gid(void)
{
	int k = pick(FZ_GIDS);

	return fz.port_gid_ok[k] ? fz.port_gid[k] : fz.gid;
}

/*
 * An AH's destination: the port's own GIDs mostly (resolved at once),
 * multicast groups (their MAC from the address), IPv4 and IPv6 loopback,
 * link-local addresses (fe80::/10 off fe80::/64, which no route has), and
 * now and then a neighbour nobody answers for (fe80::/64, or a host of
 * the GID's subnet: ib_core waits up to a second for it), or anything.
 */
static void ah_dgid(__u8 *d)
{
	__u32 r = pick(100);
	int k;

	memset(d, 0, 16);
	if (r < 30) {
		memcpy(d, fz.gid, 16);
	} else if (r < 45) {
		memcpy(d, port_gid(), 16);
	} else if (r < 65) {
		mcast_gid(d, chance(50));
	} else if (r < 73) {
		if (chance(50)) {
			d[15] = 1;
		} else {
			d[10] = 0xff;
			d[11] = 0xff;
			d[12] = 127;
			d[15] = chance(70) ? 1 : pick(256);
		}
	} else if (r < 81) {
		d[0] = 0xfe;
		d[1] = 0x80 | pick(0x40);
		for (k = 2; k < 16; k++)
			d[k] = rnd();
	} else if (r < 83) {
		d[0] = 0xfe;
		d[1] = 0x80;
		for (k = 8; k < 16; k++)
			d[k] = rnd();
		d[11] = 0xff;
		d[12] = 0xfe;
	} else if (r < 85) {
		memcpy(d, fz.gid, 16);
		d[15] = rnd();
	} else if (r < 95) {
		for (k = 0; k < 16; k++)
			d[k] = rnd();
	} else if (chance(50)) {
		d[10] = 0xff;
		d[11] = 0xff;
	}
}

/*
 * CREATE_AH: GRH mostly (RoCE needs it), the source GID index of the
 * QPs' GID mostly, random flow label, traffic class, hop limit, DLID, SL
 * and rate. The driver reads no request (random words may follow) and
 * answers irdma_create_ah_resp, whose ah_id is kept; a response too
 * short for it must be refused.
 */
static void op_create_ah(void)
{
	struct ib_uverbs_create_ah req = { .user_handle = rnd() };
	struct ib_uverbs_ah_attr *a = &req.attr;
	struct {
		struct ib_uverbs_create_ah_resp core;
		struct irdma_create_ah_resp drv;
	} resp = {};
	size_t len = sizeof(resp);
	int i = free_slot(fz.ah), j;
	__u64 extra[4];

	if (i < 0)
		return;
	req.pd_handle = handle_of(fz.pd, &j);
	ah_dgid(a->grh.dgid);
	if (chance(50))
		a->grh.flow_label = chance(80) ? pick(1 << 20) : (__u32)rnd();
	a->grh.sgid_index = sgid_index();
	a->grh.hop_limit = chance(70) ? 64 : pick(256);
	a->grh.traffic_class = chance(70) ? 0 : pick(256);
	a->grh.reserved = chance(95) ? 0 : pick(256);
	a->dlid = chance(70) ? 0 : pick(1 << 16);
	a->sl = chance(70) ? pick(8) : pick(256);
	a->src_path_bits = chance(90) ? 0 : pick(256);
	a->static_rate = chance(90) ? 0 : pick(32);
	a->is_global = chance(85) ? 1 : chance(80) ? 0 : pick(256);
	a->port_num = port_num();
	if (chance(10))
		len = sizeof(resp.core) + 4 * pick(sizeof(resp.drv) / 4);
	if (!ucmd(OP_CREATE_AH, IB_USER_VERBS_CMD_CREATE_AH, &req, sizeof(req),
		  extra, junk(extra, ARRAY_SIZE(extra)), &resp, len)) {
		fz.ah[i].live = 1;
		fz.ah[i].handle = resp.core.ah_handle;
		fz.ah[i].hw_id = resp.drv.ah_id;
	}
}

static void op_destroy_ah(void)
{
	struct ib_uverbs_destroy_ah req = {};
	int i;

	req.ah_handle = handle_of(fz.ah, &i);
	if (!ucmd(OP_DESTROY_AH, IB_USER_VERBS_CMD_DESTROY_AH, &req, sizeof(req),
		  NULL, 0, NULL, 0))
		fz.ah[i].live = 0;
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
 * itself or another of the process's QPs) and RTS, or a UD QP taken to
 * RTS with a Q_Key. Each step is one of the ordinary commands; any may
 * fail, and the rest still runs.
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
		.live = 1, .handle = resp.core.mr_handle, .hw_id = resp.core.lkey,
		.mem = mem, .len = len, .reg_type = type, .sq_pages = drv.sq_pages,
	};
	return i;
}

/* A CQ on rings registered as libirdma does, its events to @channel. */
static void build_cq(__s32 channel)
{
	struct ib_uverbs_create_cq req = {
		.cqe = 1 + pick(128), .comp_channel = channel,
	};
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

/* A UD QP from RESET to RTS: a P_Key index, port and Q_Key, no peer. */
static void ready_ud(__u32 handle)
{
	struct ib_uverbs_modify_qp req = {
		.attr_mask = (1 << 0) | (1 << 4) | (1 << 5) | (1 << 6),
		.qp_state = 1, .port_num = 1, .qkey = rnd(),
	};

	if (modify(handle, &req))
		return;
	memset(&req, 0, sizeof(req));
	req.attr_mask = 1 << 0;
	req.qp_state = 2;
	if (modify(handle, &req))
		return;
	memset(&req, 0, sizeof(req));
	req.attr_mask = (1 << 0) | (1 << 16);
	req.qp_state = 3;
	req.sq_psn = pick(1 << 24);
	modify(handle, &req);
}

static void build_qp(void)
{
	struct ib_uverbs_create_qp req = {
		.max_send_wr = 1 + pick(16), .max_recv_wr = 1 + pick(16),
		.max_send_sge = 1 + pick(3), .max_recv_sge = 1 + pick(3),
		.max_inline_data = pick(2) ? 0 : 64,
		.qp_type = chance(30) ? QPT_UD : QPT_RC,
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
	fz.qp[i].qp_type = req.qp_type;
	fz.qp[i].rings = rings;
	if (req.qp_type == QPT_UD) {
		ready_ud(fz.qp[i].handle);
		return;
	}
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
		build_cq(-1);
	else if (chance(50))
		build_cq(-1);
	else
		build_qp();
}

/*
 * CREATE_COMP_CHANNEL: an fd of its own. Sometimes a CQ (on registered
 * rings, or on whatever) takes its events first; the fd is closed then,
 * the CQ keeping the channel.
 */
static void op_comp_channel(void)
{
	struct ib_uverbs_create_comp_channel req = {};
	struct ib_uverbs_create_comp_channel_resp resp = { .fd = -1 };
	__u64 extra[2];
	int fd;

	if (ucmd(OP_COMP_CHANNEL, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &req,
		 sizeof(req), extra, junk(extra, ARRAY_SIZE(extra)), &resp,
		 sizeof(resp)))
		return;
	fd = resp.fd;
	if (chance(50)) {
		if (chance(50))
			build_cq(fd);
		else
			create_cq(fd);
	}
	if (fd > 2 && fd != fz.fd)
		close(fd);
}

/*
 * Open the device. Under fault injection (failslab on this process) the
 * kernel may lack the memory for a file a few times in a row.
 */
static int open_device(void)
{
	int fd, tries;

	for (tries = 0; tries < 1000; tries++) {
		fd = open(fz.dev, O_RDWR);
		if (fd >= 0 || errno != ENOMEM)
			return fd;
	}
	return fd;
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
	/* These own no memory of the process: nothing to give back. */
	memset(fz.ah, 0, sizeof(fz.ah));
	memset(fz.mw, 0, sizeof(fz.mw));
	memset(fz.srq, 0, sizeof(fz.srq));
	fz.have_ctx = 0;
	fz.fd = open_device();
	if (fz.fd < 0) {
		perror(fz.dev);
		exit(2);
	}
	fz.ok[OP_REOPEN]++;
}

/*
 * Ask for (or out of) the kernel's fault injection. Leaving it, the open
 * and the write may themselves be failed a few times.
 */
static void make_it_fail(const char *on)
{
	ssize_t len = strlen(on), n;
	int fd, tries, err = 0;

	for (tries = 0; tries < 1000; tries++) {
		fd = open("/proc/self/make-it-fail", O_WRONLY);
		if (fd < 0) {
			err = errno;
		} else {
			n = write(fd, on, len);
			err = n < 0 ? errno : 0;
			close(fd);
			if (n == len)
				return;
		}
		if (err != ENOMEM)
			break;
	}
	fprintf(stderr, "/proc/self/make-it-fail: %s\n", strerror(err));
	exit(2);
}

/* One GID file: -1 if unreadable, else whether its GID is not all zeros. */
static int parse_gid(const char *path, __u8 *gid)
{
	unsigned int g[8], any = 0;
	FILE *f = fopen(path, "r");
	int k, n;

	if (!f)
		return -1;
	n = fscanf(f, "%x:%x:%x:%x:%x:%x:%x:%x", &g[0], &g[1], &g[2], &g[3],
		   &g[4], &g[5], &g[6], &g[7]);
	fclose(f);
	if (n != 8)
		return -1;
	for (k = 0; k < 8; k++) {
		gid[2 * k] = g[k] >> 8;
		gid[2 * k + 1] = g[k] & 0xff;
		any |= g[k];
	}
	return any != 0;
}

/*
 * The GID (and its index, from the file's name) QPs are connected with,
 * and the port's first FZ_GIDS GIDs from the files beside it, for AHs.
 */
static void read_gid(const char *path)
{
	const char *base = strrchr(path, '/');
	int dir = base ? (int)(base - path) + 1 : 0;
	char sibling[4096];
	int k;

	if (parse_gid(path, fz.gid) >= 0)
		fz.have_gid = 1 + (base ? atoi(base + 1) : 0);
	for (k = 0; k < FZ_GIDS; k++) {
		snprintf(sibling, sizeof(sibling), "%.*s%d", dir, path, k);
		fz.port_gid_ok[k] = parse_gid(sibling, fz.port_gid[k]) > 0;
	}
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
		op_reg_mr, op_reg_mr, op_reg_mr, op_dereg_mr, op_rereg_mr,
		op_alloc_mw, op_dealloc_mw,
		op_create_cq, op_create_cq, op_resize_cq, op_destroy_cq,
		op_poll_cq, op_req_notify_cq, op_comp_channel,
		op_create_qp, op_create_qp, op_modify_qp, op_modify_qp,
		op_modify_qp, op_query_qp, op_destroy_qp,
		op_post_send, op_post_send, op_post_recv,
		op_attach_mcast, op_attach_mcast, op_detach_mcast,
		op_create_ah, op_create_ah, op_destroy_ah,
		op_create_srq, op_modify_srq, op_query_srq, op_post_srq_recv,
		op_destroy_srq, op_query_device, op_query_port,
		op_wqe, op_wqe, op_wqe, op_context,
		op_build, op_build, op_build, op_build, op_build, op_build,
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
	fz.fd = open_device();
	if (fz.fd < 0) {
		perror(fz.dev);
		return 2;
	}
	printf("seed %s\n", argv[2]);
	fflush(stdout);
	if (getenv("UVERBS_FUZZ_MAKE_IT_FAIL"))
		make_it_fail(getenv("UVERBS_FUZZ_MAKE_IT_FAIL"));
	for (n = 0; n < max_ops && time(NULL) < end; n++) {
		if (!fz.have_ctx || chance(1))
			op_context();
		else if (pick(1000) < 3)
			op_reopen();
		else
			ops[pick(ARRAY_SIZE(ops))]();
	}
	if (getenv("UVERBS_FUZZ_MAKE_IT_FAIL"))
		make_it_fail("0");
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
