# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# standins: 2
# Hot removal with live iWARP connections. Two functions as two hosts
# (iwarp-lib.sh); rping between them moves data over an offloaded
# connection, ib_write_bw writes over another without a pause, and a
# persistent rping server listens too; then the servers' function goes
# (ours: the simulated function deleted; stock: its stand-in PCI function
# removed, as the PCI core removes an E810). The rping servers get the
# device's removal and end. A device going away resets no connection
# (the stock driver's port is down by then): the peer learns of the end
# when it next sends, so the writer on the other function sees its
# connection end and ends, while the rping client, if it was waiting for
# the server's next message, waits on (no keepalive, as on silicon) and
# is stopped. The remaining function still connects to itself, nothing
# is left on it, the kernel stays clean (the VM runner checks the log)
# and the modules unload.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping rdma ibv_devinfo

. "$IRDMA_REPO/tests/vm/iwarp-lib.sh"
iwarp_functions_up
iwarp_hosts_net
qps() { rdma resource show qp 2>/dev/null | grep -c "$1"; }
cm_ids() { rdma resource show cm_id 2>/dev/null | grep -c "$1"; }
two_standins() { [ "$(cat /sys/bus/pci/devices/*/device | grep -cx 0x1111)" -ge 2 ]; }

# A live connection from DEV0's address to DEV1's, pinging for minutes,
# and a second listener on DEV1 with nothing connected.
timeout 300 rping -s -a $PEER -C 100000 -S 100 >/tmp/srv.rp 2>&1 &
srv=$!
wait_for -t 20 cm_listening || { cat /tmp/srv.rp; fail "no listener"; }
timeout 300 rping -s -P -a $PEER -p 7177 >/tmp/srv2.rp 2>&1 &
srv2=$!
timeout 300 rping -c -a $PEER -I $ADDR -C 100000 -S 100 -v >/tmp/cli.rp 2>&1 &
cli=$!
wait_for -t 60 grep -q '^ping data' /tmp/cli.rp || { cat /tmp/cli.rp; fail "no pings"; }
# The writer: its client always has writes outstanding, a report a second.
wport=18600
timeout 300 ib_write_bw -d "$DEV1" -R -F -p $wport -s 4096 --run_infinitely -D 1 \
	>/tmp/wsrv.pt 2>&1 &
wsrv=$!
wait_for -t 20 cm_port_listening $wport "$DEV1" || { cat /tmp/wsrv.pt; fail "no writer listener"; }
timeout 300 ib_write_bw -d "$DEV0" -R -F -p $wport -s 4096 --run_infinitely -D 1 $PEER \
	>/tmp/wcli.pt 2>&1 &
wcli=$!
wait_for -t 60 grep -qE '^ +4096 ' /tmp/wcli.pt || { cat /tmp/wcli.pt; fail "no writes"; }
sleep 2
pings=$(grep -c '^ping data' /tmp/cli.rp)
echo "pings before the removal: $pings"
kill -0 $srv && kill -0 $srv2 && kill -0 $cli || fail "an rping ended before the removal"
kill -0 $wcli || { cat /tmp/wcli.pt; fail "the writer ended before the removal"; }
# rping's and perftest's (perftest's server has a spare one).
[ "$(qps "$DEV1")" -ge 2 ] || check_failed "QPs on $DEV1 before the removal: $(qps "$DEV1")"

# The removal waits for the device's users to let go: in the background,
# so that a removal that never ends shows where it waits.
if [ "$IRDMA_DRIVER" = ours ]; then
	remove=$SIM_BUS/del_device
	value=$FN1
else
	pci=$(basename "$(readlink -f /sys/class/infiniband/$DEV1/device)")
	remove=/sys/bus/pci/devices/$pci/remove
	value=1
	[ -e "$remove" ] || fail "no PCI function under $DEV1"
fi
sh -c "echo $value >$remove" &
rm_pid=$!
wait_for -t 60 gone $rm_pid || { dump_blocked; fail "the removal did not end in 60 s"; }
wait $rm_pid || fail "removing $DEV1"
echo "$DEV1 removed with a live connection"
wait_for -t 60 gone $srv $srv2 ||
	{ dump_blocked; fail "rping servers still running 60 s after the removal"; }
# Its next write finds no connection (the peer's stack resets it) or no
# peer at all (its retransmissions run out).
wait_for -t 60 gone $wcli ||
	{ tail -3 /tmp/wcli.pt; dump_blocked; fail "the writer still running 60 s after"; }
wait $wcli
rc=$?
tail -n 3 /tmp/wcli.pt
if [ $rc -ne 0 ] && [ $rc -ne 124 ]; then
	echo "ok: the writer saw its connection end"
else
	check_failed "the writer did not end on a failed write (exit status $rc)"
fi
# The writer's server may outlive its device: it is told nothing.
kill $wsrv 2>/dev/null; wait $wsrv
wait $srv; echo "server exit status $?"; tail -n 3 /tmp/srv.rp
wait $srv2; echo "persistent server exit status $?"; tail -n 3 /tmp/srv2.rp
if wait_for -t 10 gone $cli; then
	wait $cli; echo "client exit status $?"
else
	# Waiting for a message from a peer that is gone, with nothing of its own
	# to send: its connection stays, nothing else is on the function.
	echo "the rping client waits for the server's next message"
	expect_eq "QPs on $DEV0 with the client waiting" "$(qps "$DEV0")" 1
	kill $cli; wait $cli
fi
tail -n 3 /tmp/cli.rp
[ "$(grep -c '^ping data' /tmp/cli.rp)" -gt "$pings" ] || echo "no ping after the first check"
[ ! -e "/sys/class/infiniband/$DEV1" ] || fail "$DEV1 still registered"
expect_eq "QPs left on $DEV0" "$(qps "$DEV0")" 0
expect_eq "cm_ids left" "$(cm_ids irdma)" 0

# The remaining function still connects: rping to its own address.
rping_run "rping on $DEV0 after $DEV1 went" $ADDR $ADDR
expect_eq "QPs left on $DEV0 after" "$(qps "$DEV0")" 0

iwarp_functions_down $FN0
if [ "$IRDMA_DRIVER" != ours ]; then
	echo 1 >/sys/bus/pci/rescan
	# Both stand-in PCI functions back, for the tests after this one.
	wait_for two_standins || fail "the stand-in PCI functions did not come back"
fi
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: hot removal with live iWARP connections"
