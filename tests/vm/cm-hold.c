// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A listener that takes connection requests and answers none: it holds
 * them pending, then destroys itself with them still waiting.
 *
 *   cm-hold ADDR PORT BACKLOG COUNT SECONDS
 *
 * Listens on ADDR:PORT (BACKLOG as rdma_listen() takes it: 0 for the
 * largest), prints "listening", then prints "request N" for each
 * connection request, holding it (no accept, no reject) until COUNT came,
 * SECONDS passed or SIGINT came. It then destroys the listener first
 * ("listener destroyed"), waits two seconds, and destroys the requests'
 * ids, which makes iw_cm reject each (iw_cm's rule for a request never
 * answered).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_HELD 1024

/* Read after poll(), an external call: no compiler keeps it in a register. */
static sig_atomic_t stop;

static void on_sigint(int sig)
{
	stop = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/**
 * main - listen, hold the requests, destroy the listener, then them
 * @argc: argument count
 * @argv: address, port, backlog, requests to hold, seconds at most
 *
 * Return: 0 once all is done, 1 on a usage error or a failure of librdmacm.
 */
int main(int argc, char **argv)
{
	static struct rdma_cm_id *held[MAX_HELD];
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sigaction sa = { .sa_handler = on_sigint };
	int backlog, count, n = 0, i;
	double end;

	if (argc != 6) {
		fprintf(stderr, "usage: cm-hold ADDR PORT BACKLOG COUNT SECONDS\n");
		return 1;
	}
	if (inet_pton(AF_INET, argv[1], &sin.sin_addr) != 1)
		return 1;
	sin.sin_port = htons(atoi(argv[2]));
	backlog = atoi(argv[3]);
	count = atoi(argv[4]);
	if (count > MAX_HELD)
		count = MAX_HELD;
	end = now() + atof(argv[5]);

	sigaction(SIGINT, &sa, NULL);
	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &listen_id, NULL, RDMA_PS_TCP)) {
		perror("rdma_create_id");
		return 1;
	}
	if (rdma_bind_addr(listen_id, (struct sockaddr *)&sin) ||
	    rdma_listen(listen_id, backlog)) {
		perror("listen");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);

	while (n < count && now() < end && !stop) {
		struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
		struct rdma_cm_event *ev;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		if (rdma_get_cm_event(ch, &ev)) {
			perror("rdma_get_cm_event");
			return 1;
		}
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			held[n++] = ev->id;
			printf("request %d\n", n);
		} else {
			printf("event %s\n", rdma_event_str(ev->event));
		}
		fflush(stdout);
		rdma_ack_cm_event(ev);
	}

	if (rdma_destroy_id(listen_id)) {
		perror("rdma_destroy_id (listener)");
		return 1;
	}
	printf("listener destroyed\n");
	fflush(stdout);
	sleep(2);
	for (i = 0; i < n; i++)
		if (rdma_destroy_id(held[i])) {
			perror("rdma_destroy_id (request)");
			return 1;
		}
	printf("requests destroyed: %d\n", n);
	rdma_destroy_event_channel(ch);
	return 0;
}
