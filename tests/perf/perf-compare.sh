# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# perftest figures for irdma0 and, in the same VM, for Soft-RoCE (rdma_rxe
# on the same netdev) as the comparison. Prints numbers; fails only if a
# run could not complete. Run it with scripts/perf-compare.
. "$IRDMA_REPO/tests/vm/lib.sh"

ADDR=192.168.77.1
load_stack
ip link set "$SIM_NETDEV" up
ip addr add $ADDR/24 dev "$SIM_NETDEV" || fail "address"
wait_for '[ "$(devinfo_field irdma0 state)" = PORT_ACTIVE ]' || fail "port not active"
modprobe rdma_rxe || fail "rdma_rxe"
rdma link add rxe0 type rxe netdev "$SIM_NETDEV" || fail "rxe0"
wait_for '[ "$(devinfo_field rxe0 state)" = PORT_ACTIVE ]' || fail "rxe0 not active"

gid_of() {
	wait_for "grep -l c0a8:4d01 /sys/class/infiniband/$1/ports/1/gids/*" ||
		fail "no GID on $1"
	basename "$(grep -l c0a8:4d01 /sys/class/infiniband/"$1"/ports/1/gids/* | head -1)"
}

# One perftest run on a device; prints its result line.
run() {
	local dev=$1 t=$2 gidx
	shift 2

	gidx=$(gid_of "$dev")
	timeout 300 "$t" -d "$dev" -x "$gidx" -F "$@" >/tmp/srv.perf 2>&1 &
	sleep 1
	timeout 300 "$t" -d "$dev" -x "$gidx" -F "$@" $ADDR >/tmp/cli.perf 2>&1 ||
		{ cat /tmp/cli.perf; fail "$t on $dev"; }
	wait $! || { cat /tmp/srv.perf; fail "$t server on $dev"; }
	printf '%-6s %-12s %s\n' "$dev" "$t" \
		"$(grep -E '^ +[0-9]+ +[0-9]+ ' /tmp/cli.perf | tail -1 | tr -s ' ')"
}

echo "device test         #bytes #iterations then bandwidth peak/average MB/s and Mpps,"
echo "                    or latency min/max/typical/average/stdev/99%/99.9% usec"
for dev in irdma0 rxe0; do
	run $dev ib_send_bw -s 65536 -n 500
	run $dev ib_write_bw -s 65536 -n 500
	run $dev ib_read_bw -s 65536 -n 500
	run $dev ib_send_lat -s 64 -n 500 -I 64
	run $dev ib_write_lat -s 64 -n 500 -I 64
	run $dev ib_read_lat -s 64 -n 500
done
rdma link delete rxe0
rmmod rdma_rxe
ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: perftest figures printed"
