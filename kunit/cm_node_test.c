// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of one connection in the connection manager's hands
 * (cm_node.c): two nodes, an active and a passive one, joined by a wire
 * that carries the segments each sends as the ILQ would hand them over
 * (built by cm_tcp.c, read back by it): the handshake, the MPA exchange,
 * a rejection and the closes after it, retransmission and its end, and
 * the segments that are dropped or reset.
 */
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <net/tcp.h>

#include "../cm.h"

#define CM_WIRE_SLOTS	8
#define CM_WIRE_BYTES	(IRDMA_CM_TCP_OFFSET + 60 + IRDMA_MPA_MAX_FRAME)
#define CM_EVENTS	4

/* What one side sent, not yet delivered, and what it was told. */
struct cm_side {
	struct irdma_cm_node node;
	u8 buf[CM_WIRE_SLOTS][CM_WIRE_BYTES];
	u32 len[CM_WIRE_SLOTS];
	unsigned int queued;
	unsigned int sent;
	u8 last_flags;
	u32 last_seq;
	enum irdma_cm_event ev[CM_EVENTS];
	unsigned int events;
	char pdata[IRDMA_MPA_MAX_PDATA + 1];
};

/* Into the side's queue, with the IPv4 header the ILQ's buffer has. */
static int cm_test_xmit(struct irdma_cm_node *n, const struct irdma_cm_seg *s)
{
	struct cm_side *side = n->priv;
	struct iphdr *iph;
	u8 *buf;

	side->sent++;
	side->last_flags = s->flags;
	side->last_seq = s->seq;
	if (side->queued == CM_WIRE_SLOTS)
		return -ENOSPC;
	buf = side->buf[side->queued];
	memset(buf, 0, IRDMA_CM_TCP_OFFSET);
	iph = (struct iphdr *)(buf + IRDMA_CM_IPV4_OFFSET);
	iph->version = 4;
	iph->ihl = 5;
	iph->protocol = IPPROTO_TCP;
	side->len[side->queued++] = IRDMA_CM_TCP_OFFSET +
		irdma_cm_tcp_build(buf + IRDMA_CM_TCP_OFFSET, s);
	return 0;
}

/* Events in order; a request's or reply's private data kept as text. */
static void cm_test_event(struct irdma_cm_node *n, enum irdma_cm_event ev)
{
	struct cm_side *side = n->priv;

	if (side->events < CM_EVENTS)
		side->ev[side->events++] = ev;
	if (ev == IRDMA_CM_EV_MPA_REQUEST || ev == IRDMA_CM_EV_CONNECTED ||
	    ev == IRDMA_CM_EV_REJECTED) {
		memcpy(side->pdata, n->peer.pdata, n->peer.pdata_len);
		side->pdata[n->peer.pdata_len] = 0;
	}
}

static const struct irdma_cm_node_ops cm_test_ops = {
	.xmit = cm_test_xmit,
	.event = cm_test_event,
};

struct cm_pair {
	struct cm_side a;	/* active, port 33000 */
	struct cm_side p;	/* passive, port 20000 */
	unsigned long now;
};

static void cm_test_init(struct cm_side *side, bool active, const char *pdata)
{
	struct irdma_cm_node_cfg cfg = {
		.local_port = active ? 33000 : 20000,
		.remote_port = active ? 20000 : 33000,
		.isn = active ? 0xfffffff0 : 0x1000,
		.mss = active ? 1460 : 960,
		.rcv_wnd = 0xffff,
		.rcv_wscale = 2,
		.mpa = { .rev = 2, .crc = true, .peer_to_peer = true,
			 .rtr = IRDMA_RTR_READ | IRDMA_RTR_WRITE },
		.ird = 8,
		.ord = 8,
	};

	memset(side, 0, sizeof(*side));
	if (pdata) {
		cfg.mpa.pdata = (const u8 *)pdata;
		cfg.mpa.pdata_len = strlen(pdata);
	}
	irdma_cm_node_init(&side->node, &cm_test_ops, &cfg);
	side->node.priv = side;
}

static struct cm_pair *cm_test_pair(struct kunit *test, const char *pdata)
{
	struct cm_pair *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	cm_test_init(&w->a, true, pdata);
	cm_test_init(&w->p, false, NULL);
	w->now = 1000;
	return w;
}

/* The segments @from queued, read as the ILQ would hand them to @to. */
static unsigned int cm_test_deliver(struct kunit *test, struct cm_side *from,
				    struct cm_side *to, unsigned long now)
{
	unsigned int i, n = from->queued;
	struct irdma_cm_rx rx;

	from->queued = 0;
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, irdma_cm_tcp_parse(from->buf[i], from->len[i],
							 true, &rx), 0);
		if (to->node.state == IRDMA_CM_IDLE) {
			/* The listener's part: a node for the SYN, its SYN-ACK. */
			KUNIT_ASSERT_EQ(test, irdma_cm_node_syn(&to->node, &rx), 0);
			KUNIT_ASSERT_EQ(test, irdma_cm_node_synack(&to->node, now), 0);
			continue;
		}
		irdma_cm_node_rx(&to->node, &rx, now);
	}
	return n;
}

/* Back and forth until nothing is in flight. */
static void cm_test_run(struct kunit *test, struct cm_pair *w)
{
	int rounds = 0;

	while (w->a.queued || w->p.queued) {
		cm_test_deliver(test, &w->a, &w->p, w->now);
		cm_test_deliver(test, &w->p, &w->a, w->now);
		KUNIT_ASSERT_LT(test, ++rounds, 10);
	}
}

/* The active open given up: a reset sent, the consumer told, closed. */
static void cm_test_expect_aborted(struct kunit *test, struct cm_side *side)
{
	KUNIT_EXPECT_EQ(test, side->last_flags, TCPHDR_RST | TCPHDR_ACK);
	KUNIT_EXPECT_EQ(test, side->node.state, IRDMA_CM_CLOSED);
	KUNIT_ASSERT_EQ(test, side->events, 1);
	KUNIT_EXPECT_EQ(test, side->ev[0], IRDMA_CM_EV_ABORTED);
}

/* The passive side's QP sends its MPA reply (the node no longer sends). */
static void cm_test_qp_reply(struct kunit *test, struct cm_pair *w,
			     const char *pdata)
{
	struct irdma_mpa_frame f = {
		.rev = 2, .crc = true, .peer_to_peer = true,
		.ird = w->p.node.ird, .ord = w->p.node.ord, .rtr = w->p.node.rtr,
		.pdata = (const u8 *)pdata, .pdata_len = strlen(pdata),
	};
	u8 frame[IRDMA_MPA_MAX_FRAME];
	struct irdma_cm_seg s = {
		.local_port = 20000, .remote_port = 33000,
		.seq = w->p.node.snd_nxt, .ack = w->p.node.rcv_nxt,
		.flags = TCPHDR_ACK, .window = 0xffff, .payload = frame,
	};

	s.payload_len = irdma_mpa_build(frame, &f);
	KUNIT_ASSERT_EQ(test, cm_test_xmit(&w->p.node, &s), 0);
}

/*
 * An active open, accepted: SYN (with the options), SYN-ACK, ACK and the
 * MPA request; the request's private data to the passive side, which
 * accepts; the reply from its QP connects the active one. Both sides'
 * numbers agree, the MSS is the smaller, IRD/ORD and the RTR settled.
 */
static void irdma_cm_node_accept_test(struct kunit *test)
{
	struct cm_pair *w = cm_test_pair(test, "hello");

	KUNIT_ASSERT_EQ(test, irdma_cm_node_connect(&w->a.node, w->now), 0);
	KUNIT_EXPECT_EQ(test, w->a.last_flags, TCPHDR_SYN);
	KUNIT_EXPECT_EQ(test, w->a.node.state, IRDMA_CM_SYN_SENT);
	cm_test_run(test, w);

	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_MPAREQ_RCVD);
	KUNIT_ASSERT_EQ(test, w->p.events, 1);
	KUNIT_EXPECT_EQ(test, w->p.ev[0], IRDMA_CM_EV_MPA_REQUEST);
	KUNIT_EXPECT_STREQ(test, w->p.pdata, "hello");
	KUNIT_EXPECT_EQ(test, w->p.node.peer.rev, 2);
	KUNIT_EXPECT_EQ(test, w->a.node.state, IRDMA_CM_MPAREQ_SENT);
	/* SYN, ACK, request; SYN-ACK, ACK of the request. */
	KUNIT_EXPECT_EQ(test, w->a.sent, 3);
	KUNIT_EXPECT_EQ(test, w->p.sent, 2);
	KUNIT_EXPECT_TRUE(test, w->a.node.ack_rcvd);
	KUNIT_EXPECT_EQ(test, w->a.node.mss, 960);
	KUNIT_EXPECT_EQ(test, w->p.node.mss, 960);
	/* Windows scaled by the peer's shift: 0xffff << 2. */
	KUNIT_EXPECT_EQ(test, w->a.node.snd_wnd, 0x3fffc);
	KUNIT_EXPECT_EQ(test, w->p.node.snd_wnd, 0x3fffc);
	KUNIT_EXPECT_EQ(test, w->a.node.max_snd_wnd, 0x3fffc);
	KUNIT_EXPECT_EQ(test, w->a.node.snd_nxt, w->p.node.rcv_nxt);
	KUNIT_EXPECT_EQ(test, w->p.node.snd_nxt, w->a.node.rcv_nxt);
	/* The ISN wrapped: SYN 0xfffffff0, then the request from ...f1. */
	KUNIT_EXPECT_EQ(test, w->p.node.rcv_nxt, 0xfffffff1 + IRDMA_MPA_HDR_LEN +
			IRDMA_MPA_V2_CTRL_LEN + 5);

	KUNIT_ASSERT_EQ(test, irdma_cm_node_accept(&w->p.node), 0);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_OFFLOADED);
	cm_test_qp_reply(test, w, "welcome");
	cm_test_run(test, w);

	KUNIT_EXPECT_EQ(test, w->a.node.state, IRDMA_CM_OFFLOADED);
	KUNIT_ASSERT_EQ(test, w->a.events, 1);
	KUNIT_EXPECT_EQ(test, w->a.ev[0], IRDMA_CM_EV_CONNECTED);
	KUNIT_EXPECT_STREQ(test, w->a.pdata, "welcome");
	KUNIT_EXPECT_FALSE(test, w->a.node.rexmit.armed);
	KUNIT_EXPECT_EQ(test, w->a.node.ird, 8);
	KUNIT_EXPECT_EQ(test, w->a.node.ord, 8);
	KUNIT_EXPECT_NE(test, w->a.node.rtr, 0);
	/* Nothing more goes from an offloaded node. */
	KUNIT_EXPECT_FALSE(test, irdma_cm_node_tick(&w->a.node, w->now + 100 * HZ));
	KUNIT_EXPECT_EQ(test, w->a.queued, 0);
}

/*
 * A rejection with private data: the reply with R goes with a FIN; the
 * active side is told, answers the FIN with its own, and both close:
 * the passive one through FIN_WAIT1, FIN_WAIT2 and TIME_WAIT (100 ms),
 * the active one through LAST_ACK. Nobody is told of the close.
 */
static void irdma_cm_node_reject_test(struct kunit *test)
{
	struct cm_pair *w = cm_test_pair(test, "hello");

	KUNIT_ASSERT_EQ(test, irdma_cm_node_connect(&w->a.node, w->now), 0);
	cm_test_run(test, w);
	KUNIT_ASSERT_EQ(test, w->p.node.state, IRDMA_CM_MPAREQ_RCVD);

	KUNIT_ASSERT_EQ(test, irdma_cm_node_reject(&w->p.node, "busy", 4, w->now), 0);
	KUNIT_EXPECT_EQ(test, w->p.last_flags, TCPHDR_ACK | TCPHDR_FIN);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_FIN_WAIT1);
	cm_test_run(test, w);

	KUNIT_ASSERT_EQ(test, w->a.events, 2);
	KUNIT_EXPECT_EQ(test, w->a.ev[0], IRDMA_CM_EV_REJECTED);
	KUNIT_EXPECT_STREQ(test, w->a.pdata, "busy");
	KUNIT_EXPECT_TRUE(test, w->a.node.peer.reject);
	KUNIT_EXPECT_EQ(test, w->a.ev[1], IRDMA_CM_EV_GONE);
	KUNIT_EXPECT_EQ(test, w->a.node.state, IRDMA_CM_CLOSED);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_TIME_WAIT);
	KUNIT_ASSERT_TRUE(test, irdma_cm_node_tick(&w->p.node, w->now + HZ / 20));
	KUNIT_EXPECT_EQ(test, irdma_cm_node_next_due(&w->p.node), w->now + HZ / 10);
	KUNIT_EXPECT_FALSE(test, irdma_cm_node_tick(&w->p.node, w->now + HZ / 10));
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_CLOSED);
	KUNIT_ASSERT_EQ(test, w->p.events, 2);
	KUNIT_EXPECT_EQ(test, w->p.ev[1], IRDMA_CM_EV_GONE);
	/* Nothing is decided twice. */
	KUNIT_EXPECT_EQ(test, irdma_cm_node_reject(&w->p.node, w->p.pdata, 10, w->now),
			-EINVAL);
}

/*
 * A SYN nobody answers: sent again after 1, 2, 4 and 8 s, then every
 * 12 s, 32 times, the same segment each time; then a reset and the
 * consumer is told, 363 s after the first.
 */
static void irdma_cm_node_retrans_test(struct kunit *test)
{
	static const unsigned int first[] = { 1, 2, 4, 8, 12, 12 };
	struct cm_pair *w = cm_test_pair(test, NULL);
	unsigned long t = w->now, start = w->now;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, irdma_cm_node_connect(&w->a.node, t), 0);
	for (i = 0; i < 32; i++) {
		unsigned long due = irdma_cm_node_next_due(&w->a.node);

		if (i < ARRAY_SIZE(first))
			KUNIT_EXPECT_EQ(test, due - t, first[i] * HZ);
		/* Not a jiffy early. */
		irdma_cm_node_tick(&w->a.node, due - 1);
		KUNIT_EXPECT_EQ(test, w->a.sent, i + 1);
		t = due;
		KUNIT_ASSERT_TRUE(test, irdma_cm_node_tick(&w->a.node, t));
		KUNIT_EXPECT_EQ(test, w->a.last_flags, TCPHDR_SYN);
		KUNIT_EXPECT_EQ(test, w->a.last_seq, 0xfffffff0);
		w->a.queued = 0;
	}
	KUNIT_EXPECT_EQ(test, w->a.sent, 33);
	t = irdma_cm_node_next_due(&w->a.node);
	KUNIT_EXPECT_EQ(test, t - start, 363 * HZ);
	KUNIT_EXPECT_FALSE(test, irdma_cm_node_tick(&w->a.node, t));
	cm_test_expect_aborted(test, &w->a);
}

/*
 * A peer that resets a revision 2 request is tried again with revision
 * 1 (a new SYN, then a request of revision 1); a second reset gives up.
 */
static void irdma_cm_node_rev1_fallback_test(struct kunit *test)
{
	struct cm_pair *w = cm_test_pair(test, "x");
	struct irdma_cm_rx rx = {
		.ipv4 = true, .local_port = 33000, .remote_port = 20000,
		.flags = TCPHDR_RST,
	};

	KUNIT_ASSERT_EQ(test, irdma_cm_node_connect(&w->a.node, w->now), 0);
	cm_test_run(test, w);
	KUNIT_ASSERT_EQ(test, w->a.node.state, IRDMA_CM_MPAREQ_SENT);

	irdma_cm_node_rx(&w->a.node, &rx, w->now);
	KUNIT_EXPECT_EQ(test, w->a.node.state, IRDMA_CM_SYN_SENT);
	KUNIT_EXPECT_EQ(test, w->a.node.mpa.rev, 1);
	KUNIT_EXPECT_EQ(test, w->a.last_flags, TCPHDR_SYN);
	KUNIT_EXPECT_EQ(test, w->a.events, 0);

	irdma_cm_node_rx(&w->a.node, &rx, w->now);
	KUNIT_EXPECT_EQ(test, w->a.node.state, IRDMA_CM_CLOSED);
	KUNIT_ASSERT_EQ(test, w->a.events, 1);
	KUNIT_EXPECT_EQ(test, w->a.ev[0], IRDMA_CM_EV_ABORTED);
}

/*
 * Segments whose numbers are off are dropped unanswered: an ACK that
 * does not acknowledge the SYN-ACK, one from outside the window. A
 * SYN-ACK acknowledging something never sent resets the active open.
 */
static void irdma_cm_node_bad_numbers_test(struct kunit *test)
{
	struct cm_pair *w = cm_test_pair(test, NULL);
	struct irdma_cm_rx rx = {
		.ipv4 = true, .local_port = 20000, .remote_port = 33000,
		.flags = TCPHDR_SYN, .seq = 77, .window = 100,
	};
	unsigned int sent;

	KUNIT_ASSERT_EQ(test, irdma_cm_node_syn(&w->p.node, &rx), 0);
	KUNIT_ASSERT_EQ(test, irdma_cm_node_synack(&w->p.node, w->now), 0);
	sent = w->p.sent;
	rx.flags = TCPHDR_ACK;
	rx.seq = 78;
	rx.ack = w->p.node.snd_nxt + 1;
	irdma_cm_node_rx(&w->p.node, &rx, w->now);
	rx.ack = w->p.node.snd_nxt;
	rx.seq = 78 + 0x10000;
	irdma_cm_node_rx(&w->p.node, &rx, w->now);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_SYN_RCVD);
	KUNIT_EXPECT_EQ(test, w->p.sent, sent);
	/* The right numbers complete the handshake. */
	rx.seq = 78;
	irdma_cm_node_rx(&w->p.node, &rx, w->now);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_ESTABLISHED);
	KUNIT_EXPECT_FALSE(test, w->p.node.rexmit.armed);

	KUNIT_ASSERT_EQ(test, irdma_cm_node_connect(&w->a.node, w->now), 0);
	rx = (struct irdma_cm_rx){
		.ipv4 = true, .local_port = 33000, .remote_port = 20000,
		.flags = TCPHDR_SYN | TCPHDR_ACK, .seq = 5, .ack = 0x1234,
	};
	irdma_cm_node_rx(&w->a.node, &rx, w->now);
	cm_test_expect_aborted(test, &w->a);
}

/*
 * A peer that resets while the consumer decides: the node waits for the
 * decision (data meanwhile is not taken), and an accept then fails with
 * -ECONNRESET. A malformed MPA request is answered with a reset.
 */
static void irdma_cm_node_reset_while_deciding_test(struct kunit *test)
{
	struct cm_pair *w = cm_test_pair(test, "hi");
	struct irdma_cm_rx rx = {
		.ipv4 = true, .local_port = 20000, .remote_port = 33000,
		.flags = TCPHDR_RST,
	};
	struct irdma_cm_rx data = {
		.ipv4 = true, .local_port = 20000, .remote_port = 33000,
		.flags = TCPHDR_ACK, .payload = (const u8 *)"x", .payload_len = 1,
	};

	KUNIT_ASSERT_EQ(test, irdma_cm_node_connect(&w->a.node, w->now), 0);
	cm_test_run(test, w);
	KUNIT_ASSERT_EQ(test, w->p.node.state, IRDMA_CM_MPAREQ_RCVD);
	/* Data while the consumer decides is not taken. */
	data.seq = w->p.node.rcv_nxt;
	data.ack = w->p.node.snd_nxt;
	irdma_cm_node_rx(&w->p.node, &data, w->now);
	KUNIT_EXPECT_EQ(test, w->p.node.rcv_nxt, data.seq);
	KUNIT_EXPECT_EQ(test, w->p.events, 1);
	irdma_cm_node_rx(&w->p.node, &rx, w->now);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_MPAREQ_RCVD);
	KUNIT_EXPECT_EQ(test, irdma_cm_node_accept(&w->p.node), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_CLOSED);

	/* A request that is no MPA frame. */
	cm_test_init(&w->p, false, NULL);
	rx = (struct irdma_cm_rx){
		.ipv4 = true, .local_port = 20000, .remote_port = 33000,
		.flags = TCPHDR_SYN, .seq = 10,
	};
	KUNIT_ASSERT_EQ(test, irdma_cm_node_syn(&w->p.node, &rx), 0);
	KUNIT_ASSERT_EQ(test, irdma_cm_node_synack(&w->p.node, w->now), 0);
	rx.flags = TCPHDR_ACK;
	rx.seq = 11;
	rx.ack = w->p.node.snd_nxt;
	rx.payload = (const u8 *)"GET / HTTP/1.0\r\n\r\n";
	rx.payload_len = 18;
	irdma_cm_node_rx(&w->p.node, &rx, w->now);
	KUNIT_EXPECT_EQ(test, w->p.last_flags, TCPHDR_RST | TCPHDR_ACK);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_CLOSED);
	KUNIT_ASSERT_EQ(test, w->p.events, 1);
	KUNIT_EXPECT_EQ(test, w->p.ev[0], IRDMA_CM_EV_GONE);
}

/*
 * The owner gives up on an open: an active node resets the peer and
 * reports the open failed; a passive one resets it and closes; a node
 * closed already sends and reports nothing more.
 */
static void irdma_cm_node_abort_test(struct kunit *test)
{
	struct cm_pair *w = cm_test_pair(test, NULL);

	KUNIT_ASSERT_EQ(test, irdma_cm_node_connect(&w->a.node, w->now), 0);
	cm_test_deliver(test, &w->a, &w->p, w->now);
	KUNIT_ASSERT_EQ(test, w->a.node.state, IRDMA_CM_SYN_SENT);
	irdma_cm_node_abort(&w->a.node);
	cm_test_expect_aborted(test, &w->a);
	irdma_cm_node_abort(&w->p.node);
	KUNIT_EXPECT_EQ(test, w->p.last_flags, TCPHDR_RST | TCPHDR_ACK);
	KUNIT_EXPECT_EQ(test, w->p.node.state, IRDMA_CM_CLOSED);
	KUNIT_ASSERT_EQ(test, w->p.events, 1);
	KUNIT_EXPECT_EQ(test, w->p.ev[0], IRDMA_CM_EV_GONE);
	irdma_cm_node_abort(&w->a.node);
	KUNIT_EXPECT_EQ(test, w->a.events, 1);
	KUNIT_EXPECT_EQ(test, w->a.sent, 2);
}

static struct kunit_case irdma_cm_node_cases[] = {
	KUNIT_CASE(irdma_cm_node_accept_test),
	KUNIT_CASE(irdma_cm_node_reject_test),
	KUNIT_CASE(irdma_cm_node_retrans_test),
	KUNIT_CASE(irdma_cm_node_rev1_fallback_test),
	KUNIT_CASE(irdma_cm_node_bad_numbers_test),
	KUNIT_CASE(irdma_cm_node_reset_while_deciding_test),
	KUNIT_CASE(irdma_cm_node_abort_test),
	{}
};

static struct kunit_suite irdma_cm_node_suite = {
	.name = "irdma_cm_node",
	.test_cases = irdma_cm_node_cases,
};

kunit_test_suite(irdma_cm_node_suite);
