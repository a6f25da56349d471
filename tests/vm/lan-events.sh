# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# ice's events, sent by the simulator's LAN side (debugfs "event" and
# "qos", and the netdev's MTU) to the driver under test:
# - the MTU set below IPv6's minimum: the driver hears of it and warns;
# - the port's traffic classes change while a QP holds traffic
#   (tests/vm/qp-hold.c): the driver suspends its QPs (the simulator
#   reports each), takes its scheduler tree down, then builds it for the
#   new classes and resumes them: priority 0 is now in class 1 of two,
#   so its queue set is attached in class 1 with class 1's weight (60);
#   the QP moves the right bytes afterwards;
# - a critical error that is only GLPE_CRITERR's Q1 resource check
#   changes nothing; an HMC error makes the driver ask for a reset, and
#   the function comes back and moves traffic again.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ibv_devinfo
ADDR=192.168.77.1
dbg=$SIM_DBG/$SIM_FN

load_stack
roce_up $ADDR

# The MTU: ice's service task tells the driver after the netdev took it.
events=$(sim_stat events)
ip link set "$SIM_NETDEV" mtu 1000 || fail "MTU 1000"
wait_for stat_above events "$events" || fail "no MTU event"
wait_for dmesg_since 0 "MTU.*1000.*1280" ||
	fail "no warning that MTU 1000 is too low for IPv6"
ip link set "$SIM_NETDEV" mtu 1500

# The traffic classes, around a live QP.
rm -f /tmp/qp-hold.go /tmp/qp-hold.out
mkfifo /tmp/qp-hold.go
"$TOOLS"/qp-hold irdma0 "$GIDX" </tmp/qp-hold.go >/tmp/qp-hold.out 2>&1 &
hold=$!
exec 3>/tmp/qp-hold.go
wait_for grep -q ready /tmp/qp-hold.out ||
	fail "qp-hold did not start: $(cat /tmp/qp-hold.out)"
grep -q "^qset [0-9]* tc 0 weight 100$" $dbg/lan || fail "no class 0 queue set: $(cat $dbg/lan)"
suspended=$(sim_stat qps_suspended)
resumed=$(sim_stat qps_resumed)
echo "2 1 0 0 0 0 0 0 0 40 60" >$dbg/qos || fail "the simulator refused two classes"
cat $dbg/qos $dbg/lan
[ "$(sim_stat qps_suspended)" -ge $((suspended + 2)) ] ||
	fail "the QPs were not suspended"
[ "$(sim_stat qps_resumed)" -ge $((resumed + 2)) ] || fail "the QPs were not resumed"
grep -q "^qsets 1$" $dbg/lan || fail "not one queue set after the change"
grep -q "^qset [0-9]* tc 1 weight 60$" $dbg/lan ||
	fail "priority 0's queue set is not in class 1 with weight 60"
echo go >&3
exec 3>&-
wait $hold || fail "the QP after the class change: $(cat /tmp/qp-hold.out)"
cat /tmp/qp-hold.out
echo "1 0 0 0 0 0 0 0 0 100" >$dbg/qos || fail "back to one class"
grep -q "^qset [0-9]* tc 0 weight 100$" $dbg/lan || fail "no class 0 queue set again"

# Critical errors: a warning, then a reset the driver asks for.
resets=$(sim_stat resets)
echo "crit 0x10000000 0x1024d" >$dbg/event || fail "crit event"
sleep 1
[ "$(sim_stat resets)" = "$resets" ] || fail "a reset for the Q1 resource check"
echo "crit 0x04000000" >$dbg/event || fail "crit event"
wait_for stat_above resets "$resets" || fail "no reset after an HMC error"
wait_for test -e /sys/class/infiniband/irdma0 || fail "irdma0 did not come back"
hex=$(ipv4_gid_hex "$ADDR")
wait_for port_active irdma0 || fail "port not active after reset"
wait_for has_gid irdma0 "$hex" || fail "no GID after reset"
GIDX=$(basename "$(grep -l "$hex" /sys/class/infiniband/irdma0/ports/1/gids/* | head -1)")
echo go | "$TOOLS"/qp-hold irdma0 "$GIDX" || fail "traffic after the reset"

ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: the LAN side's events ($IRDMA_DRIVER)"
