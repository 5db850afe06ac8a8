//! `--paired` through the real analysis path: suites drawn in blocks from the model with a shared block
//! effect and drift ([`draw_blocked`]), raced look by look as the runner races them (the plan's looks 6,
//! 12, 24, each benchmark stopping when decided: `testutil::race_suite`, `protocol::sequential`), then
//! analysed with each gate; the same draws decided by the independent design and by the paired one.
//!
//! Checked: on unchanged code each design fails `--fail-on any` and `--fail-on suite` in at most alpha of
//! the suites and calls at most 2 alpha of the benchmarks faster or slower (up to the binomial margin of
//! `analysis_tests.rs`: S alpha + 3 sqrt(S alpha (1 − alpha)), exceeded by a true rate of alpha with
//! probability below 0.2 %), with ρ = 0.8 and ρ = 0; and the power to fail `--fail-on any` on one
//! benchmark of eight made 4 % slower: with ρ = 0.8 the paired design finds it far more often, with ρ = 0
//! not much less often. The generator is seeded: each figure is deterministic. And on the runs of a real
//! A/A comparison (base64, paired by their order) neither design calls anything changed or fails a gate.
//!
//! The figures (40 suites of 8 benchmarks, a total spread of 5 % between runs, `docs/replication.md` §7):
//!
//! | truth | ρ | `any` failed: independent, paired | `suite` failed | called faster or slower (of 320) |
//! |---|---|---|---|---|
//! | unchanged | 0.8 | 0, 1 | 0, 0 | 0, 8 |
//! | unchanged | 0 | 0, 0 | 0, 0 | 22, 19 |
//! | one of 8 benchmarks 4 % slower | 0.8 | 15, 40 | 0, 0 | 35, 56 |
//! | one of 8 benchmarks 4 % slower | 0 | 16, 15 | 0, 0 | 36, 39 |

use crate::model::Runs;
use crate::protocol::sequential::LookPlan;
use crate::protocol::{Analysis, FailOn, Options, Pairing, Verdict, analyse};
use crate::simulation::model::{Noise, draw_blocked};
use crate::stats::random::SplitMix64;
use crate::testutil::{Drawn, race_suite};

const BENCHMARKS: usize = 8;
const SUITES: usize = 40;

/// What the machine does: ρ = 0.8 (a shared block effect of 2 % beside 1 % per process) or ρ = 0 (2.2 %
/// per process), with 0.3 % within a process and a drift of 0.1 % per block shared by both sides.
fn machine(rho: f64) -> (Noise, f64) {
    let total: f64 = 0.0025;
    let noise = Noise {
        process: (total * (1.0 - rho)).sqrt(),
        within: 0.003,
        layout: 0.0,
        drift: 0.001,
    };
    (noise, (total * rho).sqrt())
}

/// The suite's drawn runs, up to the plan's cap of 24 blocks; benchmark k is `slowdown[k]` times slower.
fn drawn(rng: &mut SplitMix64, rho: f64, slowdown: &[f64]) -> Vec<Drawn> {
    let (noise, block) = machine(rho);
    slowdown
        .iter()
        .enumerate()
        .map(|(k, &factor)| {
            let mu = 50.0 * 10f64.powi(k as i32 % 5);
            let (base, head) = draw_blocked(rng, mu, noise, block, 24, factor);
            Drawn {
                name: format!("b{k}"),
                base,
                head,
            }
        })
        .collect()
}

/// What one design decided over the suites: gate failures under `any` and `suite`, and faster/slower
/// verdicts.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    any: usize,
    suite: usize,
    called: usize,
}

/// Races `SUITES` suites drawn from `seed` under each design, `--fail-on any` deciding the looks, and
/// analyses each raced suite again under `--fail-on suite` (HPT's test needs only that the stopping rule
/// treats BASE and HEAD alike, which it does): (independent, paired).
fn tallies(seed: u64, rho: f64, slowdown: &[f64]) -> (Tally, Tally) {
    let mut rng = SplitMix64::new(seed);
    let plan = LookPlan::new(6, 24).expect("plan");
    let mut out = [Tally::default(); 2];
    for _ in 0..SUITES {
        let drawn = drawn(&mut rng, rho, slowdown);
        for (tally, paired) in out.iter_mut().zip([false, true]) {
            let options = Options::defaults(FailOn::Any)
                .with_threshold(crate::protocol::Threshold::percent(2.0).expect("2 %"))
                .with_paired(paired);
            let (raced, used) = race_suite(&drawn, plan, &options);
            assert_basis(&raced, paired);
            tally.any += usize::from(raced.gate.failed);
            tally.called += raced
                .benchmarks
                .iter()
                .filter(|b| matches!(b.verdict, Verdict::Faster | Verdict::Slower))
                .count();
            let suite = stopped_suite(&drawn, &used, plan);
            let whole = analyse(&suite, &options.with_fail_on(FailOn::Suite));
            tally.suite += usize::from(whole.gate.failed);
        }
    }
    (out[0], out[1])
}

/// The paired design decided every benchmark on its pairs; the independent one states no design.
fn assert_basis(analysis: &Analysis, paired: bool) {
    for b in &analysis.benchmarks {
        match (&b.pairing, paired) {
            (None, false) => {}
            (Some(Pairing::Paired(test)), true) => {
                assert_eq!(test.pairs, b.runs.base, "{}", b.name);
                assert_eq!(test.dropped.base + test.dropped.head, 0);
            }
            (other, _) => panic!("{}: {other:?} under paired = {paired}", b.name),
        }
    }
}

/// The suite as the race left it: each benchmark with the runs it used.
fn stopped_suite(drawn: &[Drawn], used: &[usize], plan: LookPlan) -> crate::model::Suite {
    let side = |pick: fn(&Drawn) -> &Vec<crate::model::Run>| {
        crate::testutil::simulated_results(
            drawn
                .iter()
                .zip(used)
                .map(|(d, &n)| {
                    (
                        d.name.clone(),
                        Runs::new(pick(d)[..n].to_vec()).expect("runs"),
                    )
                })
                .collect(),
        )
    };
    crate::model::Suite {
        design: crate::model::Design::measured(plan.count()),
        ..crate::model::Suite::pair(side(|d| &d.base), side(|d| &d.head))
    }
}

fn margin(n: usize, p: f64) -> usize {
    let n = n as f64;
    (n * p + 3.0 * (n * p * (1.0 - p)).sqrt()).floor() as usize
}

#[test]
fn both_designs_keep_their_risks_under_shared_block_effects_and_drift() {
    for (seed, rho) in [(41, 0.8), (42, 0.0)] {
        let (independent, paired) = tallies(seed, rho, &[1.0; BENCHMARKS]);
        for (design, t) in [("independent", independent), ("paired", paired)] {
            assert!(
                t.any <= margin(SUITES, 0.05),
                "rho {rho}, {design}: --fail-on any failed {} of {SUITES}",
                t.any
            );
            assert!(
                t.suite <= margin(SUITES, 0.05),
                "rho {rho}, {design}: --fail-on suite failed {} of {SUITES}",
                t.suite
            );
            assert!(
                t.called <= margin(SUITES * BENCHMARKS, 0.10),
                "rho {rho}, {design}: {} of {} unchanged benchmarks called faster or slower",
                t.called,
                SUITES * BENCHMARKS
            );
        }
    }
}

#[test]
fn pairing_finds_a_slowdown_the_shared_effects_hide_and_costs_little_without_them() {
    let mut slowdown = [1.0; BENCHMARKS];
    slowdown[3] = 1.04;
    let (independent, paired) = tallies(43, 0.8, &slowdown);
    let share = |t: Tally| t.any as f64 / SUITES as f64;
    assert!(
        share(paired) >= 0.9 && share(paired) >= share(independent) + 0.3,
        "rho 0.8: a 4 % slowdown failed the gate in {} (paired) and {} (independent) of the suites",
        share(paired),
        share(independent)
    );
    let (independent, paired) = tallies(44, 0.0, &slowdown);
    assert!(
        share(paired) >= share(independent) - 0.2,
        "rho 0: a 4 % slowdown failed the gate in {} (paired) and {} (independent) of the suites",
        share(paired),
        share(independent)
    );
}

/// The runs of a real A/A comparison (`fixtures/shape/base64-aa.json`: base64 0.22.1 against itself,
/// `--run-identical`, looks 5, 10, 20, 0.3 s + 0.5 s runs), paired by their order: in a comparison without
/// a failed run, run b of each side is block b's (`calibrate/pairing.py` pairs them so). Its report was
/// written before runs carried their blocks, so the blocks are set here, from that order.
fn recorded_aa() -> crate::model::Suite {
    use crate::model::{Run, Sample, Unit};
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/shape/base64-aa.json"
    ))
    .expect("the A/A report");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let side = |which: &str| {
        let benchmarks = report["benchmarks"].as_array().expect("benchmarks");
        crate::testutil::simulated_results(
            benchmarks
                .iter()
                .map(|b| {
                    let runs: Vec<Run> = b["samples"][which]["runs"]
                        .as_array()
                        .expect("runs")
                        .iter()
                        .map(|run| {
                            let samples = run
                                .as_array()
                                .expect("samples")
                                .iter()
                                .map(|v| v.as_f64().expect("a time"))
                                .collect();
                            Run::new(Sample::new(samples, Unit::Ns).expect("a sample"), None)
                        })
                        .collect();
                    let mut runs = Runs::new(runs).expect("runs");
                    let order: Vec<u32> = (0..runs.len() as u32).collect();
                    assert!(runs.set_blocks(1, &order));
                    (b["name"].as_str().expect("a name").to_string(), runs)
                })
                .collect(),
        )
    };
    crate::model::Suite {
        design: crate::model::Design::measured(3),
        ..crate::model::Suite::pair(side("base"), side("head"))
    }
}

#[test]
fn recorded_aa_runs_paired_by_block_call_nothing_changed() {
    let suite = recorded_aa();
    let paired = analyse(&suite, &Options::defaults(FailOn::Any).with_paired(true));
    let independent = analyse(&suite, &Options::defaults(FailOn::Any));
    assert_basis(&paired, true);
    for analysis in [&paired, &independent] {
        let called: Vec<&str> = analysis
            .benchmarks
            .iter()
            .filter(|b| matches!(b.verdict, Verdict::Faster | Verdict::Slower))
            .map(|b| b.name.as_str())
            .collect();
        assert!(called.is_empty(), "{called:?}");
        assert!(!analysis.gate.failed, "{:?}", analysis.gate.reasons);
    }
    let suite_gate = Options::defaults(FailOn::Suite).with_paired(true);
    assert!(!analyse(&suite, &suite_gate).gate.failed);
    // Shown unchanged within ±2 %: the runs of these lengths share little within a block
    // (`docs/replication.md` §7), and the paired design's 5 to 20 differences, each with the noise of two
    // runs, show less than the independent design's two sides.
    let unchanged = |a: &Analysis| {
        a.benchmarks
            .iter()
            .filter(|b| b.verdict == Verdict::Unchanged)
            .count()
    };
    assert_eq!((unchanged(&paired), unchanged(&independent)), (2, 5));
}
