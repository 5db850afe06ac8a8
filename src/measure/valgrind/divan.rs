//! divan 0.1 under callgrind (`docs/instruction-counts.md` §2, §5): the arguments of a process that runs
//! several benchmarks at one sample size, the order divan runs them in (read from its own `--list` tree),
//! and which of the process's dumps are each benchmark's.
//!
//! One process per sample size runs every benchmark of a bench target: a Valgrind process's start (about
//! 0.4 s here) and divan's measurement of its own timer at start (92 million instructions, bytesize 2.7.0)
//! are then paid twice per target rather than twice per benchmark. Its dumps (one before each entry to
//! `sync_impl`, just before and just after each sample's loop) are the process's start, then per benchmark
//! and per sample its loop and the gap after it, in the order divan runs the benchmarks: benchmark k's
//! window of `2·SAMPLES + 1` dumps (the gap before its first loop, then its loops and gaps) has the shape
//! of a process that ran it alone, and its loops cost exactly what they cost there.
//!
//! Must not: start anything or read files (the runner does), or judge the dumps (`estimate`).

use std::collections::BTreeSet;
use std::ops::Range;

/// callgrind's option that dumps before each entry to divan's `sync_impl` (`#[inline(never)]`).
pub(super) const DUMP: &str = "--dump-before=*sync_impl";

/// divan's samples per process.
pub(super) const SAMPLES: usize = 4;
/// Its two sizes (iterations per sample).
pub(super) const SIZES: (u64, u64) = (100, 200);

/// The arguments of one process that runs exactly `names` (full paths, as divan lists them) with
/// [`SAMPLES`] samples of `size` iterations.
pub(super) fn run_args(size: u64, names: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "--bench",
        "--color",
        "never",
        "--sample-count",
        &SAMPLES.to_string(),
        "--sample-size",
        &size.to_string(),
        "--exact",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    args.extend(names.iter().map(|n| n.to_string()));
    args
}

/// The arguments that list exactly `names` as divan runs them: its tree, sorted as a run sorts it (the
/// `--list --format terse` of the listing is printed before divan sorts).
pub(super) fn list_args(names: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["--bench", "--list", "--color", "never", "--exact"]
        .iter()
        .map(|a| a.to_string())
        .collect();
    args.extend(names.iter().map(|n| n.to_string()));
    args
}

/// The benchmarks of divan's `--list` tree (divan 0.1's `TreePainter`: a top-level module's name alone on
/// its line, each child below it after its parents' `│  ` or `   ` and its own `├─ ` or `╰─ `), each the
/// path of its leaf joined with `::`, in the order printed, which is the order a run with the same
/// filters runs them in. `None` unless the leaves are exactly `names`, each once (a benchmark with
/// arguments or types is one leaf of the tree and several names): the runner then runs each benchmark in
/// its own processes.
pub(super) fn run_order(tree: &str, names: &[&str]) -> Option<Vec<String>> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    for line in tree.lines().filter(|l| !l.trim().is_empty()) {
        let mut rest = line;
        let mut depth = 0;
        while let Some(after) = rest
            .strip_prefix("│  ")
            .or_else(|| rest.strip_prefix("   "))
        {
            rest = after;
            depth += 1;
        }
        if let Some(after) = rest
            .strip_prefix("├─ ")
            .or_else(|| rest.strip_prefix("╰─ "))
        {
            rest = after;
            depth += 1;
        } else if depth > 0 {
            return None;
        }
        lines.push((depth, rest));
    }
    let mut path: Vec<&str> = Vec::new();
    let mut leaves = Vec::new();
    for (i, &(depth, name)) in lines.iter().enumerate() {
        if depth > path.len() {
            return None;
        }
        path.truncate(depth);
        path.push(name);
        let is_leaf = lines.get(i + 1).is_none_or(|&(next, _)| next <= depth);
        if is_leaf {
            leaves.push(path.join("::"));
        }
    }
    let wanted: BTreeSet<&str> = names.iter().copied().collect();
    let found: BTreeSet<&str> = leaves.iter().map(String::as_str).collect();
    (wanted.len() == names.len() && found.len() == leaves.len() && wanted == found)
        .then_some(leaves)
}

/// How many dumps a process that ran `benchmarks` benchmarks writes: its start, a loop and a gap per sample
/// of each, the last gap being the program's end.
pub(super) fn dumps_of(benchmarks: usize) -> usize {
    2 * SAMPLES * benchmarks + 1
}

/// The dumps of the k-th benchmark run (from 0) among a process's: the one before its first loop (the
/// process's start, or the previous benchmark's last gap), then its loop and gap per sample.
pub(super) fn window(k: usize) -> Range<usize> {
    2 * SAMPLES * k..2 * SAMPLES * (k + 1) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bytesize 2.7.0's `display --bench --list --color never --exact` of two of its benchmarks, as divan
    /// 0.1.21 printed it here: sorted by name, not in the order of the names given.
    const TWO: &str = "display\n├─ display_always_pad_custom\n╰─ display_bytesize_standard\n\n";

    #[test]
    fn the_tree_gives_the_paths_in_the_order_divan_runs_them() {
        let names = [
            "display::display_bytesize_standard",
            "display::display_always_pad_custom",
        ];
        assert_eq!(
            run_order(TWO, &names).unwrap(),
            [
                "display::display_always_pad_custom",
                "display::display_bytesize_standard"
            ]
        );
        // Nested groups, and a second top-level module after a blank line.
        let tree = "a\n├─ g\n│  ├─ x\n│  ╰─ y\n╰─ z\n\nb\n╰─ h\n   ╰─ w\n";
        let names = ["b::h::w", "a::z", "a::g::y", "a::g::x"];
        assert_eq!(
            run_order(tree, &names).unwrap(),
            ["a::g::x", "a::g::y", "a::z", "b::h::w"]
        );
    }

    #[test]
    fn leaves_that_are_not_exactly_the_names_give_no_order() {
        // A benchmark with arguments is one leaf of the tree, several listed names.
        let tree = "d\n╰─ with_args\n";
        assert_eq!(
            run_order(tree, &["d::with_args::1", "d::with_args::2"]),
            None
        );
        // One name missing from the tree, or one more there.
        assert_eq!(
            run_order(TWO, &["display::display_always_pad_custom"]),
            None
        );
        assert_eq!(
            run_order(
                TWO,
                &[
                    "display::display_always_pad_custom",
                    "display::display_bytesize_standard",
                    "display::other"
                ]
            ),
            None
        );
        // A line deeper than its parent allows is not divan's tree.
        assert_eq!(run_order("d\n│  │  ├─ x\n", &["d::x"]), None);
    }

    #[test]
    fn each_benchmark_s_window_has_the_shape_of_a_process_of_its_own() {
        assert_eq!(dumps_of(2), 17);
        assert_eq!(window(0), 0..9);
        assert_eq!(window(1), 8..17);
        assert_eq!(window(1).len(), dumps_of(1));
        assert_eq!(
            run_args(100, &["a::b"]),
            [
                "--bench",
                "--color",
                "never",
                "--sample-count",
                "4",
                "--sample-size",
                "100",
                "--exact",
                "a::b"
            ]
        );
    }
}
