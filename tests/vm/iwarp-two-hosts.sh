# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# standins: 2
# iWARP between two simulated functions as two hosts. Both functions of
# the ice personality run iWARP (iwarp=1), each with its own address; the
# switch joins their netdevs. The connection managers open TCP
# connections and run MPA through their ILQs (real frames on the
# switch); the QPs then take the connections over, and the engines carry
# their RDMA traffic: rping with its data checked, to a function's own
# address and between the functions both ways, a closed port's refusal,
# perftest's rdma_cm mode (send, write, read; bandwidth to 8 MiB and
# latency; read bandwidth at 64 KiB alone on the sanitizing kernel),
# ucmatose with four connections each way (one way on the sanitizing
# kernel), the close of each connection (FINs on the wire), rping on a
# VLAN over IPv4 and IPv6, writes and reads out of the peer's bounds
# ending their connections with a TERMINATE, messages cut across segments
# through the IEQ (a bad CRC among them), a storm of 100 connect/disconnect cycles (10
# on the sanitizing kernel), and listeners, wildcard and specific, across
# an address added and removed, the removal ending a live connection on
# it.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping ucmatose rdma ibv_devinfo

. "$IRDMA_REPO/tests/vm/iwarp-lib.sh"
iwarp_functions_up
iwarp_run
# Not in iwarp-interop: irdma_twin.ko keeps its devices out of
# ib_device_get_by_netdev() (verbs.c), so its address notifiers do not
# find them.
iwarp_wildcard_addrs
echo "[${SECONDS}s] wildcard listener done"
iwarp_functions_down 1 0
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: iWARP connections and traffic between two functions"
