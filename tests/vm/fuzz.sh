# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours
# tests/fuzz/uverbs-fuzz.c against irdma0: fixed seeds (IRDMA_TEST_FUZZ_SEEDS to
# choose others), each bounded in operations and time. After each seed the
# kernel log must hold no report (the seed is named if it does) and every
# object the process made must be gone with its file.
. "$IRDMA_REPO/tests/vm/lib.sh"

SEEDS=${IRDMA_TEST_FUZZ_SEEDS:-1 2 3 4 5 6}
OPS=${IRDMA_TEST_FUZZ_OPS:-4000}
SECS=${IRDMA_TEST_FUZZ_SECONDS:-25}
reports='BUG:|WARNING:|Oops|KASAN|kernel BUG|possible (circular|recursive) locking|inconsistent lock state|unreferenced object|general protection fault|Call Trace:'

gcc -O2 -Wall -o /tmp/uverbs-fuzz "$IRDMA_REPO/tests/fuzz/uverbs-fuzz.c" || fail "build uverbs-fuzz"

user_objects() {
	rdma resource show "$1" 2>/dev/null | grep irdma0 | grep -vc 'comm \[ib_core\]'
}

load_stack
roce_up 192.168.77.1
dev="/dev/infiniband/$(basename "$(ls -d /sys/class/infiniband/irdma0/device/infiniband_verbs/uverbs* | head -1)")"
gidfile=/sys/class/infiniband/irdma0/ports/1/gids/$GIDX
total=0
for seed in $SEEDS; do
	since=$(dmesg | wc -l)
	timeout $((SECS + 60)) /tmp/uverbs-fuzz "$dev" "$seed" "$OPS" "$SECS" "$gidfile" \
		>/tmp/fuzz.out 2>&1
	rc=$?
	cat /tmp/fuzz.out
	[ $rc = 0 ] || fail "seed $seed: uverbs-fuzz exited with $rc"
	if dmesg | tail -n +$((since + 1)) | grep -E "$reports" >/dev/null; then
		dmesg | tail -n +$((since + 1)) | grep -E -A20 "$reports" | head -60
		fail "seed $seed: kernel report"
	fi
	for r in qp cq mr pd; do
		[ "$(user_objects $r)" = 0 ] || fail "seed $seed: $r objects left after the process"
	done
	n=$(sed -n 's/^\([0-9]*\) operations$/\1/p' /tmp/fuzz.out)
	total=$((total + ${n:-0}))
	echo "ok: seed $seed, $n operations, kernel clean, nothing left"
done
ip addr del 192.168.77.1/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: $total fuzzed operations over seeds $SEEDS"
