// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Knobs and counters in debugfs, under irdma_sim/irdma_simN/:
 *
 *   fail_cqp_op     CQP opcode whose next executions fail (-1: none)
 *   fail_cqp_count  how many of them fail (default 1)
 *   delay_cqp_op    CQP opcode to hold back (-1: none)
 *   delay_cqp_ms    for how long, each time
 *   hold_engine_ms  write N to keep the engine's threads from working for
 *                   N ms from now (at most 1000), as when the host takes
 *                   away the CPU of the one holding the engine lock (held
 *                   from another CPU than the writer's)
 *   hold_cqp_ms     write N to hold the engine lock from now on and the
 *                   CQP lock too, interrupts off, for N ms (at most 200)
 *                   from the next trapped doorbell that takes it on (the
 *                   next CQP's creation, the next command), which finds
 *                   it taken
 *   raise_ae        write "CODE [ID [SOURCE]]" to post an asynchronous event
 *   ieq_split       write "N [PIECES] [dup] [badcrc]": the next N sends or
 *                   RDMA writes of one FPDU that arrive at an offloaded
 *                   iWARP QP of the function go to its IEQ in PIECES TCP
 *                   segments (2 to 8, default 2) instead of being placed
 *                   (ieq.c); "dup" gives the IEQ the first piece twice,
 *                   "badcrc" spoils the FPDU's CRC. Reads "N PIECES DUP
 *                   BADCRC", N the messages still to come
 *   term_bad_msn    the next N TERMINATEs the function's offloaded QPs
 *                   send carry DDP message number 2 instead of 1 (a
 *                   malformed TERMINATE for the peer's driver to answer)
 *   reset           write 1 to reset the function as its LAN driver
 *                   would: unplug the RDMA function, reset, plug it back
 *   stats           what the engine did
 *   lan             what the LAN driver set up for the engine: queue sets
 *                   attached to the transmit scheduler, the RDMA filter
 *   latency         how fast it answered (latency.c); write 0 to clear
 *   event           write "mtu", "before-mtu", "tc-before", "tc-after" or
 *                   "crit OICR [CRITERR]" to send the driver ice's event
 *   qos             the port's traffic classes; write "NUM_TC UP0..UP7
 *                   BW0..BW(NUM_TC-1)" to change them as DCB does (the
 *                   driver hears before and after)
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/bitfield.h>
#include <linux/ctype.h>

#include "sim.h"

static struct dentry *isim_debugfs_root;

/* Segments programmed valid now, by type. */
static void isim_stats_sds(struct seq_file *m, struct isim_dev *sdev)
{
	u32 i, direct = 0, paged = 0;

	for (i = 0; i < ISIM_MAX_SDS; i++) {
		u64 sd = READ_ONCE(sdev->hmc.sd[i]);

		if (!(sd & IRDMA_SD_DATA_VALID))
			continue;
		if (sd & IRDMA_SD_DATA_DIRECT)
			direct++;
		else
			paged++;
	}
	seq_printf(m, "hmc_sds_direct %u\nhmc_sds_paged %u\n", direct, paged);
}

static int isim_stats_show(struct seq_file *m, void *data)
{
	struct isim_dev *sdev = m->private;

	seq_printf(m, "cqp_ops %llu\ncqp_errors %llu\nirqs %llu\ndma_faults %llu\nfaults_injected %llu\n",
		   sdev->stats.cqp_ops, sdev->stats.cqp_errors, sdev->stats.irqs,
		   sdev->stats.dma_faults, sdev->stats.faults_injected);
	seq_printf(m, "ceqes %llu\neq_faults %llu\nud_dropped %llu\ncq_overflows %llu\n",
		   sdev->stats.ceqes, sdev->stats.eq_faults, sdev->stats.ud_dropped,
		   sdev->stats.cq_overflows);
	seq_printf(m, "engine_stalls_over_1ms %llu\nengine_stall_max_us %llu\nrnr_waits %llu\n",
		   sdev->stats.stalls, div_u64(sdev->stats.stall_max_ns, NSEC_PER_USEC),
		   sdev->stats.rnr_waits);
	seq_printf(m, "tx_no_qset %llu\nrx_filtered %llu\nevents %llu\n",
		   sdev->stats.tx_no_qset, sdev->stats.rx_filtered, sdev->stats.events);
	seq_printf(m, "tcp_steered %llu\ntcp_to_lan %llu\ntcp_rx_dropped %llu\nuda_tx %llu\nuda_rx %llu\nstream_unmodelled %llu\n",
		   sdev->stats.tcp_steered, sdev->stats.tcp_to_lan,
		   sdev->stats.tcp_rx_dropped, sdev->stats.uda_tx,
		   sdev->stats.uda_rx, sdev->stats.stream_unmodelled);
	seq_printf(m, "iwarp_offloaded %llu\niwarp_lsmm %llu\niwarp_fin_tx %llu\niwarp_fin_rx %llu\niwarp_rst_tx %llu\niwarp_rst_rx %llu\niwarp_unreached %llu\n",
		   sdev->stats.iwarp_offloaded, sdev->stats.iwarp_lsmm,
		   sdev->stats.iwarp_fin_tx, sdev->stats.iwarp_fin_rx,
		   sdev->stats.iwarp_rst_tx, sdev->stats.iwarp_rst_rx,
		   sdev->stats.iwarp_unreached);
	seq_printf(m, "iwarp_term_tx %llu\niwarp_term_tx_ctrl %#010x\niwarp_term_rx %llu\niwarp_term_rx_ctrl %#010x\n",
		   sdev->stats.iwarp_term_tx, sdev->stats.iwarp_term_tx_ctrl,
		   sdev->stats.iwarp_term_rx, sdev->stats.iwarp_term_rx_ctrl);
	seq_printf(m, "ieq_split_msgs %llu\nieq_segs_tx %llu\nieq_lpb_ok %llu\nieq_lpb_bad %llu\nieq_lost %llu\ngen_ae %llu\n",
		   sdev->stats.ieq_split_msgs, sdev->stats.ieq_segs_tx,
		   sdev->stats.ieq_lpb_ok, sdev->stats.ieq_lpb_bad,
		   sdev->stats.ieq_lost, sdev->stats.gen_ae);
	seq_printf(m, "qps_suspended %llu\nqps_resumed %llu\nresets %llu\n",
		   sdev->stats.qps_suspended, sdev->stats.qps_resumed,
		   sdev->stats.resets);
	seq_printf(m, "cq_acks %lld\ncq_acks_unmatched %lld\ncq_events_held %lld\ncq_events_released %lld\ncq_events_waiting %d\ncq_ack_credit %d\n",
		   atomic64_read(&sdev->stats.cq_acks),
		   atomic64_read(&sdev->stats.cq_acks_unmatched),
		   atomic64_read(&sdev->stats.cq_events_held),
		   atomic64_read(&sdev->stats.cq_events_released),
		   bitmap_weight(sdev->cq_held, ISIM_MAX_CQS),
		   atomic_read(&sdev->cq_ack_credit));
	seq_printf(m, "doorbells_trapped %llu\ncqp_ops_in_trap %llu\ntraps_leaving_work %llu\ncqp_batches_found_by_looking %llu\nwrites_left_to_their_trap %llu\ntrap_lock_waits_over_1ms %llu\ntrapped_regs %d\ncqp_state_to_free %d\n",
		   (u64)atomic64_read(&sdev->db.traps),
		   (u64)atomic64_read(&sdev->db.fast),
		   (u64)atomic64_read(&sdev->db.left),
		   (u64)atomic64_read(&sdev->db.found),
		   (u64)atomic64_read(&sdev->db.left_by_looks),
		   (u64)atomic64_read(&sdev->db.lock_waits),
		   !!sdev->db.bp[ISIM_TRAP_CQPDB] + !!sdev->db.bp[ISIM_TRAP_CCQPLOW],
		   READ_ONCE(sdev->cqp_cleanup_due));
	seq_printf(m, "user_doorbells_watched %llu\nuser_doorbells_trapped %llu\nuser_sq_runs_in_process %llu\nuser_sq_left_to_threads %llu\n",
		   (u64)atomic64_read(&sdev->db.user_watches),
		   (u64)atomic64_read(&sdev->db.user_traps),
		   (u64)atomic64_read(&sdev->db.user_runs),
		   (u64)atomic64_read(&sdev->db.user_left));
	isim_stats_sds(m, sdev);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(isim_stats);

static int isim_lan_show(struct seq_file *m, void *data)
{
	struct isim_dev *sdev = m->private;
	struct isim_lan *lan = &sdev->lan;
	bool filter;
	int n = isim_lan_count(sdev, &filter), i;

	seq_printf(m, "qsets %d\nrdma_filter %d\n", n, filter);
	/* Each queue set: its handle, class, and its leaf's weight. */
	spin_lock(&lan->lock);
	for (i = 0; i < ISIM_MAX_QSETS; i++)
		if (lan->qset[i].teid)
			seq_printf(m, "qset %u tc %u weight %u\n",
				   lan->qset[i].qs_handle, lan->qset[i].tc,
				   lan->leaf_weight[lan->qset[i].qs_handle]);
	spin_unlock(&lan->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(isim_lan);

static int isim_latency_show(struct seq_file *m, void *data)
{
	isim_lat_show(m, m->private);
	return 0;
}

static int isim_latency_open(struct inode *inode, struct file *file)
{
	return single_open(file, isim_latency_show, inode->i_private);
}

static ssize_t isim_latency_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	unsigned int v;
	int err;

	err = kstrtouint_from_user(ubuf, count, 0, &v);
	if (err)
		return err;
	if (v)
		return -EINVAL;
	isim_lat_reset(m->private);
	return count;
}

static const struct file_operations isim_latency_fops = {
	.owner = THIS_MODULE,
	.open = isim_latency_open,
	.read = seq_read,
	.write = isim_latency_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t isim_raise_ae_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct isim_dev *sdev = file->private_data;
	unsigned int code, id = 0, source = 0;
	char buf[32];
	size_t len = min(count, sizeof(buf) - 1);

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%i %i %i", &code, &id, &source) < 1 ||
	    code > FIELD_MAX(IRDMA_AEQE_AECODE) || id >= BIT(19) ||
	    source > FIELD_MAX(IRDMA_AEQE_AESRC))
		return -EINVAL;
	isim_fault_queue_ae(sdev, code, id, source);
	return count;
}

static const struct file_operations isim_raise_ae_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_raise_ae_write,
	.llseek = noop_llseek,
};

static ssize_t isim_ieq_split_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct isim_faults *f = &((struct isim_dev *)m->private)->faults;
	unsigned int n, pieces = 2;
	bool dup = false, badcrc = false;
	char buf[48], *p = buf, *tok;
	size_t len = min(count, sizeof(buf) - 1);
	int k = 0;

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	while ((tok = strsep(&p, " \t\n"))) {
		if (!*tok)
			continue;
		if (k == 0 && !kstrtouint(tok, 0, &n))
			k++;
		else if (k == 1 && isdigit(*tok) && !kstrtouint(tok, 0, &pieces))
			k++;
		else if (k && !strcmp(tok, "dup"))
			dup = true, k = 2;
		else if (k && !strcmp(tok, "badcrc"))
			badcrc = true, k = 2;
		else
			return -EINVAL;
	}
	if (!k || n > INT_MAX || pieces < 2 || pieces > 8)
		return -EINVAL;
	WRITE_ONCE(f->ieq_pieces, pieces);
	WRITE_ONCE(f->ieq_dup, dup);
	WRITE_ONCE(f->ieq_badcrc, badcrc);
	atomic_set(&f->ieq_split, n);
	return count;
}

static int isim_ieq_split_show(struct seq_file *m, void *data)
{
	struct isim_faults *f = &((struct isim_dev *)m->private)->faults;

	seq_printf(m, "%d %u %d %d\n", atomic_read(&f->ieq_split),
		   READ_ONCE(f->ieq_pieces) ?: 2, READ_ONCE(f->ieq_dup),
		   READ_ONCE(f->ieq_badcrc));
	return 0;
}

static int isim_ieq_split_open(struct inode *inode, struct file *file)
{
	return single_open(file, isim_ieq_split_show, inode->i_private);
}

static const struct file_operations isim_ieq_split_fops = {
	.owner = THIS_MODULE,
	.open = isim_ieq_split_open,
	.read = seq_read,
	.write = isim_ieq_split_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t isim_event_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct isim_dev *sdev = file->private_data;
	char buf[48];
	size_t len = min(count, sizeof(buf) - 1);
	int err;

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	err = isim_event_parse(sdev, buf);
	return err ? err : count;
}

static const struct file_operations isim_event_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_event_write,
	.llseek = noop_llseek,
};

static int isim_qos_show(struct seq_file *m, void *data)
{
	struct irdma_sim_qos q;
	int i;

	isim_qos_get(m->private, &q);
	seq_printf(m, "num_tc %u\nup2tc", q.num_tc);
	for (i = 0; i < ARRAY_SIZE(q.up2tc); i++)
		seq_printf(m, " %u", q.up2tc[i]);
	seq_puts(m, "\nrel_bw");
	for (i = 0; i < q.num_tc; i++)
		seq_printf(m, " %u", q.rel_bw[i]);
	seq_putc(m, '\n');
	return 0;
}

static int isim_qos_open(struct inode *inode, struct file *file)
{
	return single_open(file, isim_qos_show, inode->i_private);
}

/* "NUM_TC UP0..UP7 BW0..": the classes, each priority's, each one's share. */
static ssize_t isim_qos_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct isim_dev *sdev = ((struct seq_file *)file->private_data)->private;
	struct irdma_sim_qos q = {};
	unsigned int v[2 + 8 + 8];
	char buf[96];
	size_t len = min(count, sizeof(buf) - 1);
	int n, i, err;

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	n = sscanf(buf, "%u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &v[14],
		   &v[15], &v[16]);
	if (n < 10 || !v[0] || v[0] > 8 || n != 9 + (int)v[0])
		return -EINVAL;
	q.num_tc = v[0];
	for (i = 0; i < 8; i++)
		q.up2tc[i] = min(v[1 + i], 255U);
	for (i = 0; i < q.num_tc; i++)
		q.rel_bw[i] = min(v[9 + i], 255U);
	err = isim_qos_set(sdev, &q);
	return err ? err : count;
}

static const struct file_operations isim_qos_fops = {
	.owner = THIS_MODULE,
	.open = isim_qos_open,
	.read = seq_read,
	.write = isim_qos_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t isim_reset_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct isim_dev *sdev = file->private_data;
	bool doit;
	int err;

	err = kstrtobool_from_user(ubuf, count, &doit);
	if (err)
		return err;
	if (doit)
		isim_reset_schedule(sdev);
	return count;
}

static const struct file_operations isim_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_reset_write,
	.llseek = noop_llseek,
};

/*
 * Hold the engine lock from another CPU than the writer's, from now on;
 * with @cqp the CQP lock too, from the next trap that takes it on.
 */
static ssize_t isim_hold_write(struct file *file, const char __user *ubuf,
			       size_t count, bool cqp)
{
	struct isim_dev *sdev = file->private_data;
	struct isim_faults *f = &sdev->faults;
	unsigned int cpu;
	u32 ms;
	int err;

	err = kstrtou32_from_user(ubuf, count, 0, &ms);
	if (err)
		return err;
	/* The CQP lock is held with interrupts off: less than a trap waits. */
	if (ms > (cqp ? ISIM_HOLD_CQP_MAX_MS : 1000))
		return -EINVAL;
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	/* Held on the writer's own CPU, it would keep the trap from coming. */
	if (cqp && cpu >= nr_cpu_ids)
		return -EOPNOTSUPP;
	/* One at a time: a hold under way ends first. */
	flush_work(&f->hold);
	WRITE_ONCE(f->hold_ms, ms);
	WRITE_ONCE(f->hold_go, false);
	WRITE_ONCE(f->hold_has_lock, false);
	WRITE_ONCE(f->hold_cqp, cqp);
	reinit_completion(&f->hold_taken);
	/*
	 * On another CPU than the writer's: a driver writing there next may
	 * spin in a trap with interrupts off, and keep a timer of this CPU,
	 * the hold's end, from firing.
	 */
	if (cpu < nr_cpu_ids)
		queue_work_on(cpu, system_wq, &f->hold);
	else
		queue_work(system_unbound_wq, &f->hold);
	/* The engine lock is held from now on, for whatever the writer does next. */
	wait_for_completion(&f->hold_taken);
	return count;
}

static ssize_t isim_hold_engine_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	return isim_hold_write(file, ubuf, count, false);
}

static const struct file_operations isim_hold_engine_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_hold_engine_write,
	.llseek = noop_llseek,
};

static ssize_t isim_hold_cqp_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return isim_hold_write(file, ubuf, count, true);
}

static const struct file_operations isim_hold_cqp_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = isim_hold_cqp_write,
	.llseek = noop_llseek,
};

/**
 * isim_debugfs_add - the function's knobs
 * @sdev: the simulated function
 */
void isim_debugfs_add(struct isim_dev *sdev)
{
	struct isim_faults *f = &sdev->faults;
	struct dentry *dir;

	dir = debugfs_create_dir(dev_name(&sdev->dev), isim_debugfs_root);
	debugfs_create_u32("fail_cqp_op", 0600, dir, (u32 *)&f->fail_op);
	debugfs_create_u32("fail_cqp_count", 0600, dir, &f->fail_count);
	debugfs_create_u32("delay_cqp_op", 0600, dir, (u32 *)&f->delay_op);
	debugfs_create_u32("delay_cqp_ms", 0600, dir, &f->delay_ms);
	debugfs_create_file("raise_ae", 0200, dir, sdev, &isim_raise_ae_fops);
	debugfs_create_file("ieq_split", 0600, dir, sdev, &isim_ieq_split_fops);
	debugfs_create_atomic_t("term_bad_msn", 0600, dir, &f->term_bad_msn);
	debugfs_create_file("reset", 0200, dir, sdev, &isim_reset_fops);
	debugfs_create_file("hold_engine_ms", 0200, dir, sdev, &isim_hold_engine_fops);
	debugfs_create_file("hold_cqp_ms", 0200, dir, sdev, &isim_hold_cqp_fops);
	debugfs_create_file("stats", 0400, dir, sdev, &isim_stats_fops);
	debugfs_create_file("lan", 0400, dir, sdev, &isim_lan_fops);
	debugfs_create_file("latency", 0600, dir, sdev, &isim_latency_fops);
	debugfs_create_file("event", 0200, dir, sdev, &isim_event_fops);
	debugfs_create_file("qos", 0600, dir, sdev, &isim_qos_fops);
	sdev->debugfs = dir;
}

/**
 * isim_debugfs_del - remove the function's knobs
 * @sdev: the simulated function
 */
void isim_debugfs_del(struct isim_dev *sdev)
{
	debugfs_remove_recursive(sdev->debugfs);
	sdev->debugfs = NULL;
}

/**
 * isim_debugfs_init - the module's debugfs directory
 */
void isim_debugfs_init(void)
{
	isim_debugfs_root = debugfs_create_dir(ISIM_DRV_NAME, NULL);
}

/**
 * isim_debugfs_exit - remove the module's debugfs directory
 */
void isim_debugfs_exit(void)
{
	debugfs_remove_recursive(isim_debugfs_root);
}
