// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the connection manager's TCP segments (cm_tcp.c): what
 * it sends, byte for byte (worked out by hand), and what it makes of an
 * ILQ buffer: addresses, ports, numbers, options, and what it refuses.
 */
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/string.h>
#include <net/tcp.h>

#include "../cm.h"

/* A SYN: doff 7 for MSS, window scale and the end of the options. */
static void irdma_cm_tcp_build_syn_test(struct kunit *test)
{
	static const u8 want[] = {
		0x4e, 0x20, 0x80, 0xe8,		/* 20000 -> 33000 */
		0x01, 0x02, 0x03, 0x04,		/* seq */
		0x00, 0x00, 0x00, 0x00,		/* no ACK: no number */
		0x70, 0x02, 0xff, 0xff,		/* doff 7, SYN, window */
		0x00, 0x00, 0x00, 0x00,		/* checksum: the engine's */
		0x02, 0x04, 0x05, 0xb4,		/* MSS 1460 */
		0x03, 0x03, 0x02, 0x00,		/* window scale 2, EOL */
	};
	struct irdma_cm_seg s = {
		.local_port = 20000, .remote_port = 33000, .seq = 0x01020304,
		.ack = 0x55, .flags = TCPHDR_SYN, .window = 0xffff,
		.mss = 1460, .wscale = 2,
	};
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, irdma_cm_tcp_build(buf, &s), sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

/* An ACK carrying data: no options, no PSH. */
static void irdma_cm_tcp_build_data_test(struct kunit *test)
{
	static const u8 want[] = {
		0x80, 0xe8, 0x4e, 0x20, 0x00, 0x00, 0x00, 0x05,
		0x00, 0x00, 0x00, 0x07, 0x50, 0x10, 0x40, 0x00,
		0x00, 0x00, 0x00, 0x00, 'M', 'P', 'A',
	};
	struct irdma_cm_seg s = {
		.local_port = 33000, .remote_port = 20000, .seq = 5, .ack = 7,
		.flags = TCPHDR_ACK | TCPHDR_PSH, .window = 0x4000,
		.payload = (const u8 *)"MPA", .payload_len = 3,
	};
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, irdma_cm_tcp_build(buf, &s), sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

/* An ILQ buffer: 20 bytes of padding, an IPv4 header, the segment. */
static u32 cm_tcp_ipv4_buf(u8 *buf, const struct irdma_cm_seg *s)
{
	struct iphdr *iph = (struct iphdr *)(buf + IRDMA_CM_IPV4_OFFSET);

	memset(buf, 0, IRDMA_CM_TCP_OFFSET);
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = 0x10;
	iph->protocol = IPPROTO_TCP;
	iph->saddr = htonl(0xc0a84d02);
	iph->daddr = htonl(0xc0a84d01);
	return IRDMA_CM_TCP_OFFSET + irdma_cm_tcp_build(buf + IRDMA_CM_TCP_OFFSET, s);
}

/* The peer's SYN, as the ILQ hands it over: read from our side. */
static void irdma_cm_tcp_parse_ipv4_syn_test(struct kunit *test)
{
	struct irdma_cm_seg s = {
		.local_port = 33000, .remote_port = 20000, .seq = 0xfffffff0,
		.flags = TCPHDR_SYN, .window = 1000, .mss = 1460, .wscale = 7,
	};
	struct irdma_cm_rx rx;
	u8 buf[128];
	u32 len = cm_tcp_ipv4_buf(buf, &s);

	KUNIT_ASSERT_EQ(test, irdma_cm_tcp_parse(buf, len, true, &rx), 0);
	KUNIT_EXPECT_TRUE(test, rx.ipv4);
	KUNIT_EXPECT_EQ(test, rx.local_ip[3], 0xc0a84d01);
	KUNIT_EXPECT_EQ(test, rx.remote_ip[3], 0xc0a84d02);
	KUNIT_EXPECT_EQ(test, rx.local_ip[0], 0);
	KUNIT_EXPECT_EQ(test, rx.tos, 0x10);
	KUNIT_EXPECT_EQ(test, rx.local_port, 20000);
	KUNIT_EXPECT_EQ(test, rx.remote_port, 33000);
	KUNIT_EXPECT_EQ(test, rx.seq, 0xfffffff0);
	KUNIT_EXPECT_EQ(test, rx.flags, TCPHDR_SYN);
	KUNIT_EXPECT_EQ(test, rx.window, 1000);
	KUNIT_EXPECT_TRUE(test, rx.has_mss);
	KUNIT_EXPECT_EQ(test, rx.mss, 1460);
	KUNIT_EXPECT_TRUE(test, rx.has_wscale);
	KUNIT_EXPECT_EQ(test, rx.wscale, 7);
	KUNIT_EXPECT_EQ(test, rx.payload_len, 0);
}

/* IPv6 with data: the addresses' four words, the payload found. */
static void irdma_cm_tcp_parse_ipv6_data_test(struct kunit *test)
{
	struct irdma_cm_seg s = {
		.local_port = 1, .remote_port = 2, .seq = 3, .ack = 4,
		.flags = TCPHDR_ACK | TCPHDR_FIN, .window = 5,
		.payload = (const u8 *)"data", .payload_len = 4,
	};
	struct ipv6hdr *ip6h;
	struct irdma_cm_rx rx;
	u8 buf[128] = {};
	u32 len;

	ip6h = (struct ipv6hdr *)buf;
	ip6h->version = 6;
	ip6h->priority = 0x2;
	ip6h->flow_lbl[0] = 0x80;	/* traffic class 0x28 */
	ip6h->nexthdr = IPPROTO_TCP;
	ip6h->saddr.s6_addr32[0] = htonl(0x20010db8);
	ip6h->saddr.s6_addr32[3] = htonl(2);
	ip6h->daddr.s6_addr32[0] = htonl(0x20010db8);
	ip6h->daddr.s6_addr32[3] = htonl(1);
	len = IRDMA_CM_TCP_OFFSET + irdma_cm_tcp_build(buf + IRDMA_CM_TCP_OFFSET, &s);

	KUNIT_ASSERT_EQ(test, irdma_cm_tcp_parse(buf, len, false, &rx), 0);
	KUNIT_EXPECT_FALSE(test, rx.ipv4);
	KUNIT_EXPECT_EQ(test, rx.local_ip[0], 0x20010db8);
	KUNIT_EXPECT_EQ(test, rx.local_ip[3], 1);
	KUNIT_EXPECT_EQ(test, rx.remote_ip[3], 2);
	KUNIT_EXPECT_EQ(test, rx.tos, 0x28);
	KUNIT_EXPECT_EQ(test, rx.local_port, 2);
	KUNIT_EXPECT_EQ(test, rx.remote_port, 1);
	KUNIT_EXPECT_EQ(test, rx.ack, 4);
	KUNIT_EXPECT_EQ(test, rx.flags, TCPHDR_ACK | TCPHDR_FIN);
	KUNIT_EXPECT_FALSE(test, rx.has_mss);
	KUNIT_EXPECT_EQ(test, rx.payload_len, 4);
	KUNIT_EXPECT_MEMEQ(test, rx.payload, "data", 4);
}

/* A SYN's options rewritten (bytes 60-67 of the buffer), or its headers. */
struct irdma_cm_tcp_bad_case {
	const char *name;
	u32 len;		/* 0: the whole SYN (68 bytes) */
	int offset;		/* byte to overwrite, or -1 */
	u8 bytes[8];
	u8 nbytes;
	int err;
};

static const struct irdma_cm_tcp_bad_case irdma_cm_tcp_bad_cases[] = {
	{ "no whole TCP header", 59, -1, {}, 0, -EINVAL },
	{ "an IPv6 header announced IPv4", 0, 20, { 0x65 }, 1, -EINVAL },
	{ "IPv4 options", 0, 20, { 0x46 }, 1, -EINVAL },
	{ "UDP", 0, 29, { IPPROTO_UDP }, 1, -EINVAL },
	{ "doff 4", 0, 52, { 0x40 }, 1, -EINVAL },
	{ "doff past the buffer", 0, 52, { 0xf0 }, 1, -EINVAL },
	{ "MSS below IPv4's 576", 0, 60, { 2, 4, 0x02, 0x07 }, 4, -EINVAL },
	{ "MSS of length 3", 0, 60, { 2, 3, 0x05, 0xb4 }, 4, -EINVAL },
	{ "an option past the header", 0, 64, { 8, 10 }, 2, -EINVAL },
	{ "an option of length 1", 0, 60, { 8, 1 }, 2, -EINVAL },
	/* taken: unknown options skipped, NOPs, the smallest MSS */
	{ "NOP, NOP, unknown option", 0, 64, { 1, 1, 30, 2 }, 4, 0 },
	{ "MSS of 536", 0, 60, { 2, 4, 0x02, 0x18 }, 4, 0 },
};

static void irdma_cm_tcp_bad_case_desc(const struct irdma_cm_tcp_bad_case *c,
				       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(irdma_cm_tcp_bad, irdma_cm_tcp_bad_cases,
		  irdma_cm_tcp_bad_case_desc);

static void irdma_cm_tcp_bad_test(struct kunit *test)
{
	const struct irdma_cm_tcp_bad_case *c = test->param_value;
	struct irdma_cm_seg s = {
		.local_port = 33000, .remote_port = 20000,
		.flags = TCPHDR_SYN, .mss = 1460, .wscale = 2,
	};
	struct irdma_cm_rx rx;
	u8 buf[128];
	u32 len = cm_tcp_ipv4_buf(buf, &s);

	KUNIT_ASSERT_EQ(test, len, 68);
	KUNIT_ASSERT_EQ(test, irdma_cm_tcp_parse(buf, len, true, &rx), 0);
	if (c->offset >= 0)
		memcpy(buf + c->offset, c->bytes, c->nbytes);
	KUNIT_EXPECT_EQ(test, irdma_cm_tcp_parse(buf, c->len ?: len, true, &rx),
			c->err);
}

static struct kunit_case irdma_cm_tcp_cases[] = {
	KUNIT_CASE(irdma_cm_tcp_build_syn_test),
	KUNIT_CASE(irdma_cm_tcp_build_data_test),
	KUNIT_CASE(irdma_cm_tcp_parse_ipv4_syn_test),
	KUNIT_CASE(irdma_cm_tcp_parse_ipv6_data_test),
	KUNIT_CASE_PARAM(irdma_cm_tcp_bad_test, irdma_cm_tcp_bad_gen_params),
	{}
};

static struct kunit_suite irdma_cm_tcp_suite = {
	.name = "irdma_cm_tcp",
	.test_cases = irdma_cm_tcp_cases,
};

kunit_test_suite(irdma_cm_tcp_suite);
