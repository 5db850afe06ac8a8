//! Reading the tree a divan bench executable prints (divan 0.1; tested with 0.1.21): a line per module,
//! group, generic type, argument or benchmark, drawn with `├─ `, `╰─ `, `│  ` and `   ` three characters a
//! level, and for each benchmark a row of `fastest │ slowest │ median │ mean │ samples │ iters`. The name
//! of a benchmark is its path in the tree joined with `::`, the root (the bench target) first: the names
//! divan's own `--list --format terse` prints, and the paths its filter matches. Rows without a branch
//! (throughput counters, allocation counts) and `(ignored)` entries are skipped: counters are not kept.
//!
//! Must not: guess. A tree line whose columns are not divan's is an error naming the line.

/// The column headings divan writes on each top-level line.
const HEADINGS: [&str; 6] = ["fastest", "slowest", "median", "mean", "samples", "iters"];

/// `(name, median in nanoseconds)` of every benchmark in `text`, in the printed order; `Err` says why
/// `text` is not divan's tree.
pub(super) fn parse(text: &str) -> Result<Vec<(String, f64)>, String> {
    if text.trim().is_empty() {
        return Err("it printed nothing".to_string());
    }
    let mut path: Vec<String> = Vec::new();
    let mut found = Vec::new();
    let mut seen_root = false;
    let mut seen_timer = false;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        if line.starts_with("Timer precision:") {
            seen_timer = true;
            continue;
        }
        let (depth, branch, rest) = strip_prefix(line);
        let fields: Vec<&str> = rest.split('│').map(str::trim).collect();
        if depth == 0 {
            // A top-level module: divan writes the column headings on each.
            let name = fields[0].strip_suffix("fastest").unwrap_or("").trim();
            if name.is_empty() || fields[1..] != HEADINGS[1..] {
                return Err(format!(
                    "line {}: `{line}` is not a divan tree's root (`NAME  fastest │ slowest │ median │ mean │ samples │ iters`)",
                    number + 1
                ));
            }
            path = vec![name.to_string()];
            seen_root = true;
            continue;
        }
        if !branch || !seen_root {
            continue;
        }
        path.truncate(depth);
        if fields.len() == 1 {
            // A parent without columns, or an ignored or empty leaf.
            let name = fields[0].trim_end_matches("(ignored)").trim();
            path.push(name.to_string());
            continue;
        }
        if fields.len() != 6 {
            return Err(format!(
                "line {}: `{line}` has {} columns, divan prints 6 (fastest, slowest, median, mean, samples, iters)",
                number + 1,
                fields.len()
            ));
        }
        if fields[1..].iter().all(|f| f.is_empty()) {
            // A parent (a module, group, generic or function with arguments), or an ignored leaf.
            path.push(fields[0].trim_end_matches("(ignored)").trim().to_string());
            continue;
        }
        let (name, _fastest) = split_time(fields[0]).ok_or_else(|| {
            format!(
                "line {}: `{line}` does not start with a name and a time",
                number + 1
            )
        })?;
        let median = time(fields[2]).ok_or_else(|| {
            format!(
                "line {}: the median `{}` is not a time",
                number + 1,
                fields[2]
            )
        })?;
        path.push(name.to_string());
        found.push((path.join("::"), median));
    }
    if !seen_root && !seen_timer {
        return Err("it printed no divan tree (a line `NAME  fastest │ slowest │ median │ mean │ samples │ iters`)".into());
    }
    Ok(found)
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

/// `NAME  1.234 µs` as the name and the time in nanoseconds.
fn split_time(field: &str) -> Option<(&str, f64)> {
    let mut tokens = field.rsplitn(3, ' ');
    let unit = tokens.next()?;
    let number = tokens.next()?;
    let name = tokens.next()?.trim();
    let nanos = time(&format!("{number} {unit}"))?;
    (!name.is_empty()).then_some((name, nanos))
}

/// divan's `1.234 µs` in nanoseconds.
fn time(text: &str) -> Option<f64> {
    let (number, unit) = text.trim().split_once(' ')?;
    let scale = match unit {
        "ps" => 1e-3,
        "ns" => 1.0,
        "µs" | "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    let value: f64 = number.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value * scale)
}
