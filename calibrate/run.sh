#!/usr/bin/env bash
# Calibration of cargo-speedup on real published crates: false alarms on changes that do not change the
# code, and power on a planted slowdown. See calibrate/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: calibrate/run.sh [OPTIONS] [-- EXTRA...]

Measures whether cargo-speedup's verdicts are calibrated on real published crates. For each crate:
fetch its published source through cargo, make it a git repository in a temporary directory, and
compare, N times each, the original commit with
  bump     the package version's patch number + 1 (Cargo.toml and Cargo.lock)
  comment  a comment line added at the top of a library source file
  aa       the same commit (BASE..BASE; with --run-identical when the binary has it)
  slow     a planted slowdown of about 5 % (calibrate/patches/NAME-VERSION.patch)
  race     `cargo speedup race` of the original, comment and slow commits (when --cases names it:
           not in the default set)
and print false alarms of --fail-on any and --fail-on suite, the power on the slowdown, the process
runs used and the wall time, beside the wall time of two plain `cargo bench` runs.

Options:
  --crate NAME@VERSION[:FILTER]  a crate from crates.io and its harness's filter (repeatable); its
                                 harness (criterion or divan) is told by its dev-dependencies
                                 [default: the crates of DEFAULT_CRATES below]
  --harness criterion|divan      without --crate: the criterion crates (DEFAULT_CRATES, the default)
                                 or the divan crates (DIVAN_CRATES)
  -n N                           comparisons per case [default: 5]
  --speedup PATH                 the cargo-speedup binary [default: build this repository with
                                 `cargo build --release` and use its target/release/cargo-speedup]
  --out DIR                      where reports and summary.json go [default: a new temporary
                                 directory, printed; it is kept]
  --cases LIST                   comma-separated subset of bump,comment,aa,slow,race
                                 [default: bump,comment,aa,slow]
  --bench-settings WHICH         rewrite: cargo-speedup's default (a bench file's own measurement_time,
                                 warm_up_time and sample_size are rewritten to the per-run settings);
                                 keep: every comparison with --keep-bench-settings (its cases are
                                 named CASE+keep); both: each case both ways [default: rewrite]
  --designs LIST                 comma-separated subset of independent,paired,duet: each case under
                                 each design, side by side (CASE, CASE+paired with --paired,
                                 CASE+duet with --duet --paired) [default: independent]
  --keep                         keep the temporary crate repositories (their path is printed)
  -h, --help                     this help
  -- EXTRA...                    passed to every `cargo-speedup speedup BASE..HEAD` (e.g. --runs 20)

Exit status: 0 done (whatever the figures), 2 bad usage or a crate that cannot be fetched, built or
benchmarked, or a cargo-speedup error (the message says which).
EOF
    printf '\nDefault crates:\n'
    printf '  %s\n' "${DEFAULT_CRATES[@]}"
    printf '\nAlso prepared (as published: the bench file sets its own times; give it with --crate):\n'
    printf '  %s\n' "${PUBLISHED_CRATES[@]}"
    printf '\ndivan crates (--harness divan, or give one with --crate):\n'
    printf '  %s\n' "${DIVAN_CRATES[@]}"
    printf '\nHeld out (no default was chosen on them; give them with --crate):\n'
    printf '  %s\n' "${HELD_OUT_CRATES[@]}"
}

# Crates whose published package has criterion benchmarks that build with rustc 1.95, each with a filter
# selecting 4 to 6 benchmarks of 1 us or more, all of which go through the function that
# patches/NAME-VERSION.patch slows down.
DEFAULT_CRATES=(
    'base64@0.22.1:^(encode_small_input/encode(_slice|_reuse_buf)?|decode_small_input/decode(_slice|_reuse_buf)?)/3072$'
    'seahash@4.1.0:^(buffer|stream)/(4096|16384)$'
)
# Crates prepared but not measured by default: as published, with no setup patch, so that the bench file
# keeps its own settings (base64 0.23.1's groups set warm_up_time 0.5 s and measurement_time 3 s, lines
# 192-193 and 250-251), for `--bench-settings both`; see calibrate/README.md.
PUBLISHED_CRATES=(
    'base64@0.23.1:^(encode_small_input/encode(_slice|_reuse_buf)?|decode_small_input/decode(_slice|_reuse_buf)?)/3072$'
)
# Crates whose published package has divan benchmarks that build with rustc 1.95, with a filter (divan's
# regular expression over its `::` paths) selecting benchmarks that all go through the function that
# patches/NAME-VERSION.patch slows down. bytesize 2.7.0: `benches/display.rs`, five benchmarks of formatting
# a size (about 0.2-0.3 us each), all through `impl fmt::Display for Display` (src/display.rs); its `main`
# sets DIVAN_SAMPLE_COUNT=1000, which cargo-speedup's `--sample-count` overrides and plain runs keep.
DIVAN_CRATES=(
    'bytesize@2.7.0:^display::display_'
)
# Crates held out: no default, option or design was chosen on their runs, so that a choice made on the
# crates above can be checked on them (docs/replication.md §7). All criterion. crc32fast 1.5.5
# (criterion 0.8): four checksums of 16 KiB and 1 MiB, the generic and the SIMD code, all through
# `Hasher::update` (src/lib.rs). httparse 1.10.1 (criterion 0.3; its bench file sets warm-up and
# measurement to 0.1 s and 200 samples, which cargo-speedup rewrites): four parses of a request or a
# response, long and short, all through `Request::parse` or `Response::parse` (src/lib.rs). bs58 0.5.1
# (criterion 0.5): four base58 encodings of 32 and 256 bytes, all through `encode_into` (src/encode.rs).
HELD_OUT_CRATES=(
    'crc32fast@1.5.5:^(baseline|specialized)/(16384|1048576)$'
    'bs58@0.5.1:^(32_bytes|256_bytes)/encode_bs58(_noalloc)?$'
    'httparse@1.10.1:^(req|req_short|resp|resp_short)/'
)
ALL_CASES=(bump comment aa slow)

die() {
    printf 'calibrate: error: %s\n' "$*" >&2
    exit 2
}
note() { printf 'calibrate: %s\n' "$*" >&2; }

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=calibrate/lib.sh
source "$SCRIPT_DIR/lib.sh"
PATCH_DIR="$SCRIPT_DIR/patches"

CRATES=()
N=5
SPEEDUP=''
OUT=''
KEEP=0
CASES_ARG=''
BENCH_SETTINGS=rewrite
HARNESS_CHOICE=criterion
DESIGNS_ARG=''
EXTRA=()

while [[ $# -gt 0 ]]; do
    case $1 in
        -h | --help)
            usage
            exit 0
            ;;
        --crate)
            need_value "$@"
            CRATES+=("$2")
            shift 2
            ;;
        --crate=*)
            CRATES+=("${1#--crate=}")
            shift
            ;;
        -n)
            need_value "$@"
            N=$2
            shift 2
            ;;
        --speedup)
            need_value "$@"
            SPEEDUP=$2
            shift 2
            ;;
        --speedup=*)
            SPEEDUP=${1#--speedup=}
            shift
            ;;
        --out)
            need_value "$@"
            OUT=$2
            shift 2
            ;;
        --out=*)
            OUT=${1#--out=}
            shift
            ;;
        --cases)
            need_value "$@"
            CASES_ARG=$2
            shift 2
            ;;
        --keep)
            KEEP=1
            shift
            ;;
        --bench-settings)
            need_value "$@"
            BENCH_SETTINGS=$2
            shift 2
            ;;
        --bench-settings=*)
            BENCH_SETTINGS=${1#--bench-settings=}
            shift
            ;;
        --harness)
            need_value "$@"
            HARNESS_CHOICE=$2
            shift 2
            ;;
        --designs)
            need_value "$@"
            DESIGNS_ARG=$2
            shift 2
            ;;
        --harness=*)
            HARNESS_CHOICE=${1#--harness=}
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
case $HARNESS_CHOICE in
    criterion) [[ ${#CRATES[@]} -gt 0 ]] || CRATES=("${DEFAULT_CRATES[@]}") ;;
    divan) [[ ${#CRATES[@]} -gt 0 ]] || CRATES=("${DIVAN_CRATES[@]}") ;;
    *) die "--harness takes criterion or divan, not '$HARNESS_CHOICE'" ;;
esac

CASES=("${ALL_CASES[@]}")
if [[ -n $CASES_ARG ]]; then
    IFS=',' read -r -a CASES <<<"$CASES_ARG"
    for c in "${CASES[@]}"; do
        case $c in bump | comment | aa | slow | race) ;; *) die "unknown case '$c' in --cases (bump, comment, aa, slow, race)" ;; esac
    done
fi

# The variants of every case: '' as cargo-speedup does by default, '+keep' with --keep-bench-settings.
case $BENCH_SETTINGS in
    rewrite) VARIANTS=('') ;;
    keep) VARIANTS=('+keep') ;;
    both) VARIANTS=('' '+keep') ;;
    *) die "--bench-settings takes rewrite, keep or both, not '$BENCH_SETTINGS'" ;;
esac

# The designs every comparison runs under (docs/replication.md §7): '' independent sides (the default),
# '+paired' the same runs decided paired by block (--paired), '+duet' both sides started together on two
# cores and decided paired (--duet --paired). Each is a variant of every case, so the summary puts them
# side by side; a race takes neither --paired nor --duet and runs in the independent design only.
DESIGNS=('')
if [[ -n $DESIGNS_ARG ]]; then
    DESIGNS=()
    IFS=',' read -r -a designs <<<"$DESIGNS_ARG"
    for d in "${designs[@]}"; do
        case $d in
            independent) DESIGNS+=('') ;;
            paired) DESIGNS+=('+paired') ;;
            duet) DESIGNS+=('+duet') ;;
            *) die "unknown design '$d' in --designs (independent, paired, duet)" ;;
        esac
    done
fi
crossed=()
for v in "${VARIANTS[@]}"; do
    for d in "${DESIGNS[@]}"; do crossed+=("$v$d"); done
done
VARIANTS=("${crossed[@]}")

# Parse every crate spec before doing anything.
declare -a C_NAME C_VERSION C_FILTER
for spec in "${CRATES[@]}"; do
    nv=${spec%%:*}
    filter=''
    [[ $spec == *:* ]] && filter=${spec#*:}
    name=${nv%%@*}
    version=${nv#*@}
    [[ $nv == *@* && $name =~ ^[A-Za-z0-9_-]+$ && $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]] ||
        die "--crate takes NAME@VERSION[:FILTER] with an exact version, not '$spec'"
    C_NAME+=("$name")
    C_VERSION+=("$version")
    C_FILTER+=("$filter")
done

for tool in git jq cargo setsid; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done
if [[ -n $SPEEDUP ]]; then
    [[ -f $SPEEDUP && -x $SPEEDUP ]] || die "--speedup $SPEEDUP is not an executable"
fi

# ---------------------------------------------------------------------------------------------------------
# Temporary directories: everything this script writes, but --out, lives under WORK.

work_and_out calibrate
COMPARISONS="$OUT/comparisons.jsonl"
RACES="$OUT/races.jsonl"
DISK="$OUT/disk.jsonl"
: >"$COMPARISONS"
: >"$RACES"

# ---------------------------------------------------------------------------------------------------------
# The cargo-speedup binary.

speedup_binary
HELP=$("$SPEEDUP" speedup --help 2>&1) || die "$SPEEDUP speedup --help failed: $HELP"
SPEEDUP_FLAGS=(--quiet --color never)
grep -q -- '--rerun' <<<"$HELP" && SPEEDUP_FLAGS+=(--rerun)
RUN_IDENTICAL=0
grep -q -- '--run-identical' <<<"$HELP" && RUN_IDENTICAL=1
note "cargo-speedup: $SPEEDUP (--run-identical: $([[ $RUN_IDENTICAL == 1 ]] && echo yes || echo no))"
if [[ $BENCH_SETTINGS != rewrite ]]; then
    grep -q -- '--keep-bench-settings' <<<"$HELP" ||
        die "--bench-settings $BENCH_SETTINGS needs a cargo-speedup that has --keep-bench-settings ($SPEEDUP has not)"
fi

# The crates' builds and cargo-speedup's worktrees and caches: in WORK, whatever the caller's environment.
export CARGO_TARGET_DIR="$WORK/target"
export CARGO_TERM_COLOR=never
unset CRITERION_HOME

GIT=(git -c user.name=calibrate -c user.email=calibrate@localhost -c commit.gpgsign=false -c core.hooksPath=/dev/null)

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Bench targets, criterion dev-dependency, the library's source file.
crate_metadata() {
    (
        cd "$1" || exit 1
        cargo metadata --format-version 1 --no-deps --offline 2>/dev/null || cargo metadata --format-version 1 --no-deps
    )
}

# Number of benchmarks the filter selects, all bench targets: criterion's `--list`, or divan's `--list
# --format terse` (which divan prints only for cargo-nextest, NEXTEST=1), each `NAME: benchmark` a line.
count_benchmarks() {
    local repo=$1 filter=$2 log=$3 harness=$4
    local args=(--list)
    [[ $harness == divan ]] && args+=(--format terse)
    [[ -n $filter ]] && args+=("$filter")
    if [[ $harness == divan ]]; then
        run_in "$repo" env NEXTEST=1 cargo bench --quiet -- "${args[@]}" >"$log" 2>&1 || return 1
    else
        run_in "$repo" cargo bench --quiet -- "${args[@]}" >"$log" 2>&1 || return 1
    fi
    grep -cE ': (bench|benchmark)$' "$log" || true
}

# divan's change between the two plain runs, per benchmark: cargo-speedup's own reading of the two printed
# trees (one run a side), HEAD's median against BASE's in %.
plain_changes_divan() {
    local base=$1 head=$2 report
    # --fail-on none: the gate's exit status 1 is not a failure here.
    report=$("$SPEEDUP" compare "$base" "$head" --format json --color never --fail-on none 2>/dev/null) || report=''
    if [[ -n $report ]] && jq -e . <<<"$report" >/dev/null 2>&1; then
        jq '[.benchmarks[] | {benchmark: .name, change_pct: ((1 / .speedup.median - 1) * 100)}]' <<<"$report"
    else
        printf '[]\n'
    fi
}

# Runs one comparison; appends a record to $COMPARISONS. Stops the script on a cargo-speedup error.
compare() {
    local crate=$1 case_name=$2 rep=$3 base=$4 head=$5 repo=$6 filter=$7 variant=${8:-}
    # The default gate (`--fail-on any`, the default threshold): what a user gets without options.
    local dir="$OUT/$crate" stem rc t0 t1 flags=("${SPEEDUP_FLAGS[@]}")
    mkdir -p "$dir"
    [[ $case_name == aa && $RUN_IDENTICAL == 1 ]] && flags+=(--run-identical)
    [[ $variant == *+keep* ]] && flags+=(--keep-bench-settings)
    [[ $variant == *+paired* ]] && flags+=(--paired)
    [[ $variant == *+duet* ]] && flags+=(--duet --paired)
    case_name="$case_name$variant"
    stem="$dir/$case_name-$rep"
    [[ -n $filter ]] && flags+=(--filter "$filter")
    t0=$(now)
    set +e
    run_in "$repo" "$SPEEDUP" speedup "$base..$head" "${flags[@]}" --json "$stem.json" "${EXTRA[@]}" \
        >"$stem.txt" 2>"$stem.err"
    rc=$?
    set -e
    t1=$(now)
    if [[ $rc -ne 0 && $rc -ne 1 ]]; then
        cat "$stem.err" >&2
        die "$crate, case $case_name, comparison $rep: cargo-speedup exited $rc (see $stem.err)"
    fi
    [[ -s $stem.json ]] || die "$crate, case $case_name, comparison $rep: no JSON report written ($stem.json)"
    # The suite gate from the same report, as src/protocol/gate.rs decides it: HPT says "slower" with
    # confidence >= --confidence and the suite is at least (1 + threshold) slower by its r-speedup.
    # One-process inputs (a noise floor applies) do not arise here: every side is process runs.
    jq -c --arg crate "$crate" --arg case "$case_name" --argjson rep "$rep" --argjson rc "$rc" \
        --arg seconds "$(elapsed "$t0" "$t1")" --arg report "$stem.json" '
        def hpt: .suite.hpt;
        {
          crate: $crate, case: $case, rep: $rep, exit: $rc, seconds: ($seconds | tonumber), report: $report,
          fail_any: .gate.failed,
          gate: "\(.gate.fail_on) \(.gate.threshold)%",
          out_of_reach: ((.gate.out_of_reach // []) | length),
          fail_suite: (hpt.direction == "slower" and (hpt.confidence // 0) >= .confidence
                       and hpt.r_speedup != null and hpt.r_speedup > 0
                       and (1 / hpt.r_speedup) >= (1 + (.gate.threshold // 0) / 100)),
          suite_verdict: .verdict,
          hpt_confidence: hpt.confidence, hpt_direction: hpt.direction,
          compared: (.benchmarks | length),
          faster: ([.benchmarks[] | select(.verdict == "faster")] | length),
          slower: ([.benchmarks[] | select(.verdict == "slower")] | length),
          inconclusive: ([.benchmarks[] | select(.verdict == "inconclusive")] | length),
          unchanged: ([.benchmarks[] | select(.verdict == "unchanged")] | length),
          identical: ((.identical_executables // []) | length),
          runs: ([.benchmarks[] | .base.runs, .head.runs] | max // 0),
          mean_runs: ([.benchmarks[] | .base.runs] | if length == 0 then 0 else add / length end),
          between_process_pct: [.benchmarks[] | .variance.base.between_process_pct // empty],
          design_effect: [.benchmarks[] | .variance.base.design_effect // empty],
          one_process: ([.benchmarks[] | select(.observation == "one-process")] | length),
          bench_settings_told: ([.warnings[]? | select(.kind == "input" and (.message | contains("run length")))] | length > 0)
        }' "$stem.json" >>"$COMPARISONS" || die "$crate: cannot read $stem.json"
    note "$crate $case_name #$rep: exit $rc, $(tail -n 1 "$COMPARISONS" | jq -r '"\(.slower) slower, \(.faster) faster, \(.unchanged) unchanged, \(.inconclusive) inconclusive of \(.compared), \(.identical) identical executables; suite gate \(if .fail_suite then "fails" else "passes" end); \(.mean_runs) runs/side on average (at most \(.runs)); \(.seconds) s"')"
}

# Runs one race of the original, comment and slow commits; appends a record to $RACES. A correct race
# never picks the slowed revision (index 2) and eliminates it; the other two are the same code.
race_case() {
    local crate=$1 rep=$2 repo=$3 filter=$4 variant=${5:-}
    local dir="$OUT/$crate" stem rc t0 t1 flags=("${SPEEDUP_FLAGS[@]}")
    mkdir -p "$dir"
    stem="$dir/race$variant-$rep"
    [[ $variant == *+keep* ]] && flags+=(--keep-bench-settings)
    [[ -n $filter ]] && flags+=(--filter "$filter")
    t0=$(now)
    set +e
    run_in "$repo" "$SPEEDUP" speedup race calib-orig calib-comment calib-slow "${flags[@]}" \
        --json "$stem.json" "${EXTRA[@]}" >"$stem.txt" 2>"$stem.err"
    rc=$?
    set -e
    t1=$(now)
    if [[ $rc -ne 0 ]]; then
        cat "$stem.err" >&2
        die "$crate, race $rep: cargo-speedup exited $rc (see $stem.err)"
    fi
    jq -c --arg crate "$crate$variant" --argjson rep "$rep" --arg seconds "$(elapsed "$t0" "$t1")" --arg report "$stem.json" '
        {
          crate: $crate, rep: $rep, seconds: ($seconds | tonumber), report: $report,
          benchmarks: (.benchmarks | length),
          slow_picked: ([.benchmarks[] | select(.pick == 2)] | length),
          slow_eliminated: ([.benchmarks[] | select((.survivors | index(2)) == null)] | length),
          winner: ([.benchmarks[] | select(.outcome == "winner")] | length),
          equivalent: ([.benchmarks[] | select(.outcome == "equivalent")] | length),
          inconclusive: ([.benchmarks[] | select(.outcome == "inconclusive")] | length),
          mean_runs: ([.benchmarks[] | .revisions[] | .runs] | if length == 0 then 0 else add / length end),
          suite_fastest: .suite.fastest
        }' "$stem.json" >>"$RACES" || die "$crate: cannot read $stem.json"
    note "$crate race #$rep: $(tail -n 1 "$RACES" | jq -r '"slow picked in \(.slow_picked), eliminated in \(.slow_eliminated) of \(.benchmarks); \(.winner) winner, \(.equivalent) equivalent, \(.inconclusive) inconclusive; \(.mean_runs) runs per revision; \(.seconds) s"')"
}

# Criterion's change between the two plain runs, per benchmark: its change/estimates.json (the second run
# against the first), the mean's relative change in %.
plain_changes() {
    local home=$1
    find "$home" -path '*/change/estimates.json' -print 2>/dev/null | sort | while read -r change; do
        local dir bench
        dir=$(dirname "$(dirname "$change")")
        bench=$(jq -r '.full_id // empty' "$dir/new/benchmark.json" 2>/dev/null || true)
        [[ -n $bench ]] || bench=${dir#"$home"/}
        jq --arg b "$bench" '{benchmark: $b, change_pct: (.mean.point_estimate * 100),
            lower_pct: (.mean.confidence_interval.lower_bound * 100),
            upper_pct: (.mean.confidence_interval.upper_bound * 100)}' "$change"
    done | jq -s .
}

PLAIN_JSON="$WORK/plain.jsonl"
: >"$PLAIN_JSON"

for i in "${!C_NAME[@]}"; do
    name=${C_NAME[$i]}
    version=${C_VERSION[$i]}
    filter=${C_FILTER[$i]}
    crate="$name-$version"
    repo="$WORK/crates/$crate"
    note "== $name@$version (filter: ${filter:-none})"

    fetch_crate "$name" "$version" "$repo"
    (cd "$repo" && "${GIT[@]}" init --quiet && printf '/target\n' >>.git/info/exclude) ||
        die "$crate: git init failed"
    if [[ -f "$PATCH_DIR/$crate.setup.patch" ]]; then
        (cd "$repo" && git apply "$PATCH_DIR/$crate.setup.patch") || die "$crate: $PATCH_DIR/$crate.setup.patch does not apply"
        note "$crate: applied the setup patch $crate.setup.patch"
    fi

    meta=$(crate_metadata "$repo") || die "$crate: cargo metadata failed"
    benches=$(jq -r --arg n "$name" '.packages[] | select(.name == $n) | .targets[] | select(.kind | index("bench")) | .name' <<<"$meta")
    has_criterion=$(jq -r --arg n "$name" '[.packages[] | select(.name == $n) | .dependencies[] | select(.name == "criterion" and .kind == "dev")] | length' <<<"$meta")
    has_divan=$(jq -r --arg n "$name" '[.packages[] | select(.name == $n) | .dependencies[] | select(.name == "divan" and .kind == "dev")] | length' <<<"$meta")
    lib_src=$(jq -r --arg n "$name" '.packages[] | select(.name == $n) | .targets[] | select(.kind | index("lib")) | .src_path' <<<"$meta" | head -n 1)
    [[ -n $benches ]] || die "$crate: the published package has no bench target"
    if [[ $has_criterion -gt 0 && $has_divan -gt 0 ]]; then
        die "$crate: both criterion and divan are dev-dependencies: which harness its benchmarks use is not told"
    elif [[ $has_criterion -gt 0 ]]; then
        harness=criterion
    elif [[ $has_divan -gt 0 ]]; then
        harness=divan
    else
        die "$crate: neither criterion nor divan is a dev-dependency: its benchmarks use no harness this script knows"
    fi
    note "$crate: harness $harness"
    [[ -n $lib_src ]] || die "$crate: no library target"

    # Cargo.lock: the published one when the package has it, else a new one.
    [[ -f $repo/Cargo.lock ]] || run_in "$repo" cargo generate-lockfile --quiet || die "$crate: cargo generate-lockfile failed"
    note "$crate: building its bench targets ($(tr '\n' ' ' <<<"$benches"))"
    if ! run_in "$repo" cargo bench --no-run --quiet >"$WORK/$crate-build.log" 2>&1; then
        note "$crate: the bench targets do not build with the package's Cargo.lock; trying a new one"
        { run_in "$repo" cargo generate-lockfile --quiet && run_in "$repo" cargo bench --no-run --quiet; } >"$WORK/$crate-build.log" 2>&1 || {
            tail -n 30 "$WORK/$crate-build.log" >&2
            die "$crate: the bench targets do not build on $(rustc --version)"
        }
    fi
    count=$(count_benchmarks "$repo" "$filter" "$WORK/$crate-list.log" "$harness") || {
        tail -n 30 "$WORK/$crate-list.log" >&2
        die "$crate: the bench targets fail to list their benchmarks"
    }
    [[ $count -gt 0 ]] || die "$crate: the filter '$filter' selects no benchmark"
    note "$crate: $count benchmarks selected: $(grep -E ': (bench|benchmark)$' "$WORK/$crate-list.log" | sed 's/: bench.*$//' | tr '\n' ' ')"

    (cd "$repo" && "${GIT[@]}" add -A && "${GIT[@]}" add -f Cargo.lock && "${GIT[@]}" commit --quiet -m "$name $version as published" &&
        "${GIT[@]}" tag calib-orig) || die "$crate: git commit failed"
    rel_lib=${lib_src#"$repo"/}

    # (a) the version's patch number + 1.
    new_version=$(awk -F. '{ split($3, p, /[^0-9]/); printf "%s.%s.%d", $1, $2, p[1] + 1 }' <<<"$version")
    (
        cd "$repo" && "${GIT[@]}" checkout --quiet -b calib-bump calib-orig &&
            awk -v old="$version" -v new="$new_version" '
                /^\[/ { in_package = ($0 == "[package]") }
                in_package && !done && $0 ~ "^version = \"" old "\"" { sub(old, new); done = 1 }
                { print }' Cargo.toml >Cargo.toml.new && mv Cargo.toml.new Cargo.toml &&
            grep -q "^version = \"$new_version\"" Cargo.toml &&
            cargo update --workspace --offline --quiet &&
            "${GIT[@]}" commit --quiet -am "Version $new_version"
    ) || die "$crate: cannot make the version-bump commit"
    # (b) a comment line at the top of the library's root file.
    (
        cd "$repo" && "${GIT[@]}" checkout --quiet -b calib-comment calib-orig &&
            { printf '// A comment line: no code change.\n'; cat "$rel_lib"; } >"$rel_lib.new" && mv "$rel_lib.new" "$rel_lib" &&
            "${GIT[@]}" commit --quiet -am "A comment in $rel_lib"
    ) || die "$crate: cannot make the comment commit"
    # (d) the planted slowdown.
    has_slow=0
    if [[ -f "$PATCH_DIR/$crate.patch" ]]; then
        (
            cd "$repo" && "${GIT[@]}" checkout --quiet -b calib-slow calib-orig &&
                git apply "$PATCH_DIR/$crate.patch" && "${GIT[@]}" commit --quiet -am "A planted slowdown"
        ) || die "$crate: $PATCH_DIR/$crate.patch does not apply"
        has_slow=1
    else
        note "$crate: no $PATCH_DIR/$crate.patch: the slowdown case is skipped"
    fi
    (cd "$repo" && "${GIT[@]}" checkout --quiet calib-orig) || die "$crate: git checkout failed"

    # Two plain cargo bench runs with the harness's defaults (criterion's, or divan's), builds of the crate's own code included: BASE, then
    # the slowed HEAD (or BASE again without a patch). Their change is the slowdown as long runs see it.
    if [[ $has_slow == 1 ]]; then plain_head=calib-slow; else plain_head=calib-orig; fi
    export CRITERION_HOME="$WORK/criterion-plain/$crate"
    plain_args=()
    [[ -n $filter ]] && plain_args=(-- "$filter")
    plain_times=()
    for rev in calib-orig "$plain_head"; do
        (cd "$repo" && "${GIT[@]}" checkout --quiet "$rev" && cargo clean --quiet -p "$name" --release) >/dev/null 2>&1 ||
            die "$crate: cannot prepare the plain cargo bench at $rev"
        note "$crate: plain cargo bench at $rev ($harness defaults)"
        t0=$(now)
        run_in "$repo" cargo bench --quiet "${plain_args[@]}" >"$OUT/$crate-plain-$rev.txt" 2>&1 ||
            die "$crate: plain cargo bench at $rev failed (see $OUT/$crate-plain-$rev.txt)"
        plain_times+=("$(elapsed "$t0" "$(now)")")
    done
    if [[ $harness == divan ]]; then
        changes=$(plain_changes_divan "$OUT/$crate-plain-calib-orig.txt" "$OUT/$crate-plain-$plain_head.txt")
    else
        changes=$(plain_changes "$CRITERION_HOME")
    fi
    unset CRITERION_HOME
    (cd "$repo" && "${GIT[@]}" checkout --quiet calib-orig) || die "$crate: git checkout failed"
    jq -n -c --arg crate "$crate" --arg filter "$filter" --argjson count "$count" --arg head "$plain_head" \
        --arg t1 "${plain_times[0]}" --arg t2 "${plain_times[1]}" --argjson changes "$changes" --argjson slow "$has_slow" --arg harness "$harness" '
        {crate: $crate, harness: $harness, filter: $filter, benchmarks: $count, slow_patch: ($slow == 1),
         plain: {head: $head, seconds_base: ($t1 | tonumber), seconds_head: ($t2 | tonumber),
                 seconds_total: (($t1 | tonumber) + ($t2 | tonumber)), change_pct: $changes}}' >>"$PLAIN_JSON"

    # cargo-speedup builds in a target directory of its own: one short untimed comparison (2 runs of 0.1 s)
    # builds the dependencies there, so that the first timed comparison is not the only one that pays for
    # them. (The extra arguments are not passed: a --runs among them would be given twice.)
    note "$crate: building the dependencies in cargo-speedup's target directory (untimed)"
    warm_flags=("${SPEEDUP_FLAGS[@]}" --fail-on none --runs 2 --warm-up-time 0.1 --measurement-time 0.1)
    [[ -n $filter ]] && warm_flags+=(--filter "$filter")
    run_in "$repo" "$SPEEDUP" speedup calib-orig..calib-orig "${warm_flags[@]}" \
        >"$WORK/$crate-warm.txt" 2>"$WORK/$crate-warm.err" || {
        cat "$WORK/$crate-warm.err" >&2
        die "$crate: cargo-speedup failed on calib-orig..calib-orig"
    }

    for case_name in "${CASES[@]}"; do
        case $case_name in
            bump) head=calib-bump ;;
            comment) head=calib-comment ;;
            aa) head=calib-orig ;;
            slow)
                [[ $has_slow == 1 ]] || continue
                head=calib-slow
                ;;
            race)
                [[ $has_slow == 1 ]] || continue
                for variant in "${VARIANTS[@]}"; do
                    # A race is decided on independent sides only.
                    [[ $variant == *+paired* || $variant == *+duet* ]] && continue
                    for rep in $(seq 1 "$N"); do
                        race_case "$crate" "$rep" "$repo" "$filter" "$variant"
                    done
                done
                continue
                ;;
        esac
        for variant in "${VARIANTS[@]}"; do
            for rep in $(seq 1 "$N"); do
                compare "$crate" "$case_name" "$rep" calib-orig "$head" "$repo" "$filter" "$variant"
            done
        done
    done

    # Disk: cargo-speedup's directory (inside the cargo target directory every crate here shares) against
    # the rest of that directory, the plain runs' build of the crates so far, and the bound it must stay
    # under: that build plus one bench executable per revision compared. Figures only: never fatal.
    own=$(du -sb --exclude=speedup "$CARGO_TARGET_DIR" 2>/dev/null | cut -f1 || true)
    used=$(du -sb "$CARGO_TARGET_DIR/speedup" 2>/dev/null | cut -f1 || true)
    exe=$(find "$CARGO_TARGET_DIR/release/deps" -maxdepth 1 -type f -perm -u+x -printf '%s\n' 2>/dev/null | sort -n | tail -n 1 || true)
    revisions=1
    for case_name in "${CASES[@]}"; do
        if [[ $case_name == bump || $case_name == comment || ($case_name == slow && $has_slow == 1) ]]; then revisions=$((revisions + 1)); fi
    done
    jq -n -c --arg crate "$crate" --argjson own "${own:-0}" --argjson used "${used:-0}" --argjson exe "${exe:-0}" \
        --argjson revisions "$revisions" \
        '{crate: $crate, own_target_bytes: $own, speedup_bytes: $used, largest_executable_bytes: $exe, revisions: $revisions}' >>"$DISK" || true
done

# ---------------------------------------------------------------------------------------------------------
# Summary.

extra_json=$(printf '%s\n' "${EXTRA[@]+"${EXTRA[@]}"}" | jq -R . | jq -s 'map(select(length > 0))')
jq -n --slurpfile cmp "$COMPARISONS" --slurpfile plain "$PLAIN_JSON" --arg speedup "$SPEEDUP" \
    --argjson n "$N" --argjson extra "$extra_json" --argjson run_identical "$RUN_IDENTICAL" '
    def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
                       else (.[length / 2 - 1] + .[length / 2]) / 2 end;
    {
      speedup: $speedup, n: $n, extra_args: $extra, run_identical: ($run_identical == 1),
      crates: [ $plain[] as $p | {
        crate: $p.crate, filter: $p.filter, benchmarks: $p.benchmarks, plain_cargo_bench: $p.plain,
        cases: [ $cmp | map(select(.crate == $p.crate)) | group_by(.case)[] | {
          case: .[0].case,
          comparisons: length,
          fail_any: map(select(.fail_any)) | length,
          gate: .[0].gate,
          out_of_reach: map(.out_of_reach) | add,
          fail_suite: map(select(.fail_suite)) | length,
          compared: map(.compared) | add,
          faster: map(.faster) | add,
          slower: map(.slower) | add,
          inconclusive: map(.inconclusive) | add,
          unchanged: map(.unchanged) | add,
          identical: map(.identical) | add,
          mean_runs: ((map(.mean_runs * .compared) | add) / ([map(.compared) | add, 1] | max)),
          between_process_pct_median: (map(.between_process_pct[]) | median),
          design_effect_median: (map(.design_effect[]) | median),
          called_slower_pct: ((map(.slower) | add) * 100 / ([map(.compared) | add, 1] | max)),
          runs_per_side_median: map(.runs) | median,
          wall_seconds_median: map(.seconds) | median,
          bench_settings_told: map(select(.bench_settings_told)) | length,
          reports: map(.report)
        } ] | sort_by(.case | split("+") | [{bump: 0, comment: 1, aa: 2, slow: 3}[.[0]], (.[1] // "")])
      } ]
    }' >"$OUT/summary.json" || die "cannot write $OUT/summary.json"

{
    printf '\ncargo-speedup calibration: %s comparison(s) per case; %s\n' "$N" "$SPEEDUP"
    [[ ${#EXTRA[@]} -gt 0 ]] && printf 'extra arguments: %s\n' "${EXTRA[*]}"
    for k in $(jq -r '.crates | keys[]' "$OUT/summary.json"); do
        jq -r --argjson k "$k" '.crates[$k] | "\n\(.crate)  filter \(.filter)  (\(.benchmarks) benchmarks)"' "$OUT/summary.json"
        jq -r --argjson k "$k" '.crates[$k] |
            (["case", "cmp", "fail-gate", "fail-suite", "faster", "slower", "unchanged", "inconcl", "of", "identical", "out-of-reach", "slower-%", "runs/side(mean)", "runs(max,median)", "between-%", "deff", "wall-s(median)", "told"] | @tsv),
            (.cases[] | [.case, .comparisons, .fail_any, .fail_suite, .faster, .slower, .unchanged, .inconclusive, .compared, .identical, .out_of_reach,
                         (.called_slower_pct * 10 | round / 10), (.mean_runs * 10 | round / 10), .runs_per_side_median,
                         ((.between_process_pct_median // 0) * 100 | round / 100), ((.design_effect_median // 0) * 10 | round / 10),
                         .wall_seconds_median, .bench_settings_told] | @tsv)' \
            "$OUT/summary.json" | if command -v column >/dev/null; then column -t -s $'\t'; else cat; fi
        jq -r --argjson k "$k" '.crates[$k] |
            "plain cargo bench x2 (criterion'"'"'s or divan'"'"'s defaults, or the bench file'"'"'s own settings; crate rebuilt each time): \(.plain_cargo_bench.seconds_total * 10 | round / 10) s (\(.plain_cargo_bench.seconds_base) s at BASE + \(.plain_cargo_bench.seconds_head) s at \(.plain_cargo_bench.head))",
            (if .plain_cargo_bench.head == "calib-slow" then
                "slowdown seen by the plain runs (criterion mean or divan median, HEAD vs BASE): " +
                ([.plain_cargo_bench.change_pct[] | "\(.benchmark) \(if .change_pct >= 0 then "+" else "" end)\(.change_pct * 10 | round / 10)%"] | join(", "))
             else empty end)' "$OUT/summary.json"
    done
    printf '\ncases: bump = version patch +1; comment = a comment line; aa = the same commit on both sides%s;\n' \
        "$([[ $RUN_IDENTICAL == 1 ]] && echo ' (--run-identical)' || echo '')"
    printf '       slow = the planted slowdown (every selected benchmark is slowed: "slower-%%" is the power).\n'
    printf '       CASE+keep = the case with --keep-bench-settings (the bench files'"'"' own settings kept);\n'
    printf '       told = comparisons whose report warns that the bench files set their own run length.\n'
    if [[ -s $RACES ]]; then
        printf '\nraces of calib-orig, calib-comment, calib-slow (the slow revision must lose):\n'
        jq -s -r 'group_by(.crate)[] | "  \(.[0].crate): \(length) races, slow picked in \(map(.slow_picked) | add) and eliminated in \(map(.slow_eliminated) | add) of \(map(.benchmarks) | add) benchmarks; \(map(.winner) | add) winner, \(map(.equivalent) | add) equivalent, \(map(.inconclusive) | add) inconclusive; \((map(.mean_runs) | add) / length * 10 | round / 10) runs per revision; wall \(map(.seconds) | sort | .[length / 2 | floor]) s (median)"' "$RACES"
    fi
    if [[ -s $DISK ]]; then
        printf '\ndisk after the comparisons (target/speedup against the rest of the cargo target directory, the plain runs'"'"' build):\n'
        jq -s -r '.[] | "  \(.crate): target/speedup \(.speedup_bytes / 1e6 | round) MB; own target/ \(.own_target_bytes / 1e6 | round) MB + \(.revisions) revisions x \(.largest_executable_bytes / 1e6 * 10 | round / 10) MB executable = \((.own_target_bytes + .revisions * .largest_executable_bytes) / 1e6 | round) MB bound"' "$DISK"
    fi
    printf 'fail-gate is the default gate (%s); fail-suite is derived from the same report (HPT direction,\n' \
        "$(jq -r '[.crates[].cases[].gate] | unique | join(", ")' "$OUT/summary.json")"
    printf 'confidence, r-speedup, the gate'"'"'s threshold); out-of-reach counts the benchmarks too noisy for the gate to see its threshold.\n'
    printf 'reports: %s (summary.json, summary.txt, comparisons.jsonl)\n' "$OUT"
} | tee "$OUT/summary.txt"
