//! The two-version plans replayed on one benchmark's drawn runs (`docs/racing.md`, "Simulated: error and
//! runs"): [`race`] is the project's race (looks of a [`LookPlan`], each deciding at alpha / K with
//! [`verdict_at_look`], the verdict `analyse` gives), the paper's is [`super::raced_profiles::race`];
//! `TwoVersions` replays them on the same draws of [`super::model`] and counts each verdict against the
//! true change; [`race_suite`] races a whole suite through [`analyse`] as the runner does, for the gate.
//!
//! Release run (`cargo speedup simulate`, 10,000 benchmarks per setting, seeds 1 to 3, confidence 0.95, ε 2 %;
//! noise: process 1 %, within 1 %, layout 0.5 %; all tables in `docs/racing.md` §5). Unchanged code: the
//! sequential plan 5/10/20 is wrong "faster" in 3.26 % and wrong "slower" in 2.59 % of the benchmarks
//! (each at most alpha = 5 %) with 10.54 runs per side, fixed 10 in 4.68 % and 4.00 %, paper 002 at
//! alpha_LT = alpha_EQ = 0.02 and ε 0.5 % in 7.84 % and 7.01 % (nominal 2 %). A true +2 % (the margin) is
//! called unchanged by the sequential plan in 2.36 %, by paper 002 at ε 2 % in 48.24 % (its one-sided rule).
//! On a mix of unchanged, +2 % and +5 % benchmarks the sequential plan takes 7.92 runs per side, 21 % fewer
//! than fixed 10 (5.25 and 48 % at process noise 0.5 %).
//!
//! Pure: the generator is an argument.

use super::harness::{Decided, Kind, Simulation, longest};
use super::model::{Source, draw_values};
use super::raced_profiles::{self, PaperPlan};
use crate::protocol::Options;
use crate::protocol::analyse::verdict_at_look;
use crate::protocol::sequential::LookPlan;
use crate::protocol::{Design, PerLook, Verdict};
use crate::stats::random::SplitMix64;

/// What a plan decided about one benchmark, and the runs per side it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Raced {
    /// The plan's last verdict: the first that was not inconclusive, or inconclusive at the cap.
    pub verdict: Verdict,
    /// Runs per side taken when the plan stopped.
    pub runs: usize,
}

/// The project's race of one benchmark on its run values (at least `plan.max()` each): at each look the
/// verdict at alpha / K on the runs so far, stopping at the first that is not inconclusive or at one that
/// more runs are unlikely to decide ([`crate::protocol::equivalence::is_futile`]).
pub(crate) fn race(base: &[f64], head: &[f64], plan: LookPlan, options: &Options) -> Raced {
    let options = PerLook::new(options, Design::measured(plan.count()));
    let mut raced = Raced {
        verdict: Verdict::Inconclusive,
        runs: 0,
    };
    for look in plan.looks() {
        let n = (look as usize).min(base.len()).min(head.len());
        let look = verdict_at_look(&base[..n], &head[..n], &options, plan.max() as usize);
        raced = Raced {
            verdict: look.verdict,
            runs: n,
        };
        if look.stops() {
            break;
        }
    }
    raced
}

/// A sampling plan to replay: when to look at the runs and decide.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SamplingPlan {
    /// The project's: looks of a [`LookPlan`] (one for a fixed plan), verdicts at alpha / K, unchanged
    /// within ±`options.equivalence_pct`.
    Looks {
        /// When the plan looks: runs per side at each look.
        plan: LookPlan,
        /// The analysis options at each look, taken at the plan's K looks.
        options: Options,
    },
    /// Paper 002's race.
    Paper(PaperPlan),
}

impl SamplingPlan {
    /// The most runs per side the plan can take.
    pub(crate) fn max_runs(&self) -> usize {
        match self {
            SamplingPlan::Looks { plan, .. } => plan.max() as usize,
            SamplingPlan::Paper(paper) => paper.max_runs(),
        }
    }

    /// ε of the plan's "unchanged", in percent.
    pub(crate) fn equivalence_pct(&self) -> f64 {
        match self {
            SamplingPlan::Looks { options, .. } => options.equivalence_pct(),
            SamplingPlan::Paper(paper) => paper.epsilon_pct(),
        }
    }

    /// Replays the plan on one benchmark's run values (at least [`SamplingPlan::max_runs`] each).
    pub(crate) fn replay(&self, base: &[f64], head: &[f64]) -> Raced {
        match self {
            SamplingPlan::Looks { plan, options } => race(base, head, *plan, options),
            SamplingPlan::Paper(paper) => {
                let (verdict, runs) = raced_profiles::race(base, head, paper);
                Raced { verdict, runs }
            }
        }
    }
}

/// Counts one verdict about a benchmark whose HEAD is truly `factor` times BASE's time, for a plan whose
/// "unchanged" means within ±`equivalence_pct`.
pub(crate) fn judge(raced: Raced, factor: f64, equivalence_pct: f64) -> Decided {
    let beyond = factor.ln().abs() >= (equivalence_pct / 100.0).ln_1p() * (1.0 - 1e-9);
    let wrong = match raced.verdict {
        Verdict::Faster => Some(Kind::WrongFaster).filter(|_| factor >= 1.0),
        Verdict::Slower => Some(Kind::WrongSlower).filter(|_| factor <= 1.0),
        Verdict::Unchanged => Some(Kind::WrongUnchanged).filter(|_| beyond),
        Verdict::Inconclusive => Some(Kind::Inconclusive),
    };
    let decided = Decided::after(raced.runs);
    match wrong {
        Some(kind) => decided.counting(kind, true),
        None => decided.counting(Kind::Correct, true),
    }
}

/// Every plan replayed on benchmarks from `source` whose HEAD is `factor` times BASE's time, all on the
/// same draws (as many runs per side as the longest plan can take).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TwoVersions<'a> {
    /// Where the run values come from.
    pub source: Source<'a>,
    /// The plans replayed.
    pub plans: &'a [SamplingPlan],
    /// HEAD's true time over BASE's.
    pub factor: f64,
}

impl Simulation for TwoVersions<'_> {
    type Draw = (Vec<f64>, Vec<f64>);

    fn plans(&self) -> usize {
        self.plans.len()
    }

    fn draw(&self, rng: &mut SplitMix64, k: usize) -> Self::Draw {
        let count = longest(self.plans, SamplingPlan::max_runs);
        draw_values(rng, self.source, k, self.factor, count)
    }

    fn decide(&self, plan: usize, (base, head): &Self::Draw, _: &mut SplitMix64) -> Decided {
        let plan = &self.plans[plan];
        judge(plan.replay(base, head), self.factor, plan.equivalence_pct())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Run;
    use crate::protocol::FailOn;
    use crate::simulation::harness::{Tally, run};
    use crate::simulation::model::{Noise, draw_runs};
    use crate::testutil::{Drawn, race_suite};

    fn options() -> Options {
        Options::defaults(FailOn::Any)
    }

    #[test]
    fn the_single_benchmark_race_decides_as_the_suite_race_does() {
        let noise = Noise {
            process: 0.01,
            within: 0.01,
            layout: 0.005,
            drift: 0.0,
        };
        let plan = LookPlan::new(5, 20).unwrap();
        let mut rng = SplitMix64::new(3);
        let drawn: Vec<Drawn> = (0..24)
            .map(|k| Drawn {
                name: format!("b{k}"),
                base: draw_runs(&mut rng, 100.0, noise, 20),
                head: draw_runs(&mut rng, 100.0 * [1.0, 1.01, 1.03][k % 3], noise, 20),
            })
            .collect();
        // Under `--fail-on suite`: under `any` a benchmark called slower also waits for the gate
        // (`sequential::open_benchmarks`), which a single benchmark's race does not see.
        let options = options().with_fail_on(FailOn::Suite);
        let (analysis, used) = race_suite(&drawn, plan, &options);
        for ((d, b), n) in drawn.iter().zip(&analysis.benchmarks).zip(used) {
            let values = |runs: &[Run]| runs.iter().map(Run::value).collect::<Vec<f64>>();
            let raced = race(&values(&d.base), &values(&d.head), plan, &options);
            assert_eq!((raced.verdict, raced.runs), (b.verdict, n), "{}", d.name);
        }
    }

    #[test]
    fn tallies_count_against_the_truth() {
        let mut t = Tally::default();
        let at = |verdict, runs| Raced { verdict, runs };
        for (verdict, runs, factor) in [
            (Verdict::Faster, 5, 1.0),
            (Verdict::Slower, 5, 1.0),
            (Verdict::Unchanged, 10, 1.0),
            (Verdict::Unchanged, 10, 1.02),
            (Verdict::Slower, 20, 1.02),
            (Verdict::Faster, 20, 1.02),
            (Verdict::Inconclusive, 20, 0.95),
        ] {
            t.add(&judge(at(verdict, runs), factor, 2.0));
        }
        let count = |kind| t.count(kind);
        assert_eq!(
            (
                count(Kind::WrongFaster),
                count(Kind::WrongSlower),
                count(Kind::WrongUnchanged)
            ),
            (2, 1, 1)
        );
        assert_eq!(
            (count(Kind::Correct), count(Kind::Inconclusive), t.runs),
            (2, 1, 90)
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_figures() {
        let plans = [SamplingPlan::Looks {
            plan: LookPlan::fixed(10).unwrap(),
            options: options(),
        }];
        let source = Source::Model(Noise::with_icc(0.01, 0.5));
        let simulation = TwoVersions {
            source,
            plans: &plans,
            factor: 1.0,
        };
        let a = run(&simulation, 50, 7);
        assert_eq!(a, run(&simulation, 50, 7));
        assert_eq!(a[0].runs, 500);
    }
}
