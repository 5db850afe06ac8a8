//! `--format gab`: github-action-benchmark's `customSmallerIsBetter` JSON, so that a comparison's HEAD
//! reaches the charts that action draws (`docs/json.md` §9).
//!
//! ```json
//! [ { "name": "parse/small", "unit": "ns", "value": 812.5, "range": "± 15.55",
//!     "extra": "BASE 853.1 ns, HEAD 812.5 ns (medians of 10 and 10 runs)\nspeedup 1.05x [1.01, 1.09]: faster (0.99)" } ]
//! ```
//!
//! One element per compared benchmark, in the report's order: `value` is HEAD's median, in nanoseconds
//! for a time (one unit for every time, so that the action's history of a benchmark never mixes units)
//! and as counted for a count (`unit` names it: `instructions`); `range`, when HEAD has several values,
//! is `± h` with h half the distance between its smallest and largest (the action shows it as it is);
//! `extra`, which the action shows beside the value, gives both sides, the speedup with its interval and
//! the verdict, or for a count the exact change. Benchmarks on one side only and those not run
//! (identical executables) have no HEAD value and are left out, as is a value that is not finite.
//! Must not: decide anything; the verdict is the analysis'.

use std::io::{self, Write};

use serde::Serialize;

use super::{Render, Style, display_unit, exact_change, format, verdict_with_level};
use crate::protocol::{Analysis, BenchmarkAnalysis};

/// The github-action-benchmark report.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct GabReport;

#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    unit: &'static str,
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<String>,
    extra: String,
}

impl Render for GabReport {
    fn render(&self, analysis: &Analysis, _style: Style, out: &mut dyn Write) -> io::Result<()> {
        let entries: Vec<Entry<'_>> = analysis.benchmarks.iter().filter_map(entry).collect();
        crate::inert::write_json(&mut *out, &entries)?;
        writeln!(out)
    }
}

fn entry(b: &BenchmarkAnalysis) -> Option<Entry<'_>> {
    let value = format::finite(b.head.median)?;
    let count = b.unit.is_count();
    let values: Vec<f64> = b.points.head.iter().map(|p| p.value).collect();
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let range = (values.len() > 1 && high > low)
        .then(|| format!("± {}", format::significant((high - low) / 2.0, 4)));
    let unit = display_unit(b);
    let shown = |nanos: f64| {
        let value = format::time(nanos, unit);
        if count {
            format!("{value} {}", b.unit.as_str())
        } else {
            value
        }
    };
    let sides = format!(
        "BASE {}, HEAD {} (medians of {} and {} values)",
        shown(b.base.median),
        shown(b.head.median),
        b.base.n,
        b.head.n
    );
    let outcome = match exact_change(b) {
        Some(exact) => exact,
        None => format!(
            "speedup {}: {}",
            format::speedup_with_interval(b.speedup.median, b.interval()),
            verdict_with_level(b.verdict, b.median_test.confidence_level)
        ),
    };
    Some(Entry {
        name: &b.name,
        unit: if count { b.unit.as_str() } else { "ns" },
        value,
        range,
        extra: format!("{sides}\n{outcome}"),
    })
}
