# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A CQP command failing at any step of bring-up makes that probe fail
# cleanly, and the next probe succeeds; a function reset unplugs and
# replugs the RDMA function; the modules load and unload 20 times.
. "$IRDMA_REPO/tests/vm/lib.sh"

load_irdma_deps
load_sim nr_devices=1
load_irdma
wait_for '[ -e /sys/class/infiniband/irdma0 ]' || fail "no irdma0"
dbg=$SIM_DBG/irdma_sim0

# Every CQP command bring-up issues, in order.
for op in 0x20 0x21 0x1f 0x2b 0x03 0x12 0x16 0x19; do
	echo irdma_sim.roce.0 >$SIM_DRV/unbind || fail "unbind"
	[ ! -e /sys/class/infiniband/irdma0 ] || fail "irdma0 survived unbind"
	before=$(awk '/faults_injected/ { print $2 }' $dbg/stats)
	echo $((op)) >$dbg/fail_cqp_op
	echo irdma_sim.roce.0 >$SIM_DRV/bind 2>/dev/null && fail "probe with opcode $op failing succeeded"
	after=$(awk '/faults_injected/ { print $2 }' $dbg/stats)
	expect_eq "opcode $op: one failure injected" $((after - before)) 1
	[ -z "$(ls /sys/class/infiniband/)" ] || fail "a device is left after the failed probe"
	grep -q irdma-irdma_sim0 /proc/interrupts && fail "IRQs left requested after the failed probe"
	echo irdma_sim.roce.0 >$SIM_DRV/bind || fail "probe after the failure at $op"
	wait_for '[ -e /sys/class/infiniband/irdma0 ]' || fail "no irdma0 after retry"
done
echo "ok: every bring-up step unwinds"

# A delayed command is waited for, not failed.
echo irdma_sim.roce.0 >$SIM_DRV/unbind
echo $((0x21)) >$dbg/delay_cqp_op
echo 300 >$dbg/delay_cqp_ms
echo irdma_sim.roce.0 >$SIM_DRV/bind || fail "probe with a slow commit"
echo 0xffffffff >$dbg/delay_cqp_op
echo "ok: slow firmware"

# A function reset: the device goes and comes back.
echo 1 >$dbg/reset
wait_for 'dmesg | grep -q "irdma_sim0: function reset$"' 10 || fail "reset did not complete"
wait_for '[ -e /sys/class/infiniband/irdma0 ]' 10 || fail "no irdma0 after reset"
echo "ok: function reset"

unload_irdma
unload_sim

for i in $(seq 1 20); do
	load_sim nr_devices=2
	load_irdma
	wait_for '[ -e /sys/class/infiniband/irdma1 ]' || fail "cycle $i: devices missing"
	unload_irdma
	unload_sim
done
echo "ok: 20 load/unload cycles"
