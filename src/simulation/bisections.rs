//! Bisections replayed on simulated commits (`cargo speedup simulate --bisect N`, `docs/bisect.md` §9): a
//! path of N commits after GOOD with one true change of the benchmark's time at a commit drawn uniformly,
//! searched by the search `cargo speedup bisect` runs ([`search`]): the initial GOOD against BAD check,
//! then steps whose comparisons are the project's race ([`race`]: the same looks and the same
//! per-comparison confidence, 1 − alpha / m, [`crate::protocol::bisect::per_comparison_confidence`]). Each
//! comparison draws fresh runs for both sides ([`draw_values`]), as a real comparison measures them afresh.
//! `Bisections` replays them with the culprit drawn uniformly and counts how each ended.
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
use crate::protocol::Direction;
use crate::protocol::Options;
use crate::protocol::bisect::{Comparisons, Reading, Stopped, search};
use crate::protocol::sequential::LookPlan;
use crate::stats::random::SplitMix64;

/// How the replayed bisections search: the path's length, the race of each comparison and its options
/// (at the per-comparison confidence; `looks` is the plan's).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BisectPlan {
    /// Commits on the path after GOOD (BAD the last).
    pub commits: usize,
    /// The race of each comparison.
    pub looks: LookPlan,
    /// The analysis options of each comparison, at the per-comparison confidence.
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
    let Ok(searched) = search(plan.commits, &whole, Direction::Slower, 0.0, &mut draws);
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
    /// Commit `later` against commit `earlier`, raced on fresh runs.
    fn draw(&mut self, earlier: usize, later: usize) -> Reading {
        let level = |i: usize| if i >= self.culprit { self.factor } else { 1.0 };
        let count = self.plan.looks.max() as usize;
        let change = level(later) / level(earlier);
        let (base, head) = draw_values(self.rng, self.source, self.k, change, count);
        let raced = race(&base, &head, self.plan.looks, &self.plan.options);
        self.runs += raced.runs;
        Reading {
            verdict: raced.verdict,
            speedup: None,
            interval: None,
            identical: false,
        }
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
    use crate::protocol::bisect::{budgeted_comparisons, per_comparison_confidence};
    use crate::protocol::sequential::fewest_runs_to_reject;
    use crate::protocol::{Confidence, FailOn};
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
            options: Options::defaults(FailOn::None).with_confidence(each),
        }
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
