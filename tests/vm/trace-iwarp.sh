# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours -- it runs ours (ice front-end) and stock itself, one after the other
# kernel: debian
# standins: 2
# trace-workload's comparison over iWARP: Debian's stock irdma.ko, then
# ours (ice front-end), each on a fresh irdma_sim_ice with both functions
# in iWARP mode (iwarp=1), traced (CQP commands, WQEs, QP contexts, ice
# calls): the functions brought up with their ILQ and IEQ; two hosts
# (iwarp-lib.sh) and an rping between them, its connection set up through
# the ILQs, offloaded to the QPs, moving checked data and closed; a
# connect to a port nobody listens on; the functions taken down.
# tests/vm/trace-diff.c compares the traces phase by phase (ports and
# sequence numbers, random per connection, masked); a difference the
# simulator's page does not explain fails the test.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping rdma ibv_devinfo
. "$IRDMA_REPO/tests/vm/trace-lib.sh"
. "$IRDMA_REPO/tests/vm/iwarp-lib.sh"

record() {	# DRIVER
	modprobe -a ib_core ib_uverbs rdma_ucm iw_cm || fail "cannot load the RDMA stack"
	load_sim nr_devices=0
	trace_start
	IRDMA_DRIVER=$1
	phase up
	load_sim_ice iwarp=1
	load_driver
	FN0=32 FN1=33 NET0=simeth32 NET1=simeth33
	wait_for test -n "$(rdma_dev_of $NET1)" || fail "no RDMA device on $NET1 ($1)"
	DEV0=$(rdma_dev_of $NET0)
	DEV1=$(rdma_dev_of $NET1)
	iwarp_hosts_net
	phase rping
	rping_run "rping from $DEV0 to $DEV1 ($1)" $PEER $ADDR
	phase refused
	timeout 60 rping -c -a $PEER -I $ADDR -p 7199 -C 1 >/tmp/cli.rp 2>&1 &&
		fail "rping to a closed port succeeded ($1)"
	grep -q 'RDMA_CM_EVENT_REJECTED' /tmp/cli.rp || { cat /tmp/cli.rp; fail "no reject ($1)"; }
	echo "ok: a closed port refuses the connection ($1)"
	phase down
	del_rules
	ip addr flush dev $NET0
	ip addr flush dev $NET1
	unload_driver
	trace_stop "$1" "$OUT/$1.raw"
	rmmod irdma_sim_ice && unload_sim
}

for d in stock ours-ice; do record $d; done
trace_compare "$OUT/stock.raw" "$OUT/ours-ice.raw" iWARP
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: the stock driver's and ours' traces of the iWARP workload agree"
