//! The suite in words: HPT's sentence, the gate's note and the suite's other figures (geometric mean,
//! overall speedups, proportions, what a per-benchmark verdict risks), shared by the table, the Markdown and
//! the HTML page.
//!
//! One story (`docs/verdicts.md` §4): the sentence never reads as a finding the verdict does not make. A
//! direction is stated only when HPT reaches the confidence; a suite too small for HPT to reach it at all
//! (b benchmarks reach at most 1 − 1/2^b) is said to be so, with what the per-benchmark verdicts found and
//! what would decide it; a suite found slower is given its r-slowdown, not an r-speedup of 1.00x. It only
//! presents: the verdict, HPT's figures and the gate's note come from the [`Analysis`].

use super::format::{self, confidence, grid_speedup, level};
use crate::model::Side;
use crate::protocol::{Analysis, Direction, GainSpeedup, Proportion, Verdict};

/// The suite's HPT result in one sentence (`docs/usage.md` §5, `--verbose`), without styling or
/// prefix: `HEAD is faster than BASE with confidence 0.998; 0.95-speedup 1.12x`.
pub(crate) fn hpt_sentence(analysis: &Analysis) -> String {
    let hpt = &analysis.suite.hpt;
    let r = level(analysis.confidence.level());
    if analysis.benchmarks.is_empty() && !analysis.identical.is_empty() {
        return "nothing was run: BASE and HEAD built identical executables".to_string();
    }
    if let Some(small) = too_small(analysis) {
        return small;
    }
    let (Some(direction), Some(c)) = (hpt.direction, format::finite_opt(hpt.confidence)) else {
        return no_direction(analysis);
    };
    let reached = matches!(analysis.verdict, Verdict::Faster | Verdict::Slower);
    match format::finite_opt(hpt.r_speedup) {
        Some(s) if reached => {
            let head = format!(
                "HEAD is {} than BASE with confidence {}",
                direction.as_str(),
                confidence(c)
            );
            // Below 1 the r-speedup is 1 / (BASE's r-speedup over HEAD): said as the slowdown it is.
            let (word, factor) = match direction {
                Direction::Faster => ("speedup", s),
                Direction::Slower => ("slowdown", 1.0 / s),
            };
            let factor = grid_speedup(factor);
            if factor == "1.00x" {
                format!(
                    "{head}, but by less than 1% at confidence {r} ({r}-{word} {factor}, the smallest step \
                     of the search)"
                )
            } else {
                format!("{head}; {r}-{word} {factor}")
            }
        }
        // At 0.5 or below a direction is no finding at all: no direction word stands there.
        _ if c <= 0.5 => format!(
            "HPT favours no direction (its confidence is {} either way), so there is no {r}-speedup",
            confidence(c)
        ),
        // Below r the suite's verdict is not a direction: the sentence must not read as a finding.
        _ => format!(
            "HEAD is not shown {} than BASE at confidence {r}: HPT's confidence is {}, so there is no \
             {r}-speedup",
            direction.as_str(),
            confidence(c)
        ),
    }
}

/// The sentence of a suite with fewer benchmarks than HPT needs to reach the confidence at all: why it is
/// inconclusive, what the benchmarks' own verdicts found, and what would decide it. A suite whose every
/// benchmark is shown unchanged is unchanged whatever its size: equivalence does not rest on HPT.
fn too_small(analysis: &Analysis) -> Option<String> {
    if analysis.verdict != Verdict::Inconclusive {
        return None;
    }
    let best = analysis
        .suite
        .hpt
        .max_confidence
        .filter(|best| *best < analysis.confidence.level())?;
    let n = analysis.benchmarks.len();
    let r = level(analysis.confidence.level());
    let needed = crate::protocol::hpt::benchmarks_needed(analysis.confidence.level());
    let lean = match (
        analysis.suite.hpt.direction,
        format::finite_opt(analysis.suite.hpt.confidence),
    ) {
        (Some(d), Some(c)) => format!("it leans {} (confidence {}); ", d.as_str(), confidence(c)),
        _ => String::new(),
    };
    Some(format!(
        "with {n} benchmark{} HPT reaches at most confidence {} (1 - 1/2^{n}) whatever the \
         times, short of {r}; {lean}the median protocol finds {}. What would decide: at least {needed} \
         benchmarks, or `--fail-on any`, which tests each benchmark on its own",
        plural(n),
        level(best),
        verdict_counts(analysis)
    ))
}

/// When HPT has no direction: every benchmark a tie, or the differing ones balancing out.
fn no_direction(analysis: &Analysis) -> String {
    let differing = analysis
        .benchmarks
        .iter()
        .filter(|b| b.hpt.winner.is_some())
        .count();
    if differing > 0 {
        return format!(
            "the {differing} benchmark{} that differ balance out: HPT favours neither direction",
            plural(differing)
        );
    }
    match analysis.verdict {
        Verdict::Unchanged => {
            let margin = analysis
                .benchmarks
                .first()
                .map(|b| format::percent_value(b.equivalence.margin_pct));
            match margin {
                Some(margin) => format!(
                    "no benchmark differs significantly, and every one is shown unchanged within ±{margin}"
                ),
                None => "no benchmark differs significantly between BASE and HEAD".to_string(),
            }
        }
        _ if analysis.benchmarks.is_empty() => {
            "no benchmark differs significantly between BASE and HEAD".to_string()
        }
        // Not a finding of "no change": say what the benchmarks found and where the remedy is.
        _ => format!(
            "no benchmark differs significantly, but not every one is shown unchanged either (the median \
             protocol finds {}): nothing can be concluded about the suite; the warnings say what would \
             decide each benchmark",
            verdict_counts(analysis)
        ),
    }
}

/// The benchmarks' verdicts, counted: `3 of 3 slower`, `1 faster, 2 inconclusive of 3`.
fn verdict_counts(analysis: &Analysis) -> String {
    let total = analysis.benchmarks.len();
    let parts: Vec<String> = [
        Verdict::Faster,
        Verdict::Slower,
        Verdict::Unchanged,
        Verdict::Inconclusive,
    ]
    .into_iter()
    .filter_map(|v| {
        let count = analysis
            .benchmarks
            .iter()
            .filter(|b| b.verdict == v)
            .count();
        (count > 0).then(|| format!("{count} {}", v.as_str()))
    })
    .collect();
    match parts.as_slice() {
        [one] => {
            let (count, word) = one.split_once(' ').unwrap_or((one, ""));
            format!("{count} of {total} {word}")
        }
        _ => format!("{} of {total}", parts.join(", ")),
    }
}

/// The gate's verdict for the human reports: `passed`, `FAILED`, or `passed; the suite gate cannot fail ...`.
pub(crate) fn gate_note(analysis: &Analysis) -> Option<String> {
    analysis
        .gate
        .cannot_fail
        .as_ref()
        .filter(|_| !analysis.gate.failed)
        .map(super::words::cannot_fail)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// What the human reports say in place of the table when no benchmark was compared. "Every benchmark is
/// unchanged" only when everything that exists at either side was compared (`docs/verdicts.md` §8).
pub(crate) fn nothing_compared(analysis: &Analysis) -> &'static str {
    let all_covered = !analysis.left_out.iter().any(|l| l.is_unmeasured());
    match (analysis.identical.is_empty(), all_covered) {
        (true, _) => "No benchmark is present in both BASE and HEAD.",
        (false, true) => {
            "Every benchmark is unchanged: BASE and HEAD built identical executables, so none was run."
        }
        (false, false) => {
            "Every benchmark compared is unchanged: BASE and HEAD built identical executables, so none was \
             run; what was not compared is listed above."
        }
    }
}

/// HPT's confidence at `--speedup-under-test`, in one sentence without prefix, when it was asked for.
fn gamma_sentence(analysis: &Analysis) -> Option<String> {
    let hpt = &analysis.suite.hpt;
    let gamma = format::finite_opt(hpt.gamma)?;
    let c = format::finite_opt(hpt.gamma_confidence)
        .map_or_else(|| "not computed".to_string(), format::confidence);
    Some(format!(
        "confidence that HEAD is more than {} faster than BASE: {c}",
        format::speedup(gamma)
    ))
}

/// One sentence of the suite's figures.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fact {
    /// The sentence.
    pub(crate) text: String,
    /// Whether it lists benchmark names: a stranger's text, whose backticks a sink that sets the tool's
    /// `code` spans (the HTML page) must leave as typed.
    pub(crate) names: bool,
}

impl Fact {
    fn words(text: String) -> Fact {
        Fact { text, names: false }
    }

    fn naming(text: String) -> Fact {
        Fact { text, names: true }
    }
}

/// The suite's figures under the table, one sentence each, in the order the human reports print them. By
/// default only the names present on one side only (the headline counts them); with `verbose`, first HPT's
/// full sentence, HPT at `--speedup-under-test`, the geometric mean (for comparison only), the overall
/// speedups, the proportions of accelerated benchmarks, what a verdict risks, the looks and the identical
/// benchmarks.
pub(crate) fn suite_facts(analysis: &Analysis, verbose: bool) -> Vec<Fact> {
    let mut facts = Vec::new();
    if verbose {
        facts = secondary_facts(analysis);
    }
    for (side, names) in [
        (Side::Base, &analysis.base_only),
        (Side::Head, &analysis.head_only),
    ] {
        if !names.is_empty() {
            facts.push(Fact::naming(format!(
                "Only in {side}, not compared: {}",
                names.join(", ")
            )));
        }
    }
    facts
}

/// The figures `--verbose` adds under the table. A suite of counts only (`docs/verdicts.md` §7) has no
/// suite test and no per-benchmark risk: HPT's sentence says so, and the proportions of the protocols and
/// what a tested verdict risks are left out (they would speak of tests that were not made).
fn secondary_facts(analysis: &Analysis) -> Vec<Fact> {
    let only_counts = crate::protocol::only_counts(&analysis.benchmarks);
    let mut facts = if only_counts {
        vec!["HPT: no suite test: every benchmark is a count compared exactly".to_string()]
    } else {
        let mut facts = vec![format!("HPT: {}", hpt_sentence(analysis))];
        facts.extend(gamma_sentence(analysis).map(|s| format!("HPT: {s}")));
        facts
    };
    if let Some(g) = format::finite_opt(analysis.suite.hpt.geometric_mean_speedup) {
        facts.push(format!(
            "Geometric mean of the median speedups: {} (for comparison only: no confidence attached)",
            format::speedup(g)
        ));
    }
    if let Some(o) = &analysis.suite.overall {
        let part = |name: &str, g: &GainSpeedup| {
            let (s, gain) = (format::speedup(g.speedup), format::percent(g.gain));
            format!("{name} {s} (gain {gain})")
        };
        facts.push(format!(
            "Overall speedup of the total times: {}, {}, {}",
            part("median", &o.median),
            part("mean", &o.mean),
            part("min", &o.min)
        ));
    }
    if let (false, Some(p)) = (only_counts, &analysis.suite.proportion) {
        let c = format::level(analysis.confidence.level());
        facts.push(proportion_text("median", &p.median, &c));
        facts.push(proportion_text("mean", &p.mean, &c));
    }
    if let (true, Some(c)) = (
        analysis.benchmarks.len() > 1 && !only_counts,
        format::finite_opt(Some(analysis.confidence.level())).filter(|c| (0.0..1.0).contains(c)),
    ) {
        facts.push(false_verdicts_sentence(c));
    }
    if analysis.looks > 1 {
        let risk = 100.0 * (1.0 - analysis.confidence.level()) / f64::from(analysis.looks);
        facts.push(format!(
            "Each benchmark ran until decided (up to {} looks, each deciding at risk {risk:.2}%, so that \
             looking repeatedly adds no error); the JSON gives each benchmark's runs",
            analysis.looks
        ));
    }
    let mut facts: Vec<Fact> = facts.into_iter().map(Fact::words).collect();
    if !analysis.identical.is_empty() {
        facts.push(Fact::naming(format!(
            "Unchanged, not run (BASE and HEAD built identical executables): {}",
            analysis.identical.join(", ")
        )));
    }
    facts
}

/// The proportion of accelerated benchmarks with its interval and its caveats (paper 000 §5).
fn proportion_text(protocol: &str, p: &Proportion, confidence: &str) -> String {
    let mut text = format!(
        "Accelerated benchmarks ({protocol} protocol): {}/{}, {confidence} interval [{}, {}]",
        p.accelerated,
        p.total,
        format::percent(p.lower),
        format::percent(p.upper)
    );
    if !p.valid {
        text.push_str(
            "; too few benchmarks for this interval to be accurate (its normal approximation needs \
             a(1 − a/b) > 5)",
        );
    }
    if let Some(b) = p.minimal_benchmarks {
        text.push_str(&format!(
            "; {b} benchmarks would estimate the proportion within ±{}",
            format::percent_value((p.precision * 1e6).round() / 1e4)
        ));
    }
    text
}

/// What a per-benchmark verdict risks, so that a reader expects the false ones: faster and slower are each
/// a one-sided claim at risk alpha, so unchanged code gets one of them in about 1 / (2 alpha) benchmarks,
/// while the gate's risk covers the suite (as benchstat warns of its own per-benchmark tests).
fn false_verdicts_sentence(confidence: f64) -> String {
    let alpha = 1.0 - confidence;
    let one_in = (0.5 / alpha).round();
    // 1 - 0.95 is 0.05000000000000004 in binary: shown to six decimals of a percent at most.
    let risk = format::percent_value((alpha * 1e8).round() / 1e6);
    format!(
        "Faster and slower are each claimed at risk {} per benchmark: on code that did not change, expect about one \
         such verdict in {one_in} benchmarks; the gate's risk of {} covers the whole suite",
        risk, risk
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::analyses;

    #[test]
    fn a_suite_too_small_for_the_confidence_says_so_and_what_would_decide() {
        let a = analyses::too_few_benchmarks();
        assert_eq!(
            hpt_sentence(&a),
            "with 3 benchmarks HPT reaches at most confidence 0.875 (1 - 1/2^3) whatever the \
             times, short of 0.95; it leans slower (confidence 0.875); the median protocol finds 3 of 3 \
             slower. What would decide: at least 5 benchmarks, or `--fail-on any`, which tests each \
             benchmark on its own"
        );
        assert!(gate_note(&a).is_some_and(|n| n.contains("cannot fail")));
    }

    #[test]
    fn a_slower_suite_is_given_its_slowdown_and_a_one_step_result_says_less_than_one_percent() {
        let mut a = analyses::slower_suite_failed_gate();
        assert_eq!(
            hpt_sentence(&a),
            "HEAD is slower than BASE with confidence 0.998; 0.95-slowdown 1.15x"
        );
        a.suite.hpt.r_speedup = Some(1.0);
        assert_eq!(
            hpt_sentence(&a),
            "HEAD is slower than BASE with confidence 0.998, but by less than 1% at confidence 0.95 \
             (0.95-slowdown 1.00x, the smallest step of the search)"
        );
    }

    #[test]
    fn a_suite_of_undecided_benchmarks_says_nothing_can_be_concluded() {
        let mut a = analyses::unchanged_suite();
        a.verdict = Verdict::Inconclusive;
        // A suite large enough for HPT (else the sentence says that it is too small).
        a.suite.hpt.max_confidence = Some(0.999);
        for b in &mut a.benchmarks {
            b.verdict = Verdict::Inconclusive;
        }
        assert_eq!(
            hpt_sentence(&a),
            "no benchmark differs significantly, but not every one is shown unchanged either (the median \
             protocol finds 2 of 2 inconclusive): nothing can be concluded about the suite; the warnings say \
             what would decide each benchmark"
        );
    }

    #[test]
    fn counts_read_as_a_phrase() {
        let a = analyses::faster_suite();
        assert_eq!(verdict_counts(&a), "2 faster, 1 unchanged of 3");
    }
}
