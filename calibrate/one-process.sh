#!/usr/bin/env bash
# Unchanged code measured in one process per side, as users save it: criterion baselines and divan's
# printed output, compared with `cargo speedup compare`. Counts the benchmarks called faster or slower and
# the default gates failed (docs/verdicts.md §9 says what a calibrated tool does: at most 2 alpha of the
# benchmarks called, at most alpha of the gates failed). See calibrate/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: calibrate/one-process.sh [-n N] [--speedup PATH] [--out DIR] [--keep] [--crate NAME@VERSION:FILTER]...

For each crate (criterion or divan, told by its dev-dependencies): N pairs of plain `cargo bench -- FILTER`
runs of the same commit, each pair compared with `cargo speedup compare` (criterion: two saved baselines;
divan: two saved outputs) at the default gate. Prints, per crate, the benchmarks called faster or slower of
those compared, and the gates failed of the pairs.

Options:
  --crate NAME@VERSION:FILTER  [default: seahash@4.1.0 (criterion) and bytesize@2.7.0 (divan), with the
                               filters of calibrate/run.sh]
  -n N                         pairs per crate [default: 5]
  --speedup PATH               the cargo-speedup binary [default: cargo build --release of this repository]
  --out DIR                    where the reports and summary.txt go [default: a new temporary directory]
  --keep                       keep the temporary crate directories
Exit status: 0 done (whatever the figures), 2 on a failure (the message says which step).
EOF
}

die() {
    printf 'one-process: error: %s\n' "$*" >&2
    exit 2
}
note() { printf 'one-process: %s\n' "$*" >&2; }

REPO_ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATCH_DIR="$REPO_ROOT/calibrate/patches"
# shellcheck source=calibrate/lib.sh
source "$REPO_ROOT/calibrate/lib.sh"

N=5
SPEEDUP=''
OUT=''
KEEP=0
CRATES=()
while [[ $# -gt 0 ]]; do
    case $1 in
        -n) need_value "$@"; N=$2; shift 2 ;;
        --speedup) need_value "$@"; SPEEDUP=$2; shift 2 ;;
        --out) need_value "$@"; OUT=$2; shift 2 ;;
        --crate) need_value "$@"; CRATES+=("$2"); shift 2 ;;
        --keep) KEEP=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[[ $N =~ ^[1-9][0-9]*$ ]] || die "-n needs a positive whole number, not $N"
if [[ ${#CRATES[@]} -eq 0 ]]; then
    CRATES=('seahash@4.1.0:^(buffer|stream)/(4096|16384)$' 'bytesize@2.7.0:^display::display_')
fi
for tool in git jq cargo setsid; do
    command -v "$tool" >/dev/null || die "$tool is needed"
done
speedup_binary
work_and_out one-process
SUMMARY="$OUT/pairs.jsonl"
: >"$SUMMARY"

for spec in "${CRATES[@]}"; do
    crate_version=${spec%%:*}
    filter=${spec#*:}
    name=${crate_version%@*}
    version=${crate_version#*@}
    crate="$name-$version"
    repo="$WORK/$crate"
    note "== $crate_version (filter: $filter)"
    fetch_crate "$name" "$version" "$repo"
    if [[ -f "$PATCH_DIR/$crate.setup.patch" ]]; then
        (cd "$repo" && git init -q && git apply "$PATCH_DIR/$crate.setup.patch") ||
            die "$crate: $PATCH_DIR/$crate.setup.patch does not apply"
    fi
    harness=criterion
    # The harness, told by the dev-dependencies as calibrate/run.sh tells it.
    if (cd "$repo" && cargo metadata --format-version 1 --no-deps 2>/dev/null) |
        jq -e --arg n "$name" '[.packages[] | select(.name == $n) | .dependencies[]
                                | select(.name == "divan" and .kind == "dev")] | length > 0' >/dev/null; then
        harness=divan
    fi
    export CARGO_TARGET_DIR="$WORK/target-$crate"
    run_in "$repo" cargo bench --no-run --quiet >"$OUT/$crate-build.log" 2>&1 ||
        die "$crate: cargo bench --no-run failed (see $OUT/$crate-build.log)"
    for rep in $(seq 1 "$N"); do
        for side in a b; do
            stem="$OUT/$crate-$rep-$side"
            if [[ $harness == criterion ]]; then
                run_in "$repo" cargo bench --bench '*' --quiet -- "$filter" --save-baseline "$side$rep" \
                    >"$stem.txt" 2>"$stem.err" || die "$crate: cargo bench failed (see $stem.err)"
            else
                run_in "$repo" cargo bench --bench '*' --quiet -- "$filter" >"$stem.txt" 2>"$stem.err" ||
                    die "$crate: cargo bench failed (see $stem.err)"
            fi
        done
        report="$OUT/$crate-$rep.json"
        set +e
        if [[ $harness == criterion ]]; then
            (cd "$repo" && "$SPEEDUP" speedup compare "a$rep" "b$rep" --format json -q >"$report" 2>"$report.err")
        else
            "$SPEEDUP" speedup compare "$OUT/$crate-$rep-a.txt" "$OUT/$crate-$rep-b.txt" --format json -q \
                >"$report" 2>"$report.err"
        fi
        rc=$?
        set -e
        [[ $rc -eq 0 || $rc -eq 1 ]] || die "$crate pair $rep: cargo speedup compare exited $rc (see $report.err)"
        jq -c --arg crate "$crate" --argjson rep "$rep" --argjson rc "$rc" '{
            crate: $crate, rep: $rep, gate_failed: ($rc == 1),
            compared: (.benchmarks | length),
            called: ([.benchmarks[] | select(.verdict == "faster" or .verdict == "slower")] | length),
            observation: ([.benchmarks[].observation] | unique),
            changes_pct: [.benchmarks[] | (100 / .speedup.median - 100) * 10 | round / 10]
          }' "$report" >>"$SUMMARY"
        note "$crate pair $rep: $(tail -n 1 "$SUMMARY")"
    done
done

jq -s -r 'group_by(.crate)[] |
    "\(.[0].crate) (\(.[0].observation | join(","))): \(map(.called) | add) of \(map(.compared) | add) benchmarks called faster or slower; default gate failed in \(map(select(.gate_failed)) | length) of \(length) pairs; changes seen (HEAD time vs BASE, %): \([.[].changes_pct[]] | map(tostring) | join(" "))"' \
    "$SUMMARY" | tee "$OUT/summary.txt"
