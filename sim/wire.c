// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Frames the engine puts on the Ethernet switch: a TCP segment behind the
 * Ethernet (and VLAN) and IP headers the engine builds, with the TCP
 * checksum it fills in. The ILQ's and IEQ's sends (a TCP header the
 * driver wrote, addressed by an AH) and an offloaded iWARP connection's
 * own segments (from its QP context) both leave this way.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>

#include "sim.h"

static void isim_wire_ip(struct sk_buff *skb, const struct isim_wire_addr *a,
			 u32 l4_len)
{
	int i;

	if (a->ipv4) {
		struct iphdr *ip = skb_put_zero(skb, sizeof(*ip));

		ip->version = 4;
		ip->ihl = 5;
		ip->tos = a->tos;
		ip->tot_len = htons(sizeof(*ip) + l4_len);
		ip->frag_off = htons(IP_DF);
		ip->ttl = a->ttl;
		ip->protocol = IPPROTO_TCP;
		ip->saddr = htonl(a->src_ip[3]);
		ip->daddr = htonl(a->dest_ip[3]);
		ip->check = ip_fast_csum(ip, ip->ihl);
		return;
	}
	{
		struct ipv6hdr *ip6 = skb_put_zero(skb, sizeof(*ip6));

		ip6_flow_hdr(ip6, a->tos, htonl(a->flow_label));
		ip6->payload_len = htons(l4_len);
		ip6->nexthdr = IPPROTO_TCP;
		ip6->hop_limit = a->ttl;
		for (i = 0; i < 4; i++) {
			ip6->saddr.s6_addr32[i] = htonl(a->src_ip[i]);
			ip6->daddr.s6_addr32[i] = htonl(a->dest_ip[i]);
		}
	}
}

/* The frame of a TCP segment, tagged if @a says so. */
static struct sk_buff *isim_wire_tcp_frame(const struct isim_wire_addr *a,
					   const void *seg, u32 len)
{
	u32 l3_len = a->ipv4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	struct sk_buff *skb;
	struct ethhdr *eth;
	struct tcphdr *th;
	__wsum csum;

	skb = alloc_skb(VLAN_ETH_HLEN + l3_len + len, GFP_KERNEL);
	if (!skb)
		return NULL;
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, a->dmac);
	ether_addr_copy(eth->h_source, a->smac);
	eth->h_proto = htons(a->ipv4 ? ETH_P_IP : ETH_P_IPV6);
	if (a->insert_vlan) {
		/* Frees the frame when it fails. */
		skb = vlan_insert_tag_set_proto(skb, htons(ETH_P_8021Q), a->vlan_tag);
		if (!skb)
			return NULL;
	}
	skb_set_network_header(skb, skb->len);
	isim_wire_ip(skb, a, len);
	th = skb_put_data(skb, seg, len);
	th->check = 0;
	csum = csum_partial(th, len, 0);
	if (a->ipv4)
		th->check = csum_tcpudp_magic(htonl(a->src_ip[3]), htonl(a->dest_ip[3]),
					      len, IPPROTO_TCP, csum);
	else
		th->check = csum_ipv6_magic(&ipv6_hdr(skb)->saddr, &ipv6_hdr(skb)->daddr,
					    len, IPPROTO_TCP, csum);
	return skb;
}

/**
 * isim_wire_tcp_skb - the frame of a TCP segment, as it would come off the
 *	wire
 * @a: the headers to put in front
 * @seg: the segment, from its TCP header on (its checksum is filled in)
 * @len: its length
 *
 * Return: the frame, from its Ethernet header, or NULL.
 */
struct sk_buff *isim_wire_tcp_skb(const struct isim_wire_addr *a, const void *seg,
				  u32 len)
{
	return isim_wire_tcp_frame(a, seg, len);
}

/**
 * isim_wire_tcp_image - the bytes of a TCP segment's frame, as an engine
 *	taking it writes them to memory (no VLAN tag)
 * @a: the headers to put in front (@a's tag is left out)
 * @seg: the segment, from its TCP header on (its checksum is filled in)
 * @len: its length
 * @out: where the frame goes
 * @room: @out's size: the frame is cut there
 *
 * Return: the bytes written, or -ENOMEM.
 */
int isim_wire_tcp_image(const struct isim_wire_addr *a, const void *seg, u32 len,
			void *out, u32 room)
{
	struct isim_wire_addr untagged = *a;
	struct sk_buff *skb;
	u32 n;

	untagged.insert_vlan = false;
	skb = isim_wire_tcp_frame(&untagged, seg, len);
	if (!skb)
		return -ENOMEM;
	n = min(skb->len, room);
	skb_copy_bits(skb, 0, out, n);
	kfree_skb(skb);
	return n;
}

/**
 * isim_wire_tcp_send - put a TCP segment on the switch
 * @sdev: the function sending
 * @a: the headers to put in front
 * @seg: the segment, from its TCP header on (its checksum is filled in)
 * @len: its length
 *
 * Context: may sleep; not under the switch's lock.
 * Return: 0, -EMSGSIZE if the packet is over the port's MTU, -ENOMEM.
 */
int isim_wire_tcp_send(struct isim_dev *sdev, const struct isim_wire_addr *a,
		       const void *seg, u32 len)
{
	u32 l3_len = a->ipv4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	struct sk_buff *skb;

	if (l3_len + len > READ_ONCE(sdev->netdev->mtu))
		return -EMSGSIZE;
	skb = isim_wire_tcp_frame(a, seg, len);
	if (!skb)
		return -ENOMEM;
	isim_switch_send(sdev, skb, a->loopback);
	return 0;
}
