# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# standins: 2
# rdma_cm on one iWARP function, where connections end early: a server
# killed while it listens, a client killed while connected (the server
# sees the disconnect and goes on to its next client), and perftest's
# rdma_cm mode. Client and server share the function's address: the
# drivers' connection managers connect a function to itself. None of it
# may oops (the guest's kernel log is checked after every test), and
# nothing is left behind.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw rping rdma ibv_devinfo
. "$IRDMA_REPO/tests/vm/iwarp-lib.sh"

ADDR=192.168.78.1

iwarp_functions_up
expect_eq "transport" "$(devinfo_field "$DEV0" transport)" iWARP
ip link set "$NET0" up
ip addr add "$ADDR/24" dev "$NET0" || fail "address $ADDR"
wait_for port_active "$DEV0" || fail "$DEV0 not active"

# A server killed while it listens: its listener goes, nothing stays.
rping -s -a $ADDR -p 7200 -C 1 >/tmp/srv.rping 2>&1 &
srv=$!
listening
kill -9 $srv
wait $srv 2>/dev/null
wait_for not cm_listening || check_failed "the listener stayed"
echo "ok: a killed server's listener goes"

# A client killed while connected: the server sees the connection end
# and its next client is served.
rping -s -P -a $ADDR -p 7201 -v >/tmp/srv2.rping 2>&1 &
srv=$!
listening
rping -c -a $ADDR -p 7201 -C 1000000 -S 64 >/tmp/cli2.rping 2>&1 &
cli=$!
sleep 3
kill -9 $cli
wait $cli 2>/dev/null
timeout 60 rping -c -a $ADDR -p 7201 -v -C 5 >/tmp/cli3.rping 2>&1 ||
	{ cat /tmp/srv2.rping /tmp/cli3.rping; check_failed "the next client was not served"; }
expect_eq "pings the next client checked" "$(grep -c '^ping data: rdma-ping-' /tmp/cli3.rping)" 5
kill $srv 2>/dev/null
wait $srv 2>/dev/null
echo "ok: a killed client's connection ends, the server goes on"

# perftest's rdma_cm mode, a short send test on the function itself.
timeout 120 ib_send_bw -d "$DEV0" -R -F -n 100 >/tmp/srv.bw 2>&1 &
srv=$!
listening
timeout 120 ib_send_bw -d "$DEV0" -R -F -n 100 $ADDR >/tmp/cli.bw 2>&1
rc=$?
wait $srv
src=$?
[ $rc -eq 0 ] && [ $src -eq 0 ] ||
	{ cat /tmp/srv.bw /tmp/cli.bw; check_failed "ib_send_bw -R: client $rc, server $src"; }
grep -A2 'BW average' /tmp/cli.bw

# Nothing is left behind: no QP, no listening or connecting cm_id.
wait_for test "$(rdma resource show cm_id 2>/dev/null | grep -c "$DEV0")" = 0 ||
	check_failed "cm_ids left"
expect_eq "QPs left" "$(rdma resource show qp 2>/dev/null | grep -c "$DEV0.*RC")" 0

ip addr flush dev "$NET0"
iwarp_functions_down 0 1
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: rdma_cm on an iWARP function: kills and perftest"
