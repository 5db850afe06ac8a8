//! Hand-built [`Analysis`] values that the report tests render: each one exercises a shape of result the
//! reports must handle (a faster suite, a slower one failing its gate, nothing changed, inconclusive
//! benchmarks with warnings, unmatched names, HPT short of its confidence, every optional value absent).
//!
//! The numbers are fixtures typed by hand, consistent enough to read like real output; they are not computed
//! by any code under test.

use crate::model::{BaseHead, Basis, Side, Unit};
use crate::protocol::equivalence::Equivalence;
use crate::protocol::hpt::Ranking;
use crate::protocol::{
    Analysis, BenchmarkAnalysis, CannotFail, Confidence, Direction, FailOn, GainSpeedup,
    GateOutcome, GateReason, HptBenchmark, HptSummary, MeanTest, MedianTest, Overall, Proportion,
    Proportions, RunPoint, Shift, SideSummary, Speedups, SuiteAnalysis, TMethod, Threshold,
    VarianceComponents, Verdict, Warning, WarningKind,
};

/// Variance components as the runs of a criterion benchmark show them.
fn components() -> VarianceComponents {
    VarianceComponents {
        within_process_pct: 0.8,
        between_process_pct: 2.1,
        between_layout_pct: None,
        layouts: 1,
        design_effect: 7.4,
        samples_per_run: 10.0,
    }
}

/// A benchmark whose medians are `base` and `head` nanoseconds, decided as `verdict` by both protocols.
fn bench(name: &str, unit: Unit, base: f64, head: f64, verdict: Verdict) -> BenchmarkAnalysis {
    let ratio = base / head;
    let direction = match verdict {
        Verdict::Faster => Some(Direction::Faster),
        Verdict::Slower => Some(Direction::Slower),
        _ => None,
    };
    let level = direction.map(|_| 0.99);
    BenchmarkAnalysis {
        name: name.to_string(),
        basis: Basis::ProcessRuns,
        runs: BaseHead::new(40, 40),
        variance: BaseHead::new(Some(components()), Some(components())),
        unit,
        base: side(40, base),
        head: side(40, head),
        speedup: Speedups {
            min: ratio * 1.01,
            mean: ratio * 0.99,
            median: ratio,
        },
        mean_test: MeanTest {
            significant: direction.is_some(),
            direction,
            p_value: Some(if direction.is_some() { 0.0012 } else { 0.41 }),
            method: Some(TMethod::Welch),
            confidence_level: level,
            shapiro_p_values: BaseHead::new(Some(0.31), Some(0.07)),
            variance_p_value: Some(0.02),
            warnings: Vec::new(),
        },
        median_test: MedianTest {
            significant: direction.is_some(),
            direction,
            p_value: Some(if direction.is_some() { 3.2e-9 } else { 0.38 }),
            ks_p_value: Some(0.44),
            confidence_level: level,
            p_head_faster: Some(if ratio > 1.0 { 0.93 } else { 0.12 }),
            shift: Some(Shift {
                estimate: base - head,
                lower: (base - head) * 0.8,
                upper: (base - head) * 1.2,
            }),
            speedup_interval: Some((ratio * 0.97, ratio * 1.03)),
            inconclusive: false,
            warnings: Vec::new(),
        },
        equivalence: Equivalence {
            margin_pct: 2.0,
            interval: Some((ratio * 0.98, ratio * 1.02)),
            equivalent: verdict == Verdict::Unchanged,
            minimum_detectable_pct: Some(1.4),
        },
        hpt: HptBenchmark {
            difference: if direction.is_some() {
                base - head
            } else {
                0.0
            },
            log_ratio: if direction.is_some() {
                (base / head).ln()
            } else {
                0.0
            },
            winner: direction,
        },
        verdict,
        warnings: Vec::new(),
        points: BaseHead::new(points(base), points(head)),
        counters: BaseHead::new(Vec::new(), Vec::new()),
        shape: None,
        pairing: None,
    }
}

/// Five runs around `median`, each with a within-run spread of about ±1 %.
fn points(median: f64) -> Vec<RunPoint> {
    [0.97, 0.99, 1.0, 1.01, 1.04]
        .iter()
        .map(|f| RunPoint {
            value: median * f,
            spread: Some((median * f * 0.99, median * f * 1.01)),
        })
        .collect()
}

fn side(n: usize, median: f64) -> SideSummary {
    SideSummary {
        n,
        min: median * 0.98,
        mean: median * 1.01,
        median,
    }
}

fn hpt(
    confidence: f64,
    direction: Direction,
    r_speedup: Option<f64>,
    geometric: f64,
) -> HptSummary {
    HptSummary {
        confidence: Some(confidence),
        direction: Some(direction),
        r_speedup,
        gamma: None,
        gamma_confidence: None,
        geometric_mean_speedup: Some(geometric),
        max_confidence: Some(0.999),
        ranking: Ranking::LogRatio,
        curve: Vec::new(),
        warnings: Vec::new(),
    }
}

fn gain(speedup: f64) -> GainSpeedup {
    GainSpeedup {
        gain: 1.0 - 1.0 / speedup,
        speedup,
    }
}

fn overall(speedup: f64) -> Option<Overall> {
    Some(Overall {
        min: gain(speedup * 1.02),
        mean: gain(speedup * 0.99),
        median: gain(speedup),
    })
}

fn proportion(accelerated: usize, total: usize, lower: f64, upper: f64) -> Proportion {
    Proportion {
        accelerated,
        total,
        lower,
        upper,
        minimal_benchmarks: (accelerated != 0 && accelerated != total).then_some(289),
        precision: 0.05,
        valid: false,
    }
}

fn gate(fail_on: FailOn, threshold: f64, reasons: &[&str]) -> GateOutcome {
    GateOutcome {
        fail_on,
        threshold: Threshold::percent(threshold).expect("a threshold"),
        failed: !reasons.is_empty(),
        reasons: reasons
            .iter()
            .map(|r| GateReason::Text(r.to_string()))
            .collect(),
        slower: Vec::new(),
        cannot_fail: None,
        out_of_reach: Vec::new(),
    }
}

fn analysis(
    benchmarks: Vec<BenchmarkAnalysis>,
    suite: SuiteAnalysis,
    verdict: Verdict,
) -> Analysis {
    Analysis {
        confidence: Confidence::new(0.95).expect("a level"),
        benchmarks,
        suite,
        base_only: Vec::new(),
        head_only: Vec::new(),
        identical: Vec::new(),
        looks: 1,
        remedy: crate::protocol::Remedy::MeasureAgain,
        verdict,
        gate: gate(FailOn::Suite, 0.0, &[]),
        warnings: Vec::new(),
        fingerprint: None,
        pairs: Vec::new(),
        compared: crate::protocol::Compared::default(),
        left_out: vec![],
    }
}

/// Two benchmarks faster, one unchanged; HPT confident, with an r-speedup and a speedup under test.
pub(crate) fn faster_suite() -> Analysis {
    let mut suite_hpt = hpt(0.99609375, Direction::Faster, Some(1.12), 1.1295);
    suite_hpt.gamma = Some(1.1);
    suite_hpt.gamma_confidence = Some(0.984375);
    let mut a = analysis(
        vec![
            bench("parse/small", Unit::Ns, 812.26, 700.5, Verdict::Faster),
            bench("parse/large", Unit::Us, 91_200.0, 80_100.0, Verdict::Faster),
            bench(
                "render",
                Unit::Ns,
                2_500_000.0,
                2_499_000.0,
                Verdict::Unchanged,
            ),
        ],
        SuiteAnalysis {
            hpt: suite_hpt,
            overall: overall(1.134),
            proportion: Some(Proportions {
                mean: proportion(2, 3, 0.2076, 0.9823),
                median: proportion(2, 3, 0.2076, 0.9823),
            }),
        },
        Verdict::Faster,
    );
    // Raced: three looks, each at alpha / 3.
    a.looks = 3;
    a
}

/// [`faster_suite`] with one benchmark per row `(name, median speedup, interval)`, each otherwise its first
/// benchmark: for the drawings' shared scale.
pub(crate) fn with_speedups(rows: &[(&str, f64, (f64, f64))]) -> Analysis {
    let mut analysis = faster_suite();
    let template = analysis.benchmarks[0].clone();
    analysis.benchmarks = rows
        .iter()
        .map(|&(name, median, interval)| {
            let mut b = template.clone();
            b.name = name.to_string();
            b.speedup.median = median;
            b.median_test.speedup_interval = Some(interval);
            b.equivalence.interval = Some(interval);
            b
        })
        .collect();
    analysis
}

/// Both benchmarks slower; HPT finds the suite slower and the gate fails.
pub(crate) fn slower_suite_failed_gate() -> Analysis {
    let mut a = analysis(
        vec![
            bench("decode", Unit::Ms, 1.5e9, 1.75e9, Verdict::Slower),
            bench("encode", Unit::Ns, 420.0, 470.0, Verdict::Slower),
        ],
        SuiteAnalysis {
            hpt: hpt(0.998, Direction::Slower, Some(1.0 / 1.15), 0.8746),
            overall: overall(0.86),
            proportion: Some(Proportions {
                mean: proportion(0, 2, 0.0, 0.8025),
                median: proportion(0, 2, 0.0, 0.8025),
            }),
        },
        Verdict::Slower,
    );
    a.gate = gate(
        FailOn::Suite,
        5.0,
        &[
            "HPT finds HEAD slower than BASE with confidence 0.998 (0.95-speedup 0.87x, beyond the 5% threshold)",
        ],
    );
    a
}

/// Nothing differs: HPT has no direction.
pub(crate) fn unchanged_suite() -> Analysis {
    analysis(
        vec![
            bench("alloc", Unit::Ns, 51.0, 51.1, Verdict::Unchanged),
            bench("free", Unit::Ns, 33.0, 32.9, Verdict::Unchanged),
        ],
        SuiteAnalysis {
            hpt: HptSummary {
                confidence: None,
                direction: None,
                r_speedup: None,
                gamma: None,
                gamma_confidence: None,
                geometric_mean_speedup: Some(1.0),
                max_confidence: Some(0.75),
                ranking: Ranking::LogRatio,
                curve: Vec::new(),
                warnings: vec![Warning::new(
                    WarningKind::Suite,
                    "no benchmark differs significantly: HPT has no evidence either way",
                )],
            },
            overall: overall(1.0),
            proportion: Some(Proportions {
                mean: proportion(0, 2, 0.0, 0.8025),
                median: proportion(0, 2, 0.0, 0.8025),
            }),
        },
        Verdict::Unchanged,
    )
}

/// The mean protocol's W1 on `side`, a detail under the median's verdict.
fn too_few(side: Side) -> Warning {
    Warning::new(
        WarningKind::TooFewSamples,
        format!("{side} too small for applying the Student's t-test (speedup of the mean)."),
    )
    .with_hint("run at least 31 samples: `--sample-size 40`")
    .as_detail()
}

/// Small samples: the median protocol cannot apply, the t-test is not computed, warnings everywhere.
pub(crate) fn inconclusive_with_warnings() -> Analysis {
    let mut a = bench(
        "tiny/a",
        Unit::Us,
        15_000.0,
        14_000.0,
        Verdict::Inconclusive,
    );
    a.base.n = 5;
    a.head.n = 5;
    a.mean_test.p_value = None;
    a.mean_test.method = None;
    a.mean_test.warnings = vec![too_few(Side::Base), too_few(Side::Head)];
    a.median_test.inconclusive = true;
    a.median_test.warnings = vec![
        Warning::new(
            WarningKind::NotLocationShift,
            "The two samples do not fit the location shift model.",
        )
        .with_hint("look at the distributions: one side may be multimodal"),
    ];
    a.warnings = vec![
        Warning::new(
            WarningKind::OneProcess,
            "each side is one process: the confidence covers those two processes only",
        )
        .with_hint("measure several process runs per side: `cargo speedup BASE..HEAD` does"),
    ];
    let mut b = bench("tiny/b", Unit::Us, 9_000.0, 9_100.0, Verdict::Unchanged);
    b.mean_test.warnings = vec![too_few(Side::Base)];
    b.warnings = a.warnings.clone();
    b.warnings.push(Warning::new(
        WarningKind::ProtocolsDisagree,
        "the mean protocol is inconclusive where the median protocol shows equivalence",
    ));
    let mut out = analysis(
        vec![a, b],
        SuiteAnalysis {
            hpt: hpt(0.75, Direction::Faster, None, 1.0232),
            overall: overall(1.03),
            proportion: Some(Proportions {
                mean: proportion(0, 2, 0.0, 0.8025),
                median: proportion(0, 2, 0.0, 0.8025),
            }),
        },
        Verdict::Inconclusive,
    );
    out.warnings = vec![Warning::new(
        WarningKind::EnvironmentDiffers,
        "BASE and HEAD were measured on different CPUs",
    )];
    out
}

/// Names on one side only, one with the characters CSV and Markdown must quote or escape.
pub(crate) fn unmatched() -> Analysis {
    let mut a = faster_suite();
    a.benchmarks[0].name = "fmt, \"quoted\" | <pipe>".to_string();
    a.base_only = vec!["old/bench".to_string(), "gone, too".to_string()];
    a.head_only = vec!["new/bench".to_string()];
    a.warnings = vec![
        Warning::new(
            WarningKind::Unmatched,
            "3 benchmarks are present on one side only and are not compared",
        )
        .with_hint("rename consistently or compare the same benchmark set"),
    ];
    a
}

/// HPT leans one way but does not reach the requested confidence: no r-speedup.
pub(crate) fn hpt_not_reachable() -> Analysis {
    let mut a = faster_suite();
    a.confidence = Confidence::new(0.99).expect("a level");
    a.suite.hpt = hpt(0.875, Direction::Faster, None, 1.1295);
    a.verdict = Verdict::Inconclusive;
    a
}

/// Three benchmarks, all slower: HPT's best confidence, 1 − 1/2^3, is below 0.95, so the suite is
/// inconclusive and its gate cannot fail.
pub(crate) fn too_few_benchmarks() -> Analysis {
    let mut suite_hpt = hpt(0.875, Direction::Slower, None, 0.73);
    suite_hpt.max_confidence = Some(0.875);
    let mut a = analysis(
        vec![
            bench("a", Unit::Us, 100_000.0, 166_900.0, Verdict::Slower),
            bench("b", Unit::Ms, 2_002_000.0, 2_824_000.0, Verdict::Slower),
            bench("c", Unit::Us, 50_170.0, 53_800.0, Verdict::Slower),
        ],
        SuiteAnalysis {
            hpt: suite_hpt,
            overall: overall(0.71),
            proportion: Some(Proportions {
                mean: proportion(0, 3, 0.0, 0.6901),
                median: proportion(0, 3, 0.0, 0.6901),
            }),
        },
        Verdict::Inconclusive,
    );
    a.gate.cannot_fail = Some(CannotFail::TooFewBenchmarks {
        count: 3,
        best: 0.875,
        confidence: 0.95,
        needed: 5,
    });
    a
}

/// Every optional value absent and the non-optional numbers non-finite: nothing may print NaN.
pub(crate) fn nothing_known() -> Analysis {
    let mut b = bench(
        "broken",
        Unit::Ns,
        f64::NAN,
        f64::NAN,
        Verdict::Inconclusive,
    );
    b.speedup = Speedups {
        min: f64::NAN,
        mean: f64::INFINITY,
        median: f64::NAN,
    };
    b.mean_test = MeanTest {
        significant: false,
        direction: None,
        p_value: None,
        method: None,
        confidence_level: None,
        shapiro_p_values: BaseHead::new(None, None),
        variance_p_value: None,
        warnings: Vec::new(),
    };
    b.median_test = MedianTest {
        significant: false,
        direction: None,
        p_value: None,
        ks_p_value: None,
        confidence_level: None,
        p_head_faster: None,
        shift: None,
        speedup_interval: None,
        inconclusive: true,
        warnings: Vec::new(),
    };
    b.hpt.difference = f64::NAN;
    let mut a = analysis(
        vec![b],
        SuiteAnalysis {
            hpt: HptSummary {
                confidence: None,
                direction: None,
                r_speedup: None,
                gamma: Some(f64::NAN),
                gamma_confidence: None,
                geometric_mean_speedup: None,
                max_confidence: None,
                ranking: Ranking::Difference,
                curve: Vec::new(),
                warnings: Vec::new(),
            },
            overall: None,
            proportion: None,
        },
        Verdict::Inconclusive,
    );
    a.gate = gate(FailOn::None, 0.0, &[]);
    a
}

/// No benchmark at all.
pub(crate) fn empty() -> Analysis {
    let mut a = nothing_known();
    a.benchmarks.clear();
    a.gate.threshold = Threshold::NONE;
    a
}

/// BASE and HEAD built the same executables: nothing run, every benchmark unchanged, the gate passed.
pub(crate) fn identical_executables() -> Analysis {
    let mut a = empty();
    a.identical = vec!["decode".into(), "encode/3".into()];
    a.verdict = Verdict::Unchanged;
    a.warnings.clear();
    a
}

/// Every sample analysis with its name, for tests that must hold on all of them.
pub(crate) fn all() -> Vec<(&'static str, Analysis)> {
    vec![
        ("faster", faster_suite()),
        ("slower_failed_gate", slower_suite_failed_gate()),
        ("unchanged", unchanged_suite()),
        ("inconclusive_warnings", inconclusive_with_warnings()),
        ("unmatched", unmatched()),
        ("hpt_not_reachable", hpt_not_reachable()),
        ("too_few_benchmarks", too_few_benchmarks()),
        ("nothing_known", nothing_known()),
        ("empty", empty()),
        ("identical_executables", identical_executables()),
    ]
}
