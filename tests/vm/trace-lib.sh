# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Tracing a workload under two drivers and comparing the traces, for
# trace-workload (RoCE) and trace-iwarp: the simulator's tracepoints into
# the trace buffer, phases marked in it, tests/vm/trace-diff.c built,
# and the differences the simulator's page explains taken from it.

T=/sys/kernel/tracing
OUT=${TEST_ARTIFACTS:-/tmp/trace}
simdoc=$IRDMA_REPO/Documentation/infiniband/irdma_sim.rst
mkdir -p "$OUT"
mountpoint -q $T || mount -t tracefs tracefs $T || fail "no tracefs"
echo 40000 >$T/buffer_size_kb

sed -n 's/^   explain //p' "$simdoc" >/tmp/explained
[ -s /tmp/explained ] || fail "no explained differences in $simdoc"

phase() { echo "phase $1" >$T/trace_marker; echo "== $1"; }

# The simulator's events from now on (it is loaded).
trace_start() {
	echo >$T/trace
	echo 1 >$T/events/irdma_sim/enable
	echo 1 >$T/tracing_on
}

# The events traced under driver NAME kept as FILE; none may be lost.
trace_stop() {	# NAME FILE
	local lost

	echo 0 >$T/tracing_on
	echo 0 >$T/events/irdma_sim/enable
	lost=$(cat $T/per_cpu/cpu*/stats | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
	expect_eq "events lost from the trace buffer under $1" "$lost" 0
	cp $T/trace "$2"
	echo "$1: $(grep -c . "$2") trace lines"
}

# The stock driver's trace against ours: a difference the simulator's
# page does not explain fails the test, the first of them named with its
# phase.
trace_compare() {	# STOCK_TRACE OURS_TRACE NAME
	local rc first diff=$OUT/diff-$3

	"$TOOLS"/trace-diff "$1" "$2" /tmp/explained >"$diff"
	rc=$?
	cat "$diff"
	first=$(awk '/^== phase/ { ph = $3 } /UNEXPLAINED/ { print ph " " prev; exit } { prev = $0 }' \
		"$diff" | cut -c1-240)
	[ $rc -eq 0 ] ||
		fail "$3: the drivers' traces differ where $simdoc explains nothing (first: $first)"
	echo "ok: $3: $(sed -n 's/^compared: //p' "$diff")"
}
