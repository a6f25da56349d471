// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The largest CQ the device reports (max_cqe), through libibverbs as an
 * application makes it, with ibv_create_cq() and ibv_create_cq_ex(); then
 * one entry more, whose errno is printed (libirdma 44 passes it to the
 * kernel; our driver refuses it with EINVAL).
 *
 *   cq-max DEVICE
 *
 * Prints the errno of max_cqe + 1 as "over: N"; exit 0 if both max_cqe
 * CQs were made, 1 if not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

/**
 * main - make CQs of max_cqe entries, then try one more
 * @argc: argument count
 * @argv: the device's name
 *
 * Return: 0 if the max_cqe CQs were made, 1 otherwise, 2 on a usage error.
 */
int main(int argc, char **argv)
{
	struct ibv_cq_init_attr_ex ex = { .wc_flags = IBV_WC_STANDARD_FLAGS };
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_device_attr attr;
	struct ibv_cq_ex *cqx;
	struct ibv_cq *cq;
	int i, bad = 0;

	if (argc != 2)
		return 2;
	list = ibv_get_device_list(&i);
	while (list && i-- > 0)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			ctx = ibv_open_device(list[i]);
	if (!ctx || ibv_query_device(ctx, &attr)) {
		printf("FAIL: no device %s\n", argv[1]);
		return 1;
	}
	cq = ibv_create_cq(ctx, attr.max_cqe, NULL, NULL, 0);
	printf("%s: ibv_create_cq(%d): %s\n", cq ? "ok" : "FAIL", attr.max_cqe,
	       cq ? "made" : strerror(errno));
	bad += !cq;
	if (cq)
		ibv_destroy_cq(cq);
	ex.cqe = attr.max_cqe;
	cqx = ibv_create_cq_ex(ctx, &ex);
	printf("%s: ibv_create_cq_ex(%d): %s\n", cqx ? "ok" : "FAIL", attr.max_cqe,
	       cqx ? "made" : strerror(errno));
	bad += !cqx;
	if (cqx)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cqx));
	errno = 0;
	cq = ibv_create_cq(ctx, attr.max_cqe + 1, NULL, NULL, 0);
	printf("over: %d\n", cq ? 0 : errno);
	if (cq)
		ibv_destroy_cq(cq);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return bad ? 1 : 0;
}
