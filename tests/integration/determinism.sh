#!/usr/bin/env bash
# The front of configs/mm.cfg (the full 1024^3 sweep) is identical, same
# rows in the same order, for 1, 2 and 4 ranks and 1 or 2 threads per rank.
. "$(dirname "$0")/common.sh"

runs="1:1 1:2 2:1 2:2 4:1"
for r in $runs; do
	np=${r%:*} t=${r#*:}
	if mpi "$np" "$t" -q -o "$TMP/np$np-t$t.h5" "$SRC/configs/mm.cfg"; then
		ok
	else
		fail "mpirun -np $np with $t threads failed"
	fi
done
rows=$(h5ls "$TMP/np1-t1.h5/mm/front" | sed -n 's/.*{\([0-9]*\)\/.*/\1/p')
[ "${rows:-0}" -gt 1 ] && ok || fail "front has ${rows:-no} rows"
for r in $runs; do
	f="$TMP/np${r%:*}-t${r#*:}.h5"
	if h5diff "$TMP/np1-t1.h5" "$f" /mm/front /mm/front >/dev/null; then
		ok
	else
		fail "front of $r differs from 1 rank x 1 thread"
	fi
done
# The run records its own parallelism.
h5dump -a /ranks "$TMP/np4-t1.h5" | grep -q '(0): 4' && ok ||
	fail "root attribute 'ranks' is not 4"
finish
