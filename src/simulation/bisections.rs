//! Bisections replayed on simulated commits (`cargo speedup simulate --bisect N`, `docs/bisect.md` §8): a
//! path of N commits after GOOD with one true change of the benchmark's time at a commit drawn uniformly,
//! searched by the search `cargo speedup bisect` runs ([`search`]): the initial GOOD against BAD check,
//! then steps whose comparisons are the project's race ([`race`]: the same looks and the same
//! per-comparison confidence, 1 − alpha / m, [`crate::protocol::bisect::per_comparison_confidence`]). Each
//! comparison draws fresh runs for both sides ([`draw_values`]), as a real comparison measures them afresh,
//! and is read as the command reads a measured one ([`read`]: the verdict, the speedup and its interval
//! of the runs the race took), so that the step rule, the `--threshold` (the plan's options') and the
//! evidence of more than one step are the command's. `Bisections` replays them with the culprit drawn
//! uniformly and counts how each ended.
//!
//! What it leaves out, so that the figures are conservative: no commit is skipped, and none has identical
//! executables (every step runs); the named commit's comparison with its parent, a description, is not
//! replayed. One benchmark is followed, as with `--filter`.
//!
//! Pure: the generator is an argument.

use std::convert::Infallible;

use super::harness::{Decided, Kind, Simulation};
use super::model::{Source, draw_values, index};
use super::two_versions::race;
use crate::model::{Benchmark, Design, Environment, Results, Run, Runs, Sample, Suite, Unit};
use crate::protocol::Direction;
use crate::protocol::Options;
use crate::protocol::bisect::{Comparisons, Follow, Reading, Stopped, read, search};
use crate::protocol::sequential::LookPlan;
use crate::stats::random::SplitMix64;

/// How the replayed bisections search: the path's length, the race of each comparison and its options
/// (at the per-comparison confidence, with the threshold the search reads; `looks` is the plan's).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BisectPlan {
    /// Commits on the path after GOOD (BAD the last).
    pub commits: usize,
    /// The race of each comparison.
    pub looks: LookPlan,
    /// The analysis options of each comparison, at the per-comparison confidence; its threshold is the
    /// smallest change a step counts (`--threshold`).
    pub options: Options,
}

/// How one replayed bisection ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ended {
    /// GOOD against BAD did not show a slowdown.
    Nothing,
    /// The commit at this index was named.
    Named(usize),
    /// The search stopped with commits left (an undecided step, or the error budget spent).
    Interval,
}

/// One replayed bisection: how it ended, the steps (midpoints measured), the comparisons (the initial
/// check included) and the runs per side summed over the comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Replayed {
    /// How it ended.
    pub ended: Ended,
    /// Midpoints measured.
    pub steps: usize,
    /// Comparisons made, the initial check included.
    pub comparisons: usize,
    /// Runs per side, summed over the comparisons.
    pub runs: usize,
}

/// Replays one bisection of a path whose commits from `culprit` on are `factor` times slower than GOOD
/// (`factor` 1: no change; `culprit` is then irrelevant). `k` picks the recorded benchmark of a
/// [`Source::Recorded`].
pub(crate) fn replay(
    rng: &mut SplitMix64,
    source: Source<'_>,
    k: usize,
    plan: &BisectPlan,
    factor: f64,
    culprit: usize,
) -> Replayed {
    let mut draws = Draws {
        rng,
        source,
        k,
        plan,
        factor,
        culprit,
        runs: 0,
    };
    let whole = draws.draw(0, plan.commits);
    let threshold_pct = plan.options.threshold().pct();
    let Ok(searched) = search(
        plan.commits,
        &whole,
        Direction::Slower,
        threshold_pct,
        &mut draws,
    );
    Replayed {
        ended: match searched.stopped {
            Stopped::Nothing => Ended::Nothing,
            Stopped::Named(named) => Ended::Named(named),
            Stopped::Interval(_) => Ended::Interval,
        },
        steps: searched.steps,
        comparisons: searched.search.comparisons as usize,
        runs: draws.runs,
    }
}

/// A replayed bisection's comparisons: each draws fresh runs for both sides and races them; `runs`
/// counts the runs per side drawn so far.
struct Draws<'a, 'r> {
    rng: &'r mut SplitMix64,
    source: Source<'a>,
    k: usize,
    plan: &'r BisectPlan,
    factor: f64,
    culprit: usize,
    runs: usize,
}

impl Draws<'_, '_> {
    /// Commit `later` against commit `earlier`, raced on fresh runs and read on the runs the race took.
    fn draw(&mut self, earlier: usize, later: usize) -> Reading {
        let level = |i: usize| if i >= self.culprit { self.factor } else { 1.0 };
        let count = self.plan.looks.max() as usize;
        let change = level(later) / level(earlier);
        let (base, head) = draw_values(self.rng, self.source, self.k, change, count);
        let raced = race(&base, &head, self.plan.looks, &self.plan.options);
        self.runs += raced.runs;
        reading(
            &base[..raced.runs],
            &head[..raced.runs],
            self.plan.looks,
            &self.plan.options,
        )
    }
}

/// What a comparison whose process runs have the values `base` and `head` (one benchmark, raced under
/// `looks`) shows, read as `cargo speedup bisect` reads a measured comparison: [`read`] of the suite of
/// that one benchmark, its design the plan's looks.
fn reading(base: &[f64], head: &[f64], looks: LookPlan, options: &Options) -> Reading {
    let suite = Suite {
        design: Design::measured(looks.count()),
        ..Suite::pair(side(base), side(head))
    };
    read(&suite, options, &Follow::Suite)
}

/// One side of a drawn comparison: the benchmark `b`, one process run per value.
fn side(values: &[f64]) -> Results {
    let runs: Vec<Run> = values
        .iter()
        .filter_map(|&v| Sample::new(vec![v], Unit::Ns).ok())
        .map(|sample| Run::new(sample, None))
        .collect();
    Results {
        origin: "simulated".into(),
        benchmarks: Runs::new(runs)
            .map(|runs| Benchmark {
                name: "b".into(),
                runs,
                unit: Unit::Ns,
                counters: Vec::new(),
            })
            .into_iter()
            .collect(),
        environment: Environment::default(),
        notes: vec![],
        left_out: vec![],
    }
}

impl Comparisons for Draws<'_, '_> {
    type Error = Infallible;

    fn compare(
        &mut self,
        earlier: usize,
        later: usize,
    ) -> Result<Result<Reading, String>, Infallible> {
        Ok(Ok(self.draw(earlier, later)))
    }
}

/// Bisections of `plan.commits` commits replayed, each with a change of `change_pct` percent (slower) at a
/// commit drawn uniformly from 1 to `plan.commits`: one plan.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bisections<'a> {
    /// Where the run values come from.
    pub source: Source<'a>,
    /// How the bisections search.
    pub plan: BisectPlan,
    /// The true slowdown, in percent (0: no change).
    pub change_pct: f64,
}

impl Simulation for Bisections<'_> {
    /// The replicate's index and its culprit.
    type Draw = (usize, usize);

    fn plans(&self) -> usize {
        1
    }

    fn draw(&self, rng: &mut SplitMix64, k: usize) -> (usize, usize) {
        (k, 1 + index(rng, self.plan.commits))
    }

    fn decide(&self, _: usize, &(k, culprit): &(usize, usize), rng: &mut SplitMix64) -> Decided {
        let factor = 1.0 + self.change_pct / 100.0;
        let replayed = replay(rng, self.source, k, &self.plan, factor, culprit);
        let kind = match replayed.ended {
            Ended::Nothing => Kind::Nothing,
            Ended::Interval => Kind::Interval,
            Ended::Named(named) if named == culprit && factor != 1.0 => Kind::Right,
            Ended::Named(_) => Kind::Wrong,
        };
        Decided::after(replayed.runs)
            .searching(replayed.steps, replayed.comparisons)
            .counting(kind, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::bisect::{
        Evidence, MoreSteps, Shown, Step, budgeted_comparisons, classify, more_steps,
        per_comparison_confidence,
    };
    use crate::protocol::gate::DEFAULT_THRESHOLD_PCT;
    use crate::protocol::sequential::fewest_runs_to_reject;
    use crate::protocol::{Confidence, FailOn};
    use crate::protocol::{Threshold, Verdict};
    use crate::simulation::harness::{Tally, run};
    use crate::simulation::model::Noise;

    fn simulate(
        source: Source<'_>,
        plan: &BisectPlan,
        change_pct: f64,
        replays: usize,
        seed: u64,
    ) -> Tally {
        let simulation = Bisections {
            source,
            plan: *plan,
            change_pct,
        };
        run(&simulation, replays, seed)[0]
    }

    fn plan(commits: usize) -> BisectPlan {
        let each = Confidence::new(per_comparison_confidence(0.95, commits)).unwrap();
        // The plan's first look (`plan::first_look`): the gate's first Holm step over 10 benchmarks at the
        // first of 3 looks.
        let first = fewest_runs_to_reject(each.alpha() / 30.0, 5);
        BisectPlan {
            commits,
            looks: LookPlan::new(first, first * 4).unwrap(),
            options: Options::defaults(FailOn::None)
                .with_confidence(each)
                .with_threshold(Threshold::percent(DEFAULT_THRESHOLD_PCT).unwrap()),
        }
    }

    /// The same plan with no threshold: any slowdown shown counts.
    fn without_threshold(commits: usize) -> BisectPlan {
        let plan = plan(commits);
        BisectPlan {
            options: plan.options.with_threshold(Threshold::NONE),
            ..plan
        }
    }

    /// Eight runs per side around 100 ns, HEAD `factor` times BASE: no run of one side among the other's
    /// when `factor` is 1.01 or more.
    fn pair(factor: f64) -> (Vec<f64>, Vec<f64>) {
        let base = vec![100.0, 100.2, 99.9, 100.1, 100.3, 99.8, 100.05, 99.95];
        let head = base.iter().map(|v| v * factor).collect();
        (base, head)
    }

    /// The suite a measured comparison of these runs gives the command: one benchmark, one process run
    /// per value, the plan's looks.
    fn measured(base: &[f64], head: &[f64], looks: LookPlan) -> crate::model::Suite {
        use crate::testutil::simulated_results as results;
        let runs = |values: &[f64]| {
            let runs = values
                .iter()
                .map(|&v| Run::new(Sample::new(vec![v], Unit::Ns).unwrap(), None))
                .collect();
            Runs::new(runs).unwrap()
        };
        crate::model::Suite {
            design: Design::measured(looks.count()),
            ..crate::model::Suite::pair(
                results(vec![("bench".into(), runs(base))]),
                results(vec![("bench".into(), runs(head))]),
            )
        }
    }

    #[test]
    fn a_step_is_read_as_the_command_reads_it_threshold_included() {
        // 1 % slower, no run overlapping: shown slower, but below the 2 % threshold.
        let p = plan(16);
        let (base, head) = pair(1.01);
        let drawn = reading(&base, &head, p.looks, &p.options);
        let command = read(&measured(&base, &head, p.looks), &p.options, &Follow::Suite);
        assert_eq!(drawn, command);
        assert_eq!(drawn.verdict, Verdict::Slower);
        let speedup = drawn.speedup.unwrap();
        assert!((speedup - 1.0 / 1.01).abs() < 1e-3, "{speedup}");
        // Only the threshold decides: like BAD without one, undecided with the default 2 %.
        let threshold = p.options.threshold().pct();
        assert_eq!(threshold, 2.0);
        assert_eq!(
            classify(&drawn, None, Direction::Slower, 0.0),
            Step::LikeBad
        );
        assert_eq!(
            classify(&drawn, None, Direction::Slower, threshold),
            Step::Undecided
        );
    }

    #[test]
    fn the_readings_carry_the_intervals_that_show_two_levels() {
        // Commit 8 twice as slow as GOOD, BAD 1.4 times: both slower, their intervals apart.
        let p = plan(16);
        let read_pair = |factor: f64| {
            let (base, head) = pair(factor);
            let drawn = reading(&base, &head, p.looks, &p.options);
            let command = read(&measured(&base, &head, p.looks), &p.options, &Follow::Suite);
            assert_eq!(drawn, command, "{factor}");
            drawn
        };
        let (eight, bad) = (read_pair(2.0), read_pair(1.4));
        let (low, high) = eight.interval.expect("an interval");
        assert!(low < 0.5 && 0.5 < high && high < 1.0 / 1.4, "{low} {high}");
        let shown = |index, against_good| Shown {
            index,
            against_good,
            against_bad: None,
        };
        let path = [shown(16, bad), shown(8, eight)];
        assert_eq!(
            more_steps(&path, Direction::Slower),
            Some(MoreSteps {
                earlier: 8,
                later: 16,
                evidence: Evidence::Levels
            })
        );
        // Without the intervals (verdicts only), the same readings show one step.
        let bare = |r: Reading| {
            shown(
                0,
                Reading {
                    interval: None,
                    ..r
                },
            )
        };
        let path = [
            Shown {
                index: 16,
                ..bare(bad)
            },
            Shown {
                index: 8,
                ..bare(eight)
            },
        ];
        assert_eq!(more_steps(&path, Direction::Slower), None);
    }

    #[test]
    fn a_change_below_the_threshold_is_nothing_to_bisect() {
        // Nearly no noise, 1.5 % slower from commit 3 on: shown slower at the initial check, named without
        // a threshold, nothing to bisect below the default 2 %.
        let quiet = Source::Model(Noise {
            process: 0.001,
            within: 0.001,
            layout: 0.0,
            drift: 0.0,
        });
        let mut rng = SplitMix64::new(3);
        let named = replay(&mut rng, quiet, 0, &without_threshold(8), 1.015, 3);
        assert_eq!(named.ended, Ended::Named(3));
        let mut rng = SplitMix64::new(3);
        let nothing = replay(&mut rng, quiet, 0, &plan(8), 1.015, 3);
        assert_eq!((nothing.ended, nothing.comparisons), (Ended::Nothing, 1));
    }

    fn noise() -> Source<'static> {
        Source::Model(Noise {
            process: 0.01,
            within: 0.01,
            layout: 0.005,
            drift: 0.0,
        })
    }

    #[test]
    fn a_twofold_slowdown_is_named_nearly_always_in_log2_steps() {
        let tally = simulate(noise(), &plan(16), 100.0, 200, 5);
        assert_eq!(tally.replicates, 200);
        assert!(tally.count(Kind::Right) >= 196, "{tally:?}");
        assert_eq!(tally.count(Kind::Nothing), 0, "{tally:?}");
        // 16 commits: 4 steps; each of 1 + 4 to 1 + 8 comparisons (the BAD side when GOOD's does not
        // decide), each taking at least the first look's runs.
        assert_eq!(tally.steps, 4 * 200, "{tally:?}");
        assert!(
            (5 * 200..=9 * 200).contains(&tally.comparisons),
            "{tally:?}"
        );
        let first = plan(16).looks.min() as usize;
        assert!(tally.runs >= tally.comparisons * first, "{tally:?}");
    }

    #[test]
    fn no_change_stops_at_the_initial_check_about_as_often_as_the_error_rate_allows() {
        // Each comparison is wrong "slower" at most 0.05 / 9 of the time: over 2000 replays, the check
        // passes a few times at most (the expected count is below 11; 25 is far in the tail).
        let tally = simulate(noise(), &plan(16), 0.0, 2000, 6);
        assert!(tally.count(Kind::Nothing) >= 1975, "{tally:?}");
        assert_eq!(tally.count(Kind::Right), 0, "{tally:?}");
        assert_eq!(
            tally.count(Kind::Nothing) + tally.count(Kind::Wrong) + tally.count(Kind::Interval),
            2000
        );
        assert!(tally.per_replicate(tally.comparisons) < 1.02, "{tally:?}");
    }

    #[test]
    fn the_culprit_is_drawn_over_the_whole_path_and_replays_repeat_with_the_seed() {
        // A change too small to see: the check mostly finds nothing; the same seed, the same figures.
        let a = simulate(noise(), &plan(8), 0.1, 300, 9);
        assert_eq!(a, simulate(noise(), &plan(8), 0.1, 300, 9));
        // The culprit of a 2x change is named wherever it is: first and last commits included.
        let p = plan(8);
        for culprit in 1..=8 {
            let mut rng = SplitMix64::new(culprit as u64);
            let replayed = replay(&mut rng, noise(), 0, &p, 2.0, culprit);
            assert_eq!(replayed.ended, Ended::Named(culprit), "culprit {culprit}");
            assert_eq!(replayed.steps, 3, "culprit {culprit}");
        }
        assert_eq!(budgeted_comparisons(8), 7);
    }
}
