//! The one harness of every simulation: a [`Simulation`] says what one replicate draws (shared by every
//! plan it compares) and what each plan decides on it, counted against the truth as a [`Decided`]; [`run`]
//! replays N replicates from one seed and sums the decisions into one [`Tally`] per plan, and [`settings`]
//! does so once per true change, setting k from seed + k.
//!
//! The replicates run one after another on one generator: the draws of replicate k depend on those before
//! it, so a seed gives the same figures whatever the machine (a parallel harness would need one stream per
//! replicate, and other figures).
//!
//! It decides nothing and words nothing: the plans are the protocol's, the words are `report/`'s.

use crate::stats::random::SplitMix64;

/// A kind of outcome a decision may count (one decision may count several).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Two versions: "faster" while HEAD is not faster.
    WrongFaster,
    /// Two versions: "slower" while HEAD is not slower.
    WrongSlower,
    /// Two versions: "unchanged" while the true change is the plan's ε or more either way.
    WrongUnchanged,
    /// Two versions: a verdict neither wrong nor inconclusive.
    Correct,
    /// Two versions: inconclusive.
    Inconclusive,
    /// Several versions: the pick is worse than the true best by θ or more.
    Failure,
    /// Several versions: stopped at the cap without a winner or equivalence.
    Capped,
    /// Several versions: the truly fastest version is not among the final survivors.
    BestOut,
    /// Bisections: the commit that made the change named.
    Right,
    /// Bisections: another commit named.
    Wrong,
    /// Bisections: stopped with commits left.
    Interval,
    /// Bisections: stopped at the initial check, nothing to bisect.
    Nothing,
}

/// How many kinds there are.
const KINDS: usize = Kind::Nothing as usize + 1;

/// What one plan decided on one replicate: the kinds of outcome it counts and what it spent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Decided {
    counted: [bool; KINDS],
    /// Runs taken (per side for two versions, summed over the versions or comparisons otherwise).
    pub runs: usize,
    /// Bisection steps (midpoints measured).
    pub steps: usize,
    /// Comparisons made (a bisection's, its initial check included).
    pub comparisons: usize,
}

impl Decided {
    /// A decision that took `runs` runs and counts nothing yet.
    pub(crate) fn after(runs: usize) -> Decided {
        Decided {
            runs,
            ..Decided::default()
        }
    }

    /// The same decision, after `steps` steps and `comparisons` comparisons.
    pub(crate) fn searching(mut self, steps: usize, comparisons: usize) -> Decided {
        self.steps = steps;
        self.comparisons = comparisons;
        self
    }

    /// The same decision, counting `kind` when `yes`.
    pub(crate) fn counting(mut self, kind: Kind, yes: bool) -> Decided {
        self.counted[kind as usize] |= yes;
        self
    }
}

/// One plan's decisions summed over the replicates: how many counted each kind, and what they spent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Replicates decided.
    pub replicates: usize,
    counts: [usize; KINDS],
    /// Runs, summed (see [`Decided::runs`]).
    pub runs: usize,
    /// Steps, summed.
    pub steps: usize,
    /// Comparisons, summed.
    pub comparisons: usize,
}

impl Tally {
    /// Adds one replicate's decision.
    pub(crate) fn add(&mut self, decided: &Decided) {
        self.replicates += 1;
        for (count, &counted) in self.counts.iter_mut().zip(&decided.counted) {
            *count += usize::from(counted);
        }
        self.runs += decided.runs;
        self.steps += decided.steps;
        self.comparisons += decided.comparisons;
    }

    /// The replicates that counted `kind`.
    pub(crate) fn count(&self, kind: Kind) -> usize {
        self.counts[kind as usize]
    }

    /// `count` of `kind` as a share of the replicates.
    pub(crate) fn share(&self, kind: Kind) -> f64 {
        self.per_replicate(self.count(kind))
    }

    /// A count or a sum per replicate (0 when nothing was replicated).
    pub(crate) fn per_replicate(&self, sum: usize) -> f64 {
        sum as f64 / self.replicates.max(1) as f64
    }
}

/// A family of plans replayed on the same drawn truth.
pub(crate) trait Simulation {
    /// What one replicate draws: the truth and the values the plans read.
    type Draw;

    /// How many plans decide on each draw.
    fn plans(&self) -> usize;

    /// Draws replicate `k` (the k-th of the run: a recorded source uses its benchmark k).
    fn draw(&self, rng: &mut SplitMix64, k: usize) -> Self::Draw;

    /// What plan `plan` decides on `draw`, counted against its truth. `rng` is for a plan that draws as
    /// it goes (a bisection measures each comparison afresh); the plans are asked in their order.
    fn decide(&self, plan: usize, draw: &Self::Draw, rng: &mut SplitMix64) -> Decided;
}

/// The most runs any of `plans` can take (`max_runs` of each): what a replicate draws, so that every plan
/// reads a prefix of the same values.
pub(crate) fn longest<P>(plans: &[P], max_runs: impl Fn(&P) -> usize) -> usize {
    plans.iter().map(max_runs).max().unwrap_or(0)
}

/// Replays `replicates` replicates of `simulation` from `seed`: one tally per plan, in their order.
pub(crate) fn run<S: Simulation>(simulation: &S, replicates: usize, seed: u64) -> Vec<Tally> {
    let mut rng = SplitMix64::new(seed);
    let mut tallies = vec![Tally::default(); simulation.plans()];
    for k in 0..replicates {
        let draw = simulation.draw(&mut rng, k);
        for (plan, tally) in tallies.iter_mut().enumerate() {
            tally.add(&simulation.decide(plan, &draw, &mut rng));
        }
    }
    tallies
}

/// The tallies of one setting, one per plan.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Setting {
    /// The true change of the later version's time, in percent (0 for races of several versions, whose
    /// problems draw their own truth).
    pub change_pct: f64,
    /// The seed its replicates were drawn from.
    pub seed: u64,
    /// One tally per plan, in their order.
    pub tallies: Vec<Tally>,
}

/// [`run`] once per true change in `changes_pct`, the k-th from `seed` + k, on the simulation
/// `at(change_pct)` builds.
pub(crate) fn settings<S: Simulation>(
    changes_pct: &[f64],
    replicates: usize,
    seed: u64,
    at: impl Fn(f64) -> S,
) -> Vec<Setting> {
    changes_pct
        .iter()
        .enumerate()
        .map(|(k, &change_pct)| {
            let seed = seed.wrapping_add(k as u64);
            Setting {
                change_pct,
                seed,
                tallies: run(&at(change_pct), replicates, seed),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two plans on a coin: the first counts "right" on heads, the second spends a draw of its own.
    struct Coin;

    impl Simulation for Coin {
        type Draw = bool;
        fn plans(&self) -> usize {
            2
        }
        fn draw(&self, rng: &mut SplitMix64, _: usize) -> bool {
            rng.next_u64() % 2 == 0
        }
        fn decide(&self, plan: usize, heads: &bool, rng: &mut SplitMix64) -> Decided {
            match plan {
                0 => Decided::after(1).counting(Kind::Right, *heads),
                _ => Decided::after(rng.next_u64() as usize % 3).counting(Kind::Wrong, true),
            }
        }
    }

    #[test]
    fn a_tally_counts_each_kind_and_sums_what_was_spent() {
        let mut t = Tally::default();
        t.add(
            &Decided::after(5)
                .counting(Kind::Failure, true)
                .counting(Kind::Capped, true),
        );
        t.add(&Decided::after(7).counting(Kind::Failure, false));
        assert_eq!((t.replicates, t.runs), (2, 12));
        assert_eq!((t.count(Kind::Failure), t.count(Kind::Capped)), (1, 1));
        assert_eq!(t.count(Kind::BestOut), 0);
        assert_eq!(
            (t.share(Kind::Failure), t.per_replicate(t.runs)),
            (0.5, 6.0)
        );
        assert_eq!(Tally::default().share(Kind::Right), 0.0);
    }

    #[test]
    fn the_replicates_follow_the_seed_and_every_plan_decides_each_draw() {
        let tallies = run(&Coin, 100, 4);
        assert_eq!(tallies, run(&Coin, 100, 4));
        assert_ne!(tallies, run(&Coin, 100, 5));
        assert_eq!((tallies[0].replicates, tallies[0].runs), (100, 100));
        assert_eq!(tallies[1].count(Kind::Wrong), 100);
        let heads = tallies[0].count(Kind::Right);
        assert!((30..70).contains(&heads), "{heads}");
    }

    #[test]
    fn setting_k_is_drawn_from_seed_plus_k() {
        let s = settings(&[0.0, 5.0], 20, u64::MAX, |_| Coin);
        assert_eq!((s[0].seed, s[1].seed), (u64::MAX, 0));
        assert_eq!((s[0].change_pct, s[1].change_pct), (0.0, 5.0));
        assert_eq!(s[1].tallies, run(&Coin, 20, 0));
    }
}
