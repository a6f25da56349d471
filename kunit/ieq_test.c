// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the IEQ's exceptions (ieq.c, ctrl_qp.c): an FPDU's
 * length on the stream, the gathering of a partial sequence's segments
 * (in order, cut where they overlap, a gap refused, the window and the
 * buffer kept), the whole FPDUs found with their MPA CRCs checked against
 * CRC32C values computed apart (RFC 3720's vectors checked the same
 * code), and the CQP command that has the engine raise an event.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/string.h>

#include "../main.h"
#include "../verbs.h"

/* ULPDU "abcdef": MPA length 6, no padding, CRC32C 0xfd58bdb0 (LE). */
static const u8 fpdu_a[] = { 0x00, 0x06, 'a', 'b', 'c', 'd', 'e', 'f',
			     0xb0, 0xbd, 0x58, 0xfd };
/* ULPDU "z": MPA length 1, a byte of padding, CRC32C 0xe82efe68. */
static const u8 fpdu_b[] = { 0x00, 0x01, 'z', 0x00, 0x68, 0xfe, 0x2e, 0xe8 };

static void irdma_ieq_fpdu_len_test(struct kunit *test)
{
	static const u8 longest[] = { 0xff, 0xff };
	static const u8 empty[] = { 0x00, 0x00 };

	KUNIT_EXPECT_EQ(test, irdma_ieq_fpdu_len(fpdu_a), sizeof(fpdu_a));
	KUNIT_EXPECT_EQ(test, irdma_ieq_fpdu_len(fpdu_b), sizeof(fpdu_b));
	KUNIT_EXPECT_EQ(test, irdma_ieq_fpdu_len(empty), 8);
	KUNIT_EXPECT_EQ(test, irdma_ieq_fpdu_len(longest), 65544);
}

static void irdma_ieq_stream_init(struct kunit *test, struct irdma_ieq_stream *s,
				  u32 cap)
{
	memset(s, 0, sizeof(*s));
	s->data = kunit_kzalloc(test, cap, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->data);
	s->cap = cap;
}

/*
 * One segment for a stream: its first partial sequence number, sequence
 * number, bytes (from @from of the test's, @len of them) and window, with
 * what it does and what the stream then holds (@held: its bytes, if
 * given). @fail: the sequence failed before it.
 */
struct irdma_ieq_step {
	u32 fpsn;
	u32 seq;
	u32 from;
	u32 len;
	u32 wnd;
	enum irdma_ieq_verdict verdict;
	u32 held_seq;
	u32 held_len;
	const char *held;
	bool fail;
};

static void irdma_ieq_steps(struct kunit *test, const u8 *bytes,
			    const struct irdma_ieq_step *step, unsigned int n)
{
	struct irdma_ieq_stream s;
	unsigned int i;

	irdma_ieq_stream_init(test, &s, 16);
	for (i = 0; i < n; i++, step++) {
		if (step->fail)
			s.failed = true;
		KUNIT_EXPECT_EQ_MSG(test, irdma_ieq_stream_add(&s, step->fpsn, step->seq,
							       bytes + step->from, step->len,
							       step->wnd),
				    step->verdict, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, s.seq, step->held_seq, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, s.len, step->held_len, "step %u", i);
		if (step->held)
			KUNIT_EXPECT_MEMEQ_MSG(test, s.data, step->held, s.len, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, s.failed, step->fail && step->verdict ==
				    IRDMA_IEQ_DROPPED, "step %u", i);
	}
}

/*
 * Segments in order, overlapping, repeated, after a gap, past the buffer
 * (16 bytes) and the window; a new sequence, cut at its start; one the
 * engine moved inside; a failed one.
 */
static void irdma_ieq_stream_add_test(struct kunit *test)
{
	static const struct irdma_ieq_step steps[] = {
		{ 1000, 1000, 0, 5, 100, IRDMA_IEQ_TAKEN, 1000, 5 },
		{ 1000, 1005, 5, 3, 100, IRDMA_IEQ_TAKEN, 1000, 8 },
		{ 1000, 1003, 3, 4, 100, IRDMA_IEQ_OLD, 1000, 8 },
		{ 1000, 1006, 6, 6, 100, IRDMA_IEQ_TAKEN, 1000, 12, "0123456789ab" },
		{ 1000, 1015, 15, 1, 100, IRDMA_IEQ_GAP, 1000, 12 },
		{ 1000, 1012, 12, 5, 100, IRDMA_IEQ_DROPPED, 1000, 12 },
		{ 1000, 1012, 12, 3, 14, IRDMA_IEQ_DROPPED, 1000, 12 },
		{ 1000, 1012, 12, 2, 14, IRDMA_IEQ_TAKEN, 1000, 14 },
		{ 2000, 1990, 0, 15, 100, IRDMA_IEQ_TAKEN, 2000, 5, "abcde" },
		/* The engine took 2000 to 2003 and stops at 2004. */
		{ 2004, 2005, 15, 1, 100, IRDMA_IEQ_TAKEN, 2004, 2, "ef" },
		{ 2004, 2006, 0, 1, 100, IRDMA_IEQ_DROPPED, 2004, 2, NULL, true },
		{ 3000, 3000, 0, 1, 100, IRDMA_IEQ_TAKEN, 3000, 1, "0" },
	};

	irdma_ieq_steps(test, "0123456789abcdefghij", steps, ARRAY_SIZE(steps));
}

/* Sequence numbers that wrap: before and after as TCP compares them. */
static void irdma_ieq_stream_wrap_test(struct kunit *test)
{
	static const struct irdma_ieq_step steps[] = {
		{ 0xfffffffc, 0xfffffffc, 0, 6, 100, IRDMA_IEQ_TAKEN, 0xfffffffc, 6 },
		{ 0xfffffffc, 1, 5, 3, 100, IRDMA_IEQ_TAKEN, 0xfffffffc, 8, "01234567" },
		{ 0xfffffffc, 0xfffffffe, 0, 2, 100, IRDMA_IEQ_OLD, 0xfffffffc, 8 },
		{ 0xfffffffc, 6, 0, 2, 100, IRDMA_IEQ_GAP, 0xfffffffc, 8 },
	};

	irdma_ieq_steps(test, "0123456789", steps, ARRAY_SIZE(steps));
}

static void irdma_ieq_fill(struct irdma_ieq_stream *s, const u8 *p, u32 len)
{
	memcpy(s->data + s->len, p, len);
	s->len += len;
}

/* Whole FPDUs, their CRCs good, as much as a segment holds. */
static void irdma_ieq_stream_ready_test(struct kunit *test)
{
	struct irdma_ieq_stream s;

	irdma_ieq_stream_init(test, &s, 64);
	s.active = true;
	s.seq = 500;
	irdma_ieq_fill(&s, fpdu_a, sizeof(fpdu_a) - 1);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 1000), 0);
	irdma_ieq_fill(&s, fpdu_a + sizeof(fpdu_a) - 1, 1);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 1000), sizeof(fpdu_a));
	irdma_ieq_fill(&s, fpdu_b, 5);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 1000), sizeof(fpdu_a));
	irdma_ieq_fill(&s, fpdu_b + 5, sizeof(fpdu_b) - 5);
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 1000),
			sizeof(fpdu_a) + sizeof(fpdu_b));
	/* One segment back holds at most an FPDU's largest: A alone. */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 15), sizeof(fpdu_a));

	irdma_ieq_stream_consume(&s, sizeof(fpdu_a));
	KUNIT_EXPECT_EQ(test, s.seq, 500 + sizeof(fpdu_a));
	KUNIT_EXPECT_EQ(test, s.len, sizeof(fpdu_b));
	KUNIT_EXPECT_MEMEQ(test, s.data, fpdu_b, sizeof(fpdu_b));
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 15), sizeof(fpdu_b));
	/* Longer than the connection's FPDUs. */
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 7), -EBADMSG);
}

static void irdma_ieq_stream_bad_test(struct kunit *test)
{
	static const u8 too_long[] = { 0x07, 0xd0, 0x00 };
	struct irdma_ieq_stream s;

	irdma_ieq_stream_init(test, &s, 64);
	irdma_ieq_fill(&s, fpdu_a, sizeof(fpdu_a));
	s.data[4] ^= 0x20;
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 1000), -EBADMSG);
	s.data[4] ^= 0x20;
	s.data[sizeof(fpdu_a) - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 1000), -EBADMSG);

	/* A good FPDU, then a length of 2000 with at most 1000: bad too. */
	s.len = 0;
	irdma_ieq_fill(&s, fpdu_b, sizeof(fpdu_b));
	irdma_ieq_fill(&s, too_long, sizeof(too_long));
	KUNIT_EXPECT_EQ(test, irdma_ieq_stream_ready(&s, 1000), -EBADMSG);
}

/* FLUSH_WQES flushing nothing, with the event's code and source. */
static void irdma_ieq_gen_ae_test(struct kunit *test)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_gen_ae(&cmd, 77, IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR,
			   IRDMA_AE_SOURCE_RQ);
	KUNIT_EXPECT_EQ(test, cmd.q[1], 0x10505ULL);
	KUNIT_EXPECT_EQ(test, cmd.q[2], 0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_CQPSQ_OPCODE, cmd.q[3]), 0x22);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_QPID, cmd.q[3]), 77);
	KUNIT_EXPECT_TRUE(test, cmd.q[3] & BIT_ULL(59));
	KUNIT_EXPECT_FALSE(test, cmd.q[3] & (BIT_ULL(60) | BIT_ULL(61) | BIT_ULL(62)));
}

static struct kunit_case irdma_ieq_cases[] = {
	KUNIT_CASE(irdma_ieq_fpdu_len_test),
	KUNIT_CASE(irdma_ieq_stream_add_test),
	KUNIT_CASE(irdma_ieq_stream_wrap_test),
	KUNIT_CASE(irdma_ieq_stream_ready_test),
	KUNIT_CASE(irdma_ieq_stream_bad_test),
	KUNIT_CASE(irdma_ieq_gen_ae_test),
	{}
};

static struct kunit_suite irdma_ieq_suite = {
	.name = "irdma_ieq",
	.test_cases = irdma_ieq_cases,
};

kunit_test_suite(irdma_ieq_suite);
