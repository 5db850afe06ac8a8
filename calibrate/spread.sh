#!/usr/bin/env bash
# The between-process spread of cargo-speedup's runs on a published crate, per condition (a set of
# cargo-speedup's own options), the conditions interleaved comparison by comparison so that they share the
# machine's load. See calibrate/README.md ("The between-process spread").
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: calibrate/spread.sh [OPTIONS] [-- EXTRA...]

Measures, per condition, how far a benchmark's level moves from one process run to the next, on a
published crate, and what that costs an A/A comparison. Each repetition runs, for every condition in
turn (the order rotated from one repetition to the next: AB, BA, AB, ...), one A/A comparison of the
crate's commit with itself:
  cargo-speedup speedup calib-orig..calib-orig --run-identical --fixed --runs R --filter FILTER OPTS
and, with --kinds fixed,race (or race alone), one A/A race with the default plan (runs until decided,
cap 24):
  cargo-speedup speedup calib-orig..calib-orig --run-identical --filter FILTER OPTS
From the fixed comparisons: per benchmark and side, the standard deviation of the log run values (each
run's value is the median of its samples) in % (about the coefficient of variation), its robust
counterpart (1.4826 x the median absolute deviation, which a run preempted by another job moves
little), and the runs per
side an A/A needs to show "unchanged within +-2 %" 4 times in 5 at the default plan (the normal
approximation below). From the races: benchmarks unchanged, runs per side, wall time.

Options:
  --crate NAME@VERSION[:FILTER]  the crate from crates.io and criterion's filter
                                 [default: seahash@4.1.0:^(buffer|stream)/(4096|16384)$]
  --condition NAME=OPTIONS       a condition: its name and the cargo-speedup options it adds, split on
                                 spaces (repeatable) [default: free=--no-pin and pin=--pin]; the word
                                 @neighbour among them runs calibrate/neighbour.py (a bursty
                                 neighbour: 64 MiB streamed for 0.7 s of every 1.2 s) during that
                                 condition's comparisons
  -n N                           repetitions (one comparison per condition each) [default: 4]
  --runs R                       process runs per side of each fixed comparison [default: 20]
  --kinds LIST                   fixed, race or fixed,race: which comparisons each repetition runs per
                                 condition [default: fixed]
  --speedup PATH                 the cargo-speedup binary [default: `cargo build --release` of this
                                 repository]
  --out DIR                      where the reports and summary.txt go [default: a new temporary directory,
                                 printed; kept]
  --keep                         keep the temporary crate repository (its path is printed)
  -h, --help                     this help
  -- EXTRA...                    passed to every comparison (e.g. --measurement-time 0.5)

Exit status: 0 done (whatever the figures), 2 bad usage, a crate that cannot be fetched or built, or a
cargo-speedup error (the message says which).
EOF
}

die() {
    printf 'spread: error: %s\n' "$*" >&2
    exit 2
}
note() { printf 'spread: %s\n' "$*" >&2; }

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=calibrate/lib.sh
source "$SCRIPT_DIR/lib.sh"
PATCH_DIR="$SCRIPT_DIR/patches"

SPEC='seahash@4.1.0:^(buffer|stream)/(4096|16384)$'
N=4
RUNS=20
KINDS=fixed
SPEEDUP=''
OUT=''
KEEP=0
COND_NAMES=()
COND_OPTS=()
EXTRA=()

while [[ $# -gt 0 ]]; do
    case $1 in
        -h | --help)
            usage
            exit 0
            ;;
        --crate)
            need_value "$@"
            SPEC=$2
            shift 2
            ;;
        --condition)
            need_value "$@"
            [[ $2 == *=* && ${2%%=*} =~ ^[A-Za-z0-9_.+-]+$ ]] ||
                die "--condition takes NAME=OPTIONS (a name of letters, digits, _.+-), not '$2'"
            COND_NAMES+=("${2%%=*}")
            COND_OPTS+=("${2#*=}")
            shift 2
            ;;
        -n)
            need_value "$@"
            N=$2
            shift 2
            ;;
        --runs)
            need_value "$@"
            RUNS=$2
            shift 2
            ;;
        --kinds)
            need_value "$@"
            KINDS=$2
            shift 2
            ;;
        --speedup)
            need_value "$@"
            SPEEDUP=$2
            shift 2
            ;;
        --out)
            need_value "$@"
            OUT=$2
            shift 2
            ;;
        --keep)
            KEEP=1
            shift
            ;;
        --)
            shift
            EXTRA=("$@")
            break
            ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done

[[ $N =~ ^[1-9][0-9]*$ ]] || die "-n takes a positive integer, not '$N'"
[[ $RUNS =~ ^[0-9]+$ && $RUNS -ge 3 ]] || die "--runs takes an integer of at least 3, not '$RUNS'"
case $KINDS in fixed | race | fixed,race | race,fixed) ;; *) die "--kinds takes fixed, race or fixed,race, not '$KINDS'" ;; esac
if [[ ${#COND_NAMES[@]} -eq 0 ]]; then
    COND_NAMES=(free pin)
    COND_OPTS=('--no-pin' '--pin')
fi

nv=${SPEC%%:*}
FILTER=''
[[ $SPEC == *:* ]] && FILTER=${SPEC#*:}
NAME=${nv%%@*}
VERSION=${nv#*@}
[[ $nv == *@* && $NAME =~ ^[A-Za-z0-9_-]+$ && $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    die "--crate takes NAME@VERSION[:FILTER] with an exact version, not '$SPEC'"
CRATE="$NAME-$VERSION"

for tool in git jq cargo setsid awk; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done

work_and_out spread
ROWS="$OUT/spread.jsonl"
RACES="$OUT/races.jsonl"
: >"$ROWS"
: >"$RACES"

speedup_binary
for i in "${!COND_NAMES[@]}"; do
    read -r -a words <<<"${COND_OPTS[$i]}"
    for word in "${words[@]}"; do
        [[ $word == --* ]] || continue
        "$SPEEDUP" speedup --help 2>&1 | grep -q -- "$word" ||
            die "condition ${COND_NAMES[$i]}: $SPEEDUP does not take $word"
    done
done

export CARGO_TARGET_DIR="$WORK/target"
export CARGO_TERM_COLOR=never
unset CRITERION_HOME
GIT=(git -c user.name=spread -c user.email=spread@localhost -c commit.gpgsign=false -c core.hooksPath=/dev/null)

# ---------------------------------------------------------------------------------------------------------
# The crate: its published source, a git repository, the setup patch calibrate/run.sh applies too.

repo="$WORK/$CRATE"
fetch_crate "$NAME" "$VERSION" "$repo"
(cd "$repo" && "${GIT[@]}" init --quiet && printf '/target\n' >>.git/info/exclude) || die "$CRATE: git init failed"
if [[ -f "$PATCH_DIR/$CRATE.setup.patch" ]]; then
    (cd "$repo" && git apply "$PATCH_DIR/$CRATE.setup.patch") || die "$CRATE: $CRATE.setup.patch does not apply"
fi
[[ -f $repo/Cargo.lock ]] || run_in "$repo" cargo generate-lockfile --quiet || die "$CRATE: cargo generate-lockfile failed"
(cd "$repo" && "${GIT[@]}" add -A && "${GIT[@]}" add -f Cargo.lock && "${GIT[@]}" commit --quiet -m "$CRATE" &&
    "${GIT[@]}" tag calib-orig) || die "$CRATE: git commit failed"

FLAGS=(--quiet --color never --rerun --run-identical --fail-on none)
[[ -n $FILTER ]] && FLAGS+=(--filter "$FILTER")

# One untimed comparison builds the dependencies and links the layouts first (as many as the largest
# comparison uses: one per run up to 20), so that no timed comparison pays for them.
note "$CRATE: building (one short untimed comparison)"
run_in "$repo" "$SPEEDUP" speedup calib-orig..calib-orig "${FLAGS[@]}" --fixed --runs "$((RUNS > 20 ? RUNS : 20))" \
    --warm-up-time 0.05 --measurement-time 0.05 >"$WORK/warm.txt" 2>"$WORK/warm.err" || {
    cat "$WORK/warm.err" >&2
    die "$CRATE: cargo-speedup failed on calib-orig..calib-orig"
}


# One comparison of condition $1 (index), repetition $2, kind $3 (fixed or race).
compare() {
    local c=$1 rep=$2 kind=$3 name=${COND_NAMES[$1]} stem t0 t1 rc=0 words opts=() neighbour=0 npid=''
    stem="$OUT/$kind-$name-$rep"
    read -r -a words <<<"${COND_OPTS[$c]}"
    for word in "${words[@]}"; do
        if [[ $word == @neighbour ]]; then neighbour=1; else opts+=("$word"); fi
    done
    if [[ $neighbour == 1 ]]; then
        python3 "$SCRIPT_DIR/neighbour.py" &
        npid=$!
        NEIGHBOUR=$npid
    fi
    local more=()
    [[ $kind == fixed ]] && more=(--fixed --runs "$RUNS")
    t0=$(now)
    run_in "$repo" "$SPEEDUP" speedup calib-orig..calib-orig "${FLAGS[@]}" "${more[@]}" "${opts[@]}" \
        "${EXTRA[@]}" --json "$stem.json" >"$stem.txt" 2>"$stem.err" || rc=$?
    t1=$(now)
    if [[ -n $npid ]]; then
        kill "$npid" 2>/dev/null || true
        wait "$npid" 2>/dev/null || true
        NEIGHBOUR=''
    fi
    if [[ $rc -ne 0 || ! -s $stem.json ]]; then
        cat "$stem.err" >&2
        die "$CRATE, $kind comparison $rep of condition $name: cargo-speedup exited $rc (see $stem.err)"
    fi
    local seconds load
    seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo null)
    # Per benchmark and side: the log of each run's median, their standard deviation in %.
    jq -c --arg cond "$name" --argjson rep "$rep" --arg kind "$kind" --argjson seconds "$seconds" \
        --argjson load "$load" '
        def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
        def sd: (add / length) as $m | (map((. - $m) * (. - $m)) | add / (length - 1)) | sqrt;
        def mad: median as $m | map(. - $m | fabs) | median * 1.4826;
        .benchmarks[] | . as $b
        | [[$b.samples.base.runs[] | median | log], [$b.samples.head.runs[] | median | log]] as $sides
        | {
            kind: $kind, condition: $cond, rep: $rep, seconds: $seconds, load: $load, benchmark: $b.name,
            verdict: $b.verdict, runs: $b.base.runs,
            sd_pct: [$sides[] | sd * 100], mad_pct: [$sides[] | mad * 100]
          }' "$stem.json" >>"$([[ $kind == fixed ]] && echo "$ROWS" || echo "$RACES")" ||
        die "cannot read $stem.json"
    note "$kind $name #$rep: $seconds s, load $load"
}

count=${#COND_NAMES[@]}
for ((rep = 1; rep <= N; rep++)); do
    for ((k = 0; k < count; k++)); do
        c=$(((k + rep - 1) % count))
        [[ $KINDS == *fixed* ]] && compare "$c" "$rep" fixed
        [[ $KINDS == *race* ]] && compare "$c" "$rep" race
    done
done

# ---------------------------------------------------------------------------------------------------------
# Summary per condition. The runs per side needed: the two one-sided tests show "unchanged within +-2 %"
# when the two-sided (1 - 2a) interval of the log speedup lies inside +-ln(1.02); with a true difference of
# 0, the interval's half-width is z(1 - a) * s * sqrt(2/n) * sqrt(pi/3) (rank-sum against t efficiency),
# and it falls inside the margin 4 times in 5 when n = 2 (pi/3) (z(1 - a) + z(0.9))^2 s^2 / ln(1.02)^2;
# a = 0.05 / 3 (the default plan's three looks): z = 2.128, z(0.9) = 1.2816.
{
    printf '%s  filter %s  %s repetitions (%s) per condition, interleaved\n' "$CRATE" "${FILTER:-none}" "$N" "$KINDS"
    printf 'load average during the comparisons: %s\n' \
        "$(cat "$ROWS" "$RACES" | jq -s '[.[].load] | "min \(min), max \(max)"' -r)"
    [[ -s $ROWS ]] && printf '\nfixed A/A comparisons, %s runs per side:\n' "$RUNS" && jq -s -r '
        def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
        def need(s): (2 * (3.14159265 / 3) * ((2.128 + 1.2816) * s / 100) * ((2.128 + 1.2816) * s / 100)
                      / (0.0198026 * 0.0198026)) | ceil;
        group_by(.condition)
        | (["condition", "benchmark", "sd-%(median)", "sd-%(each side, rep)", "robust-sd-%(median)", "unchanged",
            "runs-needed"] | @tsv),
          (.[] | group_by(.benchmark)[] | . as $g
           | [$g[0].condition, $g[0].benchmark, ([$g[].sd_pct[]] | median * 100 | round / 100),
              ([$g[].sd_pct[] | . * 10 | round / 10 | tostring] | join(" ")),
              ([$g[].mad_pct[]] | median * 100 | round / 100),
              "\([$g[] | select(.verdict == "unchanged")] | length)/\($g | length)",
              need([$g[].sd_pct[]] | median)] | @tsv),
          (.[] | . as $c
           | ["\($c[0].condition): all", "",
              ([$c[].sd_pct[]] | median * 100 | round / 100), "",
              ([$c[].mad_pct[]] | median * 100 | round / 100),
              "\([$c[] | select(.verdict == "unchanged")] | length)/\($c | length)",
              need([$c[].sd_pct[]] | median)] | @tsv),
          (.[] | ["\(.[0].condition): wall s per comparison (median)", "",
                  ([group_by(.rep)[] | .[0].seconds] | median)] | @tsv)
        ' "$ROWS" | column -t -s $'\t'
    if [[ -s $RACES ]]; then
        printf '\nA/A races with the default plan (runs until decided, cap 24):\n'
        jq -s -r '
            def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
            group_by(.condition)
            | (["condition", "unchanged", "inconclusive", "other", "runs/side(mean)", "wall-s(median)"] | @tsv),
              (.[] | [.[0].condition,
                      ([.[] | select(.verdict == "unchanged")] | length),
                      ([.[] | select(.verdict == "inconclusive")] | length),
                      ([.[] | select(.verdict != "unchanged" and .verdict != "inconclusive")] | length),
                      ([.[].runs] | add / length * 10 | round / 10),
                      ([group_by(.rep)[] | .[0].seconds] | median)] | @tsv)
            ' "$RACES" | column -t -s $'\t'
    fi
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
