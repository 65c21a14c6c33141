#!/usr/bin/env bash
# Soak: runs Scripts/soak.toml (an hour of steady flows) headless through a release build of
# taskflow and samples its resident memory, to show that it stays flat however long it runs.
#   Scripts/soak.sh [minutes-between-samples]      (default 5)
# Prints one line per sample and, at the end, the spread after the first ten minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
interval=$(( ${1:-5} * 60 ))
swift build -c release --product taskflow >&2
binary=$(swift build -c release --show-bin-path)/taskflow
"$binary" run Scripts/soak.toml --headless > /dev/null &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
start=$(date +%s)
samples=()
echo "minute  rss_mb"
while kill -0 "$pid" 2>/dev/null; do
    rss_kb=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss_kb" ] || break
    minute=$(( ($(date +%s) - start) / 60 ))
    awk -v m="$minute" -v kb="$rss_kb" 'BEGIN { printf "%6d  %6.1f\n", m, kb / 1024 }'
    [ "$minute" -lt 10 ] || samples+=("$rss_kb")
    sleep "$interval"
done
wait "$pid" || echo "taskflow exited with status $?" >&2
if [ ${#samples[@]} -gt 1 ]; then
    printf '%s\n' "${samples[@]}" | sort -n | awk 'NR == 1 { low = $1 } { high = $1 } END {
        printf "after minute 10: low %.1f MB, high %.1f MB, spread %.1f MB\n", low / 1024, high / 1024, (high - low) / 1024 }'
fi
