#!/usr/bin/env bash
# One copy of a GNN graph and its partitions per node: a sweep of
# configs/gnn-overlay.cfg on 2 ranks (1 and 2 threads each), whose ranks
# share one machine and so read the first rank's copy, says so and gives
# the front of 1 rank, row for row; a graph the first rank cannot read
# stops every rank with its error.
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
# A bad graph file, read by the first rank alone: every rank stops with
# its error (status 2, the file and line), so the launcher's status is 2.
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n9 1\n' \
	>"$TMP/bad.mtx"
printf '[workload]\nfamily = gnn-overlay\nmodel = b1\ngraph = bad.mtx\nfeatures = 8\nclasses = 2\n' \
	>"$TMP/bad.cfg"
mpi 2 1 -o "$TMP/bad.h5" "$TMP/bad.cfg" >"$TMP/out" 2>&1
status=$?
[ "$status" -eq 2 ] && ok || fail "bad graph on 2 ranks exited $status: $(cat "$TMP/out")"
grep -q "bad.mtx:4" "$TMP/out" && ok || fail "bad graph: no file:line: $(cat "$TMP/out")"
[ ! -e "$TMP/bad.h5" ] && ok || fail "bad graph on 2 ranks wrote a file"
# One rank shares nothing.
grep -q "shared by" "$TMP/err1-1" && fail "1 rank reported a shared copy" ||
	ok
finish
