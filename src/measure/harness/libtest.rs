//! Reading what libtest's `#[bench]` runner prints (`cargo +nightly bench`): one line per benchmark,
//! `test NAME ... bench:       1,234 ns/iter (+/- 56)` (newer nightlies print fractions:
//! `1,234.56 ns/iter (+/- 7.89)`). The fixtures in the tests are written from that documented format, not
//! captured from a nightly run (none is installed where this was written).
//!
//! Must not: read test results or anything but the `bench:` lines.

/// `(name, ns/iter)` of every benchmark line in `text`, in the printed order; `Err` when `text` is not
/// libtest's output at all.
pub(super) fn parse(text: &str) -> Result<Vec<(String, f64)>, String> {
    if text.trim().is_empty() {
        return Err("it printed nothing".to_string());
    }
    let mut found = Vec::new();
    let mut seen_runner = false;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("running ") || line.starts_with("test result:") {
            seen_runner = true;
        }
        let Some((name, value)) = line
            .strip_prefix("test ")
            .and_then(|l| l.split_once(" ... bench:"))
        else {
            continue;
        };
        let number_text = value
            .trim()
            .strip_suffix(')')
            .and_then(|v| v.split_once(" ns/iter"))
            .map(|(v, _)| v.trim().replace([',', '_'], ""))
            .ok_or_else(|| format!("line {}: `{line}` has no `N ns/iter`", number + 1))?;
        let nanos: f64 = number_text.parse().map_err(|_| {
            format!(
                "line {}: `{number_text}` is not a number of ns/iter",
                number + 1
            )
        })?;
        found.push((name.trim().to_string(), nanos));
    }
    if found.is_empty() && !seen_runner {
        return Err(
            "it printed no libtest bench lines (`test NAME ... bench: N ns/iter (+/- M)`)".into(),
        );
    }
    Ok(found)
}
