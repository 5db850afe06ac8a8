//! The simulator's pure core, shared by the simulation tests and `cargo speedup simulate`: run values drawn
//! from the hierarchical model of `docs/replication.md` §2, or resampled from recorded runs, replayed
//! through a plan, and counted against the truth (`docs/racing.md`, "Simulated: error and runs").
//!
//! The model, on log times: `log y[l, r, i] = log mu + lambda[l] + beta[r] + eps[r, i] + drift · r`, with a
//! layout effect lambda drawn per run (one layout per run), a process effect beta per run, within-process
//! noise eps over [`SAMPLES_PER_RUN`] samples per run (the run's value is their median, as a criterion run's
//! is), and a linear drift over the runs, the same for both sides. HEAD is BASE with its level multiplied by
//! the true change.
//!
//! A plan is replayed on one benchmark's pre-drawn runs: [`race`] is the project's race (looks of a
//! [`LookPlan`], each deciding at alpha / K with [`verdict_at_look`], the verdict `analyse` gives), the
//! paper's is [`super::raced_profiles::race`]; [`race_suite`] races a whole suite through [`analyse`]
//! as the runner does, for the gate. Every plan of one setting sees the same draws.
//!
//! Pure: the seed is an argument; SplitMix64 (Steele, Lea & Flood, OOPSLA 2014) with Box-Muller normals, no
//! random-number crate, so that a seed gives the same figures with every version of the dependencies.
//!
//! Release run (`cargo speedup simulate`, 10,000 benchmarks per setting, seeds 1 to 3, confidence 0.95, ε 2 %;
//! noise: process 1 %, within 1 %, layout 0.5 %; all tables in `docs/racing.md` §5). Unchanged code: the
//! sequential plan 5/10/20 is wrong "faster" in 3.26 % and wrong "slower" in 2.59 % of the benchmarks
//! (each at most alpha = 5 %) with 10.54 runs per side, fixed 10 in 4.68 % and 4.00 %, paper 002 at
//! alpha_LT = alpha_EQ = 0.02 and ε 0.5 % in 7.84 % and 7.01 % (nominal 2 %). A true +2 % (the margin) is
//! called unchanged by the sequential plan in 2.36 %, by paper 002 at ε 2 % in 48.24 % (its one-sided rule).
//! On a mix of unchanged, +2 % and +5 % benchmarks the sequential plan takes 7.92 runs per side, 21 % fewer
//! than fixed 10 (5.25 and 48 % at process noise 0.5 %).

use super::raced_profiles::{self, PaperPlan};
use crate::model::{Benchmark, Environment, Results, Run, Runs, Sample, Suite, Unit};
use crate::protocol::Options;
use crate::protocol::analyse::{analyse, verdict_at_look};
use crate::protocol::sequential::{LookPlan, open_benchmarks};
use crate::protocol::{Analysis, Design, PerLook, Verdict};
use crate::stats::random::SplitMix64;

/// The stats' SplitMix64 ([`SplitMix64`]) with the simulations' own draws: uniforms in the open (0, 1)
/// and Box-Muller normals from two of them (the simulated figures of `docs/racing.md` were made so).
#[derive(Debug, Clone)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator whose draws are fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal (Box-Muller, the cosine half).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// Uniform index below `n` (> 0); the bias of the modulo is below n / 2^64.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The noise of one benchmark, as standard deviations of log times (0.01 is about 1 %).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Noise {
    /// Between processes (beta).
    pub process: f64,
    /// Within a process (eps), per sample.
    pub within: f64,
    /// Between layouts (lambda), one layout per run.
    pub layout: f64,
    /// Drift of log level per run, shared by both sides.
    pub drift: f64,
}

impl Noise {
    /// A total log variance of `total²` of which the share `icc` is between processes.
    pub fn with_icc(total: f64, icc: f64) -> Noise {
        Noise {
            process: total * icc.sqrt(),
            within: total * (1.0 - icc).sqrt(),
            layout: 0.0,
            drift: 0.0,
        }
    }
}

/// Samples per simulated process run, as criterion's minimum that `cargo speedup` runs.
pub const SAMPLES_PER_RUN: usize = 10;

/// `count` process runs of one benchmark at level `mu`, in the order they ran.
pub fn draw_runs(rng: &mut Rng, mu: f64, noise: Noise, count: usize) -> Vec<Run> {
    (0..count)
        .map(|block| {
            let level = mu.ln()
                + noise.layout * rng.normal()
                + noise.process * rng.normal()
                + noise.drift * block as f64;
            let samples = (0..SAMPLES_PER_RUN)
                .map(|_| (level + noise.within * rng.normal()).exp())
                .collect();
            Run::new(Sample::new(samples, Unit::Ns).expect("positive"), None)
        })
        .collect()
}

/// One side's results named "simulated".
pub fn results(benchmarks: Vec<(String, Runs)>) -> Results {
    Results {
        origin: "simulated".into(),
        benchmarks: benchmarks
            .into_iter()
            .map(|(name, runs)| Benchmark {
                name,
                runs,
                unit: Unit::Ns,
                counters: Vec::new(),
            })
            .collect(),
        environment: Environment::default(),
        notes: vec![],
    }
}

/// Where a simulated benchmark's run values come from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// The hierarchical model.
    Model(Noise),
    /// Recorded run values, one list (of at least two) per benchmark: runs are drawn from a benchmark's
    /// list with replacement, on both sides (the bootstrap), and HEAD's are scaled by the change.
    Recorded(&'a [Vec<f64>]),
}

/// BASE's and HEAD's run values of the `k`-th simulated benchmark, `count` each, HEAD `factor` times
/// slower.
pub fn draw_values(
    rng: &mut Rng,
    source: Source<'_>,
    k: usize,
    factor: f64,
    count: usize,
) -> (Vec<f64>, Vec<f64>) {
    match source {
        Source::Model(noise) => {
            let values = |rng: &mut Rng, mu: f64| -> Vec<f64> {
                draw_runs(rng, mu, noise, count)
                    .iter()
                    .map(Run::value)
                    .collect()
            };
            let base = values(rng, 1000.0);
            (base, values(rng, 1000.0 * factor))
        }
        Source::Recorded(pools) => {
            let pool = &pools[k % pools.len()];
            let mut values = |scale: f64| -> Vec<f64> {
                (0..count)
                    .map(|_| pool[rng.below(pool.len())] * scale)
                    .collect()
            };
            let base = values(1.0);
            (base, values(factor))
        }
    }
}

/// What a plan decided about one benchmark, and the runs per side it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raced {
    /// The plan's last verdict: the first that was not inconclusive, or inconclusive at the cap.
    pub verdict: Verdict,
    /// Runs per side taken when the plan stopped.
    pub runs: usize,
}

/// The project's race of one benchmark on its run values (at least `plan.max()` each): at each look the
/// verdict at alpha / K on the runs so far, stopping at the first that is not inconclusive or at one that
/// more runs are unlikely to decide ([`crate::protocol::equivalence::is_futile`]).
pub fn race(base: &[f64], head: &[f64], plan: LookPlan, options: &Options) -> Raced {
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

/// A benchmark's name and the runs drawn for BASE and HEAD, up to a plan's maximum.
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The benchmark's name.
    pub name: String,
    /// BASE's drawn runs, in the order they would run.
    pub base: Vec<Run>,
    /// HEAD's drawn runs, in the order they would run.
    pub head: Vec<Run>,
}

/// A race of a whole suite as the runner runs it: at each look the open benchmarks take the runs up to
/// it, decided ones keep what they had ([`open_benchmarks`] between looks); returns the final analysis
/// (at the plan's K looks) and the runs per side each benchmark used.
pub fn race_suite(drawn: &[Drawn], plan: LookPlan, options: &Options) -> (Analysis, Vec<usize>) {
    let suite_at = |used: &[usize]| {
        let side = |pick: fn(&Drawn) -> &Vec<Run>| {
            results(
                drawn
                    .iter()
                    .zip(used)
                    .map(|(d, &n)| {
                        let runs = Runs::new(pick(d)[..n].to_vec()).expect("runs");
                        (d.name.clone(), runs)
                    })
                    .collect(),
            )
        };
        Suite {
            design: Design::measured(plan.count()),
            ..Suite::pair(side(|d| &d.base), side(|d| &d.head))
        }
    };
    let mut used = vec![plan.min() as usize; drawn.len()];
    let mut open: Vec<String> = drawn.iter().map(|d| d.name.clone()).collect();
    for look in plan.looks() {
        for (d, n) in drawn.iter().zip(used.iter_mut()) {
            if open.contains(&d.name) {
                *n = look as usize;
            }
        }
        open = open_benchmarks(&suite_at(&used), options, plan.max());
        if open.is_empty() {
            break;
        }
    }
    (analyse(&suite_at(&used), options), used)
}

/// A sampling plan to replay: when to look at the runs and decide.
#[derive(Debug, Clone, PartialEq)]
pub enum SamplingPlan {
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
    pub fn max_runs(&self) -> usize {
        match self {
            SamplingPlan::Looks { plan, .. } => plan.max() as usize,
            SamplingPlan::Paper(paper) => paper.max_runs(),
        }
    }

    /// ε of the plan's "unchanged", in percent.
    pub fn equivalence_pct(&self) -> f64 {
        match self {
            SamplingPlan::Looks { options, .. } => options.equivalence_pct,
            SamplingPlan::Paper(paper) => paper.epsilon_pct(),
        }
    }

    /// Replays the plan on one benchmark's run values (at least [`SamplingPlan::max_runs`] each).
    pub fn replay(&self, base: &[f64], head: &[f64]) -> Raced {
        match self {
            SamplingPlan::Looks { plan, options } => race(base, head, *plan, options),
            SamplingPlan::Paper(paper) => {
                let (verdict, runs) = raced_profiles::race(base, head, paper);
                Raced { verdict, runs }
            }
        }
    }
}

/// One plan's decisions over the benchmarks of one setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// How many benchmarks were replayed.
    pub benchmarks: usize,
    /// "Faster" while HEAD is not faster.
    pub wrong_faster: usize,
    /// "Slower" while HEAD is not slower.
    pub wrong_slower: usize,
    /// "Unchanged" while the true change is ε or more either way.
    pub wrong_unchanged: usize,
    /// Benchmarks the plan left inconclusive.
    pub inconclusive: usize,
    /// Runs per side, summed over the benchmarks.
    pub runs: usize,
}

impl Tally {
    /// Counts one decision about a benchmark whose HEAD is truly `factor` times BASE's time, for a plan
    /// whose "unchanged" means within ±`equivalence_pct`.
    pub fn add(&mut self, raced: Raced, factor: f64, equivalence_pct: f64) {
        self.benchmarks += 1;
        self.runs += raced.runs;
        let beyond = factor.ln().abs() >= (equivalence_pct / 100.0).ln_1p() * (1.0 - 1e-9);
        match raced.verdict {
            Verdict::Faster => self.wrong_faster += usize::from(factor >= 1.0),
            Verdict::Slower => self.wrong_slower += usize::from(factor <= 1.0),
            Verdict::Unchanged => self.wrong_unchanged += usize::from(beyond),
            Verdict::Inconclusive => self.inconclusive += 1,
        }
    }

    /// Decisions neither wrong nor inconclusive.
    pub fn correct(&self) -> usize {
        self.benchmarks
            - self.wrong_faster
            - self.wrong_slower
            - self.wrong_unchanged
            - self.inconclusive
    }

    /// `count` as a share of the benchmarks.
    pub fn rate(&self, count: usize) -> f64 {
        count as f64 / self.benchmarks.max(1) as f64
    }

    /// Mean runs per side.
    pub fn mean_runs(&self) -> f64 {
        self.runs as f64 / self.benchmarks.max(1) as f64
    }
}

/// Replays every plan on `benchmarks` benchmarks from `source` whose HEAD is `factor` times BASE's time;
/// all plans see the same draws. One tally per plan, in their order.
pub fn simulate(
    source: Source<'_>,
    plans: &[SamplingPlan],
    factor: f64,
    benchmarks: usize,
    seed: u64,
) -> Vec<Tally> {
    let mut rng = Rng::new(seed);
    let count = plans.iter().map(SamplingPlan::max_runs).max().unwrap_or(0);
    let mut tallies = vec![Tally::default(); plans.len()];
    for k in 0..benchmarks {
        let (base, head) = draw_values(&mut rng, source, k, factor, count);
        for (plan, tally) in plans.iter().zip(tallies.iter_mut()) {
            tally.add(plan.replay(&base, &head), factor, plan.equivalence_pct());
        }
    }
    tallies
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::FailOn;

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
        let mut rng = Rng::new(3);
        let drawn: Vec<Drawn> = (0..24)
            .map(|k| Drawn {
                name: format!("b{k}"),
                base: draw_runs(&mut rng, 100.0, noise, 20),
                head: draw_runs(&mut rng, 100.0 * [1.0, 1.01, 1.03][k % 3], noise, 20),
            })
            .collect();
        // Under `--fail-on suite`: under `any` a benchmark called slower also waits for the gate
        // (`sequential::open_benchmarks`), which a single benchmark's race does not see.
        let options = Options {
            fail_on: FailOn::Suite,
            ..options()
        };
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
        t.add(at(Verdict::Faster, 5), 1.0, 2.0);
        t.add(at(Verdict::Slower, 5), 1.0, 2.0);
        t.add(at(Verdict::Unchanged, 10), 1.0, 2.0);
        t.add(at(Verdict::Unchanged, 10), 1.02, 2.0);
        t.add(at(Verdict::Slower, 20), 1.02, 2.0);
        t.add(at(Verdict::Faster, 20), 1.02, 2.0);
        t.add(at(Verdict::Inconclusive, 20), 0.95, 2.0);
        assert_eq!(
            (t.wrong_faster, t.wrong_slower, t.wrong_unchanged),
            (2, 1, 1)
        );
        assert_eq!((t.correct(), t.inconclusive, t.runs), (2, 1, 90));
    }

    #[test]
    fn recorded_runs_are_resampled_and_head_is_scaled() {
        let pools = vec![vec![10.0, 20.0], vec![7.0, 7.0]];
        let mut rng = Rng::new(1);
        let (base, head) = draw_values(&mut rng, Source::Recorded(&pools), 1, 1.5, 4);
        assert_eq!((base, head), (vec![7.0; 4], vec![10.5; 4]));
        let (base, _) = draw_values(&mut rng, Source::Recorded(&pools), 0, 1.0, 50);
        assert!(base.iter().all(|v| *v == 10.0 || *v == 20.0));
        assert!(base.contains(&10.0) && base.contains(&20.0));
    }

    #[test]
    fn the_same_seed_gives_the_same_figures() {
        let plans = [SamplingPlan::Looks {
            plan: LookPlan::fixed(10).unwrap(),
            options: options(),
        }];
        let source = Source::Model(Noise::with_icc(0.01, 0.5));
        let a = simulate(source, &plans, 1.0, 50, 7);
        assert_eq!(a, simulate(source, &plans, 1.0, 50, 7));
        assert_eq!(a[0].runs, 500);
    }
}
