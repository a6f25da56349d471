// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One iWARP connection while the connection manager owns it: the
 * software TCP that opens it (three-way handshake), the MPA exchange on
 * top, and the closes that can happen before the QP takes the stream over
 * (a rejection, a FIN, a reset, retransmissions run out).
 *
 * A node is a state machine over what the ILQ received (struct
 * irdma_cm_rx, cm_tcp.c) and what its owner asks (connect, accept,
 * reject, close). It sends through its owner (irdma_cm_node_ops.xmit),
 * tells it what happened (.event), and keeps one segment to retransmit,
 * with upstream's timing: first after 1 s, the wait doubling up to 12 s,
 * 32 times, then the connection is given up. Locking, references and the
 * timer's clock are the owner's: every call here is made under the
 * owner's lock for the node.
 *
 * As upstream's software TCP: segments are checked against the numbers
 * (everything sent must be acknowledged, and the sequence number fall in
 * the receive window) or dropped without an answer; no out-of-order
 * queue, each payload taken as one whole MPA frame; a SYN or SYN-ACK
 * window is scaled as the others.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <net/tcp.h>

#include "cm.h"

#define IRDMA_CM_RETRANS		32
#define IRDMA_CM_RETRANS_FIRST		HZ
#define IRDMA_CM_RETRANS_MAX		(12 * HZ)
#define IRDMA_CM_TIME_WAIT_LEN		(HZ / 10)

/* @a - @b as a signed distance in sequence space. */
static s32 irdma_cm_seq_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

static void irdma_cm_event(struct irdma_cm_node *n, enum irdma_cm_event ev)
{
	n->ops->event(n, ev);
}

/* A segment from the node's numbers; a SYN carries the options. */
static int irdma_cm_send(struct irdma_cm_node *n, u8 flags,
			 const u8 *payload, u32 len)
{
	struct irdma_cm_seg s = {
		.local_port = n->local_port,
		.remote_port = n->remote_port,
		.seq = n->snd_nxt,
		.ack = n->rcv_nxt,
		.flags = flags,
		.window = n->rcv_wnd,
		.mss = n->mss,
		.wscale = n->rcv_wscale,
		.payload = payload,
		.payload_len = len,
	};

	return n->ops->xmit(n, &s);
}

/*
 * Send a segment that must be acknowledged, and keep it for
 * retransmission (it replaces any kept before). The sequence number
 * moves past it.
 */
static int irdma_cm_send_kept(struct irdma_cm_node *n, u8 flags,
			      const u8 *payload, u32 len, unsigned long now)
{
	struct irdma_cm_rexmit *r = &n->rexmit;
	int err;

	r->flags = flags;
	r->seq = n->snd_nxt;
	r->len = len;
	if (len)
		memcpy(r->payload, payload, len);
	r->left = IRDMA_CM_RETRANS;
	r->due = now + IRDMA_CM_RETRANS_FIRST;
	r->armed = true;
	n->ack_rcvd = false;
	err = irdma_cm_send(n, flags, payload, len);
	n->snd_nxt += len + !!(flags & TCPHDR_SYN) + !!(flags & TCPHDR_FIN);
	return err;
}

static void irdma_cm_stop_rexmit(struct irdma_cm_node *n)
{
	n->rexmit.armed = false;
}

/* A reset: sent once, at the next sequence number, acknowledging all. */
static void irdma_cm_send_rst(struct irdma_cm_node *n)
{
	irdma_cm_send(n, TCPHDR_RST | TCPHDR_ACK, NULL, 0);
}

/* The connection is over: @ev tells the owner, who frees the node. */
static void irdma_cm_end(struct irdma_cm_node *n, enum irdma_cm_event ev)
{
	irdma_cm_stop_rexmit(n);
	n->time_wait = false;
	n->state = IRDMA_CM_CLOSED;
	irdma_cm_event(n, ev);
}

/* What the peer's SYN or SYN-ACK says of its MSS, scale and window. */
static void irdma_cm_take_options(struct irdma_cm_node *n,
				  const struct irdma_cm_rx *rx)
{
	if (rx->flags & TCPHDR_SYN) {
		n->mss = rx->has_mss ? min(n->mss, rx->mss) : IRDMA_CM_DEFAULT_MSS;
		n->snd_wscale = rx->has_wscale ? rx->wscale : 0;
	}
	n->snd_wnd = (u32)rx->window << n->snd_wscale;
	n->max_snd_wnd = max(n->max_snd_wnd, n->snd_wnd);
}

/*
 * Everything sent is acknowledged, and the segment starts inside the
 * receive window: else it is dropped, unanswered.
 */
static bool irdma_cm_seq_ok(const struct irdma_cm_node *n,
			    const struct irdma_cm_rx *rx)
{
	s32 off = irdma_cm_seq_diff(rx->seq, n->rcv_nxt);

	return rx->ack == n->snd_nxt && off >= 0 && off <= n->rcv_wnd;
}

/**
 * irdma_cm_node_init - a node, nothing sent or received yet
 * @n: the node
 * @ops: its owner's hooks
 * @cfg: its numbers and addresses
 */
void irdma_cm_node_init(struct irdma_cm_node *n,
			const struct irdma_cm_node_ops *ops,
			const struct irdma_cm_node_cfg *cfg)
{
	memset(n, 0, sizeof(*n));
	n->ops = ops;
	n->state = IRDMA_CM_IDLE;
	n->local_port = cfg->local_port;
	n->remote_port = cfg->remote_port;
	n->snd_nxt = cfg->isn;
	n->mss = cfg->mss;
	n->rcv_wscale = cfg->rcv_wscale;
	n->rcv_wnd = cfg->rcv_wnd;
	n->mpa = cfg->mpa;
	n->ird = cfg->ird;
	n->ord = cfg->ord;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_init);

/*
 * The MPA request this side sends: the node's frame, at the revision the
 * node is at (a peer that reset a revision 2 request gets revision 1).
 */
static u32 irdma_cm_build_request(struct irdma_cm_node *n, u8 *buf)
{
	struct irdma_mpa_frame f = n->mpa;

	f.request = true;
	f.reject = false;
	f.ird = n->ird;
	f.ord = n->ord;
	return irdma_mpa_build(buf, &f);
}

/**
 * irdma_cm_node_connect - the active open: the SYN
 * @n: a node in %IRDMA_CM_IDLE, its MPA request in its configuration
 * @now: the time, in jiffies
 *
 * Return: 0, or -EINVAL for a node that is not idle.
 */
int irdma_cm_node_connect(struct irdma_cm_node *n, unsigned long now)
{
	if (n->state != IRDMA_CM_IDLE)
		return -EINVAL;
	n->active = true;
	n->state = IRDMA_CM_SYN_SENT;
	return irdma_cm_send_kept(n, TCPHDR_SYN, NULL, 0, now);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_connect);

/**
 * irdma_cm_node_syn - the passive open: a listener's SYN, taken
 * @n: a node in %IRDMA_CM_IDLE, made for the SYN
 * @rx: the SYN
 *
 * The SYN-ACK goes once the connection's address handle and steering
 * exist (irdma_cm_node_synack()).
 *
 * Return: 0, or -EINVAL for a node that is not idle or a segment that is
 * not a SYN.
 */
int irdma_cm_node_syn(struct irdma_cm_node *n, const struct irdma_cm_rx *rx)
{
	if (n->state != IRDMA_CM_IDLE ||
	    (rx->flags & (TCPHDR_SYN | TCPHDR_ACK | TCPHDR_RST | TCPHDR_FIN)) != TCPHDR_SYN)
		return -EINVAL;
	irdma_cm_take_options(n, rx);
	n->rcv_nxt = rx->seq + 1;
	n->state = IRDMA_CM_SYN_RCVD;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_syn);

/**
 * irdma_cm_node_synack - send the passive side's SYN-ACK
 * @n: a node in %IRDMA_CM_SYN_RCVD that has sent none
 * @now: the time, in jiffies
 *
 * Return: 0, or -EINVAL in another state or when one was sent.
 */
int irdma_cm_node_synack(struct irdma_cm_node *n, unsigned long now)
{
	if (n->state != IRDMA_CM_SYN_RCVD || n->rexmit.armed)
		return -EINVAL;
	return irdma_cm_send_kept(n, TCPHDR_SYN | TCPHDR_ACK, NULL, 0, now);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_synack);

/* The active side's SYN-ACK: the handshake done, the MPA request goes. */
static void irdma_cm_rx_synack(struct irdma_cm_node *n,
			       const struct irdma_cm_rx *rx, unsigned long now)
{
	u8 req[IRDMA_MPA_MAX_FRAME];
	u32 len;

	if (n->state == IRDMA_CM_MPAREQ_RCVD) {
		irdma_cm_send_rst(n);
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		return;
	}
	if (n->state != IRDMA_CM_SYN_SENT)
		return;
	if (rx->ack != n->snd_nxt) {
		irdma_cm_send_rst(n);
		irdma_cm_end(n, IRDMA_CM_EV_ABORTED);
		return;
	}
	irdma_cm_stop_rexmit(n);
	irdma_cm_take_options(n, rx);
	n->rcv_nxt = rx->seq + 1;
	irdma_cm_send(n, TCPHDR_ACK, NULL, 0);
	len = irdma_cm_build_request(n, req);
	n->state = IRDMA_CM_MPAREQ_SENT;
	irdma_cm_send_kept(n, TCPHDR_ACK, req, len, now);
}

/* The peer's MPA reply, to our request. */
static void irdma_cm_rx_reply(struct irdma_cm_node *n,
			      const struct irdma_cm_rx *rx)
{
	struct irdma_mpa_frame f;

	if (irdma_mpa_parse(rx->payload, rx->payload_len, false, n->mpa.rev, &f) ||
	    (!f.reject && f.rev == 2 &&
	     irdma_mpa_negotiate(&f, true, &n->ird, &n->ord, &n->rtr))) {
		irdma_cm_send_rst(n);
		irdma_cm_end(n, IRDMA_CM_EV_ABORTED);
		return;
	}
	irdma_cm_stop_rexmit(n);
	irdma_cm_send(n, TCPHDR_ACK, NULL, 0);
	n->peer = f;
	if (f.reject) {
		n->state = IRDMA_CM_MPAREJ_RCVD;
		irdma_cm_event(n, IRDMA_CM_EV_REJECTED);
	} else {
		n->state = IRDMA_CM_OFFLOADED;
		irdma_cm_event(n, IRDMA_CM_EV_CONNECTED);
	}
}

/* The initiator's MPA request, on the passive side. */
static void irdma_cm_rx_request(struct irdma_cm_node *n,
				const struct irdma_cm_rx *rx)
{
	struct irdma_mpa_frame f;

	if (irdma_mpa_parse(rx->payload, rx->payload_len, true, 2, &f) ||
	    (f.rev == 2 && irdma_mpa_negotiate(&f, false, &n->ird, &n->ord, &n->rtr))) {
		irdma_cm_send_rst(n);
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		return;
	}
	irdma_cm_send(n, TCPHDR_ACK, NULL, 0);
	n->peer = f;
	n->state = IRDMA_CM_MPAREQ_RCVD;
	irdma_cm_event(n, IRDMA_CM_EV_MPA_REQUEST);
}

/*
 * An acknowledgment, and what it carries. Return: -EINVAL when the
 * numbers are off (the segment, a FIN too, is dropped).
 */
static int irdma_cm_rx_ack(struct irdma_cm_node *n,
			   const struct irdma_cm_rx *rx)
{
	if (!irdma_cm_seq_ok(n, rx))
		return -EINVAL;

	/* Data is taken where an MPA frame is awaited, and only there. */
	switch (n->state) {
	case IRDMA_CM_SYN_RCVD:
		irdma_cm_stop_rexmit(n);
		irdma_cm_take_options(n, rx);
		n->state = IRDMA_CM_ESTABLISHED;
		fallthrough;
	case IRDMA_CM_ESTABLISHED:
		if (rx->payload_len) {
			n->rcv_nxt = rx->seq + rx->payload_len;
			irdma_cm_rx_request(n, rx);
		}
		break;
	case IRDMA_CM_MPAREQ_SENT:
		if (rx->payload_len) {
			n->rcv_nxt = rx->seq + rx->payload_len;
			irdma_cm_rx_reply(n, rx);
		} else {
			n->ack_rcvd = true;
		}
		break;
	case IRDMA_CM_FIN_WAIT1:
		irdma_cm_stop_rexmit(n);
		n->state = IRDMA_CM_FIN_WAIT2;
		break;
	case IRDMA_CM_CLOSING:
	case IRDMA_CM_LAST_ACK:
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		break;
	default:
		break;
	}
	return 0;
}

/* The peer closes: a FIN taken in order. */
static void irdma_cm_rx_fin(struct irdma_cm_node *n, unsigned long now)
{
	switch (n->state) {
	case IRDMA_CM_SYN_RCVD:
	case IRDMA_CM_ESTABLISHED:
	case IRDMA_CM_MPAREJ_RCVD:
		n->rcv_nxt++;
		n->state = IRDMA_CM_LAST_ACK;
		irdma_cm_send_kept(n, TCPHDR_FIN | TCPHDR_ACK, NULL, 0, now);
		break;
	case IRDMA_CM_MPAREQ_SENT:
		n->rcv_nxt++;
		irdma_cm_send_rst(n);
		irdma_cm_end(n, IRDMA_CM_EV_ABORTED);
		break;
	case IRDMA_CM_FIN_WAIT1:
		/* Both closing: our FIN not yet acknowledged. */
		n->rcv_nxt++;
		n->state = IRDMA_CM_CLOSING;
		irdma_cm_send(n, TCPHDR_ACK, NULL, 0);
		break;
	case IRDMA_CM_FIN_WAIT2:
		n->rcv_nxt++;
		irdma_cm_send(n, TCPHDR_ACK, NULL, 0);
		n->state = IRDMA_CM_TIME_WAIT;
		n->time_wait = true;
		n->time_wait_due = now + IRDMA_CM_TIME_WAIT_LEN;
		break;
	case IRDMA_CM_TIME_WAIT:
		n->rcv_nxt++;
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		break;
	default:
		break;
	}
}

/* A reset from the peer: never checked against the numbers. */
static void irdma_cm_rx_rst(struct irdma_cm_node *n, unsigned long now)
{
	switch (n->state) {
	case IRDMA_CM_SYN_SENT:
	case IRDMA_CM_MPAREQ_SENT:
		if (n->mpa.rev == 2) {
			/* A peer of revision 1 only: again, with that. */
			n->mpa.rev = 1;
			n->state = IRDMA_CM_SYN_SENT;
			irdma_cm_send_kept(n, TCPHDR_SYN, NULL, 0, now);
			break;
		}
		irdma_cm_end(n, IRDMA_CM_EV_ABORTED);
		break;
	case IRDMA_CM_MPAREQ_RCVD:
		/* The consumer decides still: accept then fails. */
		n->peer_reset = true;
		break;
	case IRDMA_CM_SYN_RCVD:
	case IRDMA_CM_ESTABLISHED:
	case IRDMA_CM_FIN_WAIT1:
	case IRDMA_CM_FIN_WAIT2:
	case IRDMA_CM_LAST_ACK:
	case IRDMA_CM_TIME_WAIT:
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		break;
	default:
		break;
	}
}

/**
 * irdma_cm_node_rx - a segment of the node's connection, from the ILQ
 * @n: the node
 * @rx: the segment
 * @now: the time, in jiffies
 */
void irdma_cm_node_rx(struct irdma_cm_node *n, const struct irdma_cm_rx *rx,
		      unsigned long now)
{
	u8 flags = rx->flags;

	if (n->state == IRDMA_CM_OFFLOADED || n->state == IRDMA_CM_CLOSED ||
	    n->state == IRDMA_CM_IDLE)
		return;
	if (flags & TCPHDR_RST) {
		irdma_cm_rx_rst(n, now);
	} else if ((flags & (TCPHDR_SYN | TCPHDR_ACK)) == TCPHDR_SYN) {
		/* A SYN where a connection is being opened from here. */
		if (n->state == IRDMA_CM_SYN_SENT || n->state == IRDMA_CM_MPAREQ_SENT) {
			irdma_cm_send_rst(n);
			irdma_cm_end(n, IRDMA_CM_EV_ABORTED);
		}
	} else if (flags & TCPHDR_SYN) {
		irdma_cm_rx_synack(n, rx, now);
	} else if (flags & TCPHDR_ACK) {
		if (!irdma_cm_rx_ack(n, rx) && (flags & TCPHDR_FIN) &&
		    n->state != IRDMA_CM_CLOSED)
			irdma_cm_rx_fin(n, now);
	} else if ((flags & TCPHDR_FIN) && irdma_cm_seq_ok(n, rx)) {
		irdma_cm_rx_fin(n, now);
	}
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_rx);

/**
 * irdma_cm_node_accept - the consumer accepts the peer's MPA request
 * @n: a node in %IRDMA_CM_MPAREQ_RCVD
 *
 * The QP takes the connection over (its MPA reply goes from there).
 *
 * Return: 0; -ECONNRESET when the peer reset the connection meanwhile
 * (the node is then closed); -EINVAL in another state.
 */
int irdma_cm_node_accept(struct irdma_cm_node *n)
{
	if (n->state != IRDMA_CM_MPAREQ_RCVD)
		return -EINVAL;
	if (n->peer_reset) {
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		return -ECONNRESET;
	}
	n->state = IRDMA_CM_OFFLOADED;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_accept);

/**
 * irdma_cm_node_reject - the consumer rejects the peer's MPA request
 * @n: a node in %IRDMA_CM_MPAREQ_RCVD
 * @pdata: private data for the peer
 * @len: its length
 * @now: the time, in jiffies
 *
 * The reply with the reject flag goes with a FIN; the node closes.
 *
 * Return: 0; -EINVAL in another state, or for private data too long.
 */
int irdma_cm_node_reject(struct irdma_cm_node *n, const void *pdata, u16 len,
			 unsigned long now)
{
	struct irdma_mpa_frame f = n->mpa;
	u8 rep[IRDMA_MPA_MAX_FRAME];
	u32 flen;

	if (n->state != IRDMA_CM_MPAREQ_RCVD || len > IRDMA_MPA_MAX_PDATA -
	    (n->peer.rev == 2 ? IRDMA_MPA_V2_CTRL_LEN : 0))
		return -EINVAL;
	if (n->peer_reset) {
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		return 0;
	}
	f.request = false;
	f.reject = true;
	f.rev = n->peer.rev;
	f.ird = n->ird;
	f.ord = n->ord;
	f.pdata = pdata;
	f.pdata_len = len;
	flen = irdma_mpa_build(rep, &f);
	n->state = IRDMA_CM_FIN_WAIT1;
	return irdma_cm_send_kept(n, TCPHDR_ACK | TCPHDR_FIN, rep, flen, now);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_reject);

/* The owner lets go: a reset to the peer if it knows of us, then @ev. */
static void irdma_cm_node_give_up(struct irdma_cm_node *n, enum irdma_cm_event ev)
{
	if (n->state == IRDMA_CM_CLOSED)
		return;
	if (n->state != IRDMA_CM_IDLE)
		irdma_cm_send_rst(n);
	irdma_cm_end(n, ev);
}

/**
 * irdma_cm_node_reset - the owner ends a connection it has not handed over:
 *	a reset goes to the peer, the node closes (%IRDMA_CM_EV_GONE)
 * @n: the node
 */
void irdma_cm_node_reset(struct irdma_cm_node *n)
{
	irdma_cm_node_give_up(n, IRDMA_CM_EV_GONE);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_reset);

/**
 * irdma_cm_node_abort - the owner gives up on a connection still opening:
 *	a reset goes to the peer, and an active node reports the open failed
 *	(%IRDMA_CM_EV_ABORTED; a passive one closes, %IRDMA_CM_EV_GONE)
 * @n: the node
 */
void irdma_cm_node_abort(struct irdma_cm_node *n)
{
	irdma_cm_node_give_up(n, n->active ? IRDMA_CM_EV_ABORTED : IRDMA_CM_EV_GONE);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_abort);

/* Retransmissions ran out. */
static void irdma_cm_expired(struct irdma_cm_node *n)
{
	switch (n->state) {
	case IRDMA_CM_SYN_RCVD:
	case IRDMA_CM_CLOSING:
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		break;
	case IRDMA_CM_FIN_WAIT1:
	case IRDMA_CM_LAST_ACK:
		irdma_cm_send_rst(n);
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		break;
	default:
		irdma_cm_send_rst(n);
		irdma_cm_end(n, IRDMA_CM_EV_ABORTED);
		break;
	}
}

/**
 * irdma_cm_node_tick - the node's timers: retransmission, TIME_WAIT's end
 * @n: the node
 * @now: the time, in jiffies
 *
 * Return: true if a timer is still running (irdma_cm_node_next_due()).
 */
bool irdma_cm_node_tick(struct irdma_cm_node *n, unsigned long now)
{
	struct irdma_cm_rexmit *r = &n->rexmit;

	if (n->time_wait && time_after_eq(now, n->time_wait_due)) {
		irdma_cm_end(n, IRDMA_CM_EV_GONE);
		return false;
	}
	if (r->armed && time_after_eq(now, r->due)) {
		if (!r->left) {
			irdma_cm_expired(n);
			return false;
		}
		/* A request acknowledged waits for its reply, unsent. */
		if (!n->ack_rcvd) {
			u32 nxt = n->snd_nxt;

			n->snd_nxt = r->seq;
			irdma_cm_send(n, r->flags, r->payload, r->len);
			n->snd_nxt = nxt;
		}
		r->left--;
		/* 2, 4, 8, then 12 s (16 s and more capped). */
		r->due = now + min_t(unsigned long,
				     (unsigned long)IRDMA_CM_RETRANS_FIRST <<
				     min_t(unsigned int, IRDMA_CM_RETRANS - r->left, 4),
				     IRDMA_CM_RETRANS_MAX);
	}
	return r->armed || n->time_wait;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_tick);

/**
 * irdma_cm_node_next_due - when the node's next timer runs out
 * @n: the node, with a timer running (irdma_cm_node_tick())
 *
 * Return: the time, in jiffies.
 */
unsigned long irdma_cm_node_next_due(const struct irdma_cm_node *n)
{
	if (n->time_wait && (!n->rexmit.armed ||
			     time_before(n->time_wait_due, n->rexmit.due)))
		return n->time_wait_due;
	return n->rexmit.due;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_cm_node_next_due);
