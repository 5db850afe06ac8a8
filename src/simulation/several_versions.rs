//! Races of several versions on synthetic problems (`cargo speedup simulate --versions R`, `docs/racing.md`
//! §6.1): paper 002's own setting, 17 loop-unrolling versions per loop, most of them clearly worse.
//!
//! A *problem* is R versions whose true levels are the best's times a ratio ([`draw_problem`]): one version
//! is the best (ratio 1, at a random position), and each other one is a near-tie (ratio in [1, 1.005)) with
//! probability 10 %, close (1.005 to 1.02) with 15 %, between (1.02 to 1.05) with 10 %, and clearly worse
//! (1.05 to 1.5) otherwise. Every version's process runs are drawn up to the largest cap of the plans from
//! the same hierarchical model as the two-version simulation ([`super::model`], one layout and one process
//! effect per run), or resampled from a recorded benchmark's runs and scaled by the ratio.
//!
//! Plans, each replayed on the same runs:
//! - [`SeveralPlan::Race`], the project's race: at each look of a [`LookPlan`], [`standing`] on all the
//!   runs so far; the survivors of an open race get the runs up to the next look (`look − previous look`
//!   more, as the runner gives them), losers keep theirs and are judged again at every look; the pick is
//!   the best (lowest median) of the final standing.
//! - [`SeveralPlan::Constant`]: every version n runs, the pick the lowest median.
//! - [`SeveralPlan::Paper`], paper 002's Algorithm 1: logs of the run values, n = 2 each, Welch's one-sided
//!   loser test at alpha_LT among all versions in ascending mean (a version removed in the pass eliminates
//!   no other, losers keep their samples and are tested again at every step), stop when one survives or
//!   the survivors are equal by the paper's one-sided interval rule within ε at alpha_EQ, else one more
//!   run per survivor up to the cap; the pick is the survivor of lowest mean.
//!
//! A plan *fails* on a problem, as the paper counts (its §5, θ = 0.5 %), when best / pick ≤ 1 − θ in true
//! levels. The race's bound: the truly fastest version is eliminated with probability at most alpha (the
//! union bound over the K · (R − 1) loser tests against it, [`crate::protocol::race`]); a pick may also miss by more
//! than θ when the race stops on equivalence within ε > θ, or at the cap, where the lowest median among the
//! survivors is taken without a guarantee.
//!
//! `SeveralVersions` replays the plans on the problems and counts each pick against the truth. Pure: the
//! generator is an argument.

use super::harness::{Decided, Kind, Simulation, longest};
use super::model::{Source, index, uniform};
use super::raced_profiles::{self, EquivalenceRule, PaperPlan};
use crate::protocol::race::{RaceOptions, Stop, standing};
use crate::protocol::sequential::LookPlan;
use crate::protocol::{Confidence, Design, FailOn, Options, Verdict};
use crate::stats::describe::median;
use crate::stats::random::SplitMix64;

/// One synthetic problem: the true level of each version and its process runs, in the order they ran.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    /// The true level of each version, the time its runs centre on; the lowest is the truly fastest.
    pub levels: Vec<f64>,
    /// Per version, its process runs' values in the order they ran; a plan reads a prefix of each.
    pub runs: Vec<Vec<f64>>,
}

impl Problem {
    /// The index of the truly fastest version (the lowest level; the first on a tie).
    pub(crate) fn best(&self) -> usize {
        (0..self.levels.len())
            .min_by(|&a, &b| self.levels[a].total_cmp(&self.levels[b]))
            .unwrap_or(0)
    }

    /// Whether picking `pick` fails: best / pick ≤ 1 − θ in true levels (`theta_pct` in percent).
    pub(crate) fn fails(&self, pick: usize, theta_pct: f64) -> bool {
        self.levels[self.best()] / self.levels[pick] <= 1.0 - theta_pct / 100.0
    }
}

/// A true ratio to the best: near-tie 10 %, 0.5 to 2 % worse 15 %, 2 to 5 % worse 10 %, 5 to 50 % worse
/// otherwise.
pub(crate) fn draw_ratio(rng: &mut SplitMix64) -> f64 {
    let (band, within) = (uniform(rng), uniform(rng));
    let (low, high) = match band {
        b if b < 0.10 => (1.0, 1.005),
        b if b < 0.25 => (1.005, 1.02),
        b if b < 0.35 => (1.02, 1.05),
        _ => (1.05, 1.5),
    };
    low + (high - low) * within
}

/// A problem of `versions` versions (>= 2), `count` runs each, the `k`-th of the simulation (a recorded
/// source uses its benchmark `k` modulo their number).
pub(crate) fn draw_problem(
    rng: &mut SplitMix64,
    source: Source<'_>,
    k: usize,
    versions: usize,
    count: usize,
) -> Problem {
    let best = index(rng, versions);
    let ratios: Vec<f64> = (0..versions)
        .map(|i| if i == best { 1.0 } else { draw_ratio(rng) })
        .collect();
    let runs = ratios
        .iter()
        .map(|&ratio| source.values(rng, k, ratio, count))
        .collect();
    let levels = ratios.iter().map(|ratio| 1000.0 * ratio).collect();
    Problem { levels, runs }
}

/// A plan for choosing the fastest of several versions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SeveralPlan {
    /// The project's race ([`standing`] at each look), over the plan's K looks.
    Race {
        /// The looks: when the race is judged.
        plan: LookPlan,
        /// The analysis options the race takes its confidence, equivalence ε and HPT's risk from.
        options: Options,
    },
    /// Every version this many runs, the lowest median picked.
    Constant(usize),
    /// Paper 002's Algorithm 1 for several versions.
    Paper(PaperPlan),
}

/// How one plan chose on one problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Picked {
    /// The version picked.
    pub pick: usize,
    /// Runs summed over the versions.
    pub runs: usize,
    /// The plan stopped at its cap without a winner or equivalence (never for the constant plan).
    pub capped: bool,
    /// The truly fastest version was not among the final survivors (never for the constant plan).
    pub best_out: bool,
}

impl SeveralPlan {
    /// The most runs per version the plan can take.
    pub(crate) fn max_runs(&self) -> usize {
        match self {
            SeveralPlan::Race { plan, .. } => plan.max() as usize,
            SeveralPlan::Constant(n) => *n,
            SeveralPlan::Paper(paper) => paper.max_runs(),
        }
    }

    /// Replays the plan on `problem` (at least [`SeveralPlan::max_runs`] runs per version).
    pub(crate) fn replay(&self, problem: &Problem) -> Picked {
        let best = problem.best();
        match self {
            SeveralPlan::Race { plan, options } => {
                let (standing, used) = race(&problem.runs, *plan, options);
                Picked {
                    pick: standing.best,
                    runs: used.iter().sum(),
                    capped: standing.stop == Stop::Open,
                    best_out: !standing.survivors.contains(&best),
                }
            }
            SeveralPlan::Constant(n) => {
                let medians: Vec<f64> = problem
                    .runs
                    .iter()
                    .map(|v| median(&v[..*n]).unwrap_or(f64::INFINITY))
                    .collect();
                let pick = (0..medians.len())
                    .min_by(|&a, &b| medians[a].total_cmp(&medians[b]))
                    .unwrap_or(0);
                Picked {
                    pick,
                    runs: n * problem.runs.len(),
                    capped: false,
                    best_out: false,
                }
            }
            SeveralPlan::Paper(paper) => {
                let (survivors, pick, used, capped) = paper_race(&problem.runs, paper);
                Picked {
                    pick,
                    runs: used.iter().sum(),
                    capped,
                    best_out: !survivors.contains(&best),
                }
            }
        }
    }
}

/// The project's race on each version's runs (at least `plan.max()` each): the final standing and the runs
/// each version used.
pub(crate) fn race(
    runs: &[Vec<f64>],
    plan: LookPlan,
    options: &Options,
) -> (crate::protocol::race::Standing, Vec<usize>) {
    let options = RaceOptions::new(options, Design::measured(plan.count()));
    let mut used = vec![0usize; runs.len()];
    let mut running: Vec<usize> = (0..runs.len()).collect();
    let mut previous = 0usize;
    let mut last = None;
    for look in plan.looks() {
        let look = look as usize;
        for &i in &running {
            used[i] = (used[i] + look - previous).min(runs[i].len());
        }
        previous = look;
        let slices: Vec<&[f64]> = runs.iter().zip(&used).map(|(v, &n)| &v[..n]).collect();
        let s = standing(&slices, &options).expect("every version has runs");
        let open = s.stop == Stop::Open;
        running = s.survivors.clone();
        last = Some(s);
        if !open {
            break;
        }
    }
    (last.expect("a plan has a look"), used)
}

/// Running sums of one version's log run values, shifted by its first for precision.
struct LogSums {
    shift: f64,
    sum: Vec<f64>,
    squares: Vec<f64>,
}

impl LogSums {
    fn new(logs: &[f64]) -> LogSums {
        let shift = logs.first().copied().unwrap_or(0.0);
        let (mut sum, mut squares) = (vec![0.0], vec![0.0]);
        for x in logs {
            let d = x - shift;
            sum.push(sum.last().unwrap_or(&0.0) + d);
            squares.push(squares.last().unwrap_or(&0.0) + d * d);
        }
        LogSums {
            shift,
            sum,
            squares,
        }
    }

    /// Mean and variance of the first `n` (>= 2).
    fn moments(&self, n: usize) -> (f64, f64) {
        let m = self.sum[n] / n as f64;
        let var = ((self.squares[n] - n as f64 * m * m) / (n - 1) as f64).max(0.0);
        (self.shift + m, var)
    }
}

/// Paper 002's Algorithm 1 on each version's run values (at least `paper.max_runs()` each): the final
/// survivors, the pick (the survivor of lowest mean log), the runs each version used, and whether the cap
/// ended it.
pub(crate) fn paper_race(
    runs: &[Vec<f64>],
    paper: &PaperPlan,
) -> (Vec<usize>, usize, Vec<usize>, bool) {
    let logs: Vec<Vec<f64>> = runs
        .iter()
        .map(|v| v.iter().take(paper.max_runs()).map(|x| x.ln()).collect())
        .collect();
    let sums: Vec<LogSums> = logs.iter().map(|l| LogSums::new(l)).collect();
    let versions = runs.len();
    let mut used = vec![paper.min_runs(); versions];
    loop {
        let moments: Vec<(f64, f64)> = (0..versions).map(|i| sums[i].moments(used[i])).collect();
        let mut order: Vec<usize> = (0..versions).collect();
        order.sort_by(|&a, &b| moments[a].0.total_cmp(&moments[b].0));
        // LOSERS, sequential in ascending mean: c loses to a lower-mean d not removed in this pass.
        let mut removed = vec![false; versions];
        for (rank, &c) in order.iter().enumerate() {
            removed[c] = order[..rank].iter().any(|&d| {
                !removed[d]
                    && moments[d].0 < moments[c].0
                    && beats(
                        &logs[d][..used[d]],
                        &logs[c][..used[c]],
                        moments[d],
                        moments[c],
                        paper,
                    )
            });
        }
        let survivors: Vec<usize> = order.iter().copied().filter(|&c| !removed[c]).collect();
        let pick = survivors[0];
        let equal = survivors[1..].iter().all(|&c| {
            let interval = |i: usize| {
                let (m, var) = moments[i];
                let half = paper.quantile(used[i]) * (var / used[i] as f64).sqrt();
                raced_profiles::MeanLogInterval {
                    mean: m,
                    lower: m - half,
                    upper: m + half,
                }
            };
            raced_profiles::worst_speedup(&interval(pick), &interval(c), EquivalenceRule::Paper)
                <= 1.0 + paper.epsilon_pct() / 100.0
        });
        if survivors.len() == 1 || equal {
            return (survivors, pick, used, false);
        }
        for &c in &survivors {
            used[c] += 1;
        }
        if survivors.iter().any(|&c| used[c] >= paper.max_runs()) {
            // The paper returns the survivors when one reaches the cap; they are judged once more here
            // on their last runs to name the pick, as its Algorithm 1 does before returning.
            let moments: Vec<f64> = survivors
                .iter()
                .map(|&i| sums[i].moments(used[i]).0)
                .collect();
            let at = (0..survivors.len())
                .min_by(|&a, &b| moments[a].total_cmp(&moments[b]))
                .unwrap_or(0);
            return (survivors.clone(), survivors[at], used, true);
        }
    }
}

/// Whether `d`'s logs are significantly lower than `c`'s by Welch's one-sided test at alpha_LT; the
/// exact test runs only when the statistic from the running moments can reach a level above 0.5 % (the
/// one-sided t quantile is above 2 at every df for alpha below 2.3 %, and the prefilter is skipped above).
fn beats(d: &[f64], c: &[f64], md: (f64, f64), mc: (f64, f64), paper: &PaperPlan) -> bool {
    let se = (md.1 / d.len() as f64 + mc.1 / c.len() as f64).sqrt();
    let plausible = paper.alpha_lt() > 0.022 || se == 0.0 || (mc.0 - md.0) / se >= 1.9;
    plausible && raced_profiles::loser(c, d, paper.alpha_lt()) == Some(Verdict::Faster)
}

/// Every plan replayed on problems of `versions` versions from `source`, all on the same runs (as many per
/// version as the longest plan can take); a pick fails when it is worse than the best by `theta_pct` or
/// more.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SeveralVersions<'a> {
    /// Where the run values come from.
    pub source: Source<'a>,
    /// The plans replayed.
    pub plans: &'a [SeveralPlan],
    /// R, the versions per problem (>= 2).
    pub versions: usize,
    /// θ, in percent.
    pub theta_pct: f64,
}

impl Simulation for SeveralVersions<'_> {
    type Draw = Problem;

    fn plans(&self) -> usize {
        self.plans.len()
    }

    fn draw(&self, rng: &mut SplitMix64, k: usize) -> Problem {
        let count = longest(self.plans, SeveralPlan::max_runs);
        draw_problem(rng, self.source, k, self.versions, count)
    }

    fn decide(&self, plan: usize, problem: &Problem, _: &mut SplitMix64) -> Decided {
        let picked = self.plans[plan].replay(problem);
        Decided::after(picked.runs)
            .counting(Kind::Failure, problem.fails(picked.pick, self.theta_pct))
            .counting(Kind::Capped, picked.capped)
            .counting(Kind::BestOut, picked.best_out)
    }
}

/// The runs before the race's first look for `versions` versions: the fewest from `at_least` with which
/// the one-sided rank-sum test of n against n runs can reject at the per-test risk of a plan of looks n,
/// 2n, 4n (three looks), so that a clearly worse version can lose at the first look.
pub(crate) fn first_look(confidence: Confidence, versions: usize, at_least: u32) -> u32 {
    let options = RaceOptions::new(
        &Options::defaults(FailOn::None).with_confidence(confidence),
        Design::measured(3),
    );
    let alpha = options.comparison_alpha(versions);
    crate::protocol::sequential::fewest_runs_to_reject(alpha, at_least.max(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Run;
    use crate::simulation::harness::{Tally, run};
    use crate::simulation::model::{Noise, draw_runs};

    fn model_runs(rng: &mut SplitMix64, level: f64, noise: Noise, count: usize) -> Vec<f64> {
        draw_runs(rng, level, noise, count)
            .iter()
            .map(Run::value)
            .collect()
    }

    const NOISE: Noise = Noise {
        process: 0.01,
        within: 0.01,
        layout: 0.005,
        drift: 0.0,
    };

    fn race_options() -> Options {
        Options::defaults(FailOn::None).with_equivalence_pct(0.5)
    }

    #[test]
    fn seventeen_versions_need_seven_runs_before_the_first_look() {
        // alpha' = 0.05 / (3 x 16) = 0.00104: 1 / C(12, 6) = 0.00108 is above it, 1 / C(14, 7) below.
        assert_eq!(
            first_look(Confidence::new(0.95).expect("a confidence"), 17, 5),
            7
        );
        assert_eq!(
            first_look(Confidence::new(0.95).expect("a confidence"), 2, 5),
            5
        );
    }

    #[test]
    fn problems_have_one_best_and_mostly_clearly_worse_versions() {
        let mut rng = SplitMix64::new(5);
        let mut clearly = 0;
        for k in 0..200 {
            let p = draw_problem(&mut rng, Source::Model(NOISE), k, 17, 3);
            assert_eq!(p.levels.iter().filter(|&&l| l == 1000.0).count(), 1);
            assert!(p.runs.iter().all(|r| r.len() == 3));
            clearly += p.levels.iter().filter(|&&l| l >= 1050.0).count();
            assert!(!p.fails(p.best(), 0.5));
        }
        let share = clearly as f64 / (200.0 * 16.0);
        assert!((0.6..0.7).contains(&share), "{share}");
    }

    #[test]
    fn a_failure_is_a_pick_worse_by_theta_or_more() {
        let p = Problem {
            levels: vec![1004.0, 1000.0, 1006.0],
            runs: vec![vec![]; 3],
        };
        assert_eq!(p.best(), 1);
        assert!(!p.fails(0, 0.5) && !p.fails(1, 0.5) && p.fails(2, 0.5));
    }

    #[test]
    fn a_loser_keeps_its_runs_and_survivors_run_to_the_next_look() {
        // Version 1 is 30 % slower with little noise: it loses at the first look (7 runs) and keeps 7;
        // versions 0 and 2 are equal and noisy: they run on to the cap.
        let mut rng = SplitMix64::new(1);
        let noisy = Noise::with_icc(0.03, 0.5);
        let runs = vec![
            model_runs(&mut rng, 1000.0, noisy, 28),
            model_runs(&mut rng, 1300.0, Noise::with_icc(0.001, 0.5), 28),
            model_runs(&mut rng, 1000.0, noisy, 28),
        ];
        let plan = LookPlan::new(7, 28).unwrap();
        let (s, used) = race(&runs, plan, &race_options());
        assert_eq!(used[1], 7);
        assert_eq!((used[0], used[2]), (28, 28));
        assert_eq!(s.stop, Stop::Open);
        assert!(!s.survivors.contains(&1));
    }

    #[test]
    fn the_papers_race_stops_at_once_on_a_clear_winner() {
        let runs = vec![
            vec![100.0, 100.1, 100.2, 99.9],
            vec![200.0, 200.2, 200.1, 199.8],
            vec![300.0, 300.2, 300.1, 299.8],
        ];
        let paper = PaperPlan::new(0.02, 0.02, 0.5, 2, 4, EquivalenceRule::Paper).unwrap();
        let (survivors, pick, used, capped) = paper_race(&runs, &paper);
        assert_eq!((survivors, pick, capped), (vec![0], 0, false));
        assert!(used.iter().all(|&n| n <= 3), "{used:?}");
    }

    #[test]
    fn the_papers_race_at_alpha_one_half_stops_at_two_runs() {
        let mut rng = SplitMix64::new(2);
        let p = draw_problem(&mut rng, Source::Model(NOISE), 0, 17, 20);
        let paper = PaperPlan::new(0.5, 0.5, 0.5, 2, 20, EquivalenceRule::Paper).unwrap();
        let picked = SeveralPlan::Paper(paper).replay(&p);
        assert_eq!(picked.runs, 2 * 17);
    }

    /// A few hundred problems of 17 versions: the race loses the truly fastest version in at most
    /// alpha = 5 % of them (its union bound, up to a binomial margin), fails (picks a version 0.5 % or more
    /// worse) no more often than that plus the problems it ends at the cap, and uses fewer runs per
    /// version than a constant plan that fails at least as often.
    #[test]
    fn the_race_keeps_its_bound_and_saves_runs() {
        const PROBLEMS: usize = 300;
        let first = first_look(Confidence::new(0.95).expect("a confidence"), 17, 5);
        let plans = [
            SeveralPlan::Race {
                plan: LookPlan::new(first, 4 * first).unwrap(),
                options: race_options(),
            },
            SeveralPlan::Constant(20),
            SeveralPlan::Constant(40),
        ];
        let simulation = SeveralVersions {
            source: Source::Model(NOISE),
            plans: &plans,
            versions: 17,
            theta_pct: 0.5,
        };
        let t = run(&simulation, PROBLEMS, 11);
        let runs_per_version = |t: &Tally| t.runs as f64 / (PROBLEMS * 17) as f64;
        // S alpha + 3 sqrt(S alpha (1 - alpha)) = 15 + 11.3.
        let margin = |p: f64| PROBLEMS as f64 * p + 3.0 * (PROBLEMS as f64 * p * (1.0 - p)).sqrt();
        let [failures, capped, best_out] =
            [Kind::Failure, Kind::Capped, Kind::BestOut].map(|kind| t[0].count(kind));
        assert!((best_out as f64) <= margin(0.05), "{:?}", t[0]);
        assert!(failures <= best_out + capped, "{:?}", t[0]);
        let race_runs = runs_per_version(&t[0]);
        let comparable = t[1..]
            .iter()
            .find(|c| c.count(Kind::Failure) >= failures)
            .unwrap_or(&t[2]);
        assert!(
            race_runs < runs_per_version(comparable),
            "{race_runs} vs {comparable:?}"
        );
    }
}
