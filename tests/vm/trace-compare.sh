# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours -- it runs ours (ice front-end) and stock itself, one after the other
# kernel: debian
# Record what Debian's stock irdma.ko and ours (through its ice front-end)
# tell the simulated E810 during bring-up and teardown -- every CQP command
# with its fields, every register write the engine takes -- and print the
# differences. Documentation/infiniband/irdma_sim.rst explains each one.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ibv_devinfo

T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs tracefs $T || fail "no tracefs"

# Addresses and pointers differ from run to run: qwords and register
# values of 0x100000 and above become ADDR.
normalize() {
	sed -n 's/.*\(irdma_sim_[a-z]*\): fn [0-9]* /\1 /p' "$1" |
		sed -E 's/(q[0-9]|= ) ?0x[0-9a-f]{6,}/\1 ADDR/g; s/wqe [0-9]+ //'
}

# One driver's bring-up and teardown, traced.
record() {
	local out=$1
	shift

	echo >$T/trace
	echo 1 >$T/events/irdma_sim/enable
	echo 1 >$T/tracing_on
	"$@"
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 under $*"
	ip link set simeth32 up
	wait_for -t 5 port_active irdma0 || fail "port not active under $*"
	ibv_devinfo -v -d irdma0 >"$out.devinfo" || fail "ibv_devinfo under $*"
	ip link set simeth32 down
	rmmod irdma || fail "rmmod after $*"
	echo 0 >$T/tracing_on
	echo 0 >$T/events/irdma_sim/enable
	cp $T/trace "$out.raw"
	normalize "$out.raw" >"$out"
	[ -s "$out" ] || fail "nothing recorded for $*"
}

modprobe -a ib_core ib_uverbs || fail "ib_core"
load_sim nr_devices=0
load_sim_ice
echo 20000 >$T/buffer_size_kb

record /tmp/stock.trace load_stock
record /tmp/ours.trace load_irdma
unload_sim_ice_and_sim() { rmmod irdma_sim_ice && rmmod irdma_sim; }
unload_sim_ice_and_sim || fail "unload"

ops() { awk '$1 == "irdma_sim_cqp" { print $3 }' "$1" | tr '\n' ' '; }
echo "== CQP opcodes, stock: $(ops /tmp/stock.trace)"
echo "== CQP opcodes, ours:  $(ops /tmp/ours.trace)"
echo "== differences (- stock, + ours):"
diff -u /tmp/stock.trace /tmp/ours.trace | sed -n '3,$p' | grep -E '^[-+]' | head -n 200

echo "== ibv_devinfo -v, stock vs ours:"
diff /tmp/stock.trace.devinfo /tmp/ours.trace.devinfo && echo "(identical)"
expect_eq "ibv_devinfo -v of both drivers differs in" \
	"$(diff /tmp/stock.trace.devinfo /tmp/ours.trace.devinfo | grep -c '^[<>]')" 0

refused() { grep -E -- '-> 0x[1-9a-f]' "$1" | awk '{ print $3 }' | sort -u | tr '\n' ' '; }
expect_eq "commands the sim refused our driver" "$(refused /tmp/ours.trace)" ""
expect_eq "commands the sim refused the stock driver" "$(refused /tmp/stock.trace)" ""
