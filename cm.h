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
/* The MPA reply's region: its private data and this much more (stock's). */
#define IRDMA_MPA_REPLY_ROOM		32

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

/* A connection without a VLAN. */
#define IRDMA_CM_NO_VLAN		0xffff

struct irdma_cm;
struct irdma_qp;
struct irdma_qp *irdma_cm_ieq_qp(struct irdma_cm *cm, const struct irdma_cm_rx *rx,
				 u16 vlan);

/*
 * One connection while the connection manager owns it (cm_node.c): the
 * states of its software TCP and of the MPA exchange on top.
 */
enum irdma_cm_state {
	IRDMA_CM_IDLE,		/* made: nothing sent or taken yet */
	IRDMA_CM_SYN_SENT,
	IRDMA_CM_SYN_RCVD,
	IRDMA_CM_ESTABLISHED,	/* passive: the MPA request awaited */
	IRDMA_CM_MPAREQ_SENT,
	IRDMA_CM_MPAREQ_RCVD,	/* passive: the consumer decides */
	IRDMA_CM_MPAREJ_RCVD,	/* active: rejected, the peer's FIN awaited */
	IRDMA_CM_OFFLOADED,	/* the QP has the connection */
	IRDMA_CM_FIN_WAIT1,
	IRDMA_CM_FIN_WAIT2,
	IRDMA_CM_TIME_WAIT,
	IRDMA_CM_LAST_ACK,
	IRDMA_CM_CLOSING,
	IRDMA_CM_CLOSED,
};

/* What a node tells its owner. */
enum irdma_cm_event {
	IRDMA_CM_EV_MPA_REQUEST,	/* passive: the peer's request came */
	IRDMA_CM_EV_CONNECTED,		/* active: the peer accepted */
	IRDMA_CM_EV_REJECTED,		/* active: the peer rejected */
	IRDMA_CM_EV_ABORTED,		/* active: the open failed; closed */
	IRDMA_CM_EV_GONE,		/* closed, nobody to tell */
};

struct irdma_cm_node;

/**
 * struct irdma_cm_node_ops - a node's owner
 * @xmit: send a segment (through the ILQ); a failed send is retransmitted
 *	as a lost one would be
 * @event: what happened; after %IRDMA_CM_EV_ABORTED and %IRDMA_CM_EV_GONE
 *	the node is closed and its owner's to free
 */
struct irdma_cm_node_ops {
	int (*xmit)(struct irdma_cm_node *n, const struct irdma_cm_seg *s);
	void (*event)(struct irdma_cm_node *n, enum irdma_cm_event ev);
};

/**
 * struct irdma_cm_node_cfg - a node's numbers, when it is made
 * @local_port: this side's port
 * @remote_port: the peer's
 * @isn: the initial sequence number
 * @mss: the MSS offered (the MTU less the IP and TCP headers)
 * @rcv_wnd: the receive window, as carried (unscaled)
 * @rcv_wscale: the window scale offered
 * @mpa: the MPA revision offered (2, or 1), the flags and, for an active
 *	node, the request's private data
 * @ird: this side's IRD
 * @ord: this side's ORD
 */
struct irdma_cm_node_cfg {
	u16 local_port;
	u16 remote_port;
	u32 isn;
	u16 mss;
	u16 rcv_wnd;
	u8 rcv_wscale;
	struct irdma_mpa_frame mpa;
	u16 ird;
	u16 ord;
};

/**
 * struct irdma_cm_rexmit - the one segment a node keeps to retransmit
 * @armed: there is one
 * @flags: its flags
 * @seq: its sequence number
 * @len: its payload's length
 * @left: retransmissions left
 * @due: when the next one goes, in jiffies
 * @payload: its payload (an MPA frame)
 */
struct irdma_cm_rexmit {
	bool armed;
	u8 flags;
	u32 seq;
	u16 len;
	u8 left;
	unsigned long due;
	u8 payload[IRDMA_MPA_MAX_FRAME];
};

/**
 * struct irdma_cm_node - one connection in the connection manager's hands
 * @ops: its owner
 * @state: where it is
 * @active: this side opened it
 * @local_port: this side's port
 * @remote_port: the peer's
 * @snd_nxt: the next sequence number to send
 * @rcv_nxt: the next one expected
 * @snd_wnd: the peer's window, scaled
 * @max_snd_wnd: the largest it offered
 * @rcv_wnd: this side's, as carried
 * @mss: the MSS, the smaller of both sides'
 * @rcv_wscale: this side's window scale
 * @snd_wscale: the peer's
 * @ack_rcvd: the kept segment (an MPA request) was acknowledged: it waits
 *	for its answer, unsent again
 * @peer_reset: the peer reset the connection while the consumer decided
 * @time_wait: TIME_WAIT's timer runs
 * @time_wait_due: when it ends, in jiffies
 * @rexmit: the segment kept to retransmit
 * @mpa: this side's MPA offer (the revision drops to 1 for a peer of 1)
 * @peer: the peer's MPA request or reply, once taken (its private data
 *	points into the segment it came in: valid during the event only)
 * @ird: this side's IRD, negotiated
 * @ord: this side's ORD, negotiated
 * @rtr: the ready-to-receive message negotiated (%IRDMA_RTR_*)
 * @priv: the owner's
 */
struct irdma_cm_node {
	const struct irdma_cm_node_ops *ops;
	enum irdma_cm_state state;
	bool active;
	u16 local_port;
	u16 remote_port;
	u32 snd_nxt;
	u32 rcv_nxt;
	u32 snd_wnd;
	u32 max_snd_wnd;
	u16 rcv_wnd;
	u16 mss;
	u8 rcv_wscale;
	u8 snd_wscale;
	bool ack_rcvd;
	bool peer_reset;
	bool time_wait;
	unsigned long time_wait_due;
	struct irdma_cm_rexmit rexmit;
	struct irdma_mpa_frame mpa;
	struct irdma_mpa_frame peer;
	u16 ird;
	u16 ord;
	u8 rtr;
	void *priv;
};

void irdma_cm_node_init(struct irdma_cm_node *n,
			const struct irdma_cm_node_ops *ops,
			const struct irdma_cm_node_cfg *cfg);
int irdma_cm_node_connect(struct irdma_cm_node *n, unsigned long now);
int irdma_cm_node_syn(struct irdma_cm_node *n, const struct irdma_cm_rx *rx);
int irdma_cm_node_synack(struct irdma_cm_node *n, unsigned long now);
void irdma_cm_node_rx(struct irdma_cm_node *n, const struct irdma_cm_rx *rx,
		      unsigned long now);
int irdma_cm_node_accept(struct irdma_cm_node *n);
int irdma_cm_node_reject(struct irdma_cm_node *n, const void *pdata, u16 len,
			 unsigned long now);
void irdma_cm_node_reset(struct irdma_cm_node *n);
void irdma_cm_node_abort(struct irdma_cm_node *n);
bool irdma_cm_node_tick(struct irdma_cm_node *n, unsigned long now);
unsigned long irdma_cm_node_next_due(const struct irdma_cm_node *n);

#endif /* IRDMA_CM_H */
