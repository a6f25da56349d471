// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the queue arithmetic in uk.c. Expected values are worked
 * out by hand from the WQE layout, not by calling the code twice.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>

#include "../main.h"

static void irdma_ring_produce_consume_test(struct kunit *test)
{
	struct irdma_ring ring;
	u32 first = 0xdead;

	irdma_ring_init(&ring, 8);
	KUNIT_EXPECT_TRUE(test, irdma_ring_empty(&ring));
	KUNIT_EXPECT_EQ(test, irdma_ring_free(&ring), 7);

	KUNIT_ASSERT_EQ(test, irdma_ring_produce(&ring, 3, 0, &first), 0);
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_EQ(test, irdma_ring_used(&ring), 3);
	KUNIT_EXPECT_EQ(test, irdma_ring_free(&ring), 4);

	KUNIT_ASSERT_EQ(test, irdma_ring_consume(&ring, 2), 0);
	KUNIT_EXPECT_EQ(test, ring.tail, 2);
	KUNIT_EXPECT_EQ(test, irdma_ring_used(&ring), 1);

	/* Head 3 + 5 wraps to 0. */
	KUNIT_ASSERT_EQ(test, irdma_ring_produce(&ring, 5, 0, &first), 0);
	KUNIT_EXPECT_EQ(test, first, 3);
	KUNIT_EXPECT_EQ(test, ring.head, 0);
	KUNIT_EXPECT_EQ(test, irdma_ring_used(&ring), 6);
	KUNIT_EXPECT_EQ(test, irdma_ring_free(&ring), 1);
}

static void irdma_ring_full_test(struct kunit *test)
{
	struct irdma_ring ring = { .head = 6, .tail = 7, .size = 8 };
	u32 first = 0xdead;

	/* One slot free: taking two, or one with one spare, fails. */
	KUNIT_EXPECT_EQ(test, irdma_ring_free(&ring), 0);
	ring.head = 5;
	KUNIT_EXPECT_EQ(test, irdma_ring_free(&ring), 1);
	KUNIT_EXPECT_EQ(test, irdma_ring_produce(&ring, 2, 0, &first), -ENOSPC);
	KUNIT_EXPECT_EQ(test, irdma_ring_produce(&ring, 1, 1, &first), -ENOSPC);
	KUNIT_EXPECT_EQ(test, first, 0xdead);
	KUNIT_EXPECT_EQ(test, ring.head, 5);

	KUNIT_ASSERT_EQ(test, irdma_ring_produce(&ring, 1, 0, &first), 0);
	KUNIT_EXPECT_EQ(test, first, 5);
	KUNIT_EXPECT_EQ(test, irdma_ring_used(&ring), 7);

	/* Releasing more than is in use fails and changes nothing. */
	KUNIT_EXPECT_EQ(test, irdma_ring_consume(&ring, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, ring.tail, 7);
	KUNIT_ASSERT_EQ(test, irdma_ring_consume(&ring, 7), 0);
	KUNIT_EXPECT_EQ(test, ring.tail, 6);
	KUNIT_EXPECT_TRUE(test, irdma_ring_empty(&ring));
}

/* One WQE size: generation, gather entries, inline bytes, the shift. */
struct irdma_wqe_shift_case {
	const char *name;
	enum irdma_hw_gen gen;
	u32 sges;
	u32 inline_bytes;
	u8 shift;
};

static const struct irdma_wqe_shift_case irdma_wqe_shift_cases[] = {
	/* GEN_2: a 32-byte quantum holds 1 SGE or 8 inline bytes. */
	{ "gen2 1 sge", IRDMA_GEN_2, 1, 0, 0 },
	{ "gen2 8 inline bytes", IRDMA_GEN_2, 1, 8, 0 },
	{ "gen2 2 sges", IRDMA_GEN_2, 2, 0, 1 },
	{ "gen2 9 inline bytes", IRDMA_GEN_2, 1, 9, 1 },
	{ "gen2 3 sges 39 inline bytes", IRDMA_GEN_2, 3, 39, 1 },
	{ "gen2 4 sges", IRDMA_GEN_2, 4, 0, 2 },
	{ "gen2 40 inline bytes", IRDMA_GEN_2, 1, 40, 2 },
	{ "gen2 7 sges 101 inline bytes", IRDMA_GEN_2, 7, 101, 2 },
	{ "gen2 8 sges", IRDMA_GEN_2, 8, 0, 3 },
	{ "gen2 13 sges", IRDMA_GEN_2, 13, 0, 3 },
	{ "gen2 102 inline bytes", IRDMA_GEN_2, 1, 102, 3 },
	/* GEN_1: 16 inline bytes in one quantum, at most 128 bytes. */
	{ "gen1 16 inline bytes", IRDMA_GEN_1, 1, 16, 0 },
	{ "gen1 17 inline bytes", IRDMA_GEN_1, 1, 17, 1 },
	{ "gen1 3 sges 48 inline bytes", IRDMA_GEN_1, 3, 48, 1 },
	{ "gen1 4 sges", IRDMA_GEN_1, 4, 0, 2 },
};

static void irdma_wqe_shift_case_desc(const struct irdma_wqe_shift_case *c,
				      char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(irdma_wqe_shift, irdma_wqe_shift_cases, irdma_wqe_shift_case_desc);

static void irdma_wqe_shift_test(struct kunit *test)
{
	const struct irdma_wqe_shift_case *c = test->param_value;
	struct irdma_uk_attrs attrs;

	KUNIT_ASSERT_EQ(test, irdma_init_uk_attrs(c->gen, &attrs), 0);
	KUNIT_EXPECT_EQ(test, irdma_wqe_shift(&attrs, c->sges, c->inline_bytes),
			c->shift);
}

/* The queue limits come from the generation; an unknown one is refused. */
static void irdma_uk_attrs_unknown_gen_test(struct kunit *test)
{
	struct irdma_uk_attrs attrs;

	KUNIT_EXPECT_EQ(test, irdma_init_uk_attrs(IRDMA_GEN_2 + 1, &attrs), -EINVAL);
}

static void irdma_wq_depth_test(struct kunit *test)
{
	struct irdma_uk_attrs gen2, gen1;
	u32 depth = 0;

	KUNIT_ASSERT_EQ(test, irdma_init_uk_attrs(IRDMA_GEN_2, &gen2), 0);
	KUNIT_ASSERT_EQ(test, irdma_init_uk_attrs(IRDMA_GEN_1, &gen1), 0);

	/* 1 WR + 258 reserved quanta rounds up to 512. */
	KUNIT_EXPECT_EQ(test, irdma_sq_depth(&gen2, 1, 0, &depth), 0);
	KUNIT_EXPECT_EQ(test, depth, 512);
	/* 100 WRs of 2 quanta + 258 = 458 -> 512. */
	KUNIT_EXPECT_EQ(test, irdma_sq_depth(&gen2, 100, 1, &depth), 0);
	KUNIT_EXPECT_EQ(test, depth, 512);
	/* 4000 x 8 + 258 = 32258 -> 32768, the limit. */
	KUNIT_EXPECT_EQ(test, irdma_sq_depth(&gen2, 4000, 3, &depth), 0);
	KUNIT_EXPECT_EQ(test, depth, 32768);
	/* 4096 x 8 + 258 is past the limit; a huge count must not wrap. */
	depth = 7;
	KUNIT_EXPECT_EQ(test, irdma_sq_depth(&gen2, 4096, 3, &depth), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_sq_depth(&gen2, 0x20000000, 3, &depth),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, depth, 7);

	/* RQ: 1 + 1 reserved = 2, raised to the 8-WQE minimum. */
	KUNIT_EXPECT_EQ(test, irdma_rq_depth(&gen2, 1, 0, &depth), 0);
	KUNIT_EXPECT_EQ(test, depth, 8);
	/* Minimum scales with the WQE size: 8 WQEs of 4 quanta. */
	KUNIT_EXPECT_EQ(test, irdma_rq_depth(&gen2, 1, 2, &depth), 0);
	KUNIT_EXPECT_EQ(test, depth, 32);
	KUNIT_EXPECT_EQ(test, irdma_rq_depth(&gen2, 32767, 0, &depth), 0);
	KUNIT_EXPECT_EQ(test, depth, 32768);
	KUNIT_EXPECT_EQ(test, irdma_rq_depth(&gen2, 32768, 0, &depth), -EINVAL);

	/* GEN_1 SQ holds 2048 quanta: 1790 + 258 fits, 1791 does not. */
	KUNIT_EXPECT_EQ(test, irdma_sq_depth(&gen1, 1790, 0, &depth), 0);
	KUNIT_EXPECT_EQ(test, depth, 2048);
	KUNIT_EXPECT_EQ(test, irdma_sq_depth(&gen1, 1791, 0, &depth), -EINVAL);
}

static void irdma_quanta_test(struct kunit *test)
{
	static const u16 frag_quanta[] = {
		1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
	};
	u16 quanta;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(frag_quanta); i++) {
		quanta = 0;
		KUNIT_EXPECT_EQ(test, irdma_sq_frags_to_quanta(i, &quanta), 0);
		KUNIT_EXPECT_EQ_MSG(test, quanta, frag_quanta[i], "frags %u", i);
	}
	KUNIT_EXPECT_EQ(test, irdma_sq_frags_to_quanta(16, &quanta), -EINVAL);

	/* GEN_2 inline: 8 bytes, then 31 a quantum. */
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 0), 1);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 8), 1);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 9), 2);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 39), 2);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 40), 3);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 70), 3);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 101), 4);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 102), 5);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 194), 7);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 195), 8);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_2, 4096), 8);

	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_1, 16), 1);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_1, 17), 2);
	KUNIT_EXPECT_EQ(test, irdma_inline_to_quanta(IRDMA_GEN_1, 48), 2);
}

/*
 * Bit 52 of a receive completion says "from a shared receive queue" only
 * where the engine has them; on the E810 (GEN_2) it means nothing, and
 * neither decoding nor cleaning may take it so.
 */
static void irdma_cq_srq_bit_test(struct kunit *test)
{
	__le64 ring[2 * IRDMA_CQE_SIZE / 8] = {};
	__le64 shadow[8] = {};
	struct irdma_cqe_info info;
	struct irdma_uk_cq cq;
	u64 q3 = IRDMA_CQE_VALID | IRDMA_CQE_SRQ;

	ring[1] = cpu_to_le64(0x1234);	/* the QP's completion context */
	ring[2] = cpu_to_le64(FIELD_PREP(IRDMA_CQE_QPID, 5));
	ring[3] = cpu_to_le64(q3);
	irdma_uk_cq_init(&cq, ring, 2, shadow, 1, NULL);
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_peek(&cq, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.srq);
	KUNIT_EXPECT_EQ(test, info.qp_ctx, 0x1234);
	/* Cleaning the QP's completions finds it by its context. */
	KUNIT_EXPECT_EQ(test, irdma_uk_cq_clean(&cq, 0x1234, 5), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ring[1]), 0);

	ring[1] = cpu_to_le64(0x1234);
	cq.srq_cqes = true;
	KUNIT_ASSERT_EQ(test, irdma_uk_cq_peek(&cq, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.srq);
	KUNIT_EXPECT_EQ(test, irdma_uk_cq_clean(&cq, 0x1234, 5), 1);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ring[3]), IRDMA_CQE_VALID);
}

static struct kunit_case irdma_uk_cases[] = {
	KUNIT_CASE(irdma_ring_produce_consume_test),
	KUNIT_CASE(irdma_ring_full_test),
	KUNIT_CASE_PARAM(irdma_wqe_shift_test, irdma_wqe_shift_gen_params),
	KUNIT_CASE(irdma_uk_attrs_unknown_gen_test),
	KUNIT_CASE(irdma_wq_depth_test),
	KUNIT_CASE(irdma_quanta_test),
	KUNIT_CASE(irdma_cq_srq_bit_test),
	{}
};

static struct kunit_suite irdma_uk_suite = {
	.name = "irdma_uk",
	.test_cases = irdma_uk_cases,
};

kunit_test_suite(irdma_uk_suite);
