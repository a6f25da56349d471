// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A type 1 memory window through libibverbs, as an application binds it:
 * ibv_bind_mw() in a region that allows binding, then an RDMA write and
 * an RDMA read through the window's key (bytes checked), then a write
 * past the window's end (a remote access error), on an RC QP connected to
 * itself. Last, on a fresh QP, a local invalidate of the window, which a
 * type 1 window refuses.
 *
 *   mw-bind DEVICE GID-INDEX
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <infiniband/verbs.h>

#include "ibv-self.h"

#define PAGE	4096UL

/**
 * main - bind a type 1 window and use it
 * @argc: argument count
 * @argv: device name, GID index
 *
 * Return: 0 if every step did what it should, 1 otherwise, 2 on a usage
 * error.
 */
int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_mw_bind bind = {};
	struct ibv_send_wr inv = {}, *bad_wr;
	struct ibv_mr *mr, *lmr;
	struct ibv_mw *mw;
	struct ibv_pd *pd;
	__u8 *mem, *local;
	__u32 old;
	enum ibv_wc_status st;
	int i, gidx, bad = 0;

	if (argc != 3)
		return 2;
	gidx = atoi(argv[2]);
	pd = self_open(argv[1], gidx, &ctx, &list);
	mem = aligned_alloc(PAGE, 4 * PAGE);
	local = aligned_alloc(PAGE, PAGE);
	if (!mem || !local)
		die("memory", ENOMEM);
	memset(mem, 0, 4 * PAGE);
	mr = ibv_reg_mr(pd, mem, 4 * PAGE, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_MW_BIND);
	lmr = ibv_reg_mr(pd, local, PAGE, IBV_ACCESS_LOCAL_WRITE);
	if (!mr || !lmr)
		die("ibv_reg_mr", errno);
	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	if (!mw)
		die("ibv_alloc_mw", errno);
	old = mw->rkey;
	bind.wr_id = 1;
	bind.send_flags = IBV_SEND_SIGNALED;
	bind.bind_info.mr = mr;
	bind.bind_info.addr = (uintptr_t)mem + PAGE;
	bind.bind_info.length = 2 * PAGE;
	bind.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	if (ibv_bind_mw(qp, mw, &bind))
		die("ibv_bind_mw", errno);
	st = status_of(1);
	printf("%s: bind: %s, key %#x -> %#x\n", st == IBV_WC_SUCCESS ? "ok" : "FAIL",
	       ibv_wc_status_str(st), old, mw->rkey);
	bad += st != IBV_WC_SUCCESS;

	for (i = 0; i < 64; i++)
		local[i] = 0x40 + i;
	post(IBV_WR_RDMA_WRITE, 2, local, 64, lmr->lkey, (uintptr_t)mem + PAGE + 100, mw->rkey);
	st = status_of(2);
	bad += st != IBV_WC_SUCCESS || memcmp(mem + PAGE + 100, local, 64);
	printf("%s: RDMA write through the window: %s\n",
	       st == IBV_WC_SUCCESS && !memcmp(mem + PAGE + 100, local, 64) ? "ok" : "FAIL",
	       ibv_wc_status_str(st));
	memset(mem + 2 * PAGE, 0x77, 32);
	memset(local, 0, 32);
	post(IBV_WR_RDMA_READ, 3, local, 32, lmr->lkey, (uintptr_t)mem + 2 * PAGE, mw->rkey);
	st = status_of(3);
	bad += st != IBV_WC_SUCCESS || memcmp(mem + 2 * PAGE, local, 32);
	printf("%s: RDMA read through the window: %s\n",
	       st == IBV_WC_SUCCESS && !memcmp(mem + 2 * PAGE, local, 32) ? "ok" : "FAIL",
	       ibv_wc_status_str(st));
	post(IBV_WR_RDMA_WRITE, 4, local, 64, lmr->lkey, (uintptr_t)mem + 3 * PAGE - 16, mw->rkey);
	st = status_of(4);
	bad += st != IBV_WC_REM_ACCESS_ERR;
	printf("%s: a write past the window's end: %s\n",
	       st == IBV_WC_REM_ACCESS_ERR ? "ok" : "FAIL", ibv_wc_status_str(st));

	/* A fresh QP: invalidating a type 1 window is refused. */
	ibv_destroy_qp(qp);
	self_qp(pd, gidx);
	inv.wr_id = 5;
	inv.opcode = IBV_WR_LOCAL_INV;
	inv.send_flags = IBV_SEND_SIGNALED;
	inv.invalidate_rkey = mw->rkey;
	if (ibv_post_send(qp, &inv, &bad_wr))
		die("local invalidate", errno);
	st = status_of(5);
	printf("%s: local invalidate of the window: %s\n",
	       st != IBV_WC_SUCCESS ? "ok" : "FAIL", ibv_wc_status_str(st));
	bad += st == IBV_WC_SUCCESS;

	ibv_dealloc_mw(mw);
	ibv_dereg_mr(mr);
	ibv_dereg_mr(lmr);
	self_close(pd, ctx, list);
	printf("%s: a type 1 memory window\n", bad ? "FAIL" : "PASS");
	return bad ? 1 : 0;
}
