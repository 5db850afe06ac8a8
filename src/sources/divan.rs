//! divan's printed tree: the one parser of it, for a saved file given to `compare` ([`parse`]) and for the
//! output of a run this tool measured (`trees`, read by `measure::harness`) (`docs/formats.md` §12).
//!
//! ```text
//! divan_bench          fastest       │ slowest       │ median        │ mean          │ samples │ iters
//! ├─ checksum                        │               │               │               │         │
//! │  ├─ 64             54.18 ns      │ 91.58 ns      │ 54.33 ns      │ 56.18 ns      │ 20      │ 1280
//! │  │                 1.181 GB/s    │ 698.7 MB/s    │ 1.177 GB/s    │ 1.139 GB/s    │         │
//! ╰─ fib_20            15.37 µs      │ 15.87 µs      │ 15.38 µs      │ 15.4 µs       │ 20      │ 20
//! ```
//!
//! Why it exists: divan has no machine-readable output, so the tree it prints is what both `compare` and
//! the measuring commands read.
//!
//! One printed tree is one process run: divan prints summary statistics of its samples, not the samples,
//! so each benchmark's **median** column becomes one observation of one run (the median, as every run's
//! value in this tool is its samples' median, `model::Run`). A file holding several trees (the outputs of
//! several `cargo bench` runs appended to one file) gives one observation per tree.
//!
//! Names: a tree starts at its header line (the bench target, then the column names); a benchmark is named
//! by its path from the target, joined with `::`: the target, groups (modules), the function, then divan's
//! own names for `args`, `types`, `consts` and thread counts (`divan_bench::checksum::64`,
//! `divan_bench::push_items::Vec<u64>`, `work::shared::t=2`). That is divan's own path, the one its `--list`
//! prints and its filter matches, so a saved tree and a measured run name a benchmark identically.
//!
//! Counters: a row without a branch whose four time columns are rates (`1.177 GB/s`, `61.53 Gitem/s`,
//! `280.6 Mchar/s`, `3.1 GHz`) is a counter of the benchmark above it. What is kept is the count per
//! iteration ([`Counter`]), rate × time of a column: divan truncates both to 4 digits, so each column
//! bounds the count; it is exact when one integer only is within every column's bounds (64 bytes, 100
//! items), else known to about 0.1 % (16384 bytes at 13 µs). Allocation rows (`max alloc:`, `alloc:`, `dealloc:`, `grow:`, `shrink:` and their values) and
//! `(ignored)` benchmarks are skipped; ANSI colours are stripped.
//!
//! Must not: guess. Inside a tree, a line that is none of divan's (a benchmark, a group, a counter or
//! allocation row) is an error naming the line, and so is a median that is not a time. Outside the trees,
//! a measured run's output may hold nothing else (`Around::Nothing`); a saved file may hold cargo's own
//! lines (`Around::Anything`). It must not read the fastest, slowest or mean columns as values.

use std::collections::HashMap;

use super::{Builder, SourceError, ValuesFrom};
use crate::model::coverage::Reason;
use crate::model::{Counter, CounterKind, Results, Unit};

const FORMAT: &str = "divan output";

/// The column headings divan writes on each tree's header line, after the target's name.
const HEADINGS: [&str; 6] = ["fastest", "slowest", "median", "mean", "samples", "iters"];

/// The first lines of allocation sections (divan's `AllocProfiler`).
const ALLOC_PREFIXES: [&str; 5] = ["max alloc:", "alloc:", "dealloc:", "grow:", "shrink:"];

/// One benchmark of one printed tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    /// divan's path of the benchmark, the target first, joined with `::`.
    pub(crate) name: String,
    /// The median column, in nanoseconds.
    pub(crate) median: f64,
    /// The counters printed under it, per iteration.
    pub(crate) counters: Vec<Counter>,
    /// The fastest, slowest, median and mean times as the ranges their printed digits allow, in
    /// nanoseconds: divan truncates to 4 significant digits, so `54.33 ns` is in [54.33, 54.34).
    bounds: [(f64, f64); 4],
}

/// What may stand outside the trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Around {
    /// Only blank lines and divan's `Timer precision:` line: the standard output of one bench executable.
    Nothing,
    /// Anything (cargo's `Finished`, `Running`, warnings): a saved `cargo bench > file 2>&1`.
    Anything,
}

/// Whether `text` holds a divan header line.
pub(crate) fn has_tree(text: &str) -> bool {
    text.lines().any(|line| header(&plain(line)).is_some())
}

/// The benchmarks of every tree in `text`, one list per tree (per process run), in the printed order;
/// `Err` says why `text` is not divan's output, naming the line.
pub(crate) fn trees(text: &str, around: Around) -> Result<Vec<Vec<Row>>, String> {
    if text.trim().is_empty() {
        return Err("it printed nothing".to_string());
    }
    let mut trees: Vec<Vec<Row>> = Vec::new();
    // The path of the line before, the target first; `None` outside a tree.
    let mut path: Option<Vec<String>> = None;
    // Whether the rows that follow are an allocation section's values.
    let mut in_alloc = false;
    let mut seen_timer = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = plain(line);
        let line = line.trim_end();
        if let Some(target) = header(line) {
            path = Some(vec![target.to_string()]);
            trees.push(Vec::new());
            in_alloc = false;
            continue;
        }
        if path.is_some() && line.is_empty() {
            // A tree ends at its first blank line.
            path = None;
            in_alloc = false;
            continue;
        }
        let Some(path) = path.as_mut() else {
            if line.is_empty() {
                continue;
            }
            if line.starts_with("Timer precision:") {
                seen_timer = true;
                continue;
            }
            match around {
                Around::Anything => continue,
                Around::Nothing => {
                    return Err(format!(
                        "line {number}: `{line}` is not a divan tree's root (`NAME  fastest │ slowest │ median │ mean │ samples │ iters`)"
                    ));
                }
            }
        };
        let rows = trees.last_mut().expect("a tree was started");
        let (depth, branch, rest) = strip_prefix(line);
        let fields: Vec<&str> = rest.split('│').map(str::trim).collect();
        if !branch {
            if fields.len() == 6 && fields[4..].iter().all(|f| f.is_empty()) {
                if let Some(counter) = counter(&fields[..4], rows.last()) {
                    let row = rows.last_mut().expect("a counter follows its benchmark");
                    row.counters.push(counter);
                    continue;
                }
                if ALLOC_PREFIXES.contains(&fields[0]) && fields[1..].iter().all(|f| f.is_empty()) {
                    in_alloc = true;
                    continue;
                }
                if in_alloc && fields[..4].iter().all(|f| f.is_empty() || amount(f)) {
                    continue;
                }
            }
            return Err(format!(
                "line {number}: `{line}` is not a line of divan's tree (a benchmark, a group, a counter or an allocation row)"
            ));
        }
        in_alloc = false;
        path.truncate(depth);
        if fields.len() == 1 || (fields.len() == 6 && fields[1..].iter().all(|f| f.is_empty())) {
            // A parent (a module, group, generic, function with arguments or thread counts), or an ignored
            // benchmark: a path component with no row of its own.
            path.push(fields[0].trim_end_matches("(ignored)").trim().to_string());
            continue;
        }
        if fields.len() != 6 {
            return Err(format!(
                "line {number}: `{line}` has {} columns, divan prints 6 (fastest, slowest, median, mean, samples, iters)",
                fields.len()
            ));
        }
        let (name, fastest) = split_time(fields[0]).ok_or_else(|| {
            format!("line {number}: `{line}` does not start with a name and a time")
        })?;
        let median = time(fields[2])
            .ok_or_else(|| format!("line {number}: the median `{}` is not a time", fields[2]))?;
        let bounds = [fastest, fields[1], fields[2], fields[3]].map(time_bounds);
        path.push(name.to_string());
        rows.push(Row {
            name: path.join("::"),
            median,
            counters: Vec::new(),
            bounds: bounds.map(|b| b.unwrap_or((f64::NAN, f64::NAN))),
        });
    }
    if trees.is_empty() && !(seen_timer && around == Around::Nothing) {
        return Err("it printed no divan tree (a line `NAME  fastest │ slowest │ median │ mean │ samples │ iters`)".into());
    }
    Ok(trees)
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
    if columns.len() != 6 || columns[1..] != HEADINGS[1..] {
        return None;
    }
    let name = columns[0].strip_suffix("fastest")?.trim_end();
    (!name.is_empty() && !name.starts_with(['├', '╰', '│'])).then_some(name)
}

/// The depth of `line` (its three-character tree units), whether its last unit is a branch (`├─ `,
/// `╰─ `), and the rest.
fn strip_prefix(line: &str) -> (usize, bool, &str) {
    let mut rest = line;
    let mut depth = 0;
    loop {
        if let Some(r) = rest
            .strip_prefix("├─ ")
            .or_else(|| rest.strip_prefix("╰─ "))
        {
            return (depth + 1, true, r);
        }
        match rest
            .strip_prefix("│  ")
            .or_else(|| rest.strip_prefix("   "))
        {
            Some(r) => {
                rest = r;
                depth += 1;
            }
            // A counter row ends its prefix with a lone `│` before its padding.
            None => return (depth, false, rest),
        }
    }
}

/// `NAME  1.234 µs` as the name and the time (`1.234 µs`).
fn split_time(field: &str) -> Option<(&str, &str)> {
    let at = field.trim_end().rsplitn(3, ' ').nth(2)?.len();
    let (name, time_text) = field.split_at(at);
    let name = name.trim();
    time(time_text.trim())?;
    (!name.is_empty()).then_some((name, time_text.trim()))
}

/// A divan duration (`54.18 ns`, `13.31 µs`, `1.5 m`) in nanoseconds.
fn time(text: &str) -> Option<f64> {
    let (number, unit) = text.trim().split_once(' ')?;
    let value: f64 = number.parse().ok()?;
    let scale = time_scale(unit)?;
    (value.is_finite() && value >= 0.0).then_some(value * scale)
}

/// The range of nanoseconds a printed duration stands for (`time`, `truncated`).
fn time_bounds(text: &str) -> Option<(f64, f64)> {
    let (number, unit) = text.trim().split_once(' ')?;
    let (low, high) = truncated(number)?;
    let scale = time_scale(unit)?;
    Some((low * scale, high * scale))
}

/// The range a number printed by divan stands for: divan keeps 4 digits, counting those before the point,
/// and truncates the rest (`format_f64`), so `1.23` (from `1.230`) is in [1.23, 1.231) and `197.5` in
/// [197.5, 197.6).
fn truncated(number: &str) -> Option<(f64, f64)> {
    let value: f64 = number.parse().ok()?;
    if !value.is_finite() || value < 0.0 {
        return None;
    }
    let whole = number.split('.').next().unwrap_or(number).len() as i32;
    let step = 10f64.powi(-(4 - whole).max(0));
    Some((value, value + step))
}

/// Nanoseconds per divan time unit.
fn time_scale(unit: &str) -> Option<f64> {
    Some(match unit {
        "ps" => 1e-3,
        "ns" => 1.0,
        "µs" | "μs" | "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" => 60e9,
        "h" => 3600e9,
        "d" => 86_400e9,
        _ => return None,
    })
}

/// A divan rate (`1.177 GB/s`, `4.038 Gitem/s`, `280.6 Mchar/s`, `3 GHz`): what it counts and the range
/// per second its digits stand for (`truncated`).
fn rate(text: &str) -> Option<(CounterKind, (f64, f64))> {
    let (number, unit) = text.split_once(' ')?;
    let (low, high) = truncated(number)?;
    let (kind, prefix) = if let Some(p) = unit.strip_suffix("B/s") {
        (CounterKind::Bytes, p)
    } else if let Some(p) = unit.strip_suffix("item/s") {
        (CounterKind::Items, p)
    } else if let Some(p) = unit.strip_suffix("char/s") {
        (CounterKind::Chars, p)
    } else if let Some(p) = unit.strip_suffix("Hz") {
        (CounterKind::Cycles, p)
    } else {
        return None;
    };
    let scale = match prefix {
        "" => 1.0,
        "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "Ki" if kind == CounterKind::Bytes => 1024.0,
        "Mi" if kind == CounterKind::Bytes => 1024f64.powi(2),
        "Gi" if kind == CounterKind::Bytes => 1024f64.powi(3),
        "Ti" if kind == CounterKind::Bytes => 1024f64.powi(4),
        "Pi" if kind == CounterKind::Bytes => 1024f64.powi(5),
        _ => return None,
    };
    Some((kind, (low * scale, high * scale)))
}

/// The counter a row of four rates gives the benchmark `above`: its count per iteration, which is rate ×
/// time of each column. Each column bounds it (the ranges of its printed rate and time, `truncated`); the
/// count is the one integer within every column's bounds when there is one (`exact`), else the middle of
/// the bounds to 4 significant digits (a count of 16384 printed as `1.229 GB/s` at `13.32 µs` is known to
/// about 0.1 % only). `None` when the row is not four rates of one kind.
fn counter(columns: &[&str], above: Option<&Row>) -> Option<Counter> {
    let rates: Vec<(CounterKind, (f64, f64))> =
        columns.iter().map(|c| rate(c)).collect::<Option<_>>()?;
    let kind = rates[0].0;
    if rates.iter().any(|(k, _)| *k != kind) {
        return None;
    }
    let above = above?;
    let bounds: Vec<(f64, f64)> = rates
        .iter()
        .zip(above.bounds)
        .map(|((_, (r0, r1)), (t0, t1))| (r0 * t0 * 1e-9, r1 * t1 * 1e-9))
        .filter(|(low, high)| low.is_finite() && high.is_finite())
        .collect();
    let low = bounds.iter().map(|b| b.0).fold(f64::NEG_INFINITY, f64::max);
    let high = bounds.iter().map(|b| b.1).fold(f64::INFINITY, f64::min);
    // Columns that disagree (counts that vary between inputs): the median column alone.
    let (low, high) = if low <= high {
        (low, high)
    } else {
        bounds.get(2).copied()?
    };
    if !(low.is_finite() && high.is_finite()) {
        return None;
    }
    // The integers in [low, high): exact when there is one only.
    let first = low.ceil();
    let exact = first < high && first + 1.0 >= high;
    let per_iteration = if exact {
        first
    } else {
        significant((low + high) / 2.0, 4)
    };
    Some(Counter {
        kind,
        per_iteration,
        exact,
    })
}

/// `value` to `digits` significant digits.
fn significant(value: f64, digits: i32) -> f64 {
    if value == 0.0 {
        return 0.0;
    }
    let scale = 10f64.powi(digits - 1 - value.abs().log10().floor() as i32);
    (value * scale).round() / scale
}

/// Whether `text` is an allocation section's value: a count (`12`, `1.5`) or a size (`64 B`, `1.2 KiB`).
fn amount(text: &str) -> bool {
    match text.split_once(' ') {
        None => text.parse::<f64>().is_ok(),
        Some((number, unit)) => {
            number.parse::<f64>().is_ok()
                && [
                    "B", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB",
                ]
                .contains(&unit)
        }
    }
}

/// Parses divan's printed trees read from `origin` (a saved `cargo bench` output): one run per tree. A
/// benchmark's counters are those of its first tree that prints any.
pub(crate) fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let trees = trees(text, Around::Anything).map_err(|problem| SourceError::Malformed {
        path: origin.to_string(),
        problem: format!("not divan's printed tree: {problem}"),
        hint: "save the whole output of `cargo bench` for a divan target as it printed it; for a custom \
               harness, write its values as raw JSON (`docs/formats.md` §6) and compare those"
            .into(),
    })?;
    let mut order: Vec<String> = Vec::new();
    let mut values: HashMap<String, (Vec<f64>, Vec<Counter>)> = HashMap::new();
    for row in trees.into_iter().flatten() {
        let entry = values.entry(row.name.clone()).or_insert_with(|| {
            order.push(row.name.clone());
            (Vec::new(), Vec::new())
        });
        entry.0.push(row.median);
        if entry.1.is_empty() {
            entry.1 = row.counters;
        }
    }
    let mut builder = Builder::new(origin);
    for name in order {
        let (sample, counters) = values.remove(&name).unwrap_or_default();
        // divan prints a median below its timer's precision as `0 ns`: not a time.
        if sample.contains(&0.0) {
            let printed = "0 ns".to_string();
            builder.leave_out(&name, Reason::BelowResolution { printed })?;
            continue;
        }
        builder.push(&name, sample, Unit::Ns, ValuesFrom::ProcessPerValue)?;
        if let Some(last) = builder.last_mut().filter(|b| b.name == name) {
            last.counters = counters;
        }
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
mod tests;
