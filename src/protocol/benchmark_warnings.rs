//! The warnings about one benchmark of a comparison, each check a function of its own: why it is left
//! undecided, sizes too small for the rank-sum test to ever decide, the two protocols disagreeing, a unit
//! that changed between the sides, unequal sizes. [`benchmark_warnings`] lists them in the reports' order;
//! the protocols' own warnings stay with their tests.

use super::equivalence::{Equivalence, FUTILITY_FACTOR, runs_for};
use super::options::Options;
use super::{Cause, Direction, MeanTest, MedianTest, Verdict, Warning, WarningKind};
use crate::model::{BaseHead, Pair};

/// The warnings of one benchmark, in the reports' order: `sizes` are its runs per side; `decision` its
/// verdict, whether its sizes can reach the confidence at all, and its equivalence check.
pub(super) fn benchmark_warnings(
    pair: &Pair,
    sizes: BaseHead<usize>,
    mean_test: &MeanTest,
    median_test: &MedianTest,
    (verdict, powerless, equivalence): (Verdict, bool, &Equivalence),
    options: &Options,
) -> Vec<Warning> {
    let fewest = sizes.base.min(sizes.head);
    let undecided = (verdict == Verdict::Inconclusive && !median_test.inconclusive && !powerless)
        .then(|| undecided(equivalence, options, fewest));
    let powerless = (powerless && fewest >= 3).then(|| cannot_reach(sizes, options));
    [
        undecided,
        powerless,
        disagreement(mean_test, median_test),
        unit_changed(pair),
        unequal_sizes(sizes),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Why a benchmark that differs in no direction is not called unchanged, and what would decide it.
/// `options` are the per-look options: their confidence is 1 − alpha / looks.
fn undecided(e: &Equivalence, options: &Options, runs: usize) -> Warning {
    let alpha = options.confidence.alpha();
    let level = 1.0 - 2.0 * alpha;
    // A level that is not --confidence says where it comes from.
    let why = match options.looks {
        0 | 1 => format!("1 − 2 × {alpha:.3}: the two one-sided tests of equivalence"),
        looks => format!(
            "1 − 2 × {:.2}/{looks}: the two one-sided tests of equivalence, over {looks} looks",
            alpha * f64::from(looks)
        ),
    };
    let interval = match e.interval {
        Some((low, high)) => format!(
            "its {level:.2} interval of the speedup ({why}), [{low:.4}, {high:.4}], reaches beyond"
        ),
        None => "no interval of the speedup can be computed within".to_string(),
    };
    let margin = e.margin_pct;
    let wide = FUTILITY_FACTOR * margin;
    // The futility rule's reason, when it holds: a race stops such a benchmark at this look.
    let excluded = if e.rules_out(wide) {
        format!(", but it rules out changes of {wide}% or more")
    } else {
        String::new()
    };
    // A detail: the headline already says what an undecided benchmark rules out.
    let mut warning = Warning::new(
        WarningKind::Undecided,
        match e.minimum_detectable_pct {
            Some(mde) => format!(
                "neither a difference nor equivalence within ±{margin}% is shown: {interval} \
                 ±{margin}%{excluded}; at this noise the test sees changes of about {mde:.1}% or more \
                 with {runs} runs per side"
            ),
            None => format!(
                "neither a difference nor equivalence within ±{margin}% is shown: {interval} \
                 ±{margin}%{excluded}"
            ),
        },
    );
    if let Some(mde) = e.minimum_detectable_pct.filter(|m| *m > 0.0) {
        let needed = runs_for(mde, runs, margin).max(runs + 1);
        warning = warning.with_hint(if needed <= PRACTICAL_RUNS {
            format!(
                "about {needed} process runs per side would see ±{margin}% (a longer comparison); or accept \
                 a wider margin with --equivalence"
            )
        } else {
            format!(
                "the noise here is too high to see ±{margin}% in a practical number of runs: a quieter \
                 machine (nothing else running, a fixed CPU frequency) lowers it; or accept a wider margin \
                 with --equivalence"
            )
        });
    }
    warning.as_detail()
}

/// The most process runs per side a hint proposes: four times the default plan's cap of 24. Beyond, more
/// runs are not a remedy a person takes, and the hint says what lowers the noise instead.
const PRACTICAL_RUNS: usize = 96;

/// Sizes of 3 or more per side with which the rank-sum test cannot reach the confidence whatever the
/// times (smaller sizes get one warning for every test instead, [`Cause::TooFewRuns`]).
fn cannot_reach(sizes: BaseHead<usize>, options: &Options) -> Warning {
    Warning::of(
        WarningKind::TooFewSamples,
        Cause::CannotReach {
            base: sizes.base,
            head: sizes.head,
            confidence: options.confidence.level(),
        },
    )
}

/// The mean protocol finds a direction the median protocol does not share.
fn disagreement(mean_test: &MeanTest, median_test: &MedianTest) -> Option<Warning> {
    let mean = mean_test.direction.filter(|_| mean_test.significant);
    let median = median_test.direction.filter(|_| median_test.significant);
    if mean == median || mean.is_none() {
        return None;
    }
    let say = |d: Option<Direction>| d.map_or("no significant difference", Direction::as_str);
    Some(
        Warning::new(
            WarningKind::ProtocolsDisagree,
            format!(
                "the mean protocol says {} but the median protocol says {}",
                say(mean),
                say(median)
            ),
        )
        .with_hint(
            "outliers or a skewed distribution pull the mean; the median verdict is the robust one",
        ),
    )
}

/// BASE and HEAD report the benchmark in different units.
fn unit_changed(pair: &Pair) -> Option<Warning> {
    (pair.base.unit != pair.head.unit).then(|| {
        Warning::new(
            WarningKind::Input,
            format!(
                "BASE reports this benchmark in {} and HEAD in {}: both were converted, but a changed unit \
                 often means a changed measurement",
                pair.base.unit.symbol(),
                pair.head.unit.symbol()
            ),
        )
        .with_hint("check that both sides measure the same thing")
    })
}

/// BASE and HEAD have different numbers of runs.
fn unequal_sizes(sizes: BaseHead<usize>) -> Option<Warning> {
    (sizes.base != sizes.head).then(|| {
        Warning::new(
            WarningKind::UnequalSizes,
            format!(
                "BASE has {} samples and HEAD {}: the tests allow it, but equal sizes give the most power",
                sizes.base, sizes.head
            ),
        )
        .as_detail()
    })
}
