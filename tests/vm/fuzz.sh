# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# tests/fuzz/uverbs-fuzz.c against irdma0: fixed seeds (IRDMA_TEST_FUZZ_SEEDS to
# choose others), each bounded in operations and time. After each seed the
# kernel log must hold no report (the seed is named if it does) and every
# object the process made must be gone with its file. On a kernel with
# failslab (the sanitizing kernel), the seeds of IRDMA_TEST_FUZZ_FAIL_SEEDS
# run again with one in FAIL_PERCENT of the fuzzer's slab allocations failed
# (the kernel's on its behalf: ib_core's, the driver's), to walk the
# error paths. Debian's kernel (the stock driver's) has no failslab: the
# stock driver gets the plain seeds.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rdma ibv_devinfo

# Seed 1, then 7 failing, on the sanitizing kernel (a seed's 4000
# operations take 25 s there against 9 s on Debian's); 1 to 6 elsewhere
# (and 7 to 9 failing, where failslab is).
if sanitizing; then
	SEEDS=${IRDMA_TEST_FUZZ_SEEDS:-1}
	FAIL_SEEDS=${IRDMA_TEST_FUZZ_FAIL_SEEDS:-7}
else
	SEEDS=${IRDMA_TEST_FUZZ_SEEDS:-1 2 3 4 5 6}
	FAIL_SEEDS=${IRDMA_TEST_FUZZ_FAIL_SEEDS:-7 8 9}
fi
FAIL_PERCENT=${IRDMA_TEST_FUZZ_FAIL_PERCENT:-5}
OPS=${IRDMA_TEST_FUZZ_OPS:-4000}
SECS=${IRDMA_TEST_FUZZ_SECONDS:-25}
reports='BUG:|WARNING:|Oops|KASAN|kernel BUG|possible (circular|recursive) locking|inconsistent lock state|unreferenced object|general protection fault|Call Trace:'

user_objects() {
	rdma resource show "$1" 2>/dev/null | grep irdma0 | grep -vc 'comm \[ib_core\]'
}

load_stack
roce_up 192.168.77.1
dev="/dev/infiniband/$(basename "$(ls -d /sys/class/infiniband/irdma0/device/infiniband_verbs/uverbs* | head -1)")"
gidfile=/sys/class/infiniband/irdma0/ports/1/gids/$GIDX
# failslab, for the tasks that ask for it (make-it-fail) only, with one
# line (no stack) per failure it injects (rate-limited: a lower bound).
failslab=/sys/kernel/debug/failslab
if [ -d $failslab ]; then
	echo Y >$failslab/task-filter
	echo N >$failslab/ignore-gfp-wait
	echo "$FAIL_PERCENT" >$failslab/probability
	echo 1 >$failslab/interval
	echo -1 >$failslab/times
	echo 1 >$failslab/verbose
else
	echo "no failslab in this kernel: seeds $FAIL_SEEDS not run"
	FAIL_SEEDS=
fi

total=0
fuzz() {	# SEED FAILING
	local seed=$1 failing=$2 since rc n injected what='' mark=()

	# Only a failing seed marks itself (a kernel without fault injection
	# has no /proc/self/make-it-fail).
	[ "$failing" = 1 ] && what=", slab allocations failing" mark=(UVERBS_FUZZ_MAKE_IT_FAIL=1)
	since=$(dmesg | wc -l)
	env "${mark[@]}" timeout $((SECS + 60)) \
		"$TOOLS"/uverbs-fuzz "$dev" "$seed" "$OPS" "$SECS" "$gidfile" >/tmp/fuzz.out 2>&1
	rc=$?
	cat /tmp/fuzz.out
	[ $rc = 0 ] || fail "seed $seed$what: uverbs-fuzz exited with $rc"
	if dmesg | tail -n +$((since + 1)) | grep -E "$reports" >/dev/null; then
		dmesg | tail -n +$((since + 1)) | grep -E -A20 "$reports" | head -60
		fail "seed $seed$what: kernel report"
	fi
	for r in qp cq mr pd; do
		[ "$(user_objects $r)" = 0 ] ||
			fail "seed $seed$what: $r objects left after the process"
	done
	n=$(sed -n 's/^\([0-9]*\) operations$/\1/p' /tmp/fuzz.out)
	total=$((total + ${n:-0}))
	if [ "$failing" = 1 ]; then
		injected=$(dmesg | tail -n +$((since + 1)) | grep -c 'FAULT_INJECTION: forcing a failure')
		[ "$injected" -gt 0 ] || fail "seed $seed$what: failslab failed nothing"
		what="$what ($injected failures logged)"
	fi
	echo "ok: seed $seed$what, $n operations, kernel clean, nothing left"
}

for seed in $SEEDS; do
	fuzz "$seed" 0
done
for seed in $FAIL_SEEDS; do
	fuzz "$seed" 1
done
ip addr del 192.168.77.1/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: $total fuzzed operations over seeds $SEEDS${FAIL_SEEDS:+, and $FAIL_SEEDS with slab allocations failing}"
