// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How often the machine the VMs run on takes a CPU away from a thread
 * that never gives it up: one spinning thread per CPU, each reading the
 * monotonic clock as fast as it can for a few seconds; any gap between
 * two reads is time its CPU spent elsewhere (interrupts, other tasks, or
 * a hypervisor below this machine running something else).
 *
 * Everything a guest does runs on such threads (QEMU's vCPUs), so no
 * answer the simulator gives inside a VM can be faster than the host
 * lets it be: an answer that straddles a gap of over 1 ms takes over
 * 1 ms. The numbers are printed, never judged; scripts/test prints them
 * before the VM tests, on an otherwise idle host.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_US	1000LL
#define NS_PER_MS	1000000LL
#define NS_PER_S	1000000000LL

struct cpu_gaps {
	int cpu;
	long long run_ns;	/* how long the thread spun */
	long long over_100us, over_1ms, over_5ms;
	long long lost_100us_ns, lost_1ms_ns;	/* time inside those gaps */
	long long longest_ns;
};

static long long spin_ns;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * NS_PER_S + t.tv_nsec;
}

static void *spin(void *arg)
{
	struct cpu_gaps *g = arg;
	long long start, prev, now, gap;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(g->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return NULL;
	start = now_ns();
	prev = start;
	do {
		now = now_ns();
		gap = now - prev;
		prev = now;
		if (gap > g->longest_ns)
			g->longest_ns = gap;
		if (gap <= 100 * NS_PER_US)
			continue;
		g->over_100us++;
		g->lost_100us_ns += gap;
		if (gap <= NS_PER_MS)
			continue;
		g->over_1ms++;
		g->lost_1ms_ns += gap;
		if (gap > 5 * NS_PER_MS)
			g->over_5ms++;
	} while (now - start < spin_ns);
	g->run_ns = now - start;
	return NULL;
}

/**
 * main - spin on every CPU and print the gaps each one saw
 * @argc: argument count
 * @argv: how many seconds to spin (default 10)
 *
 * Return: 0, 1 if the threads could not be started, 2 on a bad argument.
 */
int main(int argc, char **argv)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct cpu_gaps *gaps;
	pthread_t *threads;
	int i, seconds;

	seconds = argc > 1 ? atoi(argv[1]) : 10;
	if (seconds <= 0 || ncpus <= 0) {
		fprintf(stderr, "usage: cpu-gaps [SECONDS]\n");
		return 2;
	}
	spin_ns = seconds * NS_PER_S;
	gaps = calloc(ncpus, sizeof(*gaps));
	threads = calloc(ncpus, sizeof(*threads));
	if (!gaps || !threads)
		return 1;
	for (i = 0; i < ncpus; i++) {
		gaps[i].cpu = i;
		if (pthread_create(&threads[i], NULL, spin, &gaps[i]))
			return 1;
	}
	for (i = 0; i < ncpus; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < ncpus; i++) {
		struct cpu_gaps *g = &gaps[i];

		if (!g->run_ns) {
			printf("cpu %d: could not run there\n", g->cpu);
			continue;
		}
		printf("cpu %d: %d s spinning; lost it over 100 us %lld times (%.3f %% of time), ",
		       g->cpu, seconds, g->over_100us, 100.0 * g->lost_100us_ns / g->run_ns);
		printf("over 1 ms %lld times (%.3f %%), over 5 ms %lld times; longest %lld us\n",
		       g->over_1ms, 100.0 * g->lost_1ms_ns / g->run_ns, g->over_5ms,
		       g->longest_ns / NS_PER_US);
	}
	free(threads);
	free(gaps);
	return 0;
}
