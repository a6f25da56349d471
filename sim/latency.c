// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How fast the engine answers. A driver gives the device a budget for
 * each answer it busy-waits for (Debian's irdma: about 10 ms for a CQP
 * command polled through CQPTAIL or CCQPSTATUS), so the simulator keeps a
 * record of its own response times, per kind of answer, as a histogram
 * with power-of-two microsecond buckets:
 *
 *   cqp_create   CCQPLOW written -> CCQPSTATUS set (the CQP's creation)
 *   cqp_destroy  CCQPLOW zeroed  -> CCQPSTATUS cleared
 *   cqp_cmd      CQPDB written   -> the WQE's CCQ completion and CQPTAIL
 *   ccq_event    a CCQ completion written, the CCQ armed -> its CEQE
 *                posted (silicon: at once)
 *
 * The start of a response is the doorbell's trap when the doorbell is
 * trapped (doorbell.c), the exact moment of the store. Otherwise it is the
 * engine's last look at the register that found nothing new, so a polled
 * answer is measured from no later than the store: the record may
 * overstate, never understate. Everything here is NMI-safe (atomics and
 * the fast clock): the trap's fast path records from #DB context.
 */
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/preempt.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>

#include "sim.h"

static const char *const isim_lat_names[ISIM_LAT_KINDS] = {
	[ISIM_LAT_CQP_CREATE] = "cqp_create",
	[ISIM_LAT_CQP_DESTROY] = "cqp_destroy",
	[ISIM_LAT_CQP_CMD] = "cqp_cmd",
	[ISIM_LAT_CCQ_EVENT] = "ccq_event",
};

/**
 * isim_lat_now - the clock response times are measured with
 *
 * Return: monotonic nanoseconds, readable in any context.
 */
u64 isim_lat_now(void)
{
	return ktime_get_mono_fast_ns();
}
EXPORT_SYMBOL_IF_KUNIT(isim_lat_now);

static unsigned int isim_lat_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	/* Bucket 0 is under 1 us, bucket b is [2^(b-1), 2^b) us. */
	return min_t(unsigned int, us ? fls64(us) : 0, ISIM_LAT_BUCKETS - 1);
}

/*
 * Keep a slow answer for the record's reader: what it was, where it was
 * answered and how much of its time passed before the engine took it up
 * (a thread's wake-up) rather than in the answer itself.
 */
static void isim_lat_keep_slow(struct isim_dev *sdev, enum isim_lat_kind kind,
			       u64 ns, u64 pick_ns, u32 what, bool trapped)
{
	unsigned int n = atomic_fetch_inc(&sdev->lat_slow_next);

	sdev->lat_slow[n % ISIM_LAT_SLOW_KEEP] = (struct isim_lat_slow) {
		.kind = kind,
		.what = what,
		.trap = in_nmi(),
		.untrapped = !trapped,
		.us = min_t(u64, div_u64(ns, NSEC_PER_USEC), U32_MAX),
		.pick_us = min_t(u64, div_u64(pick_ns, NSEC_PER_USEC), U32_MAX),
	};
}

/**
 * isim_lat_record - count one answer
 * @sdev: the simulated function
 * @kind: what was answered
 * @since: when the driver's write was made (or last known not made)
 * @picked: when the engine took it up, or 0 if that is not told apart
 * @what: what was answered (a CQP opcode), kept for the slowest answer
 *	and for every answer over a millisecond
 * @trapped: the driver's write was trapped, not found by looking
 */
void isim_lat_record(struct isim_dev *sdev, enum isim_lat_kind kind, u64 since,
		     u64 picked, u32 what, bool trapped)
{
	struct isim_lat_hist *h = &sdev->lat[kind];
	u64 now = isim_lat_now();
	u64 ns = now > since ? now - since : 0;
	s64 old;

	atomic64_inc(&h->bucket[isim_lat_bucket(ns)]);
	atomic64_add(ns, &h->sum_ns);
	old = atomic64_read(&h->max_ns);
	while ((u64)old < ns) {
		if (atomic64_try_cmpxchg(&h->max_ns, &old, ns)) {
			atomic_set(&h->max_what, what);
			break;
		}
	}
	if (ns >= NSEC_PER_MSEC)
		isim_lat_keep_slow(sdev, kind, ns, picked > since ? picked - since : 0,
				   what, trapped);
}

/**
 * isim_lat_reset - forget the record
 * @sdev: the simulated function
 */
void isim_lat_reset(struct isim_dev *sdev)
{
	int k, b;

	for (k = 0; k < ISIM_LAT_KINDS; k++) {
		struct isim_lat_hist *h = &sdev->lat[k];

		for (b = 0; b < ISIM_LAT_BUCKETS; b++)
			atomic64_set(&h->bucket[b], 0);
		atomic64_set(&h->sum_ns, 0);
		atomic64_set(&h->max_ns, 0);
		atomic_set(&h->max_what, 0);
	}
	atomic_set(&sdev->lat_slow_next, 0);
}

/* The upper bound, in us, of the bucket holding the answer at @permille. */
static u64 isim_lat_quantile(const u64 *counts, u64 total, unsigned int permille)
{
	u64 want = DIV_ROUND_UP_ULL(total * permille, 1000), seen = 0;
	unsigned int b;

	for (b = 0; b < ISIM_LAT_BUCKETS; b++) {
		seen += counts[b];
		if (seen >= want)
			return 1ULL << b;
	}
	return U64_MAX;
}

static void isim_lat_show_slow(struct seq_file *m, struct isim_dev *sdev)
{
	unsigned int n = atomic_read(&sdev->lat_slow_next), i;

	for (i = n > ISIM_LAT_SLOW_KEEP ? n - ISIM_LAT_SLOW_KEEP : 0; i < n; i++) {
		const struct isim_lat_slow *s = &sdev->lat_slow[i % ISIM_LAT_SLOW_KEEP];

		seq_printf(m, "slow %s %#x us %u taken_up_after_us %u by %s%s\n",
			   isim_lat_names[s->kind], s->what, s->us, s->pick_us,
			   s->trap ? "trap" : "thread",
			   s->untrapped ? ", found by looking, untrapped" : "");
	}
}

/**
 * isim_lat_show - print the record (debugfs "latency")
 * @m: the file
 * @sdev: the simulated function
 *
 * One line per kind: count, mean, quantiles as bucket bounds, maximum
 * (and what it answered), answers over 1 ms and from 4.096 ms on; then
 * the nonzero buckets; then the latest answers over 1 ms, one a line.
 */
void isim_lat_show(struct seq_file *m, struct isim_dev *sdev)
{
	int k, b;

	for (k = 0; k < ISIM_LAT_KINDS; k++) {
		struct isim_lat_hist *h = &sdev->lat[k];
		u64 counts[ISIM_LAT_BUCKETS], total = 0, over1 = 0, over5 = 0;

		for (b = 0; b < ISIM_LAT_BUCKETS; b++) {
			counts[b] = atomic64_read(&h->bucket[b]);
			total += counts[b];
			/* Buckets from [1024, 2048) us up are over 1 ms. */
			if (b >= 11)
				over1 += counts[b];
			/* From [4096, 8192) us: over 4 ms; 5 ms is told by max. */
			if (b >= 13)
				over5 += counts[b];
		}
		seq_printf(m, "%s count %llu mean_us %llu p50_us<%llu p99_us<%llu p999_us<%llu max_us %llu (%#x) over_1ms %llu over_4ms %llu\n",
			   isim_lat_names[k], total,
			   total ? div64_u64(atomic64_read(&h->sum_ns), total * NSEC_PER_USEC) : 0,
			   isim_lat_quantile(counts, total, 500),
			   isim_lat_quantile(counts, total, 990),
			   isim_lat_quantile(counts, total, 999),
			   div_u64(atomic64_read(&h->max_ns), NSEC_PER_USEC),
			   atomic_read(&h->max_what), over1, over5);
		for (b = 0; b < ISIM_LAT_BUCKETS; b++)
			if (counts[b])
				seq_printf(m, "  %s <%lluus %llu\n", isim_lat_names[k],
					   1ULL << b, counts[b]);
	}
	isim_lat_show_slow(m, sdev);
}
