#!/usr/bin/env bash
# The PostgreSQL submit figures side by side with a peer job queue, on one server in one run:
# TaskFlow's "submit one at a time" and "submit one at a time, 8 callers" (from
# `TaskFlowBenchmarks postgres`, which also prints its other PostgreSQL figures) beside the same
# figures from a peer's harness, R rounds, alternating which side goes first each round.
#
# The peer is a program given with --peer-binary: it reads the same environment as
# `TaskFlowBenchmarks postgres` (TASKFLOW_BENCH_POSTGRES_URL, TASKFLOW_BENCH_POSTGRES_JOBS,
# PGPASSWORD), times min(jobs, 4000) one-job submits from 1 caller and from 8 callers at once on
# tables it empties first, as TaskFlow's benchmark does, and prints one line per figure:
#   submit-1 <jobs/s>
#   submit-8 <jobs/s>
# This script never builds the peer, and the peer is never a dependency of TaskFlow: how the
# figures in StorePerformance.md were taken for swift-jobs-postgres is written there.
#
# The server: TASKFLOW_BENCH_POSTGRES_URL, else TASKFLOW_TEST_POSTGRES_URL (Scripts/postgres-server.sh
# prints one); its swift_jobs and taskflow tables are emptied. Without an sslmode in the URL,
# sslmode=disable is added, for both sides alike.
#
# Prints, per figure, the range over the rounds of each side's jobs/s and of the ratio
# TaskFlow ÷ peer taken round by round, against the target ≥ 1.0×: met if every round's ratio
# is, missed if none is, mixed otherwise. Exits non-zero only if something could not be run.
#
# Usage: Scripts/peer-postgres-bench.sh --peer-binary PATH [--binary PATH] [--rounds R]
#                                       [--peer-name NAME] [--jobs N] [--keep DIR]
#   --peer-binary PATH  the peer's harness (see above)
#   --peer-name NAME    the peer's name in the table (default swift-jobs-postgres)
#   --binary PATH       TaskFlowBenchmarks built with --traits Postgres (default: builds it,
#                       swift build -c release --traits Postgres --product TaskFlowBenchmarks)
#   --rounds R          rounds (default 3)
#   --jobs N            TASKFLOW_BENCH_POSTGRES_JOBS for both sides (default 4000; the submit
#                       figures take min(N, 4000))
#   --keep DIR          keep each round's outputs in DIR (default: a temporary folder, removed)
set -euo pipefail

die() { echo "peer-postgres-bench: $*" >&2; exit 1; }

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

binary="" peer="" peer_name=swift-jobs-postgres rounds=3 jobs=4000 keep=""
while (($#)); do
    case "$1" in
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        --peer-binary) peer=${2:?--peer-binary needs a path}; shift 2 ;;
        --peer-name) peer_name=${2:?--peer-name needs a name}; shift 2 ;;
        --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
        --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
        --keep) keep=${2:?--keep needs a folder}; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done

[[ $rounds =~ ^[0-9]+$ ]] && ((rounds > 0)) || die "--rounds must be a whole number above 0, not '$rounds'"
[[ $jobs =~ ^[0-9]+$ ]] && ((jobs > 0)) || die "--jobs must be a whole number above 0, not '$jobs'"
[[ -n $peer ]] || { usage >&2; die "--peer-binary is required: the peer's harness to run"; }
[[ -x $peer ]] || die "--peer-binary $peer is not an executable file"
command -v python3 >/dev/null || die "python3 is not installed (it reads the benchmark's JSON)"

url=${TASKFLOW_BENCH_POSTGRES_URL:-${TASKFLOW_TEST_POSTGRES_URL:-}}
[[ -n $url ]] || die "no server: set TASKFLOW_BENCH_POSTGRES_URL or TASKFLOW_TEST_POSTGRES_URL (eval \"\$(Scripts/postgres-server.sh start DIR)\" starts one)"
[[ $url == *sslmode=* ]] || url="$url$([[ $url == *\?* ]] && echo '&' || echo '?')sslmode=disable"
# Is anything listening there? (Both sides would fail later, with less to say.)
python3 - "$url" 2>/dev/null <<'EOF' || die "no PostgreSQL server answers at the URL's host and port (is it started?)"
import socket, sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
socket.create_connection((u.hostname or "localhost", u.port or 5432), timeout=5).close()
EOF

if [[ -z $binary ]]; then
    echo "· building TaskFlowBenchmarks (release, --traits Postgres)…" >&2
    (cd "$root" && swift build -c release --traits Postgres --product TaskFlowBenchmarks >&2) || die "the build failed"
    binary="$root/.build/release/TaskFlowBenchmarks"
fi
[[ -x $binary ]] || die "--binary $binary is not an executable file"

if [[ -n $keep ]]; then
    mkdir -p "$keep"
    out=$keep
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi

export TASKFLOW_BENCH_POSTGRES_URL=$url TASKFLOW_BENCH_POSTGRES_JOBS=$jobs

ours() {
    echo "· round $1: TaskFlow…" >&2
    "$binary" postgres --json "$out/taskflow-$1.json" >"$out/taskflow-$1.txt" 2>&1 ||
        die "TaskFlowBenchmarks postgres failed in round $1: $(tail -5 "$out/taskflow-$1.txt")"
    grep -q 'submit one at a time' "$out/taskflow-$1.txt" ||
        die "TaskFlowBenchmarks printed no submit figures in round $1 (built without --traits Postgres?): $(tail -3 "$out/taskflow-$1.txt")"
}
theirs() {
    echo "· round $1: peer…" >&2
    "$peer" >"$out/peer-$1.txt" 2>"$out/peer-$1.err" || die "the peer's harness failed in round $1: $(tail -5 "$out/peer-$1.err")"
}

started=$(date +%s)
for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then ours "$round"; theirs "$round"; else theirs "$round"; ours "$round"; fi
done
echo "· $rounds round(s) in $(($(date +%s) - started)) s" >&2

python3 - "$out" "$rounds" "$peer_name" <<'EOF'
import json, re, sys

out, rounds, peer_name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# The peer's key for each figure, and the figure's name in TaskFlow's report (and the table).
figures = [("submit-1", "submit one at a time"), ("submit-8", "submit one at a time, 8 callers")]

def rate(text):
    """'2.21 kjobs/s' → 2210.0 (TaskFlowBenchmarks keeps 3 significant digits)."""
    m = re.match(r"\s*([\d.,]+)\s*([kM]?)jobs/s", text)
    if not m:
        sys.exit(f"peer-postgres-bench: cannot read a rate from {text!r}")
    return float(m.group(1).replace(",", "")) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]

rows = {key: {"ours": [], "raw": [], "peer": []} for key, _ in figures}
for r in range(1, rounds + 1):
    report = json.load(open(f"{out}/taskflow-{r}.json"))
    found = {row["figure"]: row for table in report["tables"] for row in table["rows"]}
    peer = dict(line.split() for line in open(f"{out}/peer-{r}.txt") if line.strip())
    for key, name in figures:
        row = next((v for k, v in found.items() if re.fullmatch(re.escape(name) + r" \(\d+\)", k)), None)
        if row is None or key not in peer:
            sys.exit(f"peer-postgres-bench: round {r} has no '{name}' figure on both sides")
        rows[key]["ours"].append(rate(row["taskflow"]))
        rows[key]["raw"].append(rate(row["baseline"]))
        rows[key]["peer"].append(float(peer[key]))

def fmt(v):
    return f"{v:,.0f}"

def span(values, f=fmt):
    lo, hi = min(values), max(values)
    return f(lo) if f(lo) == f(hi) else f"{f(lo)}–{f(hi)}"

header = ["figure", "TaskFlow jobs/s", f"{peer_name} jobs/s", "ratio (per round)", "target", "", "raw postgres-nio jobs/s"]
lines = []
for key, label in figures:
    v = rows[key]
    ratios = [o / p for o, p in zip(v["ours"], v["peer"])]
    verdict = "met" if min(ratios) >= 1.0 else "missed" if max(ratios) < 1.0 else "mixed"
    lines.append([label, span(v["ours"]), span(v["peer"]), span(ratios, lambda x: f"{x:.2f}×"), "≥ 1.0×", verdict, span(v["raw"])])
widths = [max(len(str(row[i])) for row in [header] + lines) for i in range(len(header))]
print(f"PostgreSQL submits, TaskFlow beside {peer_name}: {rounds} round(s), ranges over the rounds")
for row in [header] + lines:
    print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip())
EOF
