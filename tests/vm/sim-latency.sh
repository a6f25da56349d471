# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# kernel: debian
# The simulator's response times (debugfs "latency"), printed for the
# driver under test: idle bring-up, bring-up after injected CQP failures
# and a delayed command, after a function reset, after a module reload,
# and under traffic with address handles made from atomic context (the
# rdma_cm tools' connect and disconnect through ib_cm), then a perftest
# ping-pong with its user space doorbells trapped. Numbers only: the
# test fails on a failed bind (a stock-driver timeout among them), never
# on a time. Every bind of the stock driver counts: none is retried.
# Debian's kernel for every driver: on the sanitizing one the times would
# measure its instrumentation.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_write_lat ucmatose rdma ibv_devinfo

dbg=$SIM_DBG/$SIM_FN

show() {
	echo "--- $1"
	sed 's/^/    /' "$dbg/latency"
	grep -E 'doorbells_trapped|cqp_ops_in_trap|traps_leaving_work|found_by_looking|left_to_their_trap|engine_stall|trapped_regs' "$dbg/stats" | tr '\n' ' '
	echo
	echo 0 >"$dbg/latency"
}

rebind() {
	echo "$ADEV" >"$DRV/unbind" || fail "unbind"
	echo "$ADEV" >"$DRV/bind" || fail "bind after $1"
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 after $1"
}

load_stack
show "idle bring-up ($IRDMA_DRIVER)"

for i in $(seq 1 10); do rebind "plain rebind $i"; done
show "10 rebinds"

# Injected failures leave the next bind to succeed, on time.
for op in 0x20 0x1f 0x12 0x19; do
	echo "$ADEV" >"$DRV/unbind"
	echo $((op)) >"$dbg/fail_cqp_op"
	echo "$ADEV" >"$DRV/bind" 2>/dev/null && fail "bind with opcode $op failing succeeded"
	echo "$ADEV" >"$DRV/bind" || fail "bind after the injected failure of $op"
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 after $op"
done
show "after injected CQP failures"

echo "$ADEV" >"$DRV/unbind"
echo $((0x19)) >"$dbg/delay_cqp_op"
echo 300 >"$dbg/delay_cqp_ms"
echo "$ADEV" >"$DRV/bind" || fail "bind with a slow commit"
echo 0xffffffff >"$dbg/delay_cqp_op"
rebind "a delayed command"
show "a delayed command (300 ms, CCQ-completed), then a rebind"

since=$(dmesg | wc -l)
echo 1 >"$dbg/reset"
wait_for -t 10 dmesg_since "$since" "$SIM_FN: function reset\$" ||
	fail "reset did not complete"
wait_for -t 10 test -e /sys/class/infiniband/irdma0 || fail "no irdma0 after reset"
rebind "the reset"
show "after a function reset"

unload_driver
load_driver
wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 after reload"
show "after a module reload"

# Traffic: rdma_cm connections; ib_cm makes its address handles with
# interrupts off, busy-waiting for the CQP.
ADDR=192.168.77.1
roce_up $ADDR
for i in $(seq 1 3); do
	timeout 60 ucmatose -c 4 >/tmp/ucm.srv 2>&1 &
	srv=$!
	listening
	timeout 60 ucmatose -c 4 -s $ADDR >/tmp/ucm.cli 2>&1 ||
		{ cat /tmp/ucm.*; fail "ucmatose client $i"; }
	wait $srv || { cat /tmp/ucm.*; fail "ucmatose server $i"; }
done
echo "ok: 3 ucmatose runs of 4 connections"
show "under rdma_cm traffic"

# User space rings its SQ doorbell through its own mapping; each process's
# WQE_ALLOC has a watchpoint (sim/userdb.c), so every store is trapped:
# 200 iterations are 200 writes from each side.
before=$(sed -n 's/^user_doorbells_trapped //p' "$dbg/stats")
pair "ib_write_lat" ib_write_lat -d irdma0 -x "$GIDX" -F -s 64 -n 200 -I 64
after=$(sed -n 's/^user_doorbells_trapped //p' "$dbg/stats")
echo "--- ib_write_lat on irdma0 (usec: min max typical avg stdev 99% 99.9%)"
grep -E '^ +64 +200 ' /tmp/cli.ib_write_lat
grep -E '^user_doorbells' "$dbg/stats"
[ $((after - before)) -ge 400 ] ||
	fail "user doorbells trapped: $((after - before)), expected at least 400"
echo "ok: $((after - before)) user space doorbells trapped"

unload_stack
