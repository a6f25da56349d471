// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An RDMA write or read out of a peer's bounds over a connection, and
 * what each end then sees: on iWARP the end that finds the error sends a
 * TERMINATE message and the connection ends.
 *
 *   iw-term server ADDR PORT
 *   iw-term client ADDR PORT LOCAL_ADDR write|read
 *
 * The server registers a 4 KiB buffer (remote write and read), accepts
 * one connection with the buffer's address, key and length as its
 * private data, and waits. The client connects from LOCAL_ADDR and posts
 * one signaled RDMA write (or read) of 64 bytes, 32 of them past the
 * buffer's end. Each end prints, as it comes, every completion ("wc OP
 * STATUS"), its QP's asynchronous events ("qp event NAME") and its
 * rdma_cm events ("cm NAME status N"), and exits 0 once its connection is
 * DISCONNECTED and its CQ has no more completions, 1 after 30 s without
 * that or on a failure of the verbs.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BUF_LEN		4096
#define IO_LEN		64

struct peer_buf {
	unsigned long long addr;
	unsigned int rkey;
	unsigned int len;
};

struct end {
	const char *who;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;
	int disconnected;
	double quiet_at;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fcntl_nonblock(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static int die(struct end *e, const char *what)
{
	printf("%s: %s failed: %s\n", e->who, what, strerror(errno));
	fflush(stdout);
	return 1;
}

static int get_addr(const char *host, const char *port, struct sockaddr_storage *ss)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST }, *res;

	if (getaddrinfo(host, port, &hints, &res))
		return -1;
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

/* The next rdma_cm event, of type @want, or -1. */
static int expect_event(struct end *e, enum rdma_cm_event_type want,
			struct rdma_cm_event **out)
{
	struct rdma_cm_event *ev;

	if (rdma_get_cm_event(e->ch, &ev)) {
		die(e, "rdma_get_cm_event");
		return -1;
	}
	if (ev->event != want) {
		printf("%s: cm %s status %d (wanted %s)\n", e->who,
		       rdma_event_str(ev->event), ev->status, rdma_event_str(want));
		fflush(stdout);
		rdma_ack_cm_event(ev);
		return -1;
	}
	*out = ev;
	return 0;
}

static int make_qp(struct end *e, struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr attr = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	e->pd = ibv_alloc_pd(id->verbs);
	if (!e->pd)
		return die(e, "ibv_alloc_pd");
	e->cq = ibv_create_cq(id->verbs, 8, NULL, NULL, 0);
	if (!e->cq)
		return die(e, "ibv_create_cq");
	attr.send_cq = e->cq;
	attr.recv_cq = e->cq;
	if (rdma_create_qp(id, e->pd, &attr))
		return die(e, "rdma_create_qp");
	e->buf = calloc(1, BUF_LEN);
	if (!e->buf)
		return die(e, "calloc");
	e->mr = ibv_reg_mr(e->pd, e->buf, BUF_LEN, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!e->mr)
		return die(e, "ibv_reg_mr");
	/* The async fd and the CM channel are polled: neither may block. */
	if (fcntl_nonblock(id->verbs->async_fd) || fcntl_nonblock(e->ch->fd))
		return die(e, "fcntl");
	e->id = id;
	return 0;
}

/* Print what came: completions, QP events, CM events. */
static int watch(struct end *e)
{
	struct pollfd fds[2] = {
		{ .fd = e->ch->fd, .events = POLLIN },
		{ .fd = e->id->verbs->async_fd, .events = POLLIN },
	};
	double end = now() + 30;
	struct ibv_async_event aev;
	struct rdma_cm_event *ev;
	struct ibv_wc wc;
	int n;

	while (now() < end) {
		while ((n = ibv_poll_cq(e->cq, 1, &wc)) > 0) {
			printf("%s: wc %s %s\n", e->who,
			       wc.opcode == IBV_WC_RDMA_WRITE ? "RDMA_WRITE" :
			       wc.opcode == IBV_WC_RDMA_READ ? "RDMA_READ" :
			       wc.opcode == IBV_WC_RECV ? "RECV" : "other",
			       ibv_wc_status_str(wc.status));
			fflush(stdout);
		}
		if (n < 0)
			return die(e, "ibv_poll_cq");
		if (e->disconnected && now() >= e->quiet_at)
			return 0;
		if (poll(fds, 2, 100) < 0)
			return die(e, "poll");
		while (!ibv_get_async_event(e->id->verbs, &aev)) {
			printf("%s: qp event %s\n", e->who,
			       ibv_event_type_str(aev.event_type));
			fflush(stdout);
			ibv_ack_async_event(&aev);
		}
		while (!rdma_get_cm_event(e->ch, &ev)) {
			printf("%s: cm %s status %d\n", e->who,
			       rdma_event_str(ev->event), ev->status);
			fflush(stdout);
			if (ev->event == RDMA_CM_EVENT_DISCONNECTED) {
				/* What the flush completes may come after. */
				e->disconnected = 1;
				e->quiet_at = now() + 2;
			}
			rdma_ack_cm_event(ev);
		}
	}
	if (e->disconnected)
		return 0;
	printf("%s: no disconnection in 30 s\n", e->who);
	return 1;
}

static int run_server(struct end *e, const char *addr, const char *port)
{
	struct rdma_conn_param param = { .responder_resources = 1,
					  .initiator_depth = 1 };
	struct sockaddr_storage ss;
	struct rdma_cm_id *listen_id;
	struct rdma_cm_event *ev;
	struct peer_buf pb;

	if (get_addr(addr, port, &ss))
		return die(e, "getaddrinfo");
	if (rdma_create_id(e->ch, &listen_id, NULL, RDMA_PS_TCP))
		return die(e, "rdma_create_id");
	if (rdma_bind_addr(listen_id, (struct sockaddr *)&ss) || rdma_listen(listen_id, 1))
		return die(e, "rdma_listen");
	printf("server: listening\n");
	fflush(stdout);
	if (expect_event(e, RDMA_CM_EVENT_CONNECT_REQUEST, &ev))
		return 1;
	if (make_qp(e, ev->id))
		return 1;
	pb.addr = (uintptr_t)e->buf;
	pb.rkey = e->mr->rkey;
	pb.len = BUF_LEN;
	param.private_data = &pb;
	param.private_data_len = sizeof(pb);
	if (rdma_accept(e->id, &param))
		return die(e, "rdma_accept");
	rdma_ack_cm_event(ev);
	return watch(e);
}

static int run_client(struct end *e, const char *addr, const char *port,
		      const char *local, const char *mode)
{
	struct rdma_conn_param param = { .responder_resources = 1,
					  .initiator_depth = 1 };
	struct sockaddr_storage dst, src;
	struct rdma_cm_event *ev;
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_sge sge;
	struct peer_buf pb;
	struct pollfd pfd = { .events = POLLIN };
	struct rdma_cm_id *id;
	int read = !strcmp(mode, "read");

	if (get_addr(addr, port, &dst) || get_addr(local, "0", &src))
		return die(e, "getaddrinfo");
	if (rdma_create_id(e->ch, &id, NULL, RDMA_PS_TCP))
		return die(e, "rdma_create_id");
	if (rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, 2000))
		return die(e, "rdma_resolve_addr");
	if (expect_event(e, RDMA_CM_EVENT_ADDR_RESOLVED, &ev))
		return 1;
	rdma_ack_cm_event(ev);
	if (rdma_resolve_route(id, 2000))
		return die(e, "rdma_resolve_route");
	if (expect_event(e, RDMA_CM_EVENT_ROUTE_RESOLVED, &ev))
		return 1;
	rdma_ack_cm_event(ev);
	if (make_qp(e, id))
		return 1;
	/* make_qp() made the channel non-blocking: wait in rdma_connect's stead. */
	if (rdma_connect(id, &param))
		return die(e, "rdma_connect");
	pfd.fd = e->ch->fd;
	if (poll(&pfd, 1, 30000) <= 0)
		return die(e, "waiting for ESTABLISHED");
	if (expect_event(e, RDMA_CM_EVENT_ESTABLISHED, &ev))
		return 1;
	if (ev->param.conn.private_data_len < sizeof(pb)) {
		printf("client: %u bytes of private data\n", ev->param.conn.private_data_len);
		return 1;
	}
	memcpy(&pb, ev->param.conn.private_data, sizeof(pb));
	rdma_ack_cm_event(ev);
	printf("client: connected, %s of %d bytes at %u of the peer's %u\n",
	       read ? "read" : "write", IO_LEN, pb.len - IO_LEN / 2, pb.len);
	fflush(stdout);

	sge.addr = (uintptr_t)e->buf;
	sge.length = IO_LEN;
	sge.lkey = e->mr->lkey;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = pb.addr + pb.len - IO_LEN / 2;
	wr.wr.rdma.rkey = pb.rkey;
	if (ibv_post_send(e->id->qp, &wr, &bad))
		return die(e, "ibv_post_send");
	return watch(e);
}

/**
 * main - one end of the connection
 * @argc: argument count
 * @argv: server ADDR PORT, or client ADDR PORT LOCAL_ADDR write|read
 *
 * Return: 0 once the connection ended and was watched to its end, 1 else.
 */
int main(int argc, char **argv)
{
	struct end e = {};

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "server")) {
		e.who = "server";
	} else if (argc == 6 && !strcmp(argv[1], "client") &&
		   (!strcmp(argv[5], "write") || !strcmp(argv[5], "read"))) {
		e.who = "client";
	} else {
		fprintf(stderr, "usage: iw-term server ADDR PORT\n"
			"       iw-term client ADDR PORT LOCAL write|read\n");
		return 1;
	}
	e.ch = rdma_create_event_channel();
	if (!e.ch)
		return die(&e, "rdma_create_event_channel");
	if (argc == 4)
		return run_server(&e, argv[2], argv[3]);
	return run_client(&e, argv[2], argv[3], argv[4], argv[5]);
}
