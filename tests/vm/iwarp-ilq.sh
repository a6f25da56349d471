# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: stock -- ours: the ice personality's functions are the stock driver's here; ours speaks the same TCP in iwarp-two-hosts and iwarp-interop
# kernel: debian
# standins: 2
# The ILQ on the wire. An iWARP function's connection manager speaks TCP
# through its ILQ: the simulator's UDA QPs put real frames on its
# Ethernet switch and hand it those its quad hash steers to the ILQ. The
# peer here is the host's own TCP stack in a network namespace (function
# 33's netdev), so the frames are checked by code nobody here wrote: the
# three-way handshake with the listener, an MPA request from a Python
# client that reaches rping as a connection request, and the MPA reply
# rping's QP sends as its first stream data (a real segment from the
# offloaded connection). The Python peer sends no RTR message, so the
# connection never becomes established: the driver gives up on it and
# resets it. A revision 2 request without peer-to-peer mode is reset at
# once.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping rdma ibv_devinfo python3

ADDR=192.168.79.1
PEER=192.168.79.2
PORT=7174

modprobe -a ib_core ib_uverbs rdma_ucm iw_cm || fail "cannot load the RDMA stack"
load_sim nr_devices=0
load_sim_ice iwarp=1
load_driver
wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0"
DEV=$(rdma_dev_of simeth32)
[ -n "$DEV" ] || fail "no RDMA device on simeth32"
expect_eq "transport" "$(devinfo_field "$DEV" transport)" iWARP

ip link set simeth32 up
ip addr add $ADDR/24 dev simeth32 || fail "address on simeth32"
del_peer() { ip netns del peer 2>/dev/null || :; }
ip netns add peer || fail "netns"
at_exit del_peer
ip link set simeth33 netns peer || fail "simeth33 into the namespace"
ip -n peer link set lo up
ip -n peer link set simeth33 up
ip -n peer addr add $PEER/24 dev simeth33 || fail "address on simeth33"
wait_for port_active "$DEV" || fail "$DEV not active"
ip netns exec peer ping -c 2 -W 2 $ADDR || fail "no ping from the namespace"

steered0=$(sim_stat tcp_steered)
timeout 90 rping -s -a $ADDR -p $PORT -v -C 1 >/tmp/srv.rping 2>&1 &
srv=$!
listening
timeout 60 ip netns exec peer python3 "$IRDMA_REPO/tests/vm/mpa-peer.py" \
	--timeout 20 $ADDR $PORT >/tmp/mpa.out 2>&1
rc=$?
cat /tmp/mpa.out
wait $srv
echo "rping -s:"
cat /tmp/srv.rping
grep -qx connected /tmp/mpa.out ||
	fail "no TCP connection to the listener through the ILQ (client $rc)"
echo "ok: the host's TCP made a connection with the driver's connection manager"
# The request reached rping, which accepted it: its QP took the
# connection over and sent the MPA reply. No RTR follows, the accept
# fails, and the connection is reset.
grep -q 'reply: rev=2 reject=0 enhanced=1' /tmp/mpa.out ||
	check_failed "no MPA reply from the accepting QP"
grep -q 'rdma_accept' /tmp/srv.rping ||
	check_failed "the MPA request did not reach rping's accept"
grep -qx reset /tmp/mpa.out ||
	check_failed "the connection with no RTR was not reset"
echo "frames steered to the engine: $(($(sim_stat tcp_steered) - steered0))," \
	"UDA frames received $(sim_stat uda_rx), sent $(sim_stat uda_tx)," \
	"to the LAN $(sim_stat tcp_to_lan), dropped $(sim_stat tcp_rx_dropped)"
stat_above uda_rx 2 || check_failed "the ILQ received under 3 frames"
stat_above uda_tx 1 || check_failed "the ILQ sent under 2 frames"
echo "offloaded connections $(sim_stat iwarp_offloaded), MPA replies from QPs" \
	"$(sim_stat iwarp_lsmm), resets from QPs $(sim_stat iwarp_rst_tx)"
stat_above iwarp_lsmm 0 || check_failed "no QP sent an MPA reply"
stat_above iwarp_rst_tx 0 || check_failed "the offloaded connection was not reset"

# A revision 2 request without peer-to-peer mode (no RTR message offered):
# the stock driver's connection manager resets the connection.
timeout 90 rping -s -a $ADDR -p $PORT -v -C 1 >/tmp/srv2.rping 2>&1 &
srv=$!
listening
timeout 60 ip netns exec peer python3 "$IRDMA_REPO/tests/vm/mpa-peer.py" \
	--timeout 20 --no-p2p $ADDR $PORT >/tmp/mpa3.out 2>&1
cat /tmp/mpa3.out
kill $srv 2>/dev/null
wait $srv
grep -qx reset /tmp/mpa3.out ||
	check_failed "a request without peer-to-peer mode was not reset"
! grep -q 'rdma_accept' /tmp/srv2.rping ||
	check_failed "a request without peer-to-peer mode reached rping"

# Nothing listens on another port of the function: the host's stack
# answers for it (no quad hash entry, no APBVT bit) and refuses.
ip netns exec peer python3 "$IRDMA_REPO/tests/vm/mpa-peer.py" --timeout 5 \
	$ADDR $((PORT + 1)) >/tmp/mpa2.out 2>&1
grep -q 'connect failed.*refused' /tmp/mpa2.out ||
	{ cat /tmp/mpa2.out; check_failed "a port nobody listens on was not refused"; }

expect_eq "cm_ids left" "$(rdma resource show cm_id 2>/dev/null | grep -c "$DEV")" 0
del_peer
unload_driver
rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice"
unload_sim
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: the ILQ's frames make TCP and MPA with the host's stack"
