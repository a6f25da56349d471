# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# standins: 2
# An iWARP listener against peers that break the rules, the same for both
# drivers (the stock one is the oracle). The peers are the host's own TCP
# stack and a packet socket in a network namespace behind the second
# function's netdev; the listener is on the first function.
#  - Malformed MPA requests (tests/vm/mpa-fuzz.py): a bad key, bytes that
#    are no MPA frame, revisions 0 and 3, private data over 512 bytes, a
#    short header, a frame shorter than its length field, revision 2
#    without peer-to-peer mode, and a request split over two segments
#    (upstream parses a request from one segment) are each reset, none
#    reaches the listener, and good requests after them (revisions 1 and
#    2) are answered; with no RTR from the peer, the accepting side then
#    gives up and resets the connection. Ours only: a peer closing right
#    after the reply (it hangs the stock driver, see below).
#  - A listener destroyed with connections pending (tests/vm/cm-hold.c):
#    three peers that never send their MPA request and two whose requests
#    reached the consumer, which answers none; the listener goes, every
#    one of them is reset, and destroying the requests afterwards is
#    harmless.
#  - A SYN flood from 100 addresses nobody owns (15 on the sanitizing
#    kernel; tests/vm/syn-flood.py),
#    given neighbour entries: each gets a SYN-ACK and its connection stays
#    half open while a real request still reaches the listener; with a
#    backlog of 8 only 9 are taken (the listener's bound); when the
#    listener goes each half-open connection is reset. From addresses
#    with no neighbour entry: no SYN-ACK, no state, an ARP request each.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping rdma ibv_devinfo python3

. "$IRDMA_REPO/tests/vm/iwarp-lib.sh"
iwarp_functions_up
ADDR=192.168.79.1
PEER=192.168.79.2
PORT=7175
DEV=$DEV0
expect_eq "transport" "$(devinfo_field "$DEV" transport)" iWARP

ip link set $NET0 up
ip addr add $ADDR/24 dev $NET0 || fail "address on $NET0"
del_peer() { ip netns del peer 2>/dev/null || :; }
ip netns add peer || fail "netns"
at_exit del_peer
ip link set $NET1 netns peer || fail "$NET1 into the namespace"
ip -n peer link set lo up
ip -n peer link set $NET1 up
ip -n peer addr add $PEER/24 dev $NET1 || fail "address on $NET1"
wait_for port_active "$DEV" || fail "$DEV not active"
ip netns exec peer ping -c 2 -W 2 $ADDR || fail "no ping from the namespace"
peer() { timeout 120 ip netns exec peer "$@"; }
cm_ids() { rdma resource show cm_id 2>/dev/null | grep -c "$DEV"; }
# Ended: reaped, or a zombie waiting to be.
ended() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status"; }
# Stop a process; one stuck in the kernel fails the test with the stacks
# of every task that waits uninterruptibly.
stop_proc() {	# PID NAME
	kill "$1" 2>/dev/null
	wait_for -t 30 ended "$1" || { dump_blocked; fail "$2 did not end"; }
	wait "$1"
}

echo "[${SECONDS}s] set up"
# Malformed requests, then good ones, to a persistent rping server.
timeout 300 rping -s -P -a $ADDR -p $PORT -C 1 >/tmp/srv.rping 2>&1 &
srv=$!
listening
# A peer that closes right after the MPA reply, before its RTR, is left
# to our driver: the stock one's disconnect upcall then waits for an
# ESTABLISHED report its failed accept never makes, and a kernel worker
# and rping hang for good (seen here; upstream's irdma_send_cm_event()).
cases="bad-key garbage rev0 rev3 pdata-too-long short-header truncated"
cases+=" no-p2p split rev1 good"
[ "$IRDMA_DRIVER" = ours ] && cases+=" fin-after-reply good"
# shellcheck disable=SC2086 # the cases are words
peer python3 "$IRDMA_REPO/tests/vm/mpa-fuzz.py" --wait 10 --hold 20 $ADDR $PORT \
	$cases >/tmp/fuzz.out 2>&1
cat /tmp/fuzz.out
stop_proc $srv "rping -s -P"
# Each case's outcomes, the different ones joined by " | " (read with the
# shell's builtins: a process costs a quarter of a second on the
# sanitizing kernel).
declare -A outcomes=()
while IFS= read -r line; do
	[[ $line == "case "*": "* ]] || continue
	line=${line#case }
	name=${line%%: *}
	line=${line#*: }
	case " | ${outcomes[$name]:-} | " in
	*" | $line | "*) ;;
	*) outcomes[$name]=${outcomes[$name]:+${outcomes[$name]} | }$line ;;
	esac
done </tmp/fuzz.out
case_is() {	# CASE OUTCOME: every line of the case
	expect_eq "MPA case $1" "${outcomes[$1]:-}" "$2"
}
# The peer sends no RTR: the accepting side gives up on the connection.
case_is good "reply rev=2 reject=0 then reset"
case_is rev1 "reply rev=1 reject=0 then reset"
[ "$IRDMA_DRIVER" = ours ] &&
	case_is fin-after-reply "reply rev=2 reject=0 then closed by us"
for c in bad-key garbage rev0 rev3 pdata-too-long short-header truncated \
	no-p2p split; do
	case_is $c reset
done
expect_eq "cm_ids left after the malformed requests" "$(cm_ids)" 0

echo "[${SECONDS}s] malformed requests done"
# A listener destroyed with connections pending.
"$TOOLS"/cm-hold $ADDR $PORT 0 2 60 >/tmp/hold.out 2>&1 &
hold=$!
listening
peer python3 "$IRDMA_REPO/tests/vm/mpa-fuzz.py" --silent 3 --timeout 90 \
	$ADDR $PORT >/tmp/silent.out 2>&1 &
silent=$!
wait_for -t 30 grep -q "connected 3" /tmp/silent.out ||
	{ cat /tmp/silent.out; fail "silent peers did not connect"; }
peer python3 "$IRDMA_REPO/tests/vm/mpa-peer.py" --timeout 90 $ADDR $PORT >/tmp/pend1.out 2>&1 &
pend1=$!
peer python3 "$IRDMA_REPO/tests/vm/mpa-peer.py" --timeout 90 $ADDR $PORT >/tmp/pend2.out 2>&1 &
pend2=$!
wait $hold
expect_eq "cm-hold's exit" $? 0
wait $silent "$pend1" "$pend2"
cat /tmp/hold.out /tmp/silent.out /tmp/pend1.out /tmp/pend2.out
grep -qx "request 2" /tmp/hold.out || check_failed "the requests did not reach the consumer"
grep -qx "requests destroyed: 2" /tmp/hold.out || check_failed "the requests were not destroyed"
expect_eq "silent peers at the listener's end" "$(sed -n 's/^silent: reset/reset/p' /tmp/silent.out)" \
	"reset 3 closed 0 open 0"
expect_eq "pending requests reset" "$(cat /tmp/pend1.out /tmp/pend2.out | grep -cx reset)" 2
expect_eq "cm_ids left after the listener" "$(cm_ids)" 0

# SYN floods from addresses nobody owns. The drivers take a peer's MAC
# from the host's neighbours (upstream's rule): these addresses are given
# static ones, pointing at the namespace's netdev, which drops what comes
# for them; a third flood's addresses have none.
MAC0=$(cat /sys/class/net/$NET0/address)
MAC1=$(ip -n peer -br link show $NET1 | awk '{ print $3 }')
neigh_for() {	# FIRST COUNT: static neighbours 192.168.79.FIRST and on
	local i

	for i in $(seq "$1" $(($1 + $2 - 1))); do
		echo "neigh replace 192.168.79.$i lladdr $MAC1 dev $NET0 nud permanent"
	done >/tmp/neigh.batch
	ip -batch /tmp/neigh.batch || fail "neighbours from 192.168.79.$1"
}
flood() {	# BACKLOG FIRST COUNT WANT_SYNACKS REAL_REQUEST
	local backlog=$1 first=$2 n=$3 want=$4 real=$5 hold flood
	local what="flood of $n from .$first, backlog $backlog"

	"$TOOLS"/cm-hold $ADDR $PORT "$backlog" 1 60 >/tmp/hold.out 2>&1 &
	hold=$!
	listening
	# Not through peer(): the signal is for timeout itself, which passes it on.
	timeout 120 ip netns exec peer python3 "$IRDMA_REPO/tests/vm/syn-flood.py" \
		$NET1 "$MAC0" $ADDR $PORT 192.168.79.$first "$n" 100 >/tmp/flood.out 2>&1 &
	flood=$!
	wait_for -t 30 grep -q '^sent' /tmp/flood.out || check_failed "$what: not sent"
	if [ "$want" -gt 0 ]; then
		wait_for -t 60 grep -qx "synack $want ([0-9]* in all)" /tmp/flood.out ||
			check_failed "$what: not $want answered"
	fi
	if [ "$real" = yes ]; then
		peer python3 "$IRDMA_REPO/tests/vm/mpa-peer.py" --timeout 90 \
			$ADDR $PORT >/tmp/real.out 2>&1 &
	else
		# What more would come, a SYN-ACK to the bound or past it,
		# comes within the seconds given.
		sleep 3
		kill -INT $hold
	fi
	wait $hold
	sleep 2
	kill $flood
	wait
	cat /tmp/hold.out
	grep -v '^synack' /tmp/flood.out
	expect_eq "$what: addresses answered" \
		"$(sed -n 's/^synack \([0-9]*\) .*/\1/p' /tmp/flood.out | tail -1)" "$want"
	expect_eq "$what: half-open connections reset" \
		"$(sed -n 's/^rst //p' /tmp/flood.out)" "$want"
	if [ "$want" = 0 ]; then
		expect_eq "$what: addresses resolved by ARP" \
			"$(sed -n 's/^arp //p' /tmp/flood.out)" "$n"
	fi
	if [ "$real" = yes ]; then
		grep -qx "request 1" /tmp/hold.out ||
			check_failed "$what: the real request did not reach the listener"
		grep -qx reset /tmp/real.out ||
			{ cat /tmp/real.out; check_failed "$what: the real request not reset"; }
	fi
	expect_eq "$what: cm_ids left" "$(cm_ids)" 0
	echo "[${SECONDS}s] $what done"
}
echo "[${SECONDS}s] pending connections done"
# 100 addresses, 50 past a backlog of 8, 20 with no neighbour entry; on
# the sanitizing kernel, where each costs ~1.3 s, 15, 20 and 10.
big=100 past=50 unknown=20
sanitizing && big=15 past=20 unknown=10
neigh_for 10 $big
neigh_for 120 $past
flood 0 10 $big $big yes
flood 8 120 $past 9 no
flood 0 180 $unknown 0 no

del_peer
iwarp_functions_down 1 0
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: an iWARP listener against malformed MPA, silent peers and SYN floods"
