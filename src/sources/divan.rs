//! divan's printed tree, the output of `cargo bench` for a divan bench target, saved to a file
//! (`docs/formats.md` §12).
//!
//! ```text
//! divan_bench          fastest       │ slowest       │ median        │ mean          │ samples │ iters
//! ├─ checksum                        │               │               │               │         │
//! │  ├─ 64             54.18 ns      │ 91.58 ns      │ 54.33 ns      │ 56.18 ns      │ 20      │ 1280
//! │  │                 1.181 GB/s    │ 698.7 MB/s    │ 1.177 GB/s    │ 1.139 GB/s    │         │
//! ╰─ fib_20            15.37 µs      │ 15.87 µs      │ 15.38 µs      │ 15.4 µs       │ 20      │ 20
//! ```
//!
//! Why it exists: divan has no machine-readable output, so the tree people already save is what `compare`
//! can read.
//!
//! One printed tree is one process run: divan prints summary statistics of its samples, not the samples,
//! so each benchmark's **median** column becomes one observation of one run (`Measured::ProcessPerValue`;
//! the median, as every run's value in this tool is its samples' median, `model::Run`). A file holding
//! several trees of the same target (the outputs of several `cargo bench` runs appended to one file) gives
//! one observation per tree: real process runs, which is what the tests need; one tree per side is one
//! value per side, which the analysis reports as too few to test.
//!
//! A tree starts at its header line (target name, then the column names); each of its header lines
//! starts a new run of that target. A benchmark is named by its path below the target, joined with `/`:
//! groups (modules), the function, then divan's own names for `args`, `types`, `consts` and thread counts
//! (`checksum/64`, `push/Vec<u64>`, `parse/float/long`). A path present under two targets of one file is
//! qualified by its target (`target/path`). Throughput lines (`GB/s`, `Mitem/s`: derived from the same
//! times), allocation lines (`alloc:`, `max alloc:`), `(ignored)` benchmarks, cargo's own lines and ANSI
//! colours are skipped; a leaf whose median does not parse is noted with its line number. Checked on the
//! output of divan 0.1.21 and 0.1.0, whose trees have the same layout. Must not: read the fastest, slowest
//! or mean columns, or merge benchmarks of different targets.

use std::collections::HashMap;

use super::{Builder, Measured, SourceError};
use crate::model::{Results, Unit};

const FORMAT: &str = "divan output";

/// The columns of a divan tree, after the name.
const COLUMNS: [&str; 5] = ["slowest", "median", "mean", "samples", "iters"];

/// Whether `text` holds a divan header line.
pub fn has_tree(text: &str) -> bool {
    text.lines().any(|line| header(&plain(line)).is_some())
}

/// `line` without ANSI escape sequences (`ESC [ ... letter`).
fn plain(line: &str) -> String {
    if !line.contains('\x1b') {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The target named by a header line: `NAME  fastest │ slowest │ median │ mean │ samples │ iters`.
fn header(line: &str) -> Option<&str> {
    let columns: Vec<&str> = line.split('│').map(str::trim).collect();
    if columns.len() != 6 || columns[1..] != COLUMNS {
        return None;
    }
    let name = columns[0].strip_suffix("fastest")?.trim_end();
    (!name.is_empty() && !name.starts_with(['├', '╰', '│'])).then_some(name)
}

/// A node of the tree: its depth below the target (1 for the target's children) and what follows the
/// branch.
fn node(line: &str) -> Option<(usize, &str)> {
    let at = [line.find("├─ "), line.find("╰─ ")]
        .into_iter()
        .flatten()
        .min()?;
    let prefix = &line[..at];
    if !prefix.chars().all(|c| c == '│' || c == ' ') {
        return None;
    }
    let branch = "├─ ".len();
    Some((prefix.chars().count() / 3 + 1, &line[at + branch..]))
}

/// What a node's line says.
enum Entry<'a> {
    /// A group, or a leaf without statistics.
    Group(&'a str),
    /// A benchmark with its median in nanoseconds, or `None` when it does not parse.
    Leaf(&'a str, Option<f64>),
    /// A benchmark divan did not run.
    Ignored,
}

fn entry(content: &str) -> Entry<'_> {
    let columns: Vec<&str> = content.split('│').collect();
    let first = columns[0].trim();
    if columns.len() != 6 {
        return Entry::Group(first);
    }
    if first.ends_with("(ignored)") {
        return Entry::Ignored;
    }
    let median = columns[2].trim();
    if median.is_empty() {
        return Entry::Group(first);
    }
    // The name, at least two spaces, then the fastest time (`54.18 ns`): the name is what is left.
    let mut words = first.rsplitn(3, ' ');
    let (_unit, _value, name) = (words.next(), words.next(), words.next());
    let name = name.map_or("", str::trim_end);
    Entry::Leaf(name, nanos(median))
}

/// A divan duration (`54.18 ns`, `13.31 µs`, `1.5 m`) in nanoseconds.
fn nanos(text: &str) -> Option<f64> {
    let (value, unit) = text.split_once(' ')?;
    let value: f64 = value.parse().ok()?;
    let scale = match unit {
        "ps" => 1e-3,
        "ns" => 1.0,
        "µs" | "μs" | "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" => 60e9,
        "h" => 3600e9,
        "d" => 86_400e9,
        _ => return None,
    };
    Some(value * scale)
}

/// Parses divan's printed trees read from `origin`.
pub fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let mut builder = Builder::new(origin);
    let mut target: Option<String> = None;
    let mut path: Vec<String> = Vec::new();
    let mut order: Vec<(String, String)> = Vec::new();
    let mut values: HashMap<(String, String), Vec<f64>> = HashMap::new();
    let mut malformed = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = plain(line);
        if let Some(name) = header(&line) {
            target = Some(name.to_string());
            path.clear();
            continue;
        }
        let (Some(target), Some((depth, content))) = (&target, node(&line)) else {
            continue;
        };
        path.truncate(depth - 1);
        match entry(content) {
            Entry::Group(name) => path.push(name.to_string()),
            Entry::Ignored => path.push(String::new()),
            Entry::Leaf(name, median) => {
                path.push(name.to_string());
                match median {
                    Some(median) => {
                        let key = (target.clone(), path.join("/"));
                        if !values.contains_key(&key) {
                            order.push(key.clone());
                        }
                        values.entry(key).or_default().push(median);
                    }
                    None => malformed.push(index + 1),
                }
            }
        }
    }
    if let Some(first) = malformed.first() {
        let lines = match malformed.len() {
            1 => format!("1 benchmark line whose median does not parse (line {first})"),
            n => format!(
                "{n} benchmark lines whose median does not parse (the first on line {first})"
            ),
        };
        builder.notes.push(format!("{origin}: skipped {lines}"));
    }
    let ambiguous = super::go::ambiguous_names(&order);
    for key in order {
        let name = if ambiguous.contains(&key.1) {
            format!("{}/{}", key.0, key.1)
        } else {
            key.1.clone()
        };
        let sample = values.remove(&key).unwrap_or_default();
        builder.push(&name, sample, Unit::Ns, Measured::ProcessPerValue)?;
    }
    builder.finish(FORMAT).map_err(|error| match error {
        SourceError::NoSamples { path, reason, .. } => SourceError::NoSamples {
            path,
            reason,
            hint: Some(
                "save the whole output of `cargo bench` for a divan target, from its header line \
                 (`NAME  fastest │ slowest │ median │ ...`) on"
                    .into(),
            ),
        },
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::tests::read_fixture;

    #[test]
    fn units_are_read_as_divan_prints_them() {
        assert_eq!(nanos("54.18 ns"), Some(54.18));
        assert_eq!(nanos("13.31 µs"), Some(13.31 * 1e3));
        assert_eq!(nanos("2.5 ms"), Some(2.5 * 1e6));
        assert_eq!(nanos("1.5 s"), Some(1.5 * 1e9));
        assert_eq!(nanos("2 m"), Some(2.0 * 60e9));
        assert_eq!(nanos("780 ps"), Some(780.0 * 1e-3));
        assert_eq!(nanos("12 parsecs"), None);
        assert_eq!(nanos("fast ns"), None);
    }

    #[test]
    fn header_lines_name_the_target_and_nothing_else_is_one() {
        let line = "divan_bench          fastest       │ slowest       │ median        │ mean          │ samples │ iters";
        assert_eq!(header(line), Some("divan_bench"));
        assert_eq!(
            header("├─ fib  fastest │ slowest │ median │ mean │ samples │ iters"),
            None
        );
        assert_eq!(
            header("fastest │ slowest │ median │ mean │ samples │ iters"),
            None
        );
        assert_eq!(
            header("a fastest │ slowest │ median │ mean │ samples"),
            None
        );
    }

    #[test]
    fn colours_are_stripped() {
        assert_eq!(plain("\x1b[1mdivan\x1b[0m x"), "divan x");
    }

    #[test]
    fn a_tree_with_nothing_under_it_says_what_is_expected() {
        let text = "t  fastest │ slowest │ median │ mean │ samples │ iters\n";
        let message = parse(text, "out.txt").unwrap_err().to_string();
        assert_eq!(
            message,
            "out.txt: no samples: no benchmark found in this divan output input\nhint: save the whole \
             output of `cargo bench` for a divan target, from its header line (`NAME  fastest │ slowest \
             │ median │ ...`) on"
        );
    }

    #[test]
    fn the_same_path_under_two_targets_is_qualified() {
        let text = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                    ╰─ f  1 ns │ 2 ns │ 1 ns │ 1 ns │ 1 │ 1\n\
                    b  fastest │ slowest │ median │ mean │ samples │ iters\n\
                    ├─ f  3 ns │ 4 ns │ 3 ns │ 3 ns │ 1 │ 1\n\
                    ╰─ g  5 ns │ 6 ns │ 5 ns │ 5 ns │ 1 │ 1\n";
        let results = parse(text, "f").unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a/f", "b/f", "g"]);
    }

    #[test]
    fn a_median_that_does_not_parse_is_noted_with_its_line() {
        let text = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                    ├─ f  1 ns │ 2 ns │ 1 ns │ 1 ns │ 1 │ 1\n\
                    ╰─ g  5 ns │ 6 ns │ five │ 5 ns │ 1 │ 1\n";
        let results = parse(text, "out.txt").unwrap();
        assert_eq!(results.benchmarks.len(), 1);
        assert_eq!(
            results.notes,
            ["out.txt: skipped 1 benchmark line whose median does not parse (line 3)"]
        );
    }

    #[test]
    fn a_zero_median_names_the_file_and_benchmark() {
        let text = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                    ╰─ noop  0 ns │ 0 ns │ 0 ns │ 0 ns │ 1 │ 1\n";
        let message = parse(text, "out.txt").unwrap_err().to_string();
        assert!(
            message.starts_with("out.txt: benchmark `noop`: observation 1 is 0"),
            "{message}"
        );
    }

    fn values(results: &Results, name: &str) -> Vec<f64> {
        let b = results.benchmarks.iter().find(|b| b.name == name).unwrap();
        assert!(b.runs.runs().iter().all(|r| r.samples().len() == 1));
        b.runs.values()
    }

    #[test]
    fn each_tree_of_the_fixture_is_one_run_of_each_benchmark() {
        let results = read_fixture("divan/base.txt").unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "checksum/64",
                "checksum/1024",
                "checksum/16384",
                "fib_20",
                "array_sum/8",
                "array_sum/32",
                "parse/integer",
                "parse/float/long",
                "parse/float/short",
                "push_items/Vec<u64>",
                "push_items/VecDeque<u64>",
            ]
        );
        // The median column of lines 9, 32, 55, 78 and 101, and of 16, 39, 62, 85 and 108.
        assert_eq!(
            values(&results, "fib_20"),
            [
                15.39 * 1e3,
                15.38 * 1e3,
                15.38 * 1e3,
                15.38 * 1e3,
                15.38 * 1e3
            ]
        );
        assert_eq!(
            values(&results, "parse/float/long"),
            [37.89, 37.91, 37.91, 37.91, 37.89]
        );
        assert_eq!(
            values(&results, "push_items/Vec<u64>"),
            [24.75, 26.63, 27.74, 25.07, 24.93]
        );
        assert!(results.notes.is_empty(), "{:?}", results.notes);
    }

    #[test]
    fn the_first_release_prints_the_same_tree() {
        let results = read_fixture("divan/v0.1.0.txt").unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["fib", "group/inner", "parse/u64", "parse/u8"]);
        assert_eq!(values(&results, "fib"), [1.562 * 1e3]);
        assert_eq!(values(&results, "group/inner"), [0.998]);
    }

    #[test]
    fn cargos_own_lines_between_the_trees_are_skipped() {
        let results = read_fixture("divan/head.txt").unwrap();
        assert_eq!(results.benchmarks.len(), 11);
        // Lines 6, 32, 60, 86 and 112: the planted slowdown doubled checksum's work.
        assert_eq!(values(&results, "checksum/64"), [106.7; 5]);
        assert!(results.notes.is_empty(), "{:?}", results.notes);
    }
}
