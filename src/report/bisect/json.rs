//! A [`Bisection`] as JSON, its own schema `cargo-speedup-bisect/1` (`docs/json.md` §10): the outcome,
//! the summary, every commit of the path with what was measured of it, the named commit's own change and
//! the evidence of more than one step. Non-finite numbers are left out (JSON has no infinity).
//!
//! Must not: word anything but the summary it takes from [`Bisection::summary`], or decide anything.

use std::io::{self, Write};

use serde::Serialize;

use super::bisection::{Bisection, Ending};
use crate::protocol::Verdict;
use crate::protocol::bisect::Step;
use crate::report::format::{finite, finite_opt};

/// The schema name of the bisection JSON.
pub(crate) const SCHEMA: &str = "cargo-speedup-bisect/1";

#[derive(Serialize)]
pub(super) struct BisectJson<'a> {
    schema: &'static str,
    direction: &'static str,
    threshold_pct: Option<f64>,
    confidence: Option<f64>,
    comparison_confidence: Option<f64>,
    budgeted_comparisons: u32,
    comparisons: u32,
    outcome: &'static str,
    named: Option<usize>,
    interval: Option<(usize, usize)>,
    reason: Option<String>,
    summary: String,
    path: Vec<CommitJson<'a>>,
    named_change: Option<NamedChangeJson>,
    more_steps: Option<MoreStepsJson>,
    /// The benchmark followed, under `--each` only (left out otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) benchmark: Option<&'a str>,
}

#[derive(Serialize)]
struct MoreStepsJson {
    earlier: usize,
    later: usize,
    evidence: &'static str,
}

#[derive(Serialize)]
struct NamedChangeJson {
    parent: usize,
    speedup: Option<f64>,
    interval: Option<(f64, f64)>,
    verdict: &'static str,
    identical: bool,
}

#[derive(Serialize)]
struct CommitJson<'a> {
    sha: &'a str,
    subject: &'a str,
    measured: bool,
    speedup: Option<f64>,
    verdict: Option<&'static str>,
    bad_verdict: Option<&'static str>,
    identical: bool,
    step: Option<&'static str>,
    skipped: Option<&'a str>,
    interval: Option<(f64, f64)>,
}

/// An interval whose two ends are finite, else `None` (JSON has no infinity).
fn finite_interval(interval: Option<(f64, f64)>) -> Option<(f64, f64)> {
    interval.and_then(|(low, high)| Some((finite(low)?, finite(high)?)))
}

pub(super) fn json(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    crate::inert::write_json(&mut *out, &json_report(b))?;
    writeln!(out)
}

/// The JSON object of `b`.
pub(super) fn json_report(b: &Bisection) -> BisectJson<'_> {
    let (outcome, named, interval, reason) = match &b.ending {
        Ending::NothingToBisect => ("nothing-to-bisect", None, None, None),
        Ending::Named(i) => ("named", Some(*i), None, None),
        Ending::Interval { good, bad, .. } => ("interval", None, Some((*good, *bad)), b.reason()),
    };
    BisectJson {
        schema: SCHEMA,
        direction: b.direction.as_str(),
        threshold_pct: finite(b.threshold_pct),
        confidence: finite(b.confidence),
        comparison_confidence: finite(b.comparison_confidence),
        budgeted_comparisons: b.budgeted,
        comparisons: b.comparisons,
        outcome,
        named,
        interval,
        reason,
        summary: b.summary(),
        path: b
            .path
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let m = e.measured.as_ref();
                CommitJson {
                    sha: &e.sha,
                    subject: &e.subject,
                    measured: m.is_some(),
                    speedup: finite_opt(m.and_then(|m| m.speedup)),
                    verdict: m.and_then(|m| m.against_good).map(Verdict::as_str),
                    bad_verdict: m.and_then(|m| m.against_bad).map(Verdict::as_str),
                    identical: m.is_some_and(|m| m.identical),
                    step: m.and_then(|m| m.step).map(Step::as_str),
                    skipped: b
                        .skipped
                        .iter()
                        .find(|(s, _)| *s == i)
                        .map(|(_, why)| why.as_str()),
                    interval: finite_interval(m.and_then(|m| m.interval)),
                }
            })
            .collect(),
        named_change: b.named_change.as_ref().map(|c| NamedChangeJson {
            parent: c.parent,
            speedup: finite_opt(c.speedup),
            interval: finite_interval(c.interval),
            verdict: c.verdict.as_str(),
            identical: c.identical,
        }),
        more_steps: b.more_steps.map(|m| MoreStepsJson {
            earlier: m.earlier,
            later: m.later,
            evidence: m.evidence.as_str(),
        }),
        benchmark: None,
    }
}
