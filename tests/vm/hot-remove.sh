# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours
# Hot removal: the simulated function is deleted while ib_send_bw runs on
# it. Applications get a fatal event and their calls fail, the kernel
# stays clean (the VM runner checks the log), nothing is left, and the
# modules unload.
. "$IRDMA_REPO/tests/vm/lib.sh"

ADDR=192.168.77.1
load_stack
roce_up $ADDR

ibv_asyncwatch -d irdma0 >/tmp/async.log 2>&1 &
watch=$!
ib_send_bw -d irdma0 -x "$GIDX" -F -s 4096 -D 60 >/tmp/srv.log 2>&1 &
srv=$!
sleep 1
ib_send_bw -d irdma0 -x "$GIDX" -F -s 4096 -D 60 $ADDR >/tmp/cli.log 2>&1 &
cli=$!
wait_for 'grep -q "#bytes" /tmp/cli.log' 30 || { cat /tmp/cli.log; fail "traffic did not start"; }
sleep 2

echo 0 >$SIM_BUS/del_device || fail "del_device"
echo "function 0 deleted under traffic"
wait_for '! kill -0 '$cli' 2>/dev/null && ! kill -0 '$srv' 2>/dev/null' 30 ||
	fail "ib_send_bw still running after the device went away"
wait $cli; echo "client exit status $?"
wait $srv; echo "server exit status $?"
wait_for '! kill -0 '$watch' 2>/dev/null' 10 || kill $watch
cat /tmp/async.log
grep -q "IBV_EVENT_DEVICE_FATAL\|device fatal" /tmp/async.log ||
	fail "no fatal event reached the application"
echo "ok: the application saw the device's fatal event"
expect_eq "RDMA devices left" "$(ls /sys/class/infiniband 2>/dev/null | wc -l)" 0
unload_irdma
unload_sim
echo "PASS: hot removal under ib_send_bw"
