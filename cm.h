/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * iWARP's connection manager: what its parts share. The MPA exchange
 * (RFC 5044, with RFC 6581's enhanced connection setup) is in cm_mpa.c.
 */
#ifndef IRDMA_CM_H
#define IRDMA_CM_H

#include <linux/bits.h>
#include <linux/types.h>

/* The MPA request and reply: a 20-byte header, then the private data. */
#define IRDMA_MPA_KEY_LEN		16
#define IRDMA_MPA_KEY_REQ		"MPA ID Req Frame"
#define IRDMA_MPA_KEY_REP		"MPA ID Rep Frame"
#define IRDMA_MPA_HDR_LEN		20
#define IRDMA_MPA_MAX_PDATA		512
/* The longest segment payload taken as one frame (upstream's too). */
#define IRDMA_MPA_MAX_FRAME		544

#define IRDMA_MPA_FLAG_MARKERS		0x80
#define IRDMA_MPA_FLAG_CRC		0x40
#define IRDMA_MPA_FLAG_REJECT		0x20
#define IRDMA_MPA_FLAG_ENHANCED		0x10	/* with revision 2 */

/*
 * Revision 2's enhanced connection header, the first 4 bytes of the
 * private data (counted in its length): IRD and ORD in 14 bits each, the
 * rest of each 16-bit word flags.
 */
#define IRDMA_MPA_V2_CTRL_LEN		4
#define IRDMA_MPA_V2_IRD_ORD		GENMASK(13, 0)
#define IRDMA_MPA_V2_NO_IRD_ORD		0x3fff	/* "no value" */
#define IRDMA_MPA_V2_PEER_TO_PEER	BIT(15)	/* IRD word */
#define IRDMA_MPA_V2_RTR_SEND		BIT(14)	/* IRD word */
#define IRDMA_MPA_V2_RTR_WRITE		BIT(15)	/* ORD word */
#define IRDMA_MPA_V2_RTR_READ		BIT(14)	/* ORD word */

/* The ready-to-receive messages, as the ORD word's bits name them. */
#define IRDMA_RTR_WRITE			BIT(0)
#define IRDMA_RTR_READ			BIT(1)

/**
 * struct irdma_mpa_frame - an MPA request or reply, as built or parsed
 * @request: a request (else a reply)
 * @reject: a reply that rejects the connection
 * @rev: MPA revision, 1 or 2
 * @markers: the sender asks for markers in what it receives
 * @crc: the sender asks for CRCs
 * @peer_to_peer: revision 2: the peer-to-peer mode is asked for
 * @no_ird_ord: revision 2: the sender gave no IRD and ORD
 * @ird: revision 2: the sender's IRD (0 to 0x3ffe)
 * @ord: revision 2: the sender's ORD
 * @rtr: revision 2: the RTR messages offered (a request) or chosen (a
 *	reply), %IRDMA_RTR_READ and %IRDMA_RTR_WRITE
 * @rtr_send: revision 2: a zero-length send is offered as RTR
 * @pdata: the consumer's private data (after the enhanced header)
 * @pdata_len: its length, up to %IRDMA_MPA_MAX_PDATA (less the enhanced
 *	header's 4 bytes for revision 2)
 */
struct irdma_mpa_frame {
	bool request;
	bool reject;
	u8 rev;
	bool markers;
	bool crc;
	bool peer_to_peer;
	bool no_ird_ord;
	u16 ird;
	u16 ord;
	u8 rtr;
	bool rtr_send;
	const u8 *pdata;
	u16 pdata_len;
};

u32 irdma_mpa_build(u8 *buf, const struct irdma_mpa_frame *f);
int irdma_mpa_parse(const u8 *buf, u32 len, bool request, u8 max_rev,
		    struct irdma_mpa_frame *f);
int irdma_mpa_negotiate(const struct irdma_mpa_frame *peer, bool initiator,
			u16 *ird, u16 *ord, u8 *rtr);

/*
 * The connection manager's TCP segments. The ILQ's receive buffer holds
 * the IP header (an IPv4 one 20 bytes in, after padding) and, from byte
 * 40, the TCP header; what the CM sends starts at the TCP header, the
 * hardware putting the Ethernet and IP headers in front from the
 * connection's address handle.
 */
#define IRDMA_CM_TCP_OFFSET		40
#define IRDMA_CM_IPV4_OFFSET		20
#define IRDMA_CM_SYN_OPT_LEN		8	/* MSS, window scale, EOL */
#define IRDMA_CM_DEFAULT_MSS		536	/* a SYN that names none */

/**
 * struct irdma_cm_seg - a TCP segment the connection manager sends
 * @local_port: source port, host order
 * @remote_port: destination port
 * @seq: sequence number
 * @ack: acknowledgment number (with %TCPHDR_ACK)
 * @flags: TCP flags (TCPHDR_*)
 * @window: the window, as carried (scaled)
 * @mss: a SYN's MSS option
 * @wscale: a SYN's window scale option
 * @payload: data after the header
 * @payload_len: its length
 */
struct irdma_cm_seg {
	u16 local_port;
	u16 remote_port;
	u32 seq;
	u32 ack;
	u8 flags;
	u16 window;
	u16 mss;
	u8 wscale;
	const u8 *payload;
	u32 payload_len;
};

/**
 * struct irdma_cm_rx - a TCP segment the ILQ received, read
 * @ipv4: an IPv4 packet (addresses in word 3)
 * @local_ip: its destination address, host-order words
 * @remote_ip: its source address
 * @tos: IPv4 TOS or IPv6 traffic class
 * @local_port: destination port, host order
 * @remote_port: source port
 * @seq: sequence number
 * @ack: acknowledgment number
 * @flags: TCP flags (TCPHDR_*)
 * @window: the window field, unscaled
 * @has_mss: an MSS option came
 * @mss: its value
 * @has_wscale: a window scale option came
 * @wscale: its value
 * @payload: the data after the TCP header
 * @payload_len: its length
 */
struct irdma_cm_rx {
	bool ipv4;
	u32 local_ip[4];
	u32 remote_ip[4];
	u8 tos;
	u16 local_port;
	u16 remote_port;
	u32 seq;
	u32 ack;
	u8 flags;
	u16 window;
	bool has_mss;
	u16 mss;
	bool has_wscale;
	u8 wscale;
	const u8 *payload;
	u32 payload_len;
};

u32 irdma_cm_tcp_build(u8 *buf, const struct irdma_cm_seg *s);
int irdma_cm_tcp_parse(const u8 *buf, u32 len, bool ipv4,
		       struct irdma_cm_rx *rx);

#endif /* IRDMA_CM_H */
