// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the control layer's encodings: CQP WQE headers are
 * checked byte by byte against the hardware layout.
 */
#include <kunit/test.h>

#include "../main.h"

static void irdma_cqp_hdr_test(struct kunit *test)
{
	/* Opcode in bits 37:32, valid bit 63. */
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQPOP_CREATE_QP, false),
			0x0ULL);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQPOP_CREATE_QP, true),
			0x8000000000000000ULL);
	KUNIT_EXPECT_EQ(test,
			irdma_cqp_wqe_hdr(IRDMA_CQPOP_COMMIT_FPM_VAL, true),
			0x8000002100000000ULL);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQPOP_NOP, false),
			0x0000002400000000ULL);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQPOP_UP_MAP, true),
			0x8000002f00000000ULL);
}

static void irdma_cqp_set_hdr_test(struct kunit *test)
{
	__le64 wqe[IRDMA_CQP_WQE_SIZE / sizeof(__le64)];
	u8 *bytes = (u8 *)wqe;
	int i;

	memset(wqe, 0xa5, sizeof(wqe));
	irdma_cqp_wqe_set_hdr(wqe, irdma_cqp_wqe_hdr(IRDMA_CQPOP_QUERY_FPM_VAL,
						     true));

	/* Little-endian quadword at byte 24: opcode 0x20 in byte 28. */
	for (i = 24; i < 32; i++) {
		u8 want = i == 28 ? 0x20 : i == 31 ? 0x80 : 0;

		KUNIT_EXPECT_EQ_MSG(test, bytes[i], want, "byte %d", i);
	}
	/* The body is left alone. */
	for (i = 0; i < IRDMA_CQP_WQE_SIZE; i++) {
		if (i >= 24 && i < 32)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, bytes[i], 0xa5, "byte %d", i);
	}
}

static void irdma_addr_order_test(struct kunit *test)
{
	/* fe80::1 as it travels on the wire. */
	static const u8 wire[16] = {
		0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	};
	__be32 net[4], back[4];
	u32 host[4];

	memcpy(net, wire, sizeof(net));
	irdma_addr_ntoh(host, net, 4);
	KUNIT_EXPECT_EQ(test, host[0], 0xfe800000);
	KUNIT_EXPECT_EQ(test, host[1], 0);
	KUNIT_EXPECT_EQ(test, host[3], 1);

	irdma_addr_hton(back, host, 4);
	KUNIT_EXPECT_MEMEQ(test, back, wire, sizeof(wire));
}

static void irdma_build_fpm_test(struct kunit *test)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_query_fpm(&cmd, 5, 0x12345000);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 5ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000002000000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x12345000ULL);
	KUNIT_EXPECT_EQ(test, cmd.ext_len, 0);

	/* Commit carries the buffer size, 176, in the header. */
	irdma_build_commit_fpm(&cmd, 63, 0x80);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 63ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x00000021000000b0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x80ULL);
}

static void irdma_build_update_sds_test(struct kunit *test)
{
	const u64 cmds[5] = { 0x80008000, 0x80008001, 0x80008002, 0x80008003,
			      0x80008004 };
	const u64 data[5] = { 0x200803, 0x400803, 0x600803, 0x800803, 0xa00802 };
	struct irdma_cqp_wqe cmd;

	/* Three entries in the WQE (the first with no valid bit), two aside. */
	irdma_build_update_sds(&cmd, 2, cmds, data, 5);
	KUNIT_EXPECT_EQ(test, cmd.q[0], 0x80008000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[1], 0x200803ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 2ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000001f00000002ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x8000000080008001ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[5], 0x400803ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[6], 0x8000000080008002ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[7], 0x600803ULL);
	KUNIT_EXPECT_EQ(test, cmd.ext_len, 32);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(cmd.ext[0]), 0x80008003ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(cmd.ext[1]), 0x800803ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(cmd.ext[2]), 0x80008004ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(cmd.ext[3]), 0xa00802ULL);

	/* One entry: nothing aside, no count. */
	irdma_build_update_sds(&cmd, 0, cmds, data, 1);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000001f00000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.ext_len, 0);
}

static void irdma_build_cq_test(struct kunit *test)
{
	const struct irdma_cq_hw_info info = {
		.id = 5, .size = 256, .ctx = 0x1234, .ring_pa = 0x10000,
		.shadow_pa = 0x20000, .ceq_id = 3, .ceq_valid = true,
		.ceqe_mask = true, .shadow_threshold = 16, .vsi = 7,
		.check_overflow = true,
	};
	struct irdma_cq_hw_info puda = info;
	struct irdma_cqp_wqe cmd;

	/* A PUDA queue's CQ: no overflow check (bit 46). */
	puda.check_overflow = false;
	irdma_build_create_cq(&cmd, &puda);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0003000300c00005ULL);

	/* CEQIDVALID 49, ENCEQEMASK 48, CHKOVERFLOW 46, CEQ 3 at 22, CQ 5. */
	irdma_build_create_cq(&cmd, &info);
	KUNIT_EXPECT_EQ(test, cmd.q[0], 256ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[1], 0x1234ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 16ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0003400300c00005ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x10000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[5], 0x20000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[6], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[7], 0x700ULL);

	/* Destroy: no overflow check, no threshold, no ring. */
	irdma_build_destroy_cq(&cmd, &info);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0003000500c00005ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[5], 0x20000ULL);
}

/*
 * A send PSN applied (IB_QP_SQ_PSN) makes the context's LSN (bits 55:32
 * of qword 10) 0xffff, whatever the PSN, 0 included (what NCCL and UCX
 * use); without one it stays 0. The RQ error index goes where the stock
 * driver puts it.
 */
static void irdma_qp_ctx_psn_err_test(struct kunit *test)
{
	struct irdma_qp_hw_info info = { .sq_psn = 0, .sq_psn_set = true };
	__le64 *ctx = kunit_kzalloc(test, IRDMA_QP_CTX_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	irdma_qp_ctx_write(ctx, &info);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[10]), 0x0000ffff00000000ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[12]), 0ULL);

	info.sq_psn = 0x123456;
	irdma_qp_ctx_write(ctx, &info);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[10]), 0x0000ffff00123456ULL);

	info.sq_psn = 0;
	info.sq_psn_set = false;
	irdma_qp_ctx_write(ctx, &info);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[10]), 0ULL);

	/* The RQ WQE an error event named: valid at bit 19 of qword 0, the
	 * index at 45:32 of qword 16 (beside RTOMIN 5 at 63:57).
	 */
	info.err_rq_idx_valid = true;
	info.err_rq_idx = 0x2345;
	irdma_qp_ctx_write(ctx, &info);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[0]), 0x80000ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ctx[16]), 0x0a00234500000000ULL);
}

/*
 * An iWARP QP's context (worked out by hand from the stock driver's field
 * layout): at creation the QP alone (DDP/RDMAP version 1, ECN, reads, the
 * IEQ as exception queue, the Q2 buffer, iWARP mode); at the move to RTS
 * the connection too (its numbers in qwords 10 to 15, ESTABLISHED, window
 * scales, MSS, VLAN, ARP entry, TOS with ECT(0), the marker offsets from
 * the sequence numbers).
 */
static void irdma_qp_ctx_iwarp_test(struct kunit *test)
{
	struct irdma_qp_hw_info info = {
		.sq_pa = 0x1000, .rq_pa = 0x2000, .sq_quanta = 256,
		.rq_quanta = 128, .rq_shift = 2, .send_cq = 3, .recv_cq = 4,
		.pd = 0x12345, .compl_ctx = 0xabcdef, .qs_handle = 0x11,
		.kernel = true, .mac = { 0, 1, 2, 3, 4, 5 }, .ird = 127,
		.ord = 32, .q2_pa = 0x123400,
	};
	struct irdma_iwarp_conn conn = {
		.dst_port = 33000, .snd_nxt = 0x1001, .snd_wnd = 0x3fffc,
		.max_snd_wnd = 0x3fffc, .rcv_nxt = 0xe, .rcv_wnd = 0x3fffc,
		.snd_wscale = 2, .rcv_wscale = 2,
	};
	/* Every qword of the 32, zeros included (no connection, no addresses). */
	static const u64 created[IRDMA_QP_CTX_SIZE / 8] = {
		[0] = 0x4000000000104205ULL, [1] = 0x1000, [2] = 0x2000,
		[3] = 0x6500, [7] = 0x2345000000000000ULL,
		[16] = 0x0a00000000000000ULL, [17] = 0x0000000400000003ULL,
		[18] = 0x123400, [19] = 0x0001020304050000ULL,
		[20] = 0x13b40020, [21] = 0xabcdef, [22] = 0x0000000200110000ULL,
	};
	static const u64 connected[IRDMA_QP_CTX_SIZE / 8] = {
		[0] = 0x400000000010c22dULL, [1] = 0x1000, [2] = 0x2000,
		[3] = 0x80e84e2002006540ULL, [4] = 0xc0a84d02,
		[6] = 0x0007206405b40000ULL, [7] = 0x2345020250d00000ULL,
		[10] = 0x0003fffc00001001ULL, [11] = 0x0003fffc0000000eULL,
		[12] = 0x0000100100001001ULL, [13] = 0x0000000600000000ULL,
		[14] = 0x00000b683fffffffULL, [15] = 0x000010010000000eULL,
		[16] = 0x0a0800000003fffcULL, [17] = 0x0000000400000003ULL,
		[18] = 0x123400, [19] = 0x0001020304050000ULL,
		[20] = 0x0001000e13b40020ULL, [21] = 0xabcdef,
		[22] = 0x0000000200110000ULL, [23] = 0xc0a84d01, [26] = 7,
	};
	__le64 *ctx = kunit_kzalloc(test, IRDMA_QP_CTX_SIZE, GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	irdma_qp_ctx_write_iwarp(ctx, &info);
	for (i = 0; i < ARRAY_SIZE(created); i++)
		KUNIT_EXPECT_EQ_MSG(test, le64_to_cpu(ctx[i]), created[i], "qword %d", i);

	info.conn = &conn;
	info.ipv4 = true;
	info.insert_vlan = true;
	info.vlan = 0x2064;
	info.ttl = 0x40;
	info.src_port = 20000;
	info.dest_ip[3] = 0xc0a84d02;
	info.src_ip[3] = 0xc0a84d01;
	info.mss = 1460;
	info.arp_idx = 7;
	info.rem_endpoint = 7;
	irdma_qp_ctx_write_iwarp(ctx, &info);
	for (i = 0; i < ARRAY_SIZE(connected); i++)
		KUNIT_EXPECT_EQ_MSG(test, le64_to_cpu(ctx[i]), connected[i], "qword %d", i);

	/* A TOS with ECN bits keeps them; one without gets ECT(0). */
	info.tos = 0x11;
	irdma_qp_ctx_write_iwarp(ctx, &info);
	KUNIT_EXPECT_EQ(test, (le64_to_cpu(ctx[3]) >> 24) & 0xff, 0x11ULL);
	info.tos = 0x10;
	irdma_qp_ctx_write_iwarp(ctx, &info);
	KUNIT_EXPECT_EQ(test, (le64_to_cpu(ctx[3]) >> 24) & 0xff, 0x12ULL);
}

/*
 * QP commands of a user QP whose rings are behind PBLEs: CREATE_QP and
 * MODIFY_QP say VQ (bit 45), DESTROY_QP does not (as the stock driver's:
 * id, type 3 at 50:48, REMOVEHASHENTRY at 55).
 */
static void irdma_build_qp_hdr_test(struct kunit *test)
{
	struct irdma_qp_hw_info info = {
		.id = 7, .type = IRDMA_QP_TYPE_ROCE_RC, .vq = true,
	};
	struct irdma_cqp_wqe cmd;

	irdma_build_create_qp(&cmd, &info);
	KUNIT_EXPECT_TRUE(test, cmd.q[3] & BIT_ULL(45));
	irdma_build_modify_qp(&cmd, &info, IRDMA_QPS_RTS, 0);
	KUNIT_EXPECT_TRUE(test, cmd.q[3] & BIT_ULL(45));
	irdma_build_destroy_qp(&cmd, &info);
	KUNIT_EXPECT_EQ(test, cmd.q[3] & ~GENMASK_ULL(37, 32),
			0x0083000000000007ULL);
}

static void irdma_build_eq_test(struct kunit *test)
{
	struct irdma_eq_ring_hw contig = { .pa = 0x400000, .first_pble = 7 };
	struct irdma_eq_ring_hw paged = { .pa = 0x400000, .first_pble = 0xabcdef,
					  .paged = true };
	struct irdma_cqp_wqe cmd;

	irdma_build_create_ceq(&cmd, 9, 8192, 0x300000, 4);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 8192ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000001600000009ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x300000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[7], 0x400ULL);

	irdma_build_destroy_ceq(&cmd, 9, 8192);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000001800000009ULL);

	irdma_build_create_aeq(&cmd, 12288, &contig);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 12288ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000001900000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x400000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[6], 0ULL);

	irdma_build_destroy_aeq(&cmd, 12288, &contig);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 12288ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000001b00000000ULL);

	/* Paged: no address, the first PBLE, one level (LPBLSIZE 1), VMAP. */
	irdma_build_create_aeq(&cmd, 524287, &paged);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 524287ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000901900000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[6], 0xabcdefULL);

	irdma_build_destroy_aeq(&cmd, 524287, &paged);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 524287ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000901b00000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[6], 0xabcdefULL);

	irdma_build_query_features(&cmd, 0x5000, 216);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x00000012000000d8ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x5000ULL);

	irdma_build_shmc_pages(&cmd, 1);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 1ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000002b00000000ULL);
}

static void irdma_fpm_slots_test(struct kunit *test)
{
	/* Query: byte 0x08 QP ... 0x28 ARP, 0x30 MR ... 0x70 PBLE, 0x80 RRF. */
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_QP), 1);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_CQ), 2);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_ARP), 5);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_MR), 6);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_XFFL), 8);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_PBLE), 14);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_RRF), 16);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_HDR), 18);
	KUNIT_EXPECT_EQ(test, irdma_fpm_query_qword(IRDMA_HMC_OOISCFFL), 21);

	/* Commit: 0x00 QP ... 0x28 APBVT ... 0x70 PBLE, 0x80 RRF ... 0xa8. */
	KUNIT_EXPECT_EQ(test, irdma_fpm_commit_qword(IRDMA_HMC_QP), 0);
	KUNIT_EXPECT_EQ(test, irdma_fpm_commit_qword(IRDMA_HMC_HTE), 3);
	KUNIT_EXPECT_EQ(test, irdma_fpm_commit_qword(IRDMA_HMC_APBVT), 5);
	KUNIT_EXPECT_EQ(test, irdma_fpm_commit_qword(IRDMA_HMC_PBLE), 14);
	KUNIT_EXPECT_EQ(test, irdma_fpm_commit_qword(IRDMA_HMC_RRF), 16);
	KUNIT_EXPECT_EQ(test, irdma_fpm_commit_qword(IRDMA_HMC_OOISCFFL), 21);
}

/* MANAGE_APBVT: the port in qword 2, bit 62 of the header adds it. */
static void irdma_build_apbvt_test(struct kunit *test)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_manage_apbvt(&cmd, 0x1234, IRDMA_CM_TABLE_ADD);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 0x1234ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x4000002300000000ULL);
	irdma_build_manage_apbvt(&cmd, 0x1234, IRDMA_CM_TABLE_DELETE);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 0x1234ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x0000002300000000ULL);
}

/* A connection's entry (IPv6, VLAN) and a listener's (IPv4), by hand. */
static void irdma_build_qhash_test(struct kunit *test)
{
	struct irdma_qhash_info conn = {
		.type = IRDMA_QHASH_TCP_ESTABLISHED,
		.vlan_valid = true, .vlan = 0x123,
		.mac = { 0x02, 0, 0, 0, 0, 0x01 },
		.local_ip = { 0x20010db8, 0, 0, 1 },
		.remote_ip = { 0x20010db8, 0, 0, 2 },
		.local_port = 0x1a2b, .remote_port = 0x3c4d,
		.qp_id = 1, .qs_handle = 0x2a,
	};
	struct irdma_qhash_info listener = {
		.type = IRDMA_QHASH_TCP_SYN, .ipv4 = true,
		.local_ip = { 0, 0, 0, 0xc0a84d01 }, .local_port = 0x4e20,
		/* a listener's entry names no remote end, whatever is here */
		.remote_ip = { 0, 0, 0, 5 }, .remote_port = 99,
		.qp_id = 1,
	};
	struct irdma_cqp_wqe cmd;

	irdma_build_manage_qhash(&cmd, &conn, IRDMA_CM_TABLE_ADD);
	KUNIT_EXPECT_EQ(test, cmd.q[0], 0x020000000001ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[1], 0x13c4d1a2bULL);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 0x000001230000002aULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x2800042500000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0x2ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[5], 0x20010db800000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[6], 0x1ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[7], 0x20010db800000000ULL);

	irdma_build_manage_qhash(&cmd, &listener, IRDMA_CM_TABLE_DELETE);
	KUNIT_EXPECT_EQ(test, cmd.q[0], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[1], 0x100004e20ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[3], 0x1000082500000000ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[4], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[5], 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[6], 0xc0a84d01ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[7], 0ULL);
}

static struct kunit_case irdma_ctrl_cases[] = {
	KUNIT_CASE(irdma_build_apbvt_test),
	KUNIT_CASE(irdma_build_qhash_test),
	KUNIT_CASE(irdma_fpm_slots_test),
	KUNIT_CASE(irdma_build_fpm_test),
	KUNIT_CASE(irdma_build_update_sds_test),
	KUNIT_CASE(irdma_build_cq_test),
	KUNIT_CASE(irdma_build_eq_test),
	KUNIT_CASE(irdma_build_qp_hdr_test),
	KUNIT_CASE(irdma_qp_ctx_psn_err_test),
	KUNIT_CASE(irdma_qp_ctx_iwarp_test),
	KUNIT_CASE(irdma_cqp_hdr_test),
	KUNIT_CASE(irdma_cqp_set_hdr_test),
	KUNIT_CASE(irdma_addr_order_test),
	{}
};

static struct kunit_suite irdma_ctrl_suite = {
	.name = "irdma_ctrl",
	.test_cases = irdma_ctrl_cases,
};

kunit_test_suite(irdma_ctrl_suite);
