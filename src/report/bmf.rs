//! `--format bmf`: the Bencher Metric Format, so that a comparison's HEAD reaches a Bencher dashboard
//! (`docs/json.md` §8).
//!
//! ```json
//! { "parse/small": { "latency": { "value": 812.5, "lower_value": 799.0, "upper_value": 830.1 },
//!                    "speedup": { "value": 1.05, "lower_value": 1.01, "upper_value": 1.09 } },
//!   "bench_fib short": { "instructions": { "value": 1802.0 } } }
//! ```
//!
//! What is written, per compared benchmark (BMF holds one value per benchmark and measure, so HEAD's):
//! - a time: `latency`, HEAD's median in nanoseconds (BMF's unit for latency), with `lower_value` and
//!   `upper_value` the smallest and largest of HEAD's compared values (its runs, or one process's samples)
//!   when there are several; and `speedup`, a custom measure, the median speedup BASE / HEAD (above 1: HEAD
//!   faster), with the ends of its printed interval ([`crate::protocol::BenchmarkAnalysis::interval`], the
//!   equivalence check's 1 − 2α interval) when there is one;
//! - a count of a deterministic measurement (`NAME (instructions)`): the count under the benchmark's
//!   own name, as the measure of its Bencher slug (`instructions`, `l1-hits`, ...), which is how Bencher's
//!   own gungraun adapter names it. No speedup: the counts of one benchmark would share it.
//!
//! Benchmarks on one side only and benchmarks not run (identical executables) have no HEAD value and are
//! left out; so is a value that is not finite. Keys are sorted. Must not: write BASE's values as
//! measurements, or a verdict (BMF has no place for one; the JSON report has).

use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::{Render, Style};
use crate::model::Unit;
use crate::protocol::{Analysis, BenchmarkAnalysis};

/// The BMF report.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BmfReport;

impl Render for BmfReport {
    fn render(&self, analysis: &Analysis, _style: Style, out: &mut dyn Write) -> io::Result<()> {
        let mut benchmarks = Map::new();
        for b in &analysis.benchmarks {
            let (name, measures) = measures(b);
            let entry = benchmarks
                .entry(name)
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(entry) = entry {
                entry.extend(measures);
            }
        }
        benchmarks.retain(|_, measures| measures.as_object().is_some_and(|m| !m.is_empty()));
        crate::inert::write_json(&mut *out, &Value::Object(benchmarks))?;
        writeln!(out)
    }
}

/// The BMF benchmark name of `b` and its measures.
fn measures(b: &BenchmarkAnalysis) -> (String, Map<String, Value>) {
    let mut measures = Map::new();
    let head = b.head.median;
    if let Unit::Count(counted) = b.unit {
        let name = counted.benchmark_of(&b.name).unwrap_or(&b.name);
        if head.is_finite() {
            measures.insert(counted.slug.into(), json!({ "value": head }));
        }
        return (name.to_string(), measures);
    }
    if head.is_finite() {
        let values = b.points.head.iter().map(|p| p.value);
        let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
        measures.insert(
            "latency".into(),
            metric(head, (b.points.head.len() > 1).then_some((low, high))),
        );
    }
    if b.speedup.median.is_finite() {
        measures.insert("speedup".into(), metric(b.speedup.median, b.interval()));
    }
    (b.name.clone(), measures)
}

/// `{"value": v}`, with `lower_value` and `upper_value` when both are finite.
fn metric(value: f64, bounds: Option<(f64, f64)>) -> Value {
    match bounds.filter(|(l, h)| l.is_finite() && h.is_finite()) {
        Some((lower, upper)) => {
            json!({ "value": value, "lower_value": lower, "upper_value": upper })
        }
        None => json!({ "value": value }),
    }
}
