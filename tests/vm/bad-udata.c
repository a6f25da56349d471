// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Malformed user requests to irdma through the raw uverbs write()
 * interface: short and oversized driver data, unknown registration types,
 * rings never registered or registered as something else, impossible
 * sizes, handles used twice. Every call must fail with the errno the
 * driver documents; the caller checks the kernel log and leftovers.
 *
 *   bad-udata /dev/infiniband/uverbs0
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>

/* QP types as ib_core numbers them. */
#define QPT_RC	2
#define QPT_UC	3

static int fd, failures;

/* One write() command: header, core request, driver data; errno or 0. */
static int cmd(__u32 command, void *req, size_t req_len, const void *drv,
	       size_t drv_len, void *resp, size_t resp_len)
{
	size_t len = sizeof(struct ib_uverbs_cmd_hdr) + req_len + drv_len;
	__u64 words[64];
	char *buf = (char *)words;
	struct ib_uverbs_cmd_hdr *hdr = (void *)buf;

	memset(words, 0, sizeof(words));
	hdr->command = command;
	hdr->in_words = len / 4;
	hdr->out_words = resp_len / 4;
	/* A request with a response opens with the response's address. */
	if (resp)
		*(__u64 *)req = (uintptr_t)resp;
	memcpy(buf + sizeof(*hdr), req, req_len);
	memcpy(buf + sizeof(*hdr) + req_len, drv, drv_len);
	return write(fd, buf, len) == (ssize_t)len ? 0 : errno;
}

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

static __u32 reg_mr(__u32 pd, void *addr, size_t len,
		    const struct irdma_mem_reg_req *drv, size_t drv_len, int *err)
{
	struct ib_uverbs_reg_mr req = {
		.start = (uintptr_t)addr, .length = len, .hca_va = (uintptr_t)addr,
		.pd_handle = pd, .access_flags = 1,	/* local write */
	};
	struct {
		struct ib_uverbs_reg_mr_resp core;
		__u64 drv[2];
	} resp = {};

	*err = cmd(IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req), drv, drv_len,
		   &resp, sizeof(resp));
	return resp.core.mr_handle;
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

	return cmd(IB_USER_VERBS_CMD_CREATE_QP, &req, sizeof(req), drv, drv_len,
		   &resp, sizeof(resp));
}

/**
 * main - send the malformed requests and count the wrong answers
 * @argc: argument count
 * @argv: the uverbs device (default /dev/infiniband/uverbs0)
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
	__u32 pd, mr, ring_mr, shadow_mr, resize_mr, cq, bad_cq;
	void *mem;
	int err;

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
	expect("resize to it", resize_cq(cq, 128, &rsreq, sizeof(rsreq)), 0);

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

	/* Handles used twice. */
	dcq.cq_handle = cq;
	err = cmd(IB_USER_VERBS_CMD_DESTROY_CQ, &dcq, sizeof(dcq), NULL, 0,
		  &dcq_resp, sizeof(dcq_resp));
	expect("destroying the CQ", err, 0);
	err = cmd(IB_USER_VERBS_CMD_DESTROY_CQ, &dcq, sizeof(dcq), NULL, 0,
		  &dcq_resp, sizeof(dcq_resp));
	expect("destroying it again", err, ENOENT);
	expect("deregistering the CQ ring", dereg_mr(ring_mr), 0);
	expect("deregistering the CQ shadow", dereg_mr(shadow_mr), 0);
	expect("deregistering the ring again", dereg_mr(ring_mr), ENOENT);
	expect("deregistering the resized ring", dereg_mr(resize_mr), 0);

	close(fd);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
