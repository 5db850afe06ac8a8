#!/usr/bin/env bash
# What one process run costs, stage by stage, per harness: the bench executable's start (no benchmark
# selected), its listing (`--list`), a run with cargo-speedup's per-run settings, and, for criterion, the
# same run with criterion's own analysis settings (100,000 bootstrap resamples and plots) to show what the
# per-run settings cut. See calibrate/README.md; the figures are in docs/replication.md §6.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: calibrate/run-cost.sh [-n N] [--out DIR] [--keep] [--crate NAME@VERSION:FILTER]...

For each crate (criterion or divan, told by its dev-dependencies): builds its bench targets (release, as
`cargo bench` does), then times each stage of a process run N times per bench target, and prints the
medians (seconds of wall time, and CPU seconds, user + system):

  start        the executable with a filter that selects nothing: process start and the harness's set-up
  list         the harness's listing of the selected benchmarks (`--list`), which cargo-speedup runs once
               per revision and target
  run          one run of the selected benchmarks with cargo-speedup's per-run settings (criterion:
               --warm-up-time 0.1 --measurement-time 0.2 --sample-size 10 --nresamples 1000 --noplot;
               divan: --sample-count 10 --min-time 0.2 --max-time 0.3)
  run-bootstrap  criterion only: the same run with criterion's own bootstrap (--nresamples 100000)
  run-default  criterion only: the same with criterion's plots as well (its defaults but the times)
  fixed/bench  (run - start) / benchmarks - the time asked (criterion: 0.3 s of warm-up and
               measurement; divan: --min-time 0.2 s): what each benchmark costs beyond it (criterion's
               analysis and files, divan's calibration of its sample size)

Options:
  --crate NAME@VERSION:FILTER  [default: seahash@4.1.0 and base64@0.22.1 (criterion), bytesize@2.7.0 (divan),
                               with the filters of calibrate/run.sh]
  -n N                         repetitions of each stage [default: 5]
  --out DIR                    where summary.txt and stages.jsonl go [default: a new temporary directory]
  --keep                       keep the temporary crate directories
Needs bash, cargo, jq, python3, setsid and the crates.io registry.
Exit status: 0 done (whatever the figures), 2 on a failure (the message says which step).
EOF
}

die() {
    printf 'run-cost: error: %s\n' "$*" >&2
    exit 2
}
note() { printf 'run-cost: %s\n' "$*" >&2; }

REPO_ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=calibrate/lib.sh
source "$REPO_ROOT/calibrate/lib.sh"

N=5
OUT=''
KEEP=0
CRATES=()
while [[ $# -gt 0 ]]; do
    case $1 in
        -h | --help) usage; exit 0 ;;
        -n) need_value "$@"; N=$2; shift 2 ;;
        --out) need_value "$@"; OUT=$2; shift 2 ;;
        --keep) KEEP=1; shift ;;
        --crate) need_value "$@"; CRATES+=("$2"); shift 2 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[[ $N =~ ^[1-9][0-9]*$ ]] || die "-n takes a positive whole number, not '$N'"
[[ ${#CRATES[@]} -gt 0 ]] || CRATES=(
    'seahash@4.1.0:^(buffer|stream)/(4096|16384)$'
    'base64@0.22.1:^(encode_small_input/encode(_slice|_reuse_buf)?|decode_small_input/decode(_slice|_reuse_buf)?)/3072$'
    'bytesize@2.7.0:^display::display_'
)
for tool in cargo jq python3 setsid; do
    command -v "$tool" >/dev/null || die "$tool is needed and not on the PATH"
done

work_and_out run-cost
STAGES="$OUT/stages.jsonl"
: >"$STAGES"

# Times "$@" once in DIR with CRITERION_HOME under WORK: prints "WALL CPU" in seconds.
time_once() {
    local dir=$1 start end cpu
    shift
    start=$(now)
    cpu=$( { TIMEFORMAT='%U %S'; time (cd "$dir" && CRITERION_HOME="$WORK/criterion-home" NEXTEST=1 \
        "$@" >/dev/null 2>&1); } 2>&1 | awk '{print $1 + $2}') || die "failed: $*"
    end=$(now)
    printf '%s %s\n' "$(echo "$end - $start" | bc -l)" "$cpu"
}

# Times STAGE N times and appends one JSON line per repetition.
stage() {
    local crate=$1 target=$2 stage=$3 benches=$4 dir=$5 i wall cpu
    shift 5
    for ((i = 1; i <= N; i++)); do
        read -r wall cpu < <(time_once "$dir" "$@")
        jq -nc --arg crate "$crate" --arg target "$target" --arg stage "$stage" --argjson benches "$benches" \
            --argjson wall "$wall" --argjson cpu "$cpu" \
            '{crate: $crate, target: $target, stage: $stage, benchmarks: $benches, wall: $wall, cpu: $cpu}' \
            >>"$STAGES"
    done
}

for spec in "${CRATES[@]}"; do
    crate=${spec%%:*}
    crate_dir=${crate/@/-}
    filter=''
    [[ $spec == *:* ]] && filter=${spec#*:}
    name=${crate%@*}
    version=${crate#*@}
    repo="$WORK/$name-$version"
    note "$crate: fetching"
    fetch_crate "$name" "$version" "$repo"
    # The setup patch run.sh applies (a published bench file that needs a change to build or to set no
    # times of its own), so that the stages are those of the runs calibrate/run.sh measures.
    setup="$REPO_ROOT/calibrate/patches/$crate_dir.setup.patch"
    [[ ! -f $setup ]] || (cd "$repo" && patch -p1 --quiet <"$setup") || die "$crate: $setup does not apply"
    meta=$(cd "$repo" && cargo metadata --format-version 1 --no-deps) || die "$crate: cargo metadata failed"
    kinds=$(jq -r --arg n "$name" '[.packages[] | select(.name == $n) | .dependencies[] | select(.kind == "dev") | .name] | join(" ")' <<<"$meta")
    if [[ " $kinds " == *" criterion "* ]]; then
        harness=criterion
    elif [[ " $kinds " == *" divan "* ]]; then
        harness=divan
    else
        die "$crate: neither criterion nor divan is a dev-dependency"
    fi
    note "$crate: building its bench targets ($harness)"
    run_in "$repo" cargo bench --no-run --message-format=json >"$WORK/$name-build.jsonl" 2>"$WORK/$name-build.log" || {
        run_in "$repo" cargo generate-lockfile --quiet
        run_in "$repo" cargo bench --no-run --message-format=json >"$WORK/$name-build.jsonl" 2>"$WORK/$name-build.log"
    } || { cat "$WORK/$name-build.log" >&2; die "$crate: cargo bench --no-run failed"; }
    mapfile -t executables < <(jq -r 'select(.reason == "compiler-artifact" and .target.kind == ["bench"] and .executable != null) | .executable' "$WORK/$name-build.jsonl")
    [[ ${#executables[@]} -gt 0 ]] || die "$crate: no bench executable was built"
    for exe in "${executables[@]}"; do
        target=$(basename "$exe")
        target=${target%-*}
        if [[ $harness == criterion ]]; then
            benches=$(cd "$repo" && "$exe" --bench --list ${filter:+"$filter"} 2>/dev/null | grep -c ': bench' || true)
            [[ $benches -gt 0 ]] || continue
            note "$crate: $target, $benches benchmarks"
            stage "$crate" "$target" start 0 "$repo" "$exe" --bench '^cargo-speedup-selects-nothing$'
            stage "$crate" "$target" list "$benches" "$repo" "$exe" --bench --list ${filter:+"$filter"}
            stage "$crate" "$target" run "$benches" "$repo" "$exe" --bench ${filter:+"$filter"} \
                --save-baseline cost --warm-up-time 0.1 --measurement-time 0.2 --sample-size 10 \
                --nresamples 1000 --noplot
            stage "$crate" "$target" run-bootstrap "$benches" "$repo" "$exe" --bench ${filter:+"$filter"} \
                --save-baseline cost --warm-up-time 0.1 --measurement-time 0.2 --sample-size 10 --noplot
            stage "$crate" "$target" run-default "$benches" "$repo" "$exe" --bench ${filter:+"$filter"} \
                --save-baseline cost --warm-up-time 0.1 --measurement-time 0.2 --sample-size 10
        else
            benches=$(cd "$repo" && NEXTEST=1 "$exe" --list --format terse ${filter:+"$filter"} 2>/dev/null | grep -c ': bench' || true)
            [[ $benches -gt 0 ]] || continue
            note "$crate: $target, $benches benchmarks"
            stage "$crate" "$target" start 0 "$repo" "$exe" --bench --exact cargo-speedup-selects-nothing
            stage "$crate" "$target" list "$benches" "$repo" "$exe" --list --format terse ${filter:+"$filter"}
            stage "$crate" "$target" run "$benches" "$repo" "$exe" --bench --color never --sample-count 10 \
                --min-time 0.2 --max-time 0.3 ${filter:+"$filter"}
        fi
    done
done

python3 - "$STAGES" >"$OUT/summary.txt" <<'EOF'
import json, statistics, sys
from collections import defaultdict

rows = [json.loads(line) for line in open(sys.argv[1])]
by = defaultdict(list)
benches = {}
for r in rows:
    by[(r["crate"], r["target"], r["stage"])].append(r)
    if r["stage"] == "run":
        benches[(r["crate"], r["target"])] = r["benchmarks"]
print(f"{'crate':<16} {'target':<18} {'stage':<12} {'wall s':>8} {'cpu s':>8}")
for (crate, target, stage), rs in by.items():
    wall = statistics.median(r["wall"] for r in rs)
    cpu = statistics.median(r["cpu"] for r in rs)
    print(f"{crate:<16} {target:<18} {stage:<12} {wall:>8.3f} {cpu:>8.3f}")
print()
print("fixed cost per benchmark beyond the time asked, (run - start) / benchmarks - asked (criterion 0.3 s,")
print("divan 0.2 s), wall and CPU:")
for (crate, target), n in benches.items():
    start = statistics.median(r["wall"] for r in by[(crate, target, "start")])
    asked = 0.3 if (crate, target, "run-default") in by else 0.2
    for stage in ("run", "run-bootstrap", "run-default"):
        rs = by.get((crate, target, stage))
        if rs:
            run = statistics.median(r["wall"] for r in rs)
            cpu = statistics.median(r["cpu"] for r in rs)
            print(f"  {crate} {target} {stage}: {((run - start) / n - asked) * 1000:.0f} ms wall, "
                  f"{cpu / n * 1000:.0f} ms CPU per benchmark")
EOF
cat "$OUT/summary.txt"
