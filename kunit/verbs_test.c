// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the verbs layer's translations between ib_core values
 * and the hardware's.
 */
#include <kunit/test.h>

#include "../verbs.h"

static void irdma_flush_status_test(struct kunit *test)
{
	static const struct {
		enum irdma_flush_opcode code;
		enum ib_wc_status status;
	} map[] = {
		{ IRDMA_FLUSH_GENERAL_ERR, IB_WC_WR_FLUSH_ERR },
		{ IRDMA_FLUSH_PROT_ERR, IB_WC_LOC_PROT_ERR },
		{ IRDMA_FLUSH_REM_ACCESS_ERR, IB_WC_REM_ACCESS_ERR },
		{ IRDMA_FLUSH_LOC_QP_OP_ERR, IB_WC_LOC_QP_OP_ERR },
		{ IRDMA_FLUSH_REM_OP_ERR, IB_WC_REM_OP_ERR },
		{ IRDMA_FLUSH_LOC_LEN_ERR, IB_WC_LOC_LEN_ERR },
		{ IRDMA_FLUSH_FATAL_ERR, IB_WC_FATAL_ERR },
		{ IRDMA_FLUSH_RETRY_EXC_ERR, IB_WC_RETRY_EXC_ERR },
		{ IRDMA_FLUSH_MW_BIND_ERR, IB_WC_MW_BIND_ERR },
		{ IRDMA_FLUSH_REM_INV_REQ_ERR, IB_WC_REM_INV_REQ_ERR },
		{ IRDMA_FLUSH_INVALID, IB_WC_FATAL_ERR },
		{ 11, IB_WC_FATAL_ERR },
		{ 0x7fffffff, IB_WC_FATAL_ERR },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    irdma_flush_err_to_ib_wc_status(map[i].code),
				    map[i].status, "code %u", map[i].code);
}

static void irdma_mr_access_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, irdma_get_mr_access(0), 0x01);
	KUNIT_EXPECT_EQ(test, irdma_get_mr_access(IB_ACCESS_LOCAL_WRITE), 0x03);
	KUNIT_EXPECT_EQ(test, irdma_get_mr_access(IB_ACCESS_REMOTE_READ), 0x05);
	KUNIT_EXPECT_EQ(test, irdma_get_mr_access(IB_ACCESS_REMOTE_WRITE), 0x0b);
	KUNIT_EXPECT_EQ(test, irdma_get_mr_access(IB_ACCESS_MW_BIND), 0x11);
	KUNIT_EXPECT_EQ(test, irdma_get_mr_access(IB_ZERO_BASED), 0x21);
	KUNIT_EXPECT_EQ(test,
			irdma_get_mr_access(IB_ACCESS_LOCAL_WRITE |
					    IB_ACCESS_REMOTE_READ |
					    IB_ACCESS_REMOTE_WRITE |
					    IB_ACCESS_MW_BIND | IB_ZERO_BASED),
			0x3f);
	/* Flags the hardware has no bit for change nothing. */
	KUNIT_EXPECT_EQ(test,
			irdma_get_mr_access(IB_ACCESS_REMOTE_ATOMIC |
					    IB_ACCESS_RELAXED_ORDERING), 0x01);
}

/*
 * A user QP's rings go by address when the SQ's pages are one run and
 * the RQ's another, as the stock driver decides, even when the RQ's run
 * does not follow the SQ's; else they go behind PBLEs.
 */
static void irdma_qp_rings_flat_test(struct kunit *test)
{
	const u64 a = 0x10000000, b = 0x20000000, p = 4096;
	const u64 apart[] = { a, a + p, a + 2 * p, b, b + p };
	const u64 joined[] = { a, a + p, a + 2 * p, a + 3 * p };
	const u64 broken_sq[] = { a, b, a + 2 * p, b + p };
	const u64 broken_rq[] = { a, a + p, b + p, b };

	KUNIT_EXPECT_TRUE(test, irdma_qp_rings_flat(apart, 3, 2));
	KUNIT_EXPECT_TRUE(test, irdma_qp_rings_flat(joined, 2, 2));
	KUNIT_EXPECT_TRUE(test, irdma_qp_rings_flat(joined, 4, 0));
	KUNIT_EXPECT_FALSE(test, irdma_qp_rings_flat(broken_sq, 2, 2));
	KUNIT_EXPECT_FALSE(test, irdma_qp_rings_flat(broken_rq, 2, 2));
	KUNIT_EXPECT_TRUE(test, irdma_qp_rings_flat(broken_rq, 2, 1));
}

/*
 * Object numbers go round (ids.c): a freed number comes back only after
 * the search has passed the end; a full range says -ENOSPC; the set's
 * size bounds every range.
 */
static void irdma_ids_turn_test(struct kunit *test)
{
	struct irdma_ids ids;
	int i;

	KUNIT_ASSERT_EQ(test, irdma_ids_init(&ids, 8), 0);
	for (i = 1; i < 8; i++)
		KUNIT_EXPECT_EQ(test, irdma_ids_alloc(&ids, 1, 100), i);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc(&ids, 1, 100), -ENOSPC);
	irdma_ids_free(&ids, 5);
	irdma_ids_free(&ids, 3);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc(&ids, 1, 7), 3);
	irdma_ids_free(&ids, 2);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc(&ids, 1, 7), 5);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc(&ids, 1, 7), 2);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc(&ids, 1, 7), -ENOSPC);
	irdma_ids_free(&ids, 6);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc_from(&ids, 1, 7, 7), 6);
	/* Out of the set: nothing happens. */
	irdma_ids_free(&ids, 8);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc_from(&ids, 0, 7, 0), 0);
	irdma_ids_destroy(&ids);
	KUNIT_EXPECT_EQ(test, irdma_ids_alloc(&ids, 0, 7), -ENOSPC);
}

static struct kunit_case irdma_verbs_cases[] = {
	KUNIT_CASE(irdma_ids_turn_test),
	KUNIT_CASE(irdma_qp_rings_flat_test),
	KUNIT_CASE(irdma_flush_status_test),
	KUNIT_CASE(irdma_mr_access_test),
	{}
};

static struct kunit_suite irdma_verbs_suite = {
	.name = "irdma_verbs",
	.test_cases = irdma_verbs_cases,
};

kunit_test_suite(irdma_verbs_suite);
