//! HPT's conditions and the gate's reasons in words.

use super::Words;
use crate::protocol::{CannotFail, Direction, GateReason, HptCause};

/// What HPT noticed about the suite.
pub(super) fn hpt_words(cause: &HptCause) -> Words {
    let without_hint = |message: String| Words {
        message,
        hint: None,
    };
    match *cause {
        HptCause::BadGamma(gamma) => without_hint(format!(
            "HPT cannot test the speedup {gamma}: it must be a positive number"
        )),
        HptCause::NoBenchmark => Words::new(
            "HPT has no benchmark present on both sides",
            "compare results that share benchmark names",
        ),
        HptCause::NoDifference => Words::new(
            "HPT: no benchmark differs significantly, so there is no evidence either way",
            "take more samples per benchmark if a small change is expected",
        ),
        HptCause::Balanced => without_hint(
            "HPT: the benchmarks that differ balance out, neither direction is favoured"
                .to_string(),
        ),
        HptCause::SearchBounded { max, r, direction } => without_hint(format!(
            "the r-speedup search stopped at {max}x: the speedup at confidence {r} is at least that (HEAD \
             {} than BASE)",
            direction.as_str()
        )),
        HptCause::TooFewBenchmarks {
            n,
            r,
            max_confidence,
            needed,
        } => Words::new(
            format!(
                "HPT cannot reach confidence {r} with {n} benchmark{}: even when all differ in the same \
                 direction the confidence is at most 1 - 1/2^{n} = {max_confidence}",
                if n == 1 { "" } else { "s" },
            ),
            format!("HPT needs at least {needed} benchmarks for confidence {r}"),
        ),
        HptCause::Unreached(r) => Words::new(
            format!("HPT does not reach confidence {r} in either direction: no r-speedup"),
            "more benchmarks or more samples per benchmark may show a difference",
        ),
        HptCause::Disagrees { hpt, verdict } => Words::new(
            format!(
                "the suite's test (HPT) counts this benchmark as {} while its verdict is {}: HPT tests each \
                 benchmark at a risk of its own (`--hpt-alpha`), looser than the verdict's, which is spread \
                 over the comparison's looks and checked for the test's assumptions",
                hpt.map_or("inconclusive", Direction::as_str),
                verdict.as_str()
            ),
            "the verdict is the one to read; the HPT column only says how the benchmark enters the \
             suite's test",
        ),
        HptCause::Unusable(count) => without_hint(format!(
            "HPT counts {count} benchmark(s) as inconclusive: a side is empty, not finite, or (ranking log \
             speedups) not positive"
        )),
        HptCause::AsIs(count) => Words::new(
            format!(
                "HPT uses the difference of medians as it is for {count} benchmark(s): with so few runs \
                 (e.g. one per side) the rank-sum test cannot be significant"
            ),
            "measure at least 3 process runs per side (5 for the 0.05 risk)",
        ),
        HptCause::UnequalSizes(count) => without_hint(format!(
            "HPT: {count} benchmark(s) have different sample counts for BASE and HEAD; the rank-sum test \
             allows it, and the default risk follows the smaller side"
        )),
    }
}

/// One reason the gate failed, in one line.
pub(crate) fn gate_reason(reason: &GateReason) -> String {
    match reason {
        GateReason::SuiteSlower {
            threshold,
            confidence,
            level,
            factor,
        } => {
            if *threshold > 0.0 {
                format!(
                    "the suite is more than {threshold}% slower with confidence {confidence} (HEAD is \
                     {factor:.2}x slower)"
                )
            } else {
                format!("HEAD is slower than BASE with confidence {level:.3} (HPT)")
            }
        }
        GateReason::BenchmarkSlower {
            name,
            held_to,
            p,
            adjusted,
            slowdown,
        } => {
            // 2, 11.631: the threshold as given, or the floor to a thousandth.
            let limit = (held_to * 1000.0).round() / 1000.0;
            match slowdown {
                Some(by) => format!(
                    "{name} is slower (p = {p:.3e}, Holm-adjusted {adjusted:.3e}), by {by:.1}%: more than \
                     the threshold {limit}%"
                ),
                None if *held_to > 0.0 => format!(
                    "{name} is more than {limit}% slower (p = {p:.3e}, Holm-adjusted {adjusted:.3e})"
                ),
                None => format!("{name} is slower (p = {p:.3e}, Holm-adjusted {adjusted:.3e})"),
            }
        }
        GateReason::CountExceeded {
            name,
            increase,
            threshold,
        } => {
            let limit = if *threshold > 0.0 {
                format!(", more than the threshold {threshold}%")
            } else {
                String::new()
            };
            format!("{name} counts {increase:.3}% more (exact{limit})")
        }
        GateReason::BrokenAtHead { name, granularity } => format!(
            "{} {name} was measured at BASE and could not be at HEAD (`--allow-broken` passes it)",
            match granularity {
                crate::model::coverage::Granularity::Target => "bench target",
                crate::model::coverage::Granularity::Benchmark => "benchmark",
            }
        ),
        #[cfg(test)]
        GateReason::Text(text) => text.clone(),
    }
}

/// The progress note after a race's first look (`look` runs per side of a plan capped at `cap`, `total`
/// benchmarks) when some are too noisy for the gate to see its threshold even at the cap: said at once, not
/// after the last look.
pub(crate) fn out_of_reach_at_cap(
    look: u32,
    cap: u32,
    total: usize,
    decision: &crate::protocol::sequential::LookDecision,
) -> String {
    let count = decision.out_of_reach_at_cap.len();
    let widest = decision
        .out_of_reach_at_cap
        .first()
        .map_or(0.0, |o| o.reach_pct);
    format!(
        "note: after {look} runs per revision, {count} of {total} benchmark{} {} too noisy to see {} on this \
         machine even at {cap} runs (there, slowdowns below {}% would likely pass the gate); a quieter \
         machine, or `--threshold` above that, says what the gate can promise",
        if total == 1 { "" } else { "s" },
        if count == 1 { "is" } else { "are" },
        super::super::format::percent_value(decision.reference_pct),
        if widest >= 9.95 {
            format!("{widest:.0}")
        } else {
            format!("{widest:.1}")
        }
    )
}

/// The progress line after a look of a comparison: "decided" means a verdict (faster, slower, unchanged),
/// as in the report; a benchmark stopped without one is said apart, with why.
pub(crate) fn look_progress(look: u32, decided: usize, stopped: usize, open: usize) -> String {
    let mut parts = vec![format!("{decided} decided")];
    if stopped > 0 {
        parts.push(format!(
            "{stopped} stopped inconclusive (more runs would seldom decide {})",
            if stopped == 1 { "it" } else { "them" }
        ));
    }
    if open > 0 {
        parts.push(format!("{open} still open"));
    }
    format!("after {look} runs per revision: {}", parts.join(", "))
}

/// Why the gate cannot fail whatever the times, with what would let it.
pub(crate) fn cannot_fail(why: &CannotFail) -> String {
    match *why {
        CannotFail::OnlyCounts => {
            "the suite gate tests with HPT, which ranks no count of a deterministic \
                                   measurement; `--fail-on any` gates each count exactly"
                .to_string()
        }
        CannotFail::TooFewBenchmarks {
            count,
            best,
            confidence,
            needed,
        } => format!(
            "the suite gate cannot fail with {count} benchmark{}: HPT reaches at most confidence {best} \
             (1 - 1/2^{count}) whatever the times, short of {confidence}; it needs at least {needed} \
             benchmarks, or `--fail-on any` gates each benchmark",
            if count == 1 { "" } else { "s" }
        ),
    }
}
