/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The raw uverbs write() interface, for the VM tests' C programs that talk
 * to irdma without libibverbs: one command is a header, the core request
 * and the driver's data; the open device is @fd.
 */
#ifndef IRDMA_TESTS_UVERBS_CMD_H
#define IRDMA_TESTS_UVERBS_CMD_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>

static int fd;

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

/*
 * Open @path as @fd, take a user context with irdma's request of this ABI
 * (its response in @uctx) and a PD (@pd): 0, or the errno of the step that
 * failed, which @what names.
 */
static inline int open_context_pd(const char *path,
				  struct irdma_alloc_ucontext_resp *uctx,
				  __u32 *pd, const char **what)
{
	struct irdma_alloc_ucontext_req req = { .userspace_ver = IRDMA_ABI_VER };
	struct {
		struct ib_uverbs_get_context_resp core;
		struct irdma_alloc_ucontext_resp drv;
	} ctx = {};
	struct ib_uverbs_get_context gc = {};
	struct ib_uverbs_alloc_pd pdreq = {};
	struct {
		struct ib_uverbs_alloc_pd_resp core;
		struct irdma_alloc_pd_resp drv;
	} pdresp = {};
	int err;

	*what = path;
	fd = open(path, O_RDWR);
	if (fd < 0)
		return errno;
	*what = "GET_CONTEXT";
	err = cmd(IB_USER_VERBS_CMD_GET_CONTEXT, &gc, sizeof(gc), &req, sizeof(req),
		  &ctx, sizeof(ctx));
	if (err)
		return err;
	*uctx = ctx.drv;
	*what = "ALLOC_PD";
	err = cmd(IB_USER_VERBS_CMD_ALLOC_PD, &pdreq, sizeof(pdreq), NULL, 0,
		  &pdresp, sizeof(pdresp));
	*pd = pdresp.core.pd_handle;
	return err;
}

#endif
