// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the MPA exchange (cm_mpa.c): frames built byte for byte
 * as RFC 5044 and RFC 6581 lay them out (worked out by hand), what a
 * parse refuses and why, and how IRD, ORD and the RTR are settled.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../cm.h"

/* A revision 2 request: CRC and enhanced flags, P2P, both RTRs offered. */
static void irdma_mpa_build_v2_request_test(struct kunit *test)
{
	static const u8 want[] = {
		'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
		'e', 'q', ' ', 'F', 'r', 'a', 'm', 'e',
		0x50, 2, 0x00, 0x07,		/* flags, rev, 4 + 3 bytes */
		0x80, 0x7f, 0xc0, 0xff,		/* P2P|127, WRITE|READ|255 */
		'a', 'b', 'c',
	};
	struct irdma_mpa_frame f = {
		.request = true, .rev = 2, .ird = 127, .ord = 255,
		.rtr = IRDMA_RTR_READ | IRDMA_RTR_WRITE,
		.pdata = (const u8 *)"abc", .pdata_len = 3,
	};
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, irdma_mpa_build(buf, &f), sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

/* Replies: a revision 2 rejection naming its RTR, and a revision 1 reply. */
static void irdma_mpa_build_replies_test(struct kunit *test)
{
	static const u8 reject[] = {
		'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
		'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e',
		0x70, 2, 0x00, 0x04,
		0xbf, 0xff, 0x7f, 0xff,		/* no IRD/ORD; READ */
	};
	static const u8 v1[] = {
		'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
		'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e',
		0x40, 1, 0x00, 0x02, 'o', 'k',
	};
	struct irdma_mpa_frame f = {
		.reject = true, .rev = 2, .no_ird_ord = true, .ird = 4, .ord = 4,
		.rtr = IRDMA_RTR_READ,
	};
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, irdma_mpa_build(buf, &f), sizeof(reject));
	KUNIT_EXPECT_MEMEQ(test, buf, reject, sizeof(reject));

	memset(&f, 0, sizeof(f));
	f.rev = 1;
	f.ird = 9;	/* revision 1 has no place for it */
	f.pdata = (const u8 *)"ok";
	f.pdata_len = 2;
	KUNIT_ASSERT_EQ(test, irdma_mpa_build(buf, &f), sizeof(v1));
	KUNIT_EXPECT_MEMEQ(test, buf, v1, sizeof(v1));
}

/* What is built parses back to the same, the consumer's bytes only. */
static void irdma_mpa_round_trip_test(struct kunit *test)
{
	struct irdma_mpa_frame in = {
		.request = true, .rev = 2, .ird = 16, .ord = 8,
		.rtr = IRDMA_RTR_WRITE,
		.pdata = (const u8 *)"private", .pdata_len = 7,
	}, out;
	u8 buf[64];
	u32 len = irdma_mpa_build(buf, &in);

	KUNIT_ASSERT_EQ(test, irdma_mpa_parse(buf, len, true, 2, &out), 0);
	KUNIT_EXPECT_TRUE(test, out.request);
	KUNIT_EXPECT_FALSE(test, out.reject);
	KUNIT_EXPECT_TRUE(test, out.crc);
	KUNIT_EXPECT_FALSE(test, out.markers);
	KUNIT_EXPECT_TRUE(test, out.peer_to_peer);
	KUNIT_EXPECT_FALSE(test, out.no_ird_ord);
	KUNIT_EXPECT_EQ(test, out.rev, 2);
	KUNIT_EXPECT_EQ(test, out.ird, 16);
	KUNIT_EXPECT_EQ(test, out.ord, 8);
	KUNIT_EXPECT_EQ(test, out.rtr, IRDMA_RTR_WRITE);
	KUNIT_EXPECT_EQ(test, out.pdata_len, 7);
	KUNIT_EXPECT_PTR_EQ(test, out.pdata, buf + 24);
	KUNIT_EXPECT_MEMEQ(test, out.pdata, "private", 7);
	/* As a reply it has the wrong key. */
	KUNIT_EXPECT_EQ(test, irdma_mpa_parse(buf, len, false, 2, &out), -EINVAL);
}

/* One frame a parse refuses: how it is spoiled, and the errno. */
struct irdma_mpa_bad_case {
	const char *name;
	u32 len;		/* bytes handed to the parse */
	int offset;		/* byte to overwrite, or -1 */
	u8 value;
	u8 max_rev;
	int err;
};

/* The frame spoiled: a revision 2 request of 4 + 8 bytes (32 in all). */
static const struct irdma_mpa_bad_case irdma_mpa_bad_cases[] = {
	{ "shorter than a header", 19, -1, 0, 2, -EINVAL },
	{ "private data over 512 bytes", 32, 18, 0x02, 2, -EOVERFLOW },
	{ "revision 0", 32, 17, 0, 2, -EINVAL },
	{ "revision 3", 32, 17, 3, 2, -EINVAL },
	{ "revision 2 to one offering 1", 32, -1, 0, 1, -EINVAL },
	{ "another key", 32, 4, 'X', 2, -EINVAL },
	{ "private data past the payload", 31, -1, 0, 2, -EOVERFLOW },
	{ "revision 2 without its header", 32, 19, 2, 2, -EINVAL },
	{ "a payload longer than a frame", 545, -1, 0, 2, -EOVERFLOW },
};

static void irdma_mpa_bad_case_desc(const struct irdma_mpa_bad_case *c,
				    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(irdma_mpa_bad, irdma_mpa_bad_cases, irdma_mpa_bad_case_desc);

static void irdma_mpa_bad_test(struct kunit *test)
{
	const struct irdma_mpa_bad_case *c = test->param_value;
	struct irdma_mpa_frame f = {
		.request = true, .rev = 2, .ird = 1, .ord = 1,
		.rtr = IRDMA_RTR_READ,
		.pdata = (const u8 *)"12345678", .pdata_len = 8,
	};
	u8 *buf = kunit_kzalloc(test, 1024, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, irdma_mpa_build(buf, &f), 32);
	KUNIT_ASSERT_EQ(test, irdma_mpa_parse(buf, 32, true, 2, &f), 0);
	if (c->offset >= 0)
		buf[c->offset] = c->value;
	KUNIT_EXPECT_EQ(test, irdma_mpa_parse(buf, c->len, true, c->max_rev, &f),
			c->err);
}

/* The responder's side of revision 2: IRD, ORD and the RTR chosen. */
static void irdma_mpa_negotiate_responder_test(struct kunit *test)
{
	struct irdma_mpa_frame req = {
		.peer_to_peer = true, .ird = 8, .ord = 0,
		.rtr = IRDMA_RTR_READ | IRDMA_RTR_WRITE,
	};
	u16 ird = 127, ord = 255;
	u8 rtr = 0;

	/* An ORD of 0: only the RTR read is to be answered. READ wins. */
	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&req, false, &ird, &ord, &rtr), 0);
	KUNIT_EXPECT_EQ(test, ird, 1);
	KUNIT_EXPECT_EQ(test, ord, 8);
	KUNIT_EXPECT_EQ(test, rtr, IRDMA_RTR_READ);

	req.ord = 4;
	req.rtr = IRDMA_RTR_WRITE;
	ird = 127;
	ord = 255;
	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&req, false, &ird, &ord, &rtr), 0);
	KUNIT_EXPECT_EQ(test, ird, 127);
	KUNIT_EXPECT_EQ(test, ord, 8);
	KUNIT_EXPECT_EQ(test, rtr, IRDMA_RTR_WRITE);

	/* No values given: ours stay. */
	req.no_ird_ord = true;
	req.ird = 0;
	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&req, false, &ird, &ord, &rtr), 0);
	KUNIT_EXPECT_EQ(test, ird, 127);
	KUNIT_EXPECT_EQ(test, ord, 8);

	/* Only a zero-length send offered, or no peer-to-peer mode. */
	req.rtr = 0;
	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&req, false, &ird, &ord, &rtr),
			-EOPNOTSUPP);
	req.rtr = IRDMA_RTR_READ;
	req.peer_to_peer = false;
	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&req, false, &ird, &ord, &rtr),
			-EOPNOTSUPP);
}

/* The initiator's side: the reply may not want what we cannot give. */
static void irdma_mpa_negotiate_initiator_test(struct kunit *test)
{
	struct irdma_mpa_frame rep = {
		.peer_to_peer = true, .ird = 16, .ord = 32, .rtr = IRDMA_RTR_READ,
	};
	u16 ird = 64, ord = 255;
	u8 rtr = 0;

	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&rep, true, &ird, &ord, &rtr), 0);
	KUNIT_EXPECT_EQ(test, ird, 64);
	KUNIT_EXPECT_EQ(test, ord, 16);
	KUNIT_EXPECT_EQ(test, rtr, IRDMA_RTR_READ);

	/* More reads in flight than our IRD takes. */
	rep.ord = 65;
	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&rep, true, &ird, &ord, &rtr),
			-EINVAL);
	/* A read RTR to a peer that takes no reads. */
	rep.ord = 1;
	rep.ird = 0;
	KUNIT_EXPECT_EQ(test, irdma_mpa_negotiate(&rep, true, &ird, &ord, &rtr),
			-EOPNOTSUPP);
}

static struct kunit_case irdma_mpa_cases[] = {
	KUNIT_CASE(irdma_mpa_build_v2_request_test),
	KUNIT_CASE(irdma_mpa_build_replies_test),
	KUNIT_CASE(irdma_mpa_round_trip_test),
	KUNIT_CASE_PARAM(irdma_mpa_bad_test, irdma_mpa_bad_gen_params),
	KUNIT_CASE(irdma_mpa_negotiate_responder_test),
	KUNIT_CASE(irdma_mpa_negotiate_initiator_test),
	{}
};

static struct kunit_suite irdma_mpa_suite = {
	.name = "irdma_mpa",
	.test_cases = irdma_mpa_cases,
};

kunit_test_suite(irdma_mpa_suite);
