//! The paired design beside the independent one, on a model with what the machine does to both runs of a
//! block (`docs/replication.md` §7): a block effect both runs share, waves across consecutive runs (an AR(1)
//! level, as a neighbour's load or a frequency step), an effect of running second, a duet's contention (one
//! run of a block preempted, either side alike) and each process's own level. BASE and HEAD run back to back in an order drawn per block, as `measure/run/` runs them.
//!
//! Checked: under no change, the signed-rank test of the within-block log ratios (the paired design) and
//! the rank-sum test of the two sides (the independent design) each decide at most alpha, with shared
//! effects, waves, an order effect and a duet's preemptions; with shared effects the paired design shows "unchanged within ±2 %"
//! and finds a 3 % slowdown more often, and without them it is not worse by more than the draws' error.

use super::model::{normal, uniform};
use crate::stats::Alternative;
use crate::stats::random::SplitMix64;
use crate::stats::rank_sum::rank_sum;
use crate::stats::signed_rank::signed_rank;
use crate::stats::walsh::walsh_interval;

/// Standard deviations of the log level (0.01 is about 1 %).
#[derive(Clone, Copy)]
struct Machine {
    /// Shared by both runs of a block.
    block: f64,
    /// An AR(1) wave over consecutive runs: its stationary standard deviation and its lag-1 correlation.
    wave: f64,
    phi: f64,
    /// Added to whichever run of a block runs second.
    second: f64,
    /// Each process's own.
    process: f64,
    /// A duet's contention: the probability that one run of a block, either side alike, is preempted
    /// (another task took its core), and the log slowdown it then takes.
    preempted: f64,
    preemption: f64,
}

/// One benchmark's log levels per block, (BASE, HEAD), HEAD `factor` times slower.
fn draw(rng: &mut SplitMix64, m: Machine, blocks: usize, factor: f64) -> Vec<(f64, f64)> {
    let mut wave = m.wave * normal(rng);
    let step = (1.0 - m.phi * m.phi).sqrt() * m.wave;
    let mut next_wave = |rng: &mut SplitMix64| {
        wave = m.phi * wave + step * normal(rng);
        wave
    };
    (0..blocks)
        .map(|_| {
            let shared = m.block * normal(rng);
            let first = shared + next_wave(rng) + m.process * normal(rng);
            let mut second = shared + next_wave(rng) + m.process * normal(rng) + m.second;
            if uniform(rng) < m.preempted {
                second += m.preemption;
            }
            let (base, head) = if uniform(rng) < 0.5 {
                (first, second)
            } else {
                (second, first)
            };
            (base, head + factor.ln())
        })
        .collect()
}

/// What each design decides on one benchmark at `alpha`: (shown different two-sided, shown unchanged
/// within ±`margin_pct` by the (1 − 2 alpha) interval).
struct Decisions {
    paired: (bool, bool),
    independent: (bool, bool),
}

fn decide(levels: &[(f64, f64)], alpha: f64, margin_pct: f64) -> Decisions {
    let margin = (1.0 + margin_pct / 100.0).ln();
    let d: Vec<f64> = levels.iter().map(|(b, h)| h - b).collect();
    let base: Vec<f64> = levels.iter().map(|p| p.0).collect();
    let head: Vec<f64> = levels.iter().map(|p| p.1).collect();
    let paired_p = signed_rank(&d, Alternative::TwoSided)
        .expect("valid")
        .p_value;
    let paired_ci = walsh_interval(&d, Alternative::TwoSided, 1.0 - 2.0 * alpha).expect("valid");
    let independent_p = rank_sum(&head, &base, Alternative::TwoSided)
        .expect("valid")
        .p_value;
    let independent_ci = crate::stats::hodges_lehmann::hodges_lehmann(
        &head,
        &base,
        Alternative::TwoSided,
        1.0 - 2.0 * alpha,
    )
    .expect("valid");
    let inside = |lo: f64, hi: f64| lo > -margin && hi < margin;
    Decisions {
        paired: (paired_p < alpha, inside(paired_ci.lower, paired_ci.upper)),
        independent: (
            independent_p < alpha,
            inside(independent_ci.lower, independent_ci.upper),
        ),
    }
}

/// Shares over `n` benchmarks of 12 blocks: (paired different, paired unchanged, independent different,
/// independent unchanged).
fn rates(seed: u64, m: Machine, factor: f64, n: usize) -> [f64; 4] {
    let mut rng = SplitMix64::new(seed);
    let mut counts = [0usize; 4];
    for _ in 0..n {
        let levels = draw(&mut rng, m, 12, factor);
        let dec = decide(&levels, 0.05, 2.0);
        for (i, hit) in [
            dec.paired.0,
            dec.paired.1,
            dec.independent.0,
            dec.independent.1,
        ]
        .into_iter()
        .enumerate()
        {
            counts[i] += usize::from(hit);
        }
    }
    counts.map(|c| c as f64 / n as f64)
}

const QUIET: Machine = Machine {
    block: 0.0,
    wave: 0.0,
    phi: 0.0,
    second: 0.0,
    process: 0.01,
    preempted: 0.0,
    preemption: 0.0,
};

#[test]
fn both_designs_keep_alpha_under_shared_effects_waves_and_order() {
    // 2000 benchmarks: alpha = 0.05 has a standard error of 0.0049; allow three.
    let machines = [
        ("independent runs", QUIET),
        (
            "shared block effect",
            Machine {
                block: 0.02,
                ..QUIET
            },
        ),
        (
            "slow waves",
            Machine {
                wave: 0.03,
                phi: 0.95,
                ..QUIET
            },
        ),
        (
            "fast waves",
            Machine {
                wave: 0.02,
                phi: 0.5,
                ..QUIET
            },
        ),
        (
            "second run slower",
            Machine {
                second: 0.01,
                block: 0.01,
                ..QUIET
            },
        ),
        (
            // Both runs at once, as `--duet` runs them on a machine with no core to spare: much is
            // shared, and one run of a block in five is slowed 10 % by whatever took its core.
            "a duet preempted",
            Machine {
                block: 0.03,
                preempted: 0.2,
                preemption: 0.1,
                ..QUIET
            },
        ),
    ];
    for (seed, (what, m)) in machines.into_iter().enumerate() {
        let [paired, _, independent, _] = rates(seed as u64 + 1, m, 1.0, 2000);
        assert!(
            paired <= 0.0647,
            "{what}: the paired design decided {paired} of unchanged code"
        );
        assert!(
            independent <= 0.0647,
            "{what}: the independent design decided {independent}"
        );
    }
}

#[test]
fn pairing_cancels_what_both_runs_of_a_block_share() {
    // Shared effects twice the process's own: rho = 0.8 of the between-process variance.
    let shared = Machine {
        block: 0.03,
        process: 0.015,
        ..QUIET
    };
    let [_, paired_same, _, independent_same] = rates(11, shared, 1.0, 1000);
    assert!(
        paired_same >= independent_same + 0.3,
        "unchanged within 2 %: paired {paired_same}, independent {independent_same}"
    );
    let [paired_found, _, independent_found, _] = rates(12, shared, 1.03, 1000);
    assert!(
        paired_found >= independent_found + 0.3,
        "3 % slower found: paired {paired_found}, independent {independent_found} (same: {paired_same}, {independent_same})"
    );
    // Nothing shared: the two designs see the same noise (the difference of two runs either way); the
    // paired one tests 12 differences where the independent one has 24 values, and loses little.
    let noisy = Machine {
        process: 0.02,
        ..QUIET
    };
    let [paired_found, _, independent_found, _] = rates(13, noisy, 1.03, 1000);
    assert!(
        paired_found >= independent_found - 0.1,
        "independent runs, 3 % slower found: paired {paired_found}, independent {independent_found}"
    );
}
