#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang-14 into build-fuzz/ and
# fuzzes each for SECONDS seconds (default 60), one after the other, then
# prints per target the executions, the rate, the coverage reached and
# what it found.  Exits with status 1 when any target crashed, leaked,
# timed out or ran out of memory; the input that did it is kept in
# build-fuzz/fuzz-artifacts/<target>/ (copy it to fuzz/regressions/<target>/
# once fixed, so that it is replayed from then on).
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   targets: cfg kernel cfront mtx edges topology onnx scalesim results
#   (default: all)
#
# Inputs the fuzzer finds interesting go to build-fuzz/fuzz-corpus/<target>/
# (kept between runs, so a second run starts where the first stopped); the
# seeds in fuzz/corpus/ are only read.  clang-14 and its runtime libraries
# are installed with apt-get when missing, as scripts/bootstrap.sh installs
# the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

all=(cfg kernel cfront mtx edges topology onnx scalesim results)
secs=60
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
	secs=$1
	shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
	if [[ ! " ${all[*]} " =~ " $t " ]]; then
		echo "fuzz: unknown target '$t' (targets: ${all[*]})" >&2
		exit 2
	fi
done

. scripts/install-missing.sh
install_missing fuzz clang-14 libclang-rt-14-dev

dir=build-fuzz
cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang-14 \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDSE_FUZZ=ON >/dev/null
cmake --build "$dir" -j"$(nproc)" \
	$(printf -- '--target fuzz_%s ' "${targets[@]}") >/dev/null

# Allocations above 1 GiB fail instead of succeeding: a corrupt size field
# that asks for more must end in the code's out-of-memory error, which is
# then exercised, rather than in the machine swapping.  Leaks are checked
# after every input, but for isl's, HDF5's and OpenMPI's own (see
# fuzz/lsan.supp).  Thread-local storage is not scanned for pointers
# (use_tls=0): on Debian 12 LeakSanitizer's walk of the dynamic TLS that
# the OpenMPI libraries set up crashes the checker itself ("Tracer caught
# signal 11", "LeakSanitizer has encountered a fatal error") at some
# memory layouts, which libFuzzer then reports as a crash of the empty
# input.  One OpenMP thread: the machine is shared.
export ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=1
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp:use_tls=0
export UBSAN_OPTIONS=print_stacktrace=1
export OMP_NUM_THREADS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

found=0
summary=()
for t in "${targets[@]}"; do
	work="$dir/fuzz-corpus/$t"
	art="$dir/fuzz-artifacts/$t"
	log="$dir/fuzz-$t.log"
	mkdir -p "$work" "$art"
	seeds=(fuzz/corpus/$t)
	# The C reader also starts from the example kernels themselves,
	# rather than from copies of them that would drift apart.
	[ "$t" = cfront ] && seeds+=(configs/kernels)
	[ -d fuzz/regressions/$t ] && seeds+=(fuzz/regressions/$t)
	before=$(ls "$art" | wc -l)
	echo "fuzz: $t for $secs s (log in $log)" >&2
	status=0
	"$dir/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=30 \
		-rss_limit_mb=3072 -print_final_stats=1 \
		-artifact_prefix="$art/" "$work" "${seeds[@]}" \
		>"$log" 2>&1 || status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
	# libFuzzer also keeps inputs slower than 10 s as slow-unit-*: they
	# are reported, not counted as failures.
	new=$(($(ls "$art" | wc -l) - before))
	recent=""
	[ "$new" -gt 0 ] && recent=$(ls -t "$art" | sed -n "1,${new}p")
	kinds=$(sed -n 's/-.*//p' <<<"$recent" | sort | uniq -c |
		awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')
	bad=$(grep -c '^[a-z]' <<<"$recent" | tr -d ' ' || true)
	bad=$((bad - $(grep -c '^slow-unit-' <<<"$recent" || true)))
	if [ "$status" -ne 0 ] || [ "$bad" -gt 0 ]; then
		found=1
		what="FOUND ${kinds:-a failure (exit $status)}: see $log"
	elif [ "$new" -gt 0 ]; then
		what="0 crashes ($kinds)"
	else
		what="0 crashes"
	fi
	summary+=("$(printf '%-9s %10s runs  %7s/s  cov %6s  ft %6s  %s' "$t" \
		"${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$what")")
done

echo "fuzz: $secs s per target"
printf '  %s\n' "${summary[@]}"
exit $found
