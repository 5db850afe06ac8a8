# Shell helpers shared by calibrate/run.sh and calibrate/spread.sh: sourced, not run. The caller defines
# `die` and `note`, sets REPO_ROOT (this repository) before calling speedup_binary, and KEEP and OUT (its
# options) before calling work_and_out, which sets the WORK that fetch_crate uses.

CHILD=''
# Runs CMD in DIR as a process group of its own and waits for it, so that an interrupt reaches the script at
# once and its cleanup ends the whole group (cargo, rustc, the benchmarks) before removing WORK.
run_in() {
    local dir=$1 rc=0
    shift
    (cd "$dir" && exec setsid --wait "$@") &
    CHILD=$!
    wait "$CHILD" || rc=$?
    CHILD=''
    return "$rc"
}

# Ends the process group run_in started, if one is running (the scripts' cleanup calls it).
stop_child() {
    [[ -n $CHILD ]] || return 0
    kill -TERM -- "-$CHILD" 2>/dev/null || kill -TERM "$CHILD" 2>/dev/null || true
    wait "$CHILD" 2>/dev/null || true
    CHILD=''
}

now() { date +%s.%N; }

# For an option parser: fails unless option $1 is followed by a non-empty value.
need_value() { [[ $# -ge 2 && -n $2 ]] || die "$1 needs a value (see --help)"; }

# Copies NAME@VERSION's published source into DEST (a new directory), through a throwaway project's
# `cargo fetch`.
fetch_crate() {
    local name=$1 version=$2 dest=$3 probe="$WORK/fetch-$1-$2" src
    mkdir -p "$probe/src"
    printf 'fn main() {}\n' >"$probe/src/main.rs"
    printf '[package]\nname = "calibrate-fetch"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n%s = "=%s"\n\n[workspace]\n' \
        "$name" "$version" >"$probe/Cargo.toml"
    run_in "$probe" cargo fetch --quiet >"$probe/fetch.log" 2>&1 || {
        cat "$probe/fetch.log" >&2
        die "$name@$version: cannot be fetched from the registry (cargo fetch failed)"
    }
    src=$(cd "$probe" && cargo metadata --format-version 1 --offline |
        jq -r --arg n "$name" --arg v "$version" '.packages[] | select(.name == $n and .version == $v) | .manifest_path') ||
        die "$name@$version: cargo metadata failed on the fetched package"
    [[ -n $src && -f $src ]] || die "$name@$version: not found after cargo fetch"
    mkdir -p "$dest"
    cp -R "$(dirname "$src")/." "$dest/"
    chmod -R u+w "$dest"
    rm -f "$dest/.cargo-ok" "$dest/.cargo_vcs_info.json"
}

# Sets SPEEDUP to an absolute path: the binary given (SPEEDUP non-empty), else this repository built with
# `cargo build --release`.
speedup_binary() {
    if [[ -z $SPEEDUP ]]; then
        note "building cargo-speedup (cargo build --release in $REPO_ROOT)"
        run_in "$REPO_ROOT" cargo build --release --quiet || die "cargo build --release of cargo-speedup failed"
        local target_dir
        target_dir=$(cd "$REPO_ROOT" && cargo metadata --format-version 1 --no-deps | jq -r .target_directory) ||
            die "cargo metadata failed in $REPO_ROOT"
        SPEEDUP="$target_dir/release/cargo-speedup"
    fi
    [[ -x $SPEEDUP ]] || die "--speedup $SPEEDUP is not an executable"
    SPEEDUP=$(cd "$(dirname "$SPEEDUP")" && pwd)/$(basename "$SPEEDUP")
}

# Makes WORK, a new temporary directory for everything the script writes but its reports (removed at exit
# unless KEEP is 1), and OUT, the reports' directory (the one given, or a new one); at exit, on an
# interrupt or a termination, ends the running process group first. NAME names the directories.
work_and_out() {
    local name=$1
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/cargo-speedup-$name.XXXXXX")
    trap cleanup EXIT
    trap 'note "interrupted"; exit 130' INT
    trap 'note "terminated"; exit 143' TERM
    if [[ -z $OUT ]]; then
        OUT=$(mktemp -d "${TMPDIR:-/tmp}/cargo-speedup-$name-out.XXXXXX")
    else
        mkdir -p -- "$OUT" || die "cannot create --out $OUT"
        OUT=$(cd "$OUT" && pwd)
    fi
    note "reports and summary go to $OUT"
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    stop_child
    [[ -z ${NEIGHBOUR:-} ]] || kill "$NEIGHBOUR" 2>/dev/null || true
    if [[ $KEEP == 1 ]]; then
        note "kept the temporary crate repositories in $WORK"
    else
        rm -rf -- "$WORK"
    fi
    exit "$status"
}
