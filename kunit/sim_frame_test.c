// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the simulator's reading of TCP frames off its switch:
 * which frames its engine accelerates (isim_tcp_frame_parse()) and what
 * it reads of them, the quad hash's keys.
 */
#include <kunit/test.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <net/ip.h>

#include "../sim/sim.h"

/**
 * struct frame_spec - a frame to build
 * @vlan: with an 802.1Q tag of this TCI (0: none)
 * @ipv6: an IPv6 packet (else IPv4)
 * @ihl: an IPv4 header's length in words
 * @frag_off: an IPv4 header's fragment field (host order)
 * @proto: the L4 protocol
 * @doff: the TCP header's length in words
 * @payload: bytes after the TCP header
 */
struct frame_spec {
	u16 vlan;
	bool ipv6;
	u8 ihl;
	u16 frag_off;
	u8 proto;
	u8 doff;
	u32 payload;
};

static const u8 frame_smac[ETH_ALEN] = { 0x02, 0x1b, 0x21, 0x00, 0x00, 0x21 };
static const u8 frame_dmac[ETH_ALEN] = { 0x02, 0x1b, 0x21, 0x00, 0x00, 0x20 };

static struct sk_buff *frame_build(struct kunit *test, const struct frame_spec *fs)
{
	u32 l3 = fs->ipv6 ? sizeof(struct ipv6hdr) : fs->ihl * 4;
	u32 l4 = fs->doff * 4 + fs->payload;
	struct sk_buff *skb = alloc_skb(VLAN_ETH_HLEN + l3 + l4, GFP_KERNEL);
	struct ethhdr *eth;
	struct tcphdr *th;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, frame_dmac);
	ether_addr_copy(eth->h_source, frame_smac);
	eth->h_proto = htons(fs->ipv6 ? ETH_P_IPV6 : ETH_P_IP);
	if (fs->vlan) {
		skb = vlan_insert_tag_set_proto(skb, htons(ETH_P_8021Q), fs->vlan);
		KUNIT_ASSERT_NOT_NULL(test, skb);
	}
	if (fs->ipv6) {
		struct ipv6hdr *ip6 = skb_put_zero(skb, l3);

		ip6->version = 6;
		ip6->nexthdr = fs->proto;
		ip6->payload_len = htons(l4);
		ip6->saddr.s6_addr32[0] = htonl(0xfe800000);
		ip6->saddr.s6_addr32[3] = htonl(0x2);
		ip6->daddr.s6_addr32[0] = htonl(0xfe800000);
		ip6->daddr.s6_addr32[3] = htonl(0x1);
	} else {
		struct iphdr *ip = skb_put_zero(skb, l3);

		ip->version = 4;
		ip->ihl = fs->ihl;
		ip->protocol = fs->proto;
		ip->frag_off = htons(fs->frag_off);
		ip->tot_len = htons(l3 + l4);
		ip->saddr = htonl(0xc0a84f02);
		ip->daddr = htonl(0xc0a84f01);
	}
	th = skb_put_zero(skb, l4);
	th->source = htons(40000);
	th->dest = htons(7174);
	th->doff = fs->doff;
	skb_reset_mac_header(skb);
	return skb;
}

static bool frame_parse(struct kunit *test, const struct frame_spec *fs,
			struct isim_tcp_frame *f)
{
	struct sk_buff *skb = frame_build(test, fs);
	bool ok = isim_tcp_frame_parse(skb, f);

	kfree_skb(skb);
	return ok;
}

/* An IPv4 segment behind a VLAN tag: ends, ports, offsets, tag, source. */
static void isim_frame_ipv4_vlan_test(struct kunit *test)
{
	struct frame_spec fs = {
		.vlan = 0x6005, .ihl = 5, .proto = IPPROTO_TCP, .doff = 8,
		.payload = 100, .frag_off = IP_DF,
	};
	struct isim_tcp_frame f;

	KUNIT_ASSERT_TRUE(test, frame_parse(test, &fs, &f));
	KUNIT_EXPECT_TRUE(test, f.ipv4);
	KUNIT_EXPECT_TRUE(test, f.vlan_valid);
	KUNIT_EXPECT_EQ(test, f.vlan_tci, 0x6005);
	KUNIT_EXPECT_EQ(test, f.local_ip[3], 0xc0a84f01);
	KUNIT_EXPECT_EQ(test, f.remote_ip[3], 0xc0a84f02);
	KUNIT_EXPECT_EQ(test, f.local_ip[0] | f.local_ip[1] | f.local_ip[2], 0);
	KUNIT_EXPECT_EQ(test, f.local_port, 7174);
	KUNIT_EXPECT_EQ(test, f.remote_port, 40000);
	KUNIT_EXPECT_EQ(test, f.l3_off, VLAN_ETH_HLEN);
	KUNIT_EXPECT_EQ(test, f.l3_len, 20);
	KUNIT_EXPECT_EQ(test, f.l4_len, 32 + 100);
	KUNIT_EXPECT_MEMEQ(test, f.smac, frame_smac, ETH_ALEN);
}

/* IPv6: all four words of each address, no tag. */
static void isim_frame_ipv6_test(struct kunit *test)
{
	struct frame_spec fs = { .ipv6 = true, .proto = IPPROTO_TCP, .doff = 5 };
	struct isim_tcp_frame f;

	KUNIT_ASSERT_TRUE(test, frame_parse(test, &fs, &f));
	KUNIT_EXPECT_FALSE(test, f.ipv4);
	KUNIT_EXPECT_FALSE(test, f.vlan_valid);
	KUNIT_EXPECT_EQ(test, f.local_ip[0], 0xfe800000);
	KUNIT_EXPECT_EQ(test, f.local_ip[3], 1);
	KUNIT_EXPECT_EQ(test, f.remote_ip[3], 2);
	KUNIT_EXPECT_EQ(test, f.l3_off, ETH_HLEN);
	KUNIT_EXPECT_EQ(test, f.l3_len, 40);
	KUNIT_EXPECT_EQ(test, f.l4_len, 20);
}

/* What the engine leaves to the LAN: it is not a segment it takes. */
static void isim_frame_refused_test(struct kunit *test)
{
	static const struct frame_spec refused[] = {
		{ .ihl = 6, .proto = IPPROTO_TCP, .doff = 5 },	/* IP options */
		{ .ihl = 5, .proto = IPPROTO_TCP, .doff = 5, .frag_off = IP_MF },
		{ .ihl = 5, .proto = IPPROTO_TCP, .doff = 5, .frag_off = 8 },
		{ .ihl = 5, .proto = IPPROTO_UDP, .doff = 5 },
		{ .ipv6 = true, .proto = IPPROTO_UDP, .doff = 5 },
		{ .ihl = 5, .proto = IPPROTO_TCP, .doff = 4 },	/* short header */
	};
	struct isim_tcp_frame f;
	int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_FALSE_MSG(test, frame_parse(test, &refused[i], &f),
				       "frame %d", i);
}

/* A TCP header longer than the packet, or an IP length past the frame. */
static void isim_frame_truncated_test(struct kunit *test)
{
	struct frame_spec fs = { .ihl = 5, .proto = IPPROTO_TCP, .doff = 5 };
	struct sk_buff *skb = frame_build(test, &fs);
	struct isim_tcp_frame f;
	struct tcphdr *th = (struct tcphdr *)(skb->data + ETH_HLEN + 20);
	struct iphdr *ip = (struct iphdr *)(skb->data + ETH_HLEN);

	KUNIT_EXPECT_TRUE(test, isim_tcp_frame_parse(skb, &f));
	th->doff = 6;
	KUNIT_EXPECT_FALSE(test, isim_tcp_frame_parse(skb, &f));
	th->doff = 5;
	ip->tot_len = htons(41);
	KUNIT_EXPECT_FALSE(test, isim_tcp_frame_parse(skb, &f));
	kfree_skb(skb);
}

static struct kunit_case isim_frame_cases[] = {
	KUNIT_CASE(isim_frame_ipv4_vlan_test),
	KUNIT_CASE(isim_frame_ipv6_test),
	KUNIT_CASE(isim_frame_refused_test),
	KUNIT_CASE(isim_frame_truncated_test),
	{}
};

static struct kunit_suite isim_frame_suite = {
	.name = "irdma_sim_frame",
	.test_cases = isim_frame_cases,
};

kunit_test_suite(isim_frame_suite);
