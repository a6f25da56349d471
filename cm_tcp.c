// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The TCP segments of iWARP's connection manager, which runs the
 * three-way handshake and the MPA exchange in software through the ILQ
 * before the connection is handed to its offloaded QP.
 *
 * What is sent is what upstream sends: options only on a SYN (MSS and
 * window scale, then the end of the list: no timestamps, no SACK), no
 * PSH, and no checksum, which the engine fills in. What is read comes
 * as the engine leaves it in an ILQ buffer: the Ethernet header gone,
 * the IP header in the first 40 bytes, the TCP header after them. The
 * engine has checked the checksums.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <linux/unaligned.h>
#include <net/dsfield.h>
#include <net/tcp.h>

#include "main.h"
#include "cm.h"

/**
 * irdma_cm_tcp_build - write a segment: TCP header, options, data
 * @buf: where, room for the header, %IRDMA_CM_SYN_OPT_LEN and the data
 * @s: the segment; a SYN carries @s->mss and @s->wscale as options
 *
 * Return: the segment's length.
 */
u32 irdma_cm_tcp_build(u8 *buf, const struct irdma_cm_seg *s)
{
	struct tcphdr *th = (struct tcphdr *)buf;
	u32 hlen = sizeof(*th);
	u8 *opt = buf + hlen;

	memset(th, 0, sizeof(*th));
	th->source = htons(s->local_port);
	th->dest = htons(s->remote_port);
	th->seq = htonl(s->seq);
	if (s->flags & TCPHDR_ACK)
		th->ack_seq = htonl(s->ack);
	tcp_flag_byte(th) = s->flags & (TCPHDR_FIN | TCPHDR_SYN | TCPHDR_RST |
					TCPHDR_ACK);
	th->window = htons(s->window);
	if (s->flags & TCPHDR_SYN) {
		opt[0] = TCPOPT_MSS;
		opt[1] = TCPOLEN_MSS;
		put_unaligned_be16(s->mss, opt + 2);
		opt[4] = TCPOPT_WINDOW;
		opt[5] = TCPOLEN_WINDOW;
		opt[6] = s->wscale;
		opt[7] = TCPOPT_EOL;
		hlen += IRDMA_CM_SYN_OPT_LEN;
	}
	th->doff = hlen / 4;
	if (s->payload_len)
		memcpy(buf + hlen, s->payload, s->payload_len);
	return hlen + s->payload_len;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_tcp_build);

/*
 * The options of a received header: an MSS below what IP's minimum
 * datagram allows, or an option running past the header, is an error.
 */
static int irdma_cm_tcp_options(const u8 *opt, u32 len, bool ipv4,
				struct irdma_cm_rx *rx)
{
	u32 i = 0, olen;

	while (i < len) {
		if (opt[i] == TCPOPT_EOL)
			break;
		if (opt[i] == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			return -EINVAL;
		olen = opt[i + 1];
		if (olen < 2 || i + olen > len)
			return -EINVAL;
		switch (opt[i]) {
		case TCPOPT_MSS:
			if (olen != TCPOLEN_MSS)
				return -EINVAL;
			rx->mss = get_unaligned_be16(opt + i + 2);
			if (rx->mss + (ipv4 ? 40 : 60) < (ipv4 ? 576 : 1280))
				return -EINVAL;
			rx->has_mss = true;
			break;
		case TCPOPT_WINDOW:
			if (olen != TCPOLEN_WINDOW)
				return -EINVAL;
			rx->wscale = opt[i + 2];
			rx->has_wscale = true;
			break;
		}
		i += olen;
	}
	return 0;
}

/**
 * irdma_cm_tcp_parse - read a segment the ILQ received
 * @buf: the receive buffer
 * @len: the bytes the engine wrote to it
 * @ipv4: the completion says the packet is IPv4
 * @rx: returns the segment; @rx->payload points into @buf
 *
 * Return: 0, or -EINVAL for a buffer that holds no whole IP and TCP
 * header of the kind announced, or for bad TCP options.
 */
int irdma_cm_tcp_parse(const u8 *buf, u32 len, bool ipv4,
		       struct irdma_cm_rx *rx)
{
	const struct tcphdr *th = (const struct tcphdr *)(buf + IRDMA_CM_TCP_OFFSET);
	u32 thlen;

	memset(rx, 0, sizeof(*rx));
	if (len < IRDMA_CM_TCP_OFFSET + sizeof(*th))
		return -EINVAL;
	rx->ipv4 = ipv4;
	if (ipv4) {
		const struct iphdr *iph = (const void *)(buf + IRDMA_CM_IPV4_OFFSET);

		if (iph->version != 4 || iph->ihl != 5 || iph->protocol != IPPROTO_TCP)
			return -EINVAL;
		irdma_addr_ntoh(&rx->local_ip[3], &iph->daddr, 1);
		irdma_addr_ntoh(&rx->remote_ip[3], &iph->saddr, 1);
		rx->tos = iph->tos;
	} else {
		const struct ipv6hdr *ip6h = (const void *)buf;

		if (ip6h->version != 6 || ip6h->nexthdr != IPPROTO_TCP)
			return -EINVAL;
		irdma_addr_ntoh(rx->local_ip, ip6h->daddr.s6_addr32, 4);
		irdma_addr_ntoh(rx->remote_ip, ip6h->saddr.s6_addr32, 4);
		rx->tos = ipv6_get_dsfield(ip6h);
	}

	thlen = th->doff * 4;
	if (thlen < sizeof(*th) || IRDMA_CM_TCP_OFFSET + thlen > len)
		return -EINVAL;
	rx->local_port = ntohs(th->dest);
	rx->remote_port = ntohs(th->source);
	rx->seq = ntohl(th->seq);
	rx->ack = ntohl(th->ack_seq);
	rx->flags = tcp_flag_byte(th);
	rx->window = ntohs(th->window);
	rx->payload = buf + IRDMA_CM_TCP_OFFSET + thlen;
	rx->payload_len = len - IRDMA_CM_TCP_OFFSET - thlen;
	return irdma_cm_tcp_options((const u8 *)(th + 1), thlen - sizeof(*th),
				    ipv4, rx);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_tcp_parse);
