#!/usr/bin/env bash
# One copy of a GNN graph and its partitions per node: a sweep of
# configs/gnn-overlay.cfg on 2 ranks (1 and 2 threads each), whose ranks
# share one machine and so read the first rank's copy, says so and gives
# the front of 1 rank, row for row.
. "$(dirname "$0")/common.sh"
CFG="$SRC/configs/gnn-overlay.cfg"

for r in 1:1 2:1 2:2; do
	np=${r%:*} t=${r#*:}
	if mpi "$np" "$t" -o "$TMP/np$np-t$t.h5" "$CFG" >/dev/null \
		2>"$TMP/err$np-$t"; then
		ok
	else
		fail "mpirun -np $np with $t threads: $(cat "$TMP/err$np-$t")"
	fi
done
rows=$(h5ls "$TMP/np1-t1.h5/gcn-cora/front" | sed -n 's/.*{\([0-9]*\)\/.*/\1/p')
[ "${rows:-0}" -gt 1 ] && ok || fail "front has ${rows:-no} rows"
for r in 2:1 2:2; do
	f="$TMP/np${r%:*}-t${r#*:}.h5"
	h5diff "$TMP/np1-t1.h5" "$f" /gcn-cora/front /gcn-cora/front \
		>/dev/null && ok || fail "front of $r differs from 1 rank"
	grep -q "one copy of .* MB shared by the 2 ranks of the node" \
		"$TMP/err${r%:*}-${r#*:}" && ok ||
		fail "$r: no shared copy reported: $(cat "$TMP/err${r%:*}-${r#*:}")"
done
# One rank shares nothing.
grep -q "shared by" "$TMP/err1-1" && fail "1 rank reported a shared copy" ||
	ok
finish
