# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# Hot removal: the simulated function is deleted (under the ice
# personality its stand-in PCI function is removed, as the PCI core removes
# an E810) while ib_send_bw moves data over it (checked: both still run). Applications get a fatal event,
# their work no longer completes and they end, the kernel stays clean (the
# VM runner checks the log), nothing is left, and the modules unload.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw ibv_asyncwatch ibv_devinfo

# A PCI function with this device id exists.
pci_device() { grep -qx "$1" /sys/bus/pci/devices/*/device; }

ADDR=192.168.77.1
load_stack
roce_up $ADDR

ibv_asyncwatch -d irdma0 >/tmp/async.log 2>&1 &
watch=$!
# Line-buffered, so that the result header comes out as the measured run
# starts (into a file, perftest's output comes out only at its exit).
stdbuf -oL ib_send_bw -d irdma0 -x "$GIDX" -F -s 4096 -D 20 >/tmp/srv.log 2>&1 &
srv=$!
wait_for -t 20 tcp_listening 18515 || { cat /tmp/srv.log; fail "the server never listened"; }
wait_for -t 20 grep -q "async event FD" /tmp/async.log || fail "ibv_asyncwatch never started"
stdbuf -oL ib_send_bw -d irdma0 -x "$GIDX" -F -s 4096 -D 20 $ADDR >/tmp/cli.log 2>&1 &
cli=$!
wait_for -t 30 grep -q "#bytes" /tmp/cli.log || { cat /tmp/cli.log; fail "traffic did not start"; }
sleep 2

kill -0 $cli 2>/dev/null && kill -0 $srv 2>/dev/null || fail "ib_send_bw ended before the removal"
remove_function || fail "removing the function"
echo "$SIM_FN removed under traffic"
# Nothing more completes: the processes spin on their CQs (as on silicon
# that is gone) until their 20 s are up, and end.
wait_for -t 40 gone "$cli" "$srv" ||
	fail "ib_send_bw still running 40 s after the device went away"
wait $cli; echo "client exit status $?"; tail -n 3 /tmp/cli.log
wait $srv; echo "server exit status $?"
wait_for -t 10 gone "$watch" || kill $watch
cat /tmp/async.log
grep -q "IBV_EVENT_DEVICE_FATAL\|device fatal" /tmp/async.log ||
	fail "no fatal event reached the application"
echo "ok: the application saw the device's fatal event"
expect_eq "RDMA devices left" "$(ls /sys/class/infiniband 2>/dev/null | wc -l)" 0
unload_driver
if [ "$IRDMA_DRIVER" != ours ]; then
	rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice failed"
	# The stand-in PCI function back, for the tests after this one.
	echo 1 >/sys/bus/pci/rescan
	wait_for pci_device 0x1111 ||
		fail "the stand-in PCI function did not come back"
fi
unload_sim
echo "PASS: hot removal under ib_send_bw"
