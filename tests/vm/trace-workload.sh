# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours -- it runs ours (ice front-end) and stock itself, one after the other
# kernel: debian
# The same workload under Debian's stock irdma.ko and under ours (ice
# front-end), each on a fresh irdma_sim_ice, traced: every CQP command with
# its fields, every WQE the engine takes (kernel and user), every QP
# context it loads, every call into the personality's ice functions.
# tests/vm/trace-diff.c puts each phase's events in a canonical form and
# compares them; the differences the simulator's page explains
# (Documentation/infiniband/irdma_sim.rst) are listed there, and any
# other fails the test.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw ib_send_lat ib_write_bw ib_read_bw mckey rping nvme rdma ss ibv_devinfo

. "$IRDMA_REPO/tests/vm/trace-lib.sh"
ADDR=192.168.77.1
NQN=irdma-trace-nvme
modprobe configfs 2>/dev/null
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config ||
	fail "no configfs"

thp=/sys/kernel/mm/transparent_hugepage/enabled
grep -q '\[never\]' $thp && echo madvise >$thp
echo 8 >/proc/sys/vm/nr_hugepages

nvme_io() {
	local d dev

	modprobe null_blk nr_devices=1 memory_backed=1 gb=1 bs=4096 || fail "null_blk"
	nvmet_target_up $NQN $ADDR "$1"
	modprobe nvme-rdma || fail "nvme-rdma"
	# One I/O queue, no keep-alive: the same commands whatever the timing.
	timeout 120 nvme connect -t rdma -a $ADDR -s 4420 -n $NQN -i 1 -k 0 ||
		fail "nvme connect"
	for d in /sys/class/nvme/nvme*; do
		[ "$(cat "$d/subsysnqn" 2>/dev/null)" = $NQN ] && dev=$(basename "$d")n1
	done
	wait_for -t 20 test -b "/dev/$dev" || fail "no namespace"
	dd if=/dev/urandom of=/tmp/pattern bs=64k count=4 status=none
	dd if=/tmp/pattern of=/dev/$dev bs=64k oflag=direct status=none || fail "dd write"
	dd if=/dev/$dev of=/tmp/back bs=64k count=4 iflag=direct status=none || fail "dd read"
	expect_eq "256 KiB back through nvme-rdma" "$(cmp /tmp/pattern /tmp/back && echo same)" same
	nvme disconnect -n $NQN >/dev/null || fail "nvme disconnect"
	rmmod nvme_rdma nvme_fabrics || fail "unload nvme-rdma"
	nvmet_target_down $NQN
	rmmod null_blk || fail "unload null_blk"
}

# The workload, phase by phase, under the driver $IRDMA_DRIVER.
workload() {
	local PT

	phase up
	load_driver
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 ($IRDMA_DRIVER)"
	roce_up $ADDR
	PT="-d irdma0 -x $GIDX -F"
	phase rc
	pair send ib_send_bw $PT -s 4096 -n 20
	pair write ib_write_bw $PT -s 65536 -n 20
	pair read ib_read_bw $PT -s 65536 -n 20
	pair inline ib_send_lat $PT -s 64 -I 64 -n 20
	phase ud
	pair ud ib_send_bw $PT -c UD -s 1024 -n 20
	phase rping
	timeout 120 rping -s -a $ADDR -V -C 5 -S 100 >/tmp/srv.rping 2>&1 &
	listening
	timeout 120 rping -c -a $ADDR -V -C 5 -S 100 >/tmp/cli.rping 2>&1 ||
		{ cat /tmp/*.rping; fail "rping client"; }
	wait $! || fail "rping server"
	phase nvme
	nvme_io 0
	# The target asks for SRQs; the E810 has none, and it falls back.
	phase nvme-srq
	nvme_io 1
	phase mckey
	timeout 60 stdbuf -oL mckey -m 239.1.2.4 -b $ADDR -C 5 >/tmp/srv.mckey 2>&1 &
	wait_for -t 20 grep -q 'receiving data' /tmp/srv.mckey ||
		{ cat /tmp/srv.mckey; fail "mckey receiver"; }
	timeout 60 mckey -m 239.1.2.4 -b $ADDR -s -C 5 >/tmp/cli.mckey 2>&1 ||
		{ cat /tmp/*.mckey; fail "mckey sender"; }
	wait $! || { cat /tmp/*.mckey; fail "mckey receiver"; }
	phase mr-huge
	"$TOOLS"/mr-huge irdma0 "$GIDX" hugetlb 2 || fail "an MR on hugetlb pages"
	phase mw
	"$TOOLS"/mw-bind irdma0 "$GIDX" || fail "a type 1 memory window"
	phase verbs
	"$TOOLS"/verbs-paths irdma0 "$GIDX" || fail "resize, flush, multicast"
	phase counters
	cat /sys/class/infiniband/irdma0/ports/1/hw_counters/* >/dev/null
	rdma statistic show link irdma0/1 >/dev/null || fail "rdma statistic"
	phase down
	ip addr del $ADDR/24 dev "$SIM_NETDEV"
	cq_ack_check
	unload_driver
}

record() {
	modprobe -a ib_core ib_uverbs || fail "ib_core"
	load_sim nr_devices=0
	load_sim_ice
	trace_start
	IRDMA_DRIVER=$1 SIM_FN=irdma_sim32 SIM_NETDEV=simeth32
	workload
	trace_stop "$1" "$OUT/$1.raw"
	# Unloading the simulator empties the buffer of its events.
	rmmod irdma_sim_ice && unload_sim
}

for d in stock ours-ice; do record $d; done
trace_compare "$OUT/stock.raw" "$OUT/ours-ice.raw" RoCE
echo "PASS: the stock driver's and ours' traces of the RoCE workload agree"
