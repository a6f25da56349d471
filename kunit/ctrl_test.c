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
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQP_OP_CREATE_QP, false),
			0x0ULL);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQP_OP_CREATE_QP, true),
			0x8000000000000000ULL);
	KUNIT_EXPECT_EQ(test,
			irdma_cqp_wqe_hdr(IRDMA_CQP_OP_COMMIT_FPM_VAL, true),
			0x8000002100000000ULL);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQP_OP_NOP, false),
			0x0000002400000000ULL);
	KUNIT_EXPECT_EQ(test, irdma_cqp_wqe_hdr(IRDMA_CQP_OP_UP_MAP, true),
			0x8000002f00000000ULL);
}

static void irdma_cqp_set_hdr_test(struct kunit *test)
{
	__le64 wqe[IRDMA_CQP_WQE_SIZE / sizeof(__le64)];
	u8 *bytes = (u8 *)wqe;
	int i;

	memset(wqe, 0xa5, sizeof(wqe));
	irdma_cqp_wqe_set_hdr(wqe, irdma_cqp_wqe_hdr(IRDMA_CQP_OP_QUERY_FPM_VAL,
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

static void irdma_uk_attrs_test(struct kunit *test)
{
	struct irdma_uk_attrs attrs;

	KUNIT_ASSERT_EQ(test, irdma_init_uk_attrs(IRDMA_GEN_2, &attrs), 0);
	KUNIT_EXPECT_EQ(test, attrs.hw_rev, IRDMA_GEN_2);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_wq_frags, 13);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_read_sges, 13);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_inline, 101);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_wq_quanta, 32768);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_rq_quanta, 32768);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_sq_chunk, 8);
	KUNIT_EXPECT_EQ(test, attrs.min_hw_wq_size, 8);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_cq_size, 1048575);

	KUNIT_ASSERT_EQ(test, irdma_init_uk_attrs(IRDMA_GEN_1, &attrs), 0);
	KUNIT_EXPECT_EQ(test, attrs.hw_rev, IRDMA_GEN_1);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_wq_frags, 3);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_read_sges, 1);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_inline, 48);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_wq_quanta, 2048);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_rq_quanta, 16384);
	KUNIT_EXPECT_EQ(test, attrs.max_hw_sq_chunk, 2);
	KUNIT_EXPECT_EQ(test, attrs.min_hw_wq_size, 4);

	KUNIT_EXPECT_EQ(test, irdma_init_uk_attrs(3, &attrs), -EINVAL);
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

static struct kunit_case irdma_ctrl_cases[] = {
	KUNIT_CASE(irdma_cqp_hdr_test),
	KUNIT_CASE(irdma_cqp_set_hdr_test),
	KUNIT_CASE(irdma_uk_attrs_test),
	KUNIT_CASE(irdma_addr_order_test),
	{}
};

static struct kunit_suite irdma_ctrl_suite = {
	.name = "irdma_ctrl",
	.test_cases = irdma_ctrl_cases,
};

kunit_test_suite(irdma_ctrl_suite);
