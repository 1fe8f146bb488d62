#!/usr/bin/env bash
# Every C kernel of configs/kernels/ end to end: "dse analyze" of the C
# file, a small sweep and "dse tune" into an AutoSA folder, each from a
# config that reads the C (the example's own config where it has one).
# A kernel dse cannot map is refused by all three with exit 2 and the
# same file:line:col naming the statement the array would leave out.
. "$(dirname "$0")/common.sh"
PY=/usr/bin/python3
K="$SRC/configs/kernels"

# file, defines (small sizes), reduction loop ("-" for none), shipped
# config ("-" when
# the example's config is the isl form), and the refusal: "-" when the
# kernel maps, else LINE:COL and the statement's name.
table='
gemm.c       NI=32,NJ=32,NK=32                      k  gemm.cfg           -
mm.c         M=32,N=32,K=32                         k  -                  -
mm-init.c    M=32,N=32,K=32                         k  -                  -
conv.c       O=8,I=8,R=8,C=8,P=3,Q=3                i  -                  -
conv-s2.c    O=8,I=8,R=8,C=8,P=3,Q=3                i  conv-s2.cfg        -
depthwise.c  C=8,R=8,S=8,P=3,Q=3                    p  depthwise.cfg      -
bmm.c        B=4,M=16,N=16,K=16                     k  bmm.cfg            -
mttkrp.c     I=16,J=16,K=8,L=8                      k  -                  -
ttm.c        I=8,J=8,K=8,L=8                        l  ttm.cfg            -
ttmc.c       I=8,J=8,K=8,L=4,M=4                    l  -                  -
fir.c        N=64,T=8                               j  -                  -
syrk.c       N=16,M=8                               k  syrk.cfg           -
syr2k.c      N=16,M=8                               k  syr2k.cfg          -
gnn-agg-dense.c V=16,U=16,F=8                       u  gnn-agg-dense.cfg  -
2mm.c        NI=16,NJ=16,NK=16,NL=16                k  -                  31:5:S3
3mm.c        NI=16,NJ=16,NK=16,NL=16,NM=16          k  -                  34:5:S3
trmm.c       M=16,N=8                               k  -                  19:4:S1
lu.c         N=16                                   k  -                  20:5:S2
cholesky.c   N=16                                   k  -                  17:4:S1
jacobi-1d.c  T=4,N=16                               i  -                  18:4:S1
jacobi-2d.c  T=4,N=16                               j  -                  21:5:S1
jacobi-1d-sa.c T=4,N=16                             -  jacobi-1d-c.cfg    -
'

# The table covers every kernel the examples ship.
for f in "$K"/*.c; do
	grep -qE "^$(basename "$f") " <<<"$table" && ok ||
		fail "configs/kernels/$(basename "$f") is not in the table"
done

# config FILE DEFINES REDUCTION: a small sweep of the C kernel.
config() {
	cat <<CFG
[kernel]
name      = c-${1%.c}
source    = $K/$1
defines   = ${2//,/, }
$([ "$3" = - ] || echo "reduction = $3")
[platform]
board = u250
[space]
array_part = 1..16 divisors
latency    = 1..4 pow2
simd       = 1, 2
[search]
objectives  = latency, dsp
constraints = dsp <= 0.75
CFG
}

# refused WHAT STATUS ERR WANT: exit 2 and the statement's file:line:col.
refused() {
	[ "$2" -eq 2 ] && grep -qE -- "$4" <<<"$3" && ok ||
		fail "$1: exit $2, not 2 with /$4/: $3"
}

while read -r file defs red cfg why; do
	[ -n "$file" ] || continue
	name=${file%.c}
	config "$file" "$defs" "$red" >"$TMP/$name.cfg"
	dflags=$(tr ',' '\n' <<<"$defs" | sed 's/^/-D /' | tr '\n' ' ')
	# shellcheck disable=SC2086
	"$DSE" analyze $dflags "$K/$file" >"$TMP/a" 2>"$TMP/err"
	a_status=$?
	"$DSE" -q -o "$TMP/$name.h5" "$TMP/$name.cfg" >/dev/null 2>"$TMP/serr"
	s_status=$?
	"$DSE" tune -q --objective latency -o "$TMP/$name-sa" "$TMP/$name.cfg" \
		>/dev/null 2>"$TMP/terr"
	t_status=$?
	if [ "$why" != - ]; then
		want="kernels/$file:${why%:*}: error: statement ${why##*:} '.*' is a second computation"
		refused "analyze $file" $a_status "$(cat "$TMP/err")" "$want"
		refused "sweep $file" $s_status "$(cat "$TMP/serr")" "$want"
		refused "tune $file" $t_status "$(cat "$TMP/terr")" "$want"
		[ ! -e "$TMP/$name.h5" ] && [ ! -e "$TMP/$name-sa" ] && ok ||
			fail "$file: refused, yet something was written"
		continue
	fi
	[ $a_status -eq 0 ] && grep -qE '^  C reader +[0-9.]+ s' "$TMP/a" &&
		grep -qE '^space-time candidates \([1-9]' "$TMP/a" && ok ||
		fail "analyze $file: exit $a_status: $(head -c 300 "$TMP/err")"
	[ $s_status -eq 0 ] && [ -s "$TMP/$name.h5" ] && ok ||
		fail "sweep $file: exit $s_status: $(head -c 300 "$TMP/serr")"
	[ $t_status -eq 0 ] && [ -s "$TMP/$name-sa/c-$file" ] &&
		[ -s "$TMP/$name-sa/simd_info.json" ] &&
		grep -qE -- "--sa-sizes=\"\{kernel\[\]->space_time\[[0-9]+\];" \
			"$TMP/$name-sa/autosa.sh" && ok ||
		fail "tune $file: exit $t_status: $(head -c 300 "$TMP/terr")"
	# The C the tuner writes reads back through dse's C reader.
	# shellcheck disable=SC2086
	"$DSE" analyze $dflags "$TMP/$name-sa/c-$file" >/dev/null 2>"$TMP/err" &&
		ok || fail "the tuned $file does not read back: $(cat "$TMP/err")"
	# The example's own config tunes too.
	if [ "$cfg" != - ]; then
		"$DSE" tune -q --emit json "$SRC/configs/$cfg" >"$TMP/t.json" \
			2>"$TMP/err" && $PY -c "import json, sys; \
d = json.load(open(sys.argv[1])); assert d['design'].startswith('{kernel[]->space_time[')" \
			"$TMP/t.json" && ok ||
			fail "tune configs/$cfg: $(head -c 300 "$TMP/err")"
	fi
done <<<"$table"

# skewed CFG EMITTED: the stencil skewed by its config's schedule: both
# loops in the band, the one candidate along t, and the tuned C (file
# EMITTED of the tuner's folder) written in the skewed loops.
skewed() {
	"$DSE" analyze "$SRC/configs/$1" >"$TMP/a" 2>"$TMP/err" &&
		grep -qE '^  band +t, i \(outermost permutable\)' "$TMP/a" &&
		grep -qE '^space-time candidates \(1; default 0\)' "$TMP/a" &&
		ok || fail "$1: not the skewed band: $(head -c 300 "$TMP/a" "$TMP/err")"
	rm -rf "$TMP/j-sa"
	"$DSE" tune -q --objective latency -o "$TMP/j-sa" "$SRC/configs/$1" \
		>/dev/null 2>"$TMP/err" &&
		grep -qE 'for \(int i = t \+ 1; i <= t \+ 254; i \+= 1\)' \
			"$TMP/j-sa/$2" && ok ||
		fail "$1: the tuned C is not skewed: $(cat "$TMP/err")"
}
skewed jacobi-1d.cfg jacobi-1d.c
# The same stencil read from C, skewed by the same schedule.
skewed jacobi-1d-c.cfg jacobi-1d-c.c
finish
