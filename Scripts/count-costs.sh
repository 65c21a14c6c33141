#!/usr/bin/env bash
# Instructions and heap allocations per operation of the engine's cheapest operations, each
# beside its raw Swift baseline: counts, not times, so the figures hold on a noisy machine.
#
# Each workload of `TaskFlowBenchmarks counts <workload> <n>` runs at two sizes, S and L, under
#   - valgrind --tool=callgrind: every instruction executed ("Collected" in its log), and
#   - valgrind --tool=memcheck:  every heap allocation ("total heap usage: N allocs": malloc,
#                                calloc, realloc, memalign and friends; the Swift runtime's
#                                and the program's alike);
# and the figure per operation is (count(L) - count(S)) / (L - S): start-up, the first flow's
# lazy set-up and exit are the same at both sizes and cancel. Every run is pinned to one CPU
# (see `pin` below), so the counts repeat: allocations exactly, instructions mostly within about
# 1 % per operation (4 % seen on raw-group-child; once, raw-task at 2,000/4,000 counted 5.5 k,
# then 6.1 k and 6.6 k): measure a small change at 3,000/6,000, twice.
# The whole run takes about three minutes; a profile adds seconds.
#
# Usage: Scripts/count-costs.sh [--binary PATH] [--sizes S,L] [--workloads a,b,…]
#                               [--profile WORKLOAD]… [--top N] [--keep DIR]
#   --binary PATH     count this TaskFlowBenchmarks instead of building it (swift build -c release)
#   --sizes S,L       the two sizes (default 2000,4000; lock-mix needs multiples of 1000)
#   --workloads LIST  only these workloads (default: all; a TaskFlow workload brings its baseline)
#   --profile W       also list W's top functions per operation (the two sizes' profiles compared
#                     function by function): by inclusive and by self instructions, self
#                     instructions by object file, and allocations by the functions on their
#                     stacks (memcheck's xtree); repeatable
#   --top N           how many functions --profile lists (default 10)
#   --keep DIR        keep valgrind's outputs in DIR (default: a temporary folder, removed)
set -euo pipefail

die() { echo "count-costs: $*" >&2; exit 1; }

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

binary="" sizes="2000,4000" only="" top=10 keep=""
profiles=()
while (($#)); do
    case "$1" in
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        --sizes) sizes=${2:?--sizes needs S,L}; shift 2 ;;
        --workloads) only=${2:?--workloads needs a list}; shift 2 ;;
        --profile) profiles+=("${2:?--profile needs a workload}"); shift 2 ;;
        --top) top=${2:?--top needs a number}; shift 2 ;;
        --keep) keep=${2:?--keep needs a folder}; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done

[[ $sizes =~ ^([0-9]+),([0-9]+)$ ]] || die "--sizes must be S,L (two whole numbers), not '$sizes'"
small=${BASH_REMATCH[1]} large=${BASH_REMATCH[2]}
((small > 0 && large > small)) || die "--sizes needs 0 < S < L, not $small,$large"
[[ $top =~ ^[0-9]+$ ]] || die "--top must be a whole number, not '$top'"
command -v valgrind >/dev/null || die "valgrind is not installed (apt-get install valgrind)"
if ((${#profiles[@]})); then
    command -v callgrind_annotate >/dev/null || die "callgrind_annotate is not installed (it comes with valgrind)"
fi

if [[ -z $binary ]]; then
    echo "· building TaskFlowBenchmarks (release)…" >&2
    (cd "$root" && swift build -c release --product TaskFlowBenchmarks >&2) || die "the release build failed"
    binary="$root/.build/release/TaskFlowBenchmarks"
fi
[[ -x $binary ]] || die "no executable at $binary"

# The workloads and their baselines, as the binary lists them (CountWorkload in
# CountsBenchmark.swift): `counts --list` prints "workload baseline" lines, "-" for none.
listing=$("$binary" counts --list) || die "$binary cannot list its workloads (counts --list): build it again"
all_workloads=()
declare -A baselines=()
while read -r workload baseline; do
    all_workloads+=("$workload")
    [[ $baseline == - ]] || baselines[$workload]=$baseline
done <<<"$listing"

baseline_of() { echo "${baselines[$1]:-}"; }

is_workload() {
    local w
    for w in "${all_workloads[@]}"; do [[ $w == "$1" ]] && return 0; done
    return 1
}

# The workloads to count, in the table's order; a TaskFlow workload brings its baseline along.
workloads=()
if [[ -z $only ]]; then
    workloads=("${all_workloads[@]}")
else
    IFS=, read -r -a asked <<<"$only"
    for w in "${all_workloads[@]}"; do
        for a in "${asked[@]}" "${profiles[@]}"; do
            if [[ $a == "$w" || $(baseline_of "$a") == "$w" ]]; then workloads+=("$w"); break; fi
        done
    done
    for a in "${asked[@]}"; do is_workload "$a" || die "unknown workload '$a'; workloads: ${all_workloads[*]}"; done
fi
for p in "${profiles[@]}"; do
    is_workload "$p" || die "unknown workload '$p' for --profile; workloads: ${all_workloads[*]}"
    [[ " ${workloads[*]} " == *" $p "* ]] || workloads+=("$p")
done

if [[ -n $keep ]]; then
    mkdir -p "$keep"
    out=$(cd "$keep" && pwd)
else
    out=$(mktemp -d "${TMPDIR:-/tmp}/count-costs.XXXXXX")
    trap 'rm -rf "$out"' EXIT
fi

# Two work-arounds for valgrind 3.19 (Debian 12's) with a Swift 6 program; both leave the code
# that runs unchanged, so the counts are the binary's own:
# - It gives up reading the DWARF 5 debug information swiftc writes ("Possibly corrupted
#   debuginfo file"): it counts a copy without debug information (the symbols stay, so
#   profiles still name every function).
# - Its rt_sigsuspend wrapper writes into the signal mask it is given, and libdispatch's main
#   thread (parked for good under an async `main`) passes one in read-only memory: valgrind
#   crashes ("the 'impossible' happened"). A preloaded sigsuspend passes a copy on the stack.
objcopy=$(command -v objcopy || command -v llvm-objcopy) || die "objcopy is not installed (apt-get install binutils)"
cc=$(command -v "${CC:-cc}" || command -v clang) || die "no C compiler to build the sigsuspend shim (apt-get install gcc)"
"$objcopy" --strip-debug "$binary" "$out/TaskFlowBenchmarks" || die "could not copy $binary without its debug information"
binary="$out/TaskFlowBenchmarks"
cat >"$out/sigsuspend-shim.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
/* sigsuspend with the mask copied to the stack, where valgrind may write. */
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
C
"$cc" -shared -fPIC -O2 -o "$out/sigsuspend-shim.so" "$out/sigsuspend-shim.c" || die "could not build the sigsuspend shim"

# One CPU: libdispatch sizes the pool the tasks run on from the CPUs the process may use, and
# valgrind runs one thread at a time anyway. With one, which thread runs what no longer depends
# on timing, and the counts repeat (allocations exactly, instructions within a few per
# operation); with two, thread wake-ups and new pool threads come and go from run to run (±10 %
# per operation seen). Both sides of every ratio are counted the same way.
pin=()
if command -v taskset >/dev/null; then
    cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
    [[ $cpu =~ ^[0-9]+$ ]] || die "could not tell which CPU this process may use (taskset -pc $$)"
    pin=(taskset -c "$cpu")
else
    echo "count-costs: taskset is missing (util-linux): the counts will vary from run to run" >&2
fi

is_profiled() { [[ " ${profiles[*]} " == *" $1 "* ]]; }

# Runs `counts $1 $2` under valgrind's tool $3 (callgrind or memcheck); prints the count. A
# profiled workload's memcheck run also records every allocation's call stack (an xtree).
count() {
    local workload=$1 n=$2 tool=$3 base="$out/$1.$2.$3" figure
    local options=(--tool="$tool" --log-file="$base.log")
    case "$tool" in
        callgrind) options+=(--callgrind-out-file="$base.out") ;;
        memcheck)
            options+=(--leak-check=no --undef-value-errors=no)
            if is_profiled "$workload"; then
                options+=(--xtree-memory=full --xtree-memory-file="$base.xtree" --num-callers=64)
            fi
            ;;
    esac
    if ! "${pin[@]}" env LD_PRELOAD="$out/sigsuspend-shim.so" valgrind "${options[@]}" "$binary" counts "$workload" "$n" \
        >"$base.stdout" 2>&1; then
        cat "$base.stdout" >&2
        tail -n 20 "$base.log" >&2 || true
        die "$workload × $n under $tool failed (logs above)"
    fi
    case "$tool" in
        callgrind) figure=$(sed -n 's/.*Collected : *\([0-9][0-9]*\).*/\1/p' "$base.log" | tail -n 1) ;;
        memcheck) figure=$(sed -n 's/.*total heap usage: *\([0-9,]*\) allocs.*/\1/p' "$base.log" | tail -n 1 | tr -d ,) ;;
    esac
    [[ $figure =~ ^[0-9]+$ ]] || die "no count in $base.log (valgrind $(valgrind --version))"
    echo "$figure"
}

declare -A instructions allocations
started=$SECONDS
for w in "${workloads[@]}"; do
    printf '· %-22s' "$w" >&2
    for tool in callgrind memcheck; do
        s=$(count "$w" "$small" "$tool")
        l=$(count "$w" "$large" "$tool")
        per=$(awk -v s="$s" -v l="$l" -v d=$((large - small)) 'BEGIN { printf "%.2f", (l - s) / d }')
        if [[ $tool == callgrind ]]; then instructions[$w]=$per; else allocations[$w]=$per; fi
    done
    printf ' %12s instructions/op %8s allocations/op  (%ds so far)\n' \
        "${instructions[$w]}" "${allocations[$w]}" $((SECONDS - started)) >&2
done

# The table: every TaskFlow workload beside its baseline and the ratios, then the baselines.
echo
echo "Instructions and heap allocations per operation: (count(n=$large) - count(n=$small)) / $((large - small)), valgrind $(valgrind --version | sed 's/valgrind-//')"
{
    printf 'workload\tinstructions/op\tallocations/op\tbaseline\tbaseline instructions/op\tbaseline allocations/op\tinstructions ×\tallocations ×\n'
    for w in "${workloads[@]}"; do
        b=$(baseline_of "$w")
        if [[ -n $b && -n ${instructions[$b]:-} ]]; then
            awk -v w="$w" -v b="$b" -v i="${instructions[$w]}" -v a="${allocations[$w]}" \
                -v bi="${instructions[$b]}" -v ba="${allocations[$b]}" 'BEGIN {
                    ir = bi > 0 ? sprintf("%.2f×", i / bi) : "—"
                    ar = ba > 0 ? sprintf("%.2f×", a / ba) : "—"
                    printf "%s\t%.0f\t%.2f\t%s\t%.0f\t%.2f\t%s\t%s\n", w, i, a, b, bi, ba, ir, ar }'
        fi
    done
    for w in "${workloads[@]}"; do
        [[ -z $(baseline_of "$w") ]] || continue
        awk -v w="$w" -v i="${instructions[$w]}" -v a="${allocations[$w]}" \
            'BEGIN { printf "%s\t%.0f\t%.2f\t—\t\t\t\t\n", w, i, a }'
    done
} | column -t -s $'\t' -o '  '

# Top functions per operation: each function's count in the large run minus the small one, over
# L - S, as a share of the whole program's count per operation.
#
# Async functions are split into partial functions (each the part up to a suspension) that
# tail-call one another under the executor's job loop, so an inclusive figure is the rest of a
# chain of partials, not a call tree: each name keeps its largest partial, and the executor's
# own frames (threads, libdispatch, the job loop, task switches, recursion cycles) and this
# harness's driver are left out, as they include nearly everything. The self figures (a
# function's own instructions, its partials added up) have no such caveat.
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }

# Prints "per-op<TAB>function" for every function of $1's profile $2 whose count grew with n:
# $2 is inclusive or self (instructions, from callgrind) or allocations (memcheck's xtree, where
# each function counts every allocation made while it is on the stack).
per_op_functions() {
    local workload=$1 kind=$2 n file
    for n in "$small" "$large"; do
        case "$kind" in
            inclusive) options=(--inclusive=yes) file="$out/$workload.$n.callgrind.out" ;;
            self) options=(--inclusive=no) file="$out/$workload.$n.callgrind.out" ;;
            allocations) options=(--show=totBk --sort=totBk) file="$out/$workload.$n.memcheck.xtree" ;;
        esac
        callgrind_annotate "${options[@]}" --threshold=100 --auto=no "$file" >"$out/$workload.$n.$kind.txt" ||
            die "callgrind_annotate failed on $file"
    done
    awk -v d=$((large - small)) '
        # A line of the function list: "1,234,567 (12.34%)  file:function [object]".
        /^ *[0-9,]+ +\([ 0-9.]+%\) +/ {
            count = $1; gsub(/,/, "", count)
            name = $0; sub(/^ *[0-9,]+ +\([ 0-9.]+%\) +/, "", name)
            sub(/^[^:]*:/, "", name)         # the source file: "???" without debug information
            sub(/ \[[^]]*\]$/, "", name)   # the object file
            if (FNR == NR) small[name] += count; else large[name] += count
        }
        END {
            for (name in large) {
                per = (large[name] - small[name]) / d
                if (per >= 0.005) printf "%.2f\t%s\n", per, name
            }
        }' "$out/$workload.$small.$kind.txt" "$out/$workload.$large.$kind.txt"
}

# Merges the lines of per_op_functions by demangled name (the sum of self counts; the largest of
# inclusive ones, which would count a chain of partials many times over if added) and prints the
# top $top with their shares of $2 per op, names cut at 150 characters.
top_functions() {
    local kind=$1 total=$2
    demangle | awk -F '\t' -v kind="$kind" '
        $2 == "PROGRAM TOTALS" { next }
        kind != "self" && ($2 ~ /^(start_thread|clone|_dispatch_|__swift_run_job|jobInvoke|swift_job_run|swift::runJobInEstablishedExecutorContext|swift_task_switch|future_adapter|task_wait_throwing_resume_adapter)/ || $2 ~ /'"'"'[0-9]+$/ || $2 ~ /(^| in )count[A-Z][A-Za-z]*\(/) { next }
        { if (kind == "self") per[$2] += $1; else if ($1 > per[$2]) per[$2] = $1 }
        END { for (name in per) printf "%.2f\t%s\n", per[name], name }' |
        sort -t $'\t' -k1,1gr | awk -F '\t' -v total="$total" -v top="$top" -v kind="$kind" '
            NR <= top {
                figure = kind == "allocations" ? sprintf("%.2f", $1) : sprintf("%.0f", $1)
                printf "%10s/op  %5.1f%%  %s\n", figure, 100 * $1 / total, substr($2, 1, 150)
            }'
}

# Prints $1's self instructions per operation by object file (the program, libswiftCore,
# the concurrency runtime, libc's malloc, libdispatch…), largest first, with shares of $2.
per_op_objects() {
    local workload=$1 total=$2
    awk -v d=$((large - small)) -v total="$total" '
        /^ *[0-9,]+ +\([ 0-9.]+%\) +.* \[[^]]*\]$/ {
            count = $1; gsub(/,/, "", count)
            object = $0; sub(/.* \[/, "", object); sub(/\]$/, "", object); sub(/.*\//, "", object)
            if (FNR == NR) small[object] += count; else large[object] += count
        }
        END {
            for (object in large) {
                per = (large[object] - small[object]) / d
                if (per >= 1) printf "%10.0f/op  %5.1f%%  %s\n", per, 100 * per / total, object
            }
        }' "$out/$workload.$small.self.txt" "$out/$workload.$large.self.txt" | sort -k1,1gr
}

for p in "${profiles[@]}"; do
    echo
    echo "$p: top $top functions by inclusive instructions per operation (share of ${instructions[$p]}):"
    per_op_functions "$p" inclusive | top_functions inclusive "${instructions[$p]}"
    echo
    echo "$p: top $top functions by self instructions per operation:"
    per_op_functions "$p" self | top_functions self "${instructions[$p]}"
    echo
    echo "$p: self instructions per operation by object file:"
    per_op_objects "$p" "${instructions[$p]}"
    echo
    echo "$p: top $top functions by allocations made under them per operation (share of ${allocations[$p]}):"
    per_op_functions "$p" allocations | top_functions allocations "${allocations[$p]}"
done
