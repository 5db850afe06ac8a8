//! The words and figures of a benchmark's result that every format shows alike: a verdict with its level,
//! the mean protocol's and HPT's results, an exact change of counts, the unit a row shows. Must not: round
//! (`format.rs` does) or choose columns (`columns.rs`).

use super::format;
use crate::protocol::{Direction, MeanTest, Verdict};

/// How a count of a deterministic measurement changed, compared exactly: `exact: +2.30 % instructions`,
/// `exact: no change in instructions`; `None` for a benchmark that was tested ([`Basis::Deterministic`]
/// only).
pub(crate) fn exact_change(b: &crate::protocol::BenchmarkAnalysis) -> Option<String> {
    if b.basis != crate::model::Basis::Deterministic {
        return None;
    }
    let unit = b.unit.as_str();
    let change = (b.head.median / b.base.median - 1.0) * 100.0;
    Some(match format::finite(change) {
        Some(0.0) => format!("exact: no change in {unit}"),
        Some(c) => {
            let sign = if c > 0.0 { '+' } else { '-' };
            format!("exact: {sign}{} % {unit}", format::significant(c.abs(), 3))
        }
        None => format!("exact: {unit} not comparable"),
    })
}

/// The unit a benchmark's row shows its values in: a count's own unit, else the readable time unit of the
/// smaller median ([`format::row_unit`]).
pub(crate) fn display_unit(b: &crate::protocol::BenchmarkAnalysis) -> crate::model::Unit {
    if b.unit.is_count() {
        b.unit
    } else {
        format::row_unit(b.base.median, b.head.median)
    }
}

/// A protocol's verdict with the highest confidence level at which it holds: `faster (0.99)`. Only a
/// significant verdict carries a level: beside "unchanged", the level (that of "faster", below
/// `--confidence`) would read as a confidence in "unchanged".
pub(crate) fn verdict_with_level(verdict: Verdict, level: Option<f64>) -> String {
    match (verdict, format::finite_opt(level)) {
        (Verdict::Faster | Verdict::Slower, Some(level)) => {
            format!("{} ({})", verdict.as_str(), format::grid_level(level))
        }
        _ => verdict.as_str().to_string(),
    }
}

/// The mean protocol's result in a column: `faster (0.99)`, `no difference` when its t-test applied and
/// found none (never "unchanged", which only an equivalence shows), else `inconclusive`.
pub(crate) fn mean_test_text(test: &MeanTest) -> String {
    if test.found_no_difference() {
        NO_DIFFERENCE.to_string()
    } else {
        verdict_with_level(test.verdict(), test.confidence_level)
    }
}

/// What a test that found no difference says (`docs/verdicts.md` §1): the same word as a verdict that shows
/// neither a difference nor equivalence, since that is what such a test shows.
pub(crate) const NO_DIFFERENCE: &str = "inconclusive";

/// How HPT's per-benchmark winner reads in a column: faster, slower or, where its test finds no
/// difference, inconclusive (paper 003's "tie": one word per outcome in every report).
pub(crate) fn hpt_winner(winner: Option<Direction>) -> &'static str {
    winner.map_or(NO_DIFFERENCE, Direction::as_str)
}
