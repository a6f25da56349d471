# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# A CQP command failing at any step of bring-up makes that probe fail
# cleanly, and the next probe succeeds; a function reset unplugs and
# replugs the RDMA function; the modules load and unload 20 times (5
# under the sanitizing kernel).
. "$IRDMA_REPO/tests/vm/lib.sh"

load_stack
dbg=$SIM_DBG/$SIM_FN

# The errno a failed probe reports after kernel log line $1.
probe_errno() {
	dmesg | tail -n +"$(($1 + 1))" |
		sed -n 's/.*probe with driver .* failed with error \(-[0-9]*\).*/\1/p' | tail -n 1
}

# Every CQP command bring-up issues, in order. Each failure is -EIO, but
# one: Debian's driver waits for the CCQ's own CREATE_CQ completion in the
# CCQ (irdma_sc_ccq_create_done polls the CCQ, about 1 s), and a CCQ whose
# creation failed cannot receive one, so that probe ends in -ETIMEDOUT.
for op in 0x20 0x21 0x1f 0x2b 0x03 0x12 0x16 0x19; do
	echo $ADEV >$DRV/unbind || fail "unbind"
	[ ! -e /sys/class/infiniband/irdma0 ] || fail "irdma0 survived unbind"
	before=$(awk '/faults_injected/ { print $2 }' $dbg/stats)
	echo $((op)) >$dbg/fail_cqp_op
	since=$(dmesg | wc -l)
	echo $ADEV >$DRV/bind 2>/dev/null && fail "probe with opcode $op failing succeeded"
	after=$(awk '/faults_injected/ { print $2 }' $dbg/stats)
	expect_eq "opcode $op: one failure injected" $((after - before)) 1
	want=-5
	[ "$IRDMA_DRIVER" = stock ] && [ $op = 0x03 ] && want=-110
	expect_eq "opcode $op: the probe's errno" "$(probe_errno "$since")" $want
	[ -z "$(ls /sys/class/infiniband/)" ] || fail "a device is left after the failed probe"
	grep -q "irdma.*$SIM_FN\|irdma.*0000:00:01" /proc/interrupts &&
		fail "IRQs left requested after the failed probe"
	bind_driver $ADEV $DRV || fail "probe after the failure at $op"
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 after the failure at $op"
done
echo "ok: every bring-up step unwinds"

# A delayed command is waited for, not failed (one the CCQ completes:
# commands polled through CQPTAIL have about 10 ms in the stock driver).
echo $ADEV >$DRV/unbind
echo $((0x19)) >$dbg/delay_cqp_op
echo 300 >$dbg/delay_cqp_ms
bind_driver $ADEV $DRV || fail "probe with a slow commit"
echo 0xffffffff >$dbg/delay_cqp_op
echo "ok: slow firmware"

# A function reset: the device goes and comes back.
echo 1 >$dbg/reset
wait_for -t 10 dmesg_since 0 "$SIM_FN: function reset\$" || fail "reset did not complete"
wait_for -t 10 test -e /sys/class/infiniband/irdma0 || fail "no irdma0 after reset"
echo "ok: function reset"

unload_stack

# Five of them under the sanitizing kernel, where each takes seconds.
n=20
sanitizing && n=5
cycles $n load_stack unload_stack
