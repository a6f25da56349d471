// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of iWARP's TERMINATE (term.c, ctrl_qp.c): the control word
 * an error event calls for (RFC 5040 7.2, RFC 5041 8.2), the checks of a
 * frame the engine wrote into Q2, the MODIFY_QP that sends, and which
 * events terminate at all.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/string.h>

#include "../main.h"
#include "../verbs.h"
#include "term_frame.h"

/* Control words: layer << 4 | error type, then the error code. */
static void irdma_term_ctrl_test(struct kunit *test)
{
	static const struct {
		u16 ae;
		u8 word[4];
	} cases[] = {
		/* RDMAP, remote protection: base or bounds (0x01) */
		{ IRDMA_AE_AMP_BOUNDS_VIOLATION, { 0x01, 0x01, 0, 0 } },
		/* RDMAP, remote protection: invalid STag (0x00) */
		{ IRDMA_AE_AMP_INVALID_STAG, { 0x01, 0x00, 0, 0 } },
		/* RDMAP, remote protection: access rights (0x02) */
		{ IRDMA_AE_AMP_RIGHTS_VIOLATION, { 0x01, 0x02, 0, 0 } },
		/* RDMAP, remote operation: invalid STag (a bad key) */
		{ IRDMA_AE_AMP_BAD_STAG_KEY, { 0x02, 0x00, 0, 0 } },
		/* DDP untagged buffer: no buffer for the MSN (0x02) */
		{ IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE, { 0x12, 0x02, 0, 0 } },
		/* DDP untagged buffer: MSN out of range (0x03) */
		{ IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN, { 0x12, 0x03, 0, 0 } },
		/* DDP untagged buffer: message too long (0x05) */
		{ IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER,
		  { 0x12, 0x05, 0, 0 } },
		/* MPA (layer 2), LLP error type 3: CRC (0x02) */
		{ IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR, { 0x23, 0x02, 0, 0 } },
		/* DDP catastrophic */
		{ IRDMA_AE_LCE_QP_CATASTROPHIC, { 0x10, 0x00, 0, 0 } },
		/* Anything else: RDMAP remote operation, unspecified */
		{ IRDMA_AE_LLP_TOO_MANY_RETRIES, { 0x02, 0xff, 0, 0 } },
	};
	u8 word[4];
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(word, 0xaa, sizeof(word));
		irdma_term_ctrl(cases[i].ae, word);
		KUNIT_EXPECT_MEMEQ_MSG(test, word, cases[i].word, 4, "AE %#x",
				       cases[i].ae);
	}
}

/**
 * irdma_test_term_frame - a TERMINATE frame as the engine writes it:
 *	Ethernet, IPv4 or IPv6, TCP, MPA, DDP, RDMAP, an RDMAP remote
 *	protection error (bounds)
 * @test: the test, whose memory it is
 * @ipv6: IPv6, not IPv4
 * @len: its length
 *
 * Return: the frame (256 bytes, zeros after it).
 */
u8 *irdma_test_term_frame(struct kunit *test, bool ipv6, u32 *len)
{
	u32 l3 = ipv6 ? 40 : 20, off;
	u8 *f = kunit_kzalloc(test, 256, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f[12] = ipv6 ? 0x86 : 0x08;
	f[13] = ipv6 ? 0xdd : 0x00;
	f[14] = ipv6 ? 0x60 : 0x45;
	off = 14 + l3;
	f[off + 12] = 0x50;			/* TCP: 20 bytes */
	off += 20;
	f[off + 1] = 18 + 4;			/* MPA: ULPDU length */
	f[off + 2] = 0x41;			/* untagged, last, DDP version 1 */
	f[off + 3] = 0x47;			/* RDMAP version 1, TERMINATE */
	f[off + 11] = 2;			/* queue 2 */
	f[off + 15] = 1;			/* message 1 */
	f[off + 20] = 0x01;			/* RDMAP remote protection */
	f[off + 21] = 0x01;			/* bounds */
	*len = off + 24 + 8;
	return f;
}

static void irdma_term_check_good_test(struct kunit *test)
{
	u32 len;
	u8 *f, ctrl = 0;

	f = irdma_test_term_frame(test, false, &len);
	KUNIT_EXPECT_EQ(test, irdma_term_check(f, len, &ctrl), 0);
	KUNIT_EXPECT_EQ(test, ctrl, 0x01);
	f = irdma_test_term_frame(test, true, &len);
	f[14 + 40 + 20 + 20] = 0x12;		/* DDP untagged buffer error */
	ctrl = 0;
	KUNIT_EXPECT_EQ(test, irdma_term_check(f, len, &ctrl), 0);
	KUNIT_EXPECT_EQ(test, ctrl, 0x12);
}

/* Each fault of a frame, and the event it is answered as. */
static void irdma_term_check_bad_test(struct kunit *test)
{
	const u32 mpa = 14 + 20 + 20;
	static const struct {
		u32 at;
		u8 val;
		u16 ae;
	} cases[] = {
		{ 14 + 20 + 20 + 2, 0xc1, IRDMA_AE_LCE_QP_CATASTROPHIC },	/* tagged */
		{ 14 + 20 + 20 + 2, 0x01, IRDMA_AE_LCE_QP_CATASTROPHIC },	/* not last */
		{ 14 + 20 + 20 + 2, 0x42, IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION },
		{ 14 + 20 + 20 + 11, 1, IRDMA_AE_DDP_UBE_INVALID_QN },
		{ 14 + 20 + 20 + 15, 2, IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN },
		{ 14 + 20 + 20 + 19, 4, IRDMA_AE_DDP_UBE_INVALID_MO },
		{ 14 + 20 + 20 + 3, 0x87, IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION },
		{ 14, 0x55, IRDMA_AE_LCE_QP_CATASTROPHIC },		/* IP version 5 */
	};
	u32 len;
	u8 *f, ctrl;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		f = irdma_test_term_frame(test, false, &len);
		f[cases[i].at] = cases[i].val;
		KUNIT_EXPECT_EQ_MSG(test, irdma_term_check(f, len, &ctrl), cases[i].ae,
				    "byte %u = %#x", cases[i].at, cases[i].val);
	}
	/* Cut before the control word. */
	f = irdma_test_term_frame(test, false, &len);
	KUNIT_EXPECT_EQ(test, irdma_term_check(f, mpa + 23, &ctrl),
			IRDMA_AE_LCE_QP_CATASTROPHIC);
	KUNIT_EXPECT_EQ(test, irdma_term_check(f, 10, &ctrl), IRDMA_AE_LCE_QP_CATASTROPHIC);
}

/* MODIFY_QP to TERMINATE: state 5, TERMACT, TERMLEN in qword 1. */
static void irdma_term_modify_test(struct kunit *test)
{
	struct irdma_qp_hw_info info = { .id = 7, .type = IRDMA_QP_TYPE_IWARP };
	struct irdma_cqp_wqe cmd;
	u64 hdr;

	irdma_build_terminate_qp(&cmd, &info, true, false, 4);
	hdr = cmd.q[3];
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_NEXTIWSTATE, hdr), IRDMA_QPS_TERMINATE);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_TERMACT, hdr), IRDMA_TERM_SEND_TERM_ONLY);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_TERMLEN, cmd.q[1]), 4);
	KUNIT_EXPECT_TRUE(test, hdr & IRDMA_QPCMD_ARPTABIDXVALID);
	KUNIT_EXPECT_TRUE(test, hdr & IRDMA_QPCMD_CQNUMVALID);
	KUNIT_EXPECT_FALSE(test, hdr & IRDMA_QPCMD_RESETCON);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_QPID, hdr), 7);

	irdma_build_terminate_qp(&cmd, &info, false, true, 4);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_TERMACT, cmd.q[3]),
			IRDMA_TERM_SEND_FIN_ONLY);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_TERMLEN, cmd.q[1]), 0);
	irdma_build_terminate_qp(&cmd, &info, true, true, 4);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_TERMACT, cmd.q[3]),
			IRDMA_TERM_SEND_TERM_AND_FIN);
	irdma_build_terminate_qp(&cmd, &info, false, false, 0);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_QPCMD_TERMACT, cmd.q[3]),
			IRDMA_TERM_SEND_NOTHING);
}

/* Only a QP in RTS or TERMINATE, its connection open, terminates. */
static void irdma_term_which_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, irdma_ae_terminates(IRDMA_QPS_RTS, IRDMA_TCP_STATE_ESTABLISHED));
	KUNIT_EXPECT_TRUE(test, irdma_ae_terminates(IRDMA_QPS_TERMINATE,
						    IRDMA_TCP_STATE_CLOSE_WAIT));
	KUNIT_EXPECT_FALSE(test, irdma_ae_terminates(IRDMA_QPS_ERROR,
						     IRDMA_TCP_STATE_ESTABLISHED));
	KUNIT_EXPECT_FALSE(test, irdma_ae_terminates(IRDMA_QPS_RTS, IRDMA_TCP_STATE_CLOSED));
	KUNIT_EXPECT_FALSE(test, irdma_ae_terminates(IRDMA_QPS_SQD, IRDMA_TCP_STATE_ESTABLISHED));
}

static struct kunit_case irdma_term_cases[] = {
	KUNIT_CASE(irdma_term_ctrl_test),
	KUNIT_CASE(irdma_term_check_good_test),
	KUNIT_CASE(irdma_term_check_bad_test),
	KUNIT_CASE(irdma_term_modify_test),
	KUNIT_CASE(irdma_term_which_test),
	{}
};

static struct kunit_suite irdma_term_suite = {
	.name = "irdma_term",
	.test_cases = irdma_term_cases,
};

kunit_test_suite(irdma_term_suite);
