//! Races of several revisions: which of R competing versions is fastest, per benchmark and for the suite
//! (paper 002's own use, `docs/racing.md` §6).
//!
//! Per benchmark, at every look of the plan, from all the runs so far (a revision that lost keeps its old
//! runs and gets no new ones, but is judged again at every look, so it re-enters when the best changes, as
//! the paper's Algorithm 1 recomputes its losers from scratch):
//!
//! 1. the *best* is the revision with the lowest median run value;
//! 2. the **loser test**: each other revision c is a loser when the one-sided Wilcoxon rank-sum test of
//!    the best's runs against c's (H0: the best is not faster than c; H1: its run values are stochastically
//!    smaller, R's `wilcox.test(best, c, alternative = "less")`) rejects at alpha' (below); the survivors are
//!    the best and the revisions that did not lose;
//! 3. the race of the benchmark **stops** when one survivor is left (the pick is certain), or when every
//!    survivor is equivalent to the best within ±ε (the two one-sided tests of [`super::equivalence`] at
//!    alpha', best as BASE), or at the plan's last look (the cap: inconclusive, the survivors reported).
//!    The pick is always the best (the lowest median).
//!
//! **The test.** The rank-sum test on one value per process run, not the paper's Welch test on logs: it is
//! the test the two-revision protocol decides with (so both commands agree on two revisions), it needs no
//! normality of the few run values a look sees (5 at the first), and Welch with about one degree of
//! freedom per side at alpha' needs absurd t quantiles where the rank-sum test at 5 v 5 reaches
//! p = 1/252 ≈ 0.004.
//!
//! **Alpha.** The paper tests after every run at a fixed nominal alpha and controls nothing. Here alpha =
//! 1 − confidence is spent with Bonferroni's inequality over the K looks **and** the R − 1 comparisons with
//! the best: alpha' = alpha / (K · (R − 1)) per test, R the revisions that have the benchmark. A revision
//! that is truly the fastest (or tied for it) is wrongly eliminated only if one of the at most K · (R − 1)
//! one-sided tests against it rejects a true H0, so with probability at most alpha, whatever the stopping
//! rule and whichever revision is the best at each look (the union bound needs no independence); the same
//! bound holds for a wrong equivalence stop, test by test. With 5 runs per side at the first look a loser
//! can be found while alpha' ≥ 1/252, i.e. up to R = 5 revisions at 0.95 with 3 looks; larger races need
//! more runs (`--runs`) before the first look.
//!
//! The suite: HPT (paper 003, [`super::hpt`]) of each revision against the first, and the revision with
//! the largest r-speedup among those HPT finds faster than the first at the confidence (the first when none
//! is); the faster ones are not tested against each other, which the summary says.
//!
//! **Counts** (`--measure instructions`): a benchmark whose values are counts ([`Unit::Count`]) has one
//! exact run per revision and is decided without tests by [`exact_standing`] (`race/exact.rs`, the
//! `--threshold` tolerance of `docs/verdicts.md` §7); HPT ranks no count, so the suite's answer is over
//! the benchmarks of times only, and a race of counts only has none.
//!
//! Pure: no I/O; the runner asks [`open_in_race`] between looks through a callback.

mod exact;

pub use exact::exact_standing;

use super::equivalence::equivalence;
use super::hpt::{HptOptions, hpt};
use super::options::{Design, Options};
use super::{Alpha, Cause, Confidence, Direction, HptSummary, RaceCause, Warning, WarningKind};
use crate::model::{Results, Unit};
use crate::stats::Alternative;
use crate::stats::comparison::p_first_fastest;
use crate::stats::describe::median;
use crate::stats::rank_sum::rank_sum;

/// What a race is decided with: the analysis options a race uses and the looks of the runs' design.
/// Built once by [`RaceOptions::new`], never changed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RaceOptions {
    /// 1 − alpha of the whole race.
    confidence: Confidence,
    /// ε of the equivalence stop, in percent.
    equivalence_pct: f64,
    /// K, the looks the plan could take, at least 1.
    looks: u32,
    /// HPT's per-benchmark risk (`--hpt-alpha`); `None` for the paper's default.
    hpt_alpha: Option<Alpha>,
    /// The tolerance of a race of counts, in percent (`--threshold`): a count more than this above the
    /// lowest is eliminated.
    threshold_pct: f64,
}

impl RaceOptions {
    /// The race's options: the confidence, ε and HPT's risk of `options`, over the looks of runs had as
    /// `design` says (as [`super::PerLook::new`] for two revisions).
    pub fn new(options: &Options, design: Design) -> RaceOptions {
        RaceOptions {
            confidence: options.confidence(),
            equivalence_pct: options.equivalence_pct(),
            looks: design.looks(),
            hpt_alpha: options.hpt_alpha(),
            threshold_pct: options.threshold().pct(),
        }
    }

    /// alpha' = (1 − confidence) / (K · (R − 1)): the risk of each loser or equivalence test when
    /// `revisions` (R >= 2) revisions race.
    pub fn comparison_alpha(&self, revisions: usize) -> f64 {
        let comparisons = revisions.saturating_sub(1).max(1) as f64;
        self.confidence.alpha() / (f64::from(self.looks.max(1)) * comparisons)
    }

    /// The race's options of `options` as text, for the cache's key of runs measured under them: the same
    /// text for the same options from one version to the next. The looks are keyed apart (the cache's key
    /// holds the plan of looks), so the text says `looks: 0`, as it always has: races cached before keep
    /// matching.
    pub fn stopping_rule(options: &Options) -> String {
        format!(
            "RaceOptions {{ confidence: {:?}, equivalence_pct: {:?}, looks: 0, hpt_alpha: {:?} }}",
            options.confidence().level(),
            options.equivalence_pct(),
            options.hpt_alpha().map(Alpha::risk)
        )
    }

    /// K, the looks the plan could take.
    pub fn looks(&self) -> u32 {
        self.looks
    }

    /// The tolerance of a race of counts, in percent.
    pub fn threshold_pct(&self) -> f64 {
        self.threshold_pct
    }
}

/// Why a benchmark's race ended, or that it has not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// One survivor: every other revision is significantly slower than it.
    Winner,
    /// The survivors are equivalent to the best within ±ε: any of them is as good.
    Equivalent,
    /// Neither: still open, or, after the last look, inconclusive (the cap was reached).
    Open,
    /// Only one revision has the benchmark: there was nothing to race.
    Alone,
}

impl Stop {
    /// The contract's name of the final outcome (JSON, CSV).
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Winner => "winner",
            Stop::Equivalent => "equivalent",
            Stop::Open => "inconclusive",
            Stop::Alone => "alone",
        }
    }
}

/// One benchmark's state of the race after a look.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The revisions still in the race (indices into the race's revisions), in order; the best among them.
    pub survivors: Vec<usize>,
    /// The revision with the lowest median: the pick.
    pub best: usize,
    /// Whether the benchmark's race has ended, and how.
    pub stop: Stop,
}

/// The standing of one benchmark, given each revision's run values (`values[i]` empty when revision i
/// does not have it); `None` when no revision has it.
pub fn standing(values: &[&[f64]], options: &RaceOptions) -> Option<Standing> {
    let medians: Vec<Option<f64>> = values.iter().map(|v| median(v).ok()).collect();
    let present: Vec<usize> = (0..values.len())
        .filter(|&i| medians[i].is_some())
        .collect();
    // The lowest median; on a tie, the earlier revision.
    let best = *present.iter().min_by(|&&a, &&b| {
        let (a, b) = (
            medians[a].unwrap_or(f64::INFINITY),
            medians[b].unwrap_or(f64::INFINITY),
        );
        a.total_cmp(&b)
    })?;
    if present.len() == 1 {
        return Some(Standing {
            survivors: vec![best],
            best,
            stop: Stop::Alone,
        });
    }
    let alpha = options.comparison_alpha(present.len());
    let survivors: Vec<usize> = present
        .iter()
        .copied()
        .filter(|&c| c == best || !loses(values[best], values[c], alpha))
        .collect();
    let stop = if survivors.len() == 1 {
        Stop::Winner
    } else if survivors.iter().filter(|&&c| c != best).all(|&c| {
        equivalence(
            values[best],
            values[c],
            Confidence(1.0 - alpha),
            options.equivalence_pct,
        )
        .equivalent
    }) {
        Stop::Equivalent
    } else {
        Stop::Open
    };
    Some(Standing {
        survivors,
        best,
        stop,
    })
}

/// The loser test: `best`'s runs significantly lower than `other`'s at `alpha`, one-sided rank-sum.
fn loses(best: &[f64], other: &[f64], alpha: f64) -> bool {
    rank_sum(best, other, Alternative::Less).is_ok_and(|r| r.p_value <= alpha)
}

/// Between looks: for each revision, the benchmarks it must run on, those still open in which it
/// survives (`results[i]` is revision i's runs so far; `looks` = K of the plan).
pub fn open_in_race(results: &[Results], options: &RaceOptions) -> Vec<Vec<String>> {
    let mut open = vec![Vec::new(); results.len()];
    for name in names(results) {
        let values = values_of(results, &name);
        let slices: Vec<&[f64]> = values.iter().map(Vec::as_slice).collect();
        let decided = decide(&slices, counted(results, &name), options);
        if let Some(s) = decided.filter(|s| s.stop == Stop::Open) {
            for i in s.survivors {
                open[i].push(name.clone());
            }
        }
    }
    open
}

/// The standing of one benchmark: exactly ([`exact_standing`], on each revision's median) when it is
/// `counted`, else by the loser and equivalence tests ([`standing`]).
fn decide(values: &[&[f64]], counted: bool, options: &RaceOptions) -> Option<Standing> {
    if counted {
        let counts: Vec<Option<f64>> = values.iter().map(|v| median(v).ok()).collect();
        exact_standing(&counts, options.threshold_pct)
    } else {
        standing(values, options)
    }
}

/// Whether benchmark `name` is a count ([`Unit::Count`]) in every revision that has it.
fn counted(results: &[Results], name: &str) -> bool {
    let mut units = results
        .iter()
        .flat_map(|r| &r.benchmarks)
        .filter(|b| b.name == name)
        .map(|b| b.unit)
        .peekable();
    units.peek().is_some() && units.all(Unit::is_count)
}

/// Every benchmark name of the race, in the order of first appearance.
fn names(results: &[Results]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for b in results.iter().flat_map(|r| &r.benchmarks) {
        if !names.contains(&b.name) {
            names.push(b.name.clone());
        }
    }
    names
}

/// Each revision's run values of benchmark `name` (empty when it does not have it).
fn values_of(results: &[Results], name: &str) -> Vec<Vec<f64>> {
    results
        .iter()
        .map(|r| {
            r.benchmarks
                .iter()
                .find(|b| b.name == name)
                .map(|b| b.runs.values())
                .unwrap_or_default()
        })
        .collect()
}

/// One revision in one benchmark's race.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// Process runs (0 when the revision does not have the benchmark; 1 for a count).
    pub runs: usize,
    /// Median run value in nanoseconds; a count as counted.
    pub median: Option<f64>,
    /// median(first revision) / median(this one): above 1 means faster than the first.
    pub speedup: Option<f64>,
    /// Whether the revision is still in the race: the best, or not (yet) shown slower than it.
    pub survivor: bool,
    /// Paper 001's I3, non-parametric: the probability that one run of this revision is strictly faster
    /// than one run of each other revision that has the benchmark (`stats::comparison::p_first_fastest`;
    /// ties count as not faster, so the revisions' values sum to 1 only without ties); `None` when it does
    /// not have the benchmark or no other revision does, and for a count (exact: no chance to state).
    pub p_fastest: Option<f64>,
}

/// One benchmark's race.
#[derive(Debug, Clone, PartialEq)]
pub struct RaceBenchmark {
    /// The benchmark's name.
    pub name: String,
    /// The unit the report prints its times in.
    pub unit: Unit,
    /// One per revision, in the race's order.
    pub entries: Vec<Entry>,
    /// The pick: the survivor with the lowest median.
    pub pick: usize,
    /// How the benchmark's race ended, or that it is still open.
    pub stop: Stop,
    /// The risk of each of its loser and equivalence tests; `None` for counts, decided without tests.
    pub comparison_alpha: Option<f64>,
    /// Whether its values are counts, one exact run per revision, decided by [`exact_standing`] at the
    /// race's `threshold_pct`.
    pub exact: bool,
}

/// HPT of one revision against the first.
#[derive(Debug, Clone, PartialEq)]
pub struct VersusFirst {
    /// The revision compared with the first (an index into the race's revisions, ≥ 1).
    pub revision: usize,
    /// The benchmarks both have.
    pub benchmarks: usize,
    /// HPT over the benchmarks both have: the first as BASE, this revision as HEAD.
    pub hpt: HptSummary,
}

/// The suite's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct RaceSuite {
    /// HPT of revisions 2..R against the first, over the benchmarks of times (HPT ranks no count); empty
    /// in a race of counts only.
    pub versus_first: Vec<VersusFirst>,
    /// The revision taken as fastest over the suite.
    pub fastest: usize,
    /// How many revisions HPT shows faster than the first at the confidence (the fastest has the largest
    /// r-speedup among them; they are not tested against each other).
    pub faster: usize,
}

/// A whole race, the only thing the race reports see.
#[derive(Debug, Clone, PartialEq)]
pub struct RaceAnalysis {
    /// Each revision's label (`main (1a2b3c4d5e)`), in the order given.
    pub revisions: Vec<String>,
    /// The confidence level 1 − alpha spent over every look and comparison.
    pub confidence: Confidence,
    /// ε of the equivalence stop, in percent.
    pub equivalence_pct: f64,
    /// The looks of the plan; each test is at risk alpha / (looks · (R − 1)).
    pub looks: u32,
    /// The tolerance of the benchmarks of counts, in percent (`--threshold`).
    pub threshold_pct: f64,
    /// One per benchmark at least one revision has.
    pub benchmarks: Vec<RaceBenchmark>,
    /// Which revision is fastest over the suite.
    pub suite: RaceSuite,
    /// Warnings about the race as a whole.
    pub warnings: Vec<Warning>,
}

impl RaceAnalysis {
    /// Whether every benchmark is a count decided exactly (a race of `--measure instructions`): the
    /// suite then has no HPT answer.
    pub fn counts_only(&self) -> bool {
        !self.benchmarks.is_empty() && self.benchmarks.iter().all(|b| b.exact)
    }
}

/// I3 of revision `i` against the others that have the benchmark (paper 001 eq. 12).
fn p_fastest(values: &[&[f64]], i: usize) -> Option<f64> {
    let others: Vec<&[f64]> = values
        .iter()
        .enumerate()
        .filter(|&(j, v)| j != i && !v.is_empty())
        .map(|(_, v)| *v)
        .collect();
    if others.is_empty() {
        return None;
    }
    p_first_fastest(values[i], &others)
}

/// Analyses a finished race: `results[i]` are revision i's runs, `labels[i]` its name.
pub fn race(results: &[Results], labels: &[String], options: &RaceOptions) -> RaceAnalysis {
    let mut warnings: Vec<Warning> = results
        .iter()
        .flat_map(|r| &r.notes)
        .map(|note| Warning::new(WarningKind::Input, note.clone()))
        .collect();
    let mut benchmarks = Vec::new();
    for name in names(results) {
        let values = values_of(results, &name);
        let slices: Vec<&[f64]> = values.iter().map(Vec::as_slice).collect();
        let exact = counted(results, &name);
        let Some(s) = decide(&slices, exact, options) else {
            continue;
        };
        let medians: Vec<Option<f64>> = slices.iter().map(|v| median(v).ok()).collect();
        let entries = (0..results.len())
            .map(|i| Entry {
                runs: slices[i].len(),
                median: medians[i],
                speedup: medians[0].zip(medians[i]).map(|(first, this)| first / this),
                survivor: s.survivors.contains(&i),
                p_fastest: if exact { None } else { p_fastest(&slices, i) },
            })
            .collect();
        let unit = results
            .iter()
            .flat_map(|r| &r.benchmarks)
            .find(|b| b.name == name)
            .map_or(Unit::Ns, |b| b.unit);
        if s.stop == Stop::Alone {
            let alone = RaceCause::Alone {
                name: name.clone(),
                revision: labels[s.best].clone(),
            };
            warnings.push(Warning::of(WarningKind::Unmatched, Cause::Race(alone)));
        }
        if s.stop == Stop::Open {
            let runs = slices.iter().map(|v| v.len()).max().unwrap_or(0);
            let open = RaceCause::Open {
                name: name.clone(),
                runs,
                survivors: s.survivors.len(),
                margin_pct: options.equivalence_pct,
            };
            warnings.push(Warning::of(WarningKind::Undecided, Cause::Race(open)));
        }
        let present = slices.iter().filter(|v| !v.is_empty()).count();
        benchmarks.push(RaceBenchmark {
            name,
            unit,
            entries,
            pick: s.best,
            stop: s.stop,
            comparison_alpha: (!exact).then(|| options.comparison_alpha(present)),
            exact,
        });
    }
    let suite = suite(results, options);
    for w in suite.versus_first.iter().flat_map(|v| &v.hpt.warnings) {
        if !warnings.contains(w) {
            warnings.push(w.clone());
        }
    }
    RaceAnalysis {
        revisions: labels.to_vec(),
        confidence: options.confidence,
        equivalence_pct: options.equivalence_pct,
        looks: options.looks(),
        threshold_pct: options.threshold_pct,
        benchmarks,
        suite,
        warnings,
    }
}

/// HPT of each revision against the first over the benchmarks of times, and the fastest by it; nothing
/// over counts only.
fn suite(results: &[Results], options: &RaceOptions) -> RaceSuite {
    let every = names(results);
    let all: Vec<String> = every
        .iter()
        .filter(|name| !counted(results, name))
        .cloned()
        .collect();
    if all.is_empty() && !every.is_empty() {
        return RaceSuite {
            versus_first: vec![],
            fastest: 0,
            faster: 0,
        };
    }
    let hpt_options = HptOptions {
        confidence: options.confidence,
        alpha: options.hpt_alpha,
        speedup_under_test: None,
        curve: false,
    };
    let versus_first: Vec<VersusFirst> = (1..results.len())
        .map(|i| {
            let pairs: Vec<(Vec<f64>, Vec<f64>)> = all
                .iter()
                .map(|name| values_of(&[results[0].clone(), results[i].clone()], name))
                .filter(|v| v.iter().all(|side| !side.is_empty()))
                .map(|mut v| {
                    let head = v.pop().unwrap_or_default();
                    let base = v.pop().unwrap_or_default();
                    (base, head)
                })
                .collect();
            let borrowed: Vec<(&[f64], &[f64])> = pairs
                .iter()
                .map(|(b, h)| (b.as_slice(), h.as_slice()))
                .collect();
            VersusFirst {
                revision: i,
                benchmarks: pairs.len(),
                hpt: hpt(&borrowed, &hpt_options).0,
            }
        })
        .collect();
    let shown_faster = |v: &&VersusFirst| {
        v.hpt.direction == Some(Direction::Faster)
            && v.hpt
                .confidence
                .is_some_and(|c| c >= options.confidence.level())
    };
    let faster: Vec<&VersusFirst> = versus_first.iter().filter(shown_faster).collect();
    let best = faster.iter().max_by(|a, b| {
        let r = |v: &VersusFirst| v.hpt.r_speedup.unwrap_or(1.0);
        r(a).total_cmp(&r(b))
    });
    let fastest = best.map_or(0, |v| v.revision);
    let faster = faster.len();
    RaceSuite {
        versus_first,
        fastest,
        faster,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::protocol::FailOn;

    /// The command line's defaults (confidence 0.95, ε 2 %), over 3 looks.
    fn options() -> RaceOptions {
        RaceOptions::new(&Options::defaults(FailOn::None), Design::measured(3))
    }

    #[test]
    fn the_stopping_rule_reads_as_the_options_always_have() {
        // The cache keys races by this text, which `race` has always made with looks 0: runs measured
        // before keep matching.
        let defaults = Options::defaults(FailOn::None);
        assert_eq!(
            RaceOptions::stopping_rule(&defaults),
            "RaceOptions { confidence: 0.95, equivalence_pct: 2.0, looks: 0, hpt_alpha: None }"
        );
        let risky = defaults.with_hpt_alpha(Alpha::new(0.05));
        assert!(RaceOptions::stopping_rule(&risky).ends_with("hpt_alpha: Some(0.05) }"));
    }

    /// Five run values spread by about ±0.4 % around `level`.
    fn runs(level: f64, n: usize) -> Vec<f64> {
        const SPREAD: [f64; 10] = [
            0.996, 1.004, 0.998, 1.002, 1.000, 0.997, 1.003, 0.999, 1.001, 1.0005,
        ];
        (0..n)
            .map(|i| level * SPREAD[i % 10] * (1.0 + i as f64 * 1e-6))
            .collect()
    }

    fn slices(v: &[Vec<f64>]) -> Vec<&[f64]> {
        v.iter().map(Vec::as_slice).collect()
    }

    #[test]
    fn p_fastest_counts_the_runs_that_beat_one_run_of_every_other() {
        // r0 = {1, 4}, r1 = {2, 3}, r2 = {5}: of the 4 tuples (r0, r1, r2) r0 is fastest in 2 (1 beats
        // both 2 and 3), r1 in 2 (2 and 3 beat 4); r2 never. Counted by hand, as eq. 12 defines it.
        let data = [vec![1.0, 4.0], vec![2.0, 3.0], vec![5.0], vec![]];
        let values = slices(&data);
        assert_eq!(p_fastest(&values, 0), Some(0.5));
        assert_eq!(p_fastest(&values, 1), Some(0.5));
        assert_eq!(p_fastest(&values, 2), Some(0.0));
        // A revision without the benchmark has none, and is not one of the others.
        assert_eq!(p_fastest(&values, 3), None);
        assert_eq!(p_fastest(&slices(&[vec![1.0], vec![]]), 0), None);
    }

    #[test]
    fn the_risk_is_split_over_looks_and_comparisons() {
        // 0.05 / (3 looks x 2 comparisons).
        assert!((options().comparison_alpha(3) - 0.05 / 6.0).abs() < 1e-15);
        assert!((options().comparison_alpha(2) - 0.05 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn a_clear_winner_stops_at_the_first_look() {
        // 5 v 5 runs, no overlap: p = 1/252 < 0.05 / 6 against each of the two others.
        let data = [runs(300.0, 5), runs(100.0, 5), runs(310.0, 5)];
        let s = standing(&slices(&data), &options()).unwrap();
        assert_eq!(s.stop, Stop::Winner);
        assert_eq!((s.best, s.survivors.as_slice()), (1, &[1][..]));
    }

    #[test]
    fn five_revisions_at_five_runs_still_eliminate_but_six_cannot() {
        // alpha' = 0.05 / (3 x 4) = 0.00417 >= 1/252; 0.05 / (3 x 5) = 0.00333 < 1/252.
        let mut data = vec![runs(100.0, 5)];
        data.extend((0..4).map(|i| runs(300.0 + i as f64, 5)));
        assert_eq!(
            standing(&slices(&data), &options()).unwrap().stop,
            Stop::Winner
        );
        data.push(runs(400.0, 5));
        let s = standing(&slices(&data), &options()).unwrap();
        assert_eq!((s.stop, s.survivors.len()), (Stop::Open, 6));
    }

    #[test]
    fn revisions_equal_within_the_margin_end_equivalent() {
        // 20 runs each, the second 0.1 % slower, the third 3x slower: the third loses, the first two are
        // equivalent within ±2 %; the pick is the lower median.
        let data = [runs(100.0, 20), runs(100.1, 20), runs(300.0, 20)];
        let s = standing(&slices(&data), &options()).unwrap();
        assert_eq!(s.stop, Stop::Equivalent, "{s:?}");
        assert_eq!(s.survivors, [0, 1]);
        assert_eq!(s.best, 0);
        // At ±0.01 % they are not shown equivalent: the race stays open.
        let tight = RaceOptions::new(
            &Options::defaults(FailOn::None).with_equivalence_pct(0.01),
            Design::measured(3),
        );
        assert_eq!(standing(&slices(&data), &tight).unwrap().stop, Stop::Open);
    }

    #[test]
    fn a_loser_re_enters_when_the_best_changes() {
        // Look 1 (5 runs each): A looks fastest (its 5 runs are all low), C loses to it, B is close to C.
        let a_early = vec![90.0, 91.0, 92.0, 90.5, 91.5];
        let b = runs(100.0, 5);
        let c = vec![100.2, 100.6, 99.8, 100.4, 100.0];
        let first = standing(
            &slices(&[a_early.clone(), b.clone(), c.clone()]),
            &options(),
        )
        .unwrap();
        assert_eq!(first.best, 0);
        assert!(!first.survivors.contains(&2), "{first:?}");
        // Look 2: A's next runs show it much slower (its median rises above B's), while C, out of the
        // race, got no new runs. B is now the best, and C is not shown slower than B: it re-enters.
        let mut a = a_early;
        a.extend([120.0, 121.0, 119.0, 122.0, 120.5, 121.5]);
        let mut b10 = b;
        b10.extend(runs(100.0, 5).iter().map(|x| x * 1.0001));
        let second = standing(&slices(&[a, b10, c]), &options()).unwrap();
        assert_eq!(second.best, 1, "{second:?}");
        assert!(second.survivors.contains(&2), "{second:?}");
    }

    #[test]
    fn a_benchmark_of_one_revision_is_alone_and_none_is_nothing() {
        let data = [vec![], runs(100.0, 5), vec![]];
        let s = standing(&slices(&data), &options()).unwrap();
        assert_eq!((s.stop, s.best), (Stop::Alone, 1));
        assert_eq!(standing(&[&[][..], &[][..]], &options()), None);
    }

    fn results(origin: &str, benchmarks: &[(&str, Vec<f64>)]) -> Results {
        use crate::model::{Benchmark, Run, Runs, Sample};
        Results {
            origin: origin.into(),
            benchmarks: benchmarks
                .iter()
                .map(|(name, values)| Benchmark {
                    name: name.to_string(),
                    runs: Runs::new(
                        values
                            .iter()
                            .map(|v| Run::new(Sample::new(vec![*v], Unit::Ns).unwrap(), None))
                            .collect(),
                    )
                    .unwrap(),
                    unit: Unit::Ns,
                    counters: Vec::new(),
                })
                .collect(),
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    #[test]
    fn only_survivors_of_open_benchmarks_run_on() {
        // `won` is decided (one winner); in `open` all three are within noise of each other and 5 runs
        // cannot show them equivalent within ±2 %.
        let noisy = |level: f64| vec![level, level * 1.2, level * 0.85, level * 1.1, level * 0.95];
        let all = [
            results("a", &[("won", runs(100.0, 5)), ("open", noisy(100.0))]),
            results("b", &[("won", runs(300.0, 5)), ("open", noisy(101.0))]),
            results("c", &[("won", runs(300.0, 5)), ("open", noisy(99.0))]),
        ];
        let open = open_in_race(&all, &options());
        assert_eq!(open, vec![vec!["open".to_string()]; 3]);
    }

    /// Revision `origin`'s counts of instructions, one run each, named as the Valgrind runner names them.
    fn counts(origin: &str, benchmarks: &[(&str, f64)]) -> Results {
        static INSTRUCTIONS: crate::model::Counted = crate::model::Counted {
            name: "instructions",
            slug: "instructions",
        };
        let mut r = results(
            origin,
            &benchmarks
                .iter()
                .map(|(name, v)| (*name, vec![*v]))
                .collect::<Vec<_>>(),
        );
        for b in &mut r.benchmarks {
            b.unit = Unit::Count(&INSTRUCTIONS);
        }
        r
    }

    #[test]
    fn a_race_of_counts_is_decided_exactly_at_the_threshold() {
        // The original, a comment-only commit (the same counts) and a planted slowdown in `spin` only;
        // `walk` differs by 1.5 % in the third, within --threshold 2.
        let all = [
            counts(
                "a",
                &[
                    ("spin (instructions)", 20_064.0),
                    ("walk (instructions)", 1000.0),
                ],
            ),
            counts(
                "b",
                &[
                    ("spin (instructions)", 20_064.0),
                    ("walk (instructions)", 1000.0),
                ],
            ),
            counts(
                "c",
                &[
                    ("spin (instructions)", 40_064.0),
                    ("walk (instructions)", 1015.0),
                ],
            ),
        ];
        let labels: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let options = RaceOptions::new(
            &Options::defaults(FailOn::None)
                .with_threshold(crate::protocol::Threshold::percent(2.0).unwrap()),
            Design::measured(1),
        );
        let analysis = race(&all, &labels, &options);
        assert!(analysis.counts_only());
        assert_eq!(analysis.threshold_pct, 2.0);
        let spin = &analysis.benchmarks[0];
        assert!(spin.exact);
        assert_eq!(
            (spin.stop, spin.pick, spin.comparison_alpha),
            (Stop::Equivalent, 0, None)
        );
        let survivors: Vec<bool> = spin.entries.iter().map(|e| e.survivor).collect();
        assert_eq!(survivors, [true, true, false]);
        assert_eq!(spin.entries[2].median, Some(40_064.0));
        assert_eq!(spin.entries[2].speedup, Some(20_064.0 / 40_064.0));
        assert_eq!((spin.entries[2].runs, spin.entries[2].p_fastest), (1, None));
        let walk = &analysis.benchmarks[1];
        assert_eq!(walk.stop, Stop::Equivalent);
        assert!(walk.entries.iter().all(|e| e.survivor));
        // HPT ranks no count: no suite test, and no warning of an open race.
        assert!(analysis.suite.versus_first.is_empty());
        assert!(analysis.warnings.is_empty(), "{:?}", analysis.warnings);
        // A count is never open: nothing runs on.
        assert_eq!(open_in_race(&all, &options), vec![Vec::<String>::new(); 3]);
        // At --threshold 0 `walk`'s 1015 is eliminated too, and a lower count alone wins.
        let strict = RaceOptions::new(&Options::defaults(FailOn::None), Design::measured(1));
        let analysis = race(&all, &labels, &strict);
        let walk = &analysis.benchmarks[1];
        assert_eq!((walk.stop, walk.pick), (Stop::Equivalent, 0));
        assert!(!walk.entries[2].survivor);
        let faster = [
            counts("a", &[("spin (instructions)", 20_064.0)]),
            counts("b", &[("spin (instructions)", 20_063.0)]),
        ];
        let analysis = race(&faster, &labels[..2], &strict);
        assert_eq!(
            (analysis.benchmarks[0].stop, analysis.benchmarks[0].pick),
            (Stop::Winner, 1)
        );
    }

    #[test]
    fn the_suite_names_the_revision_faster_than_the_first() {
        // Six benchmarks, revision c three times faster than a on each, b equal to a.
        let names = ["p", "q", "r", "s", "t", "u"];
        let at = |factor: f64| -> Vec<(&str, Vec<f64>)> {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (*n, runs(factor * 100.0 * (i + 1) as f64, 10)))
                .collect()
        };
        let all = [
            results("a", &at(1.0)),
            results("b", &at(1.0)),
            results("c", &at(1.0 / 3.0)),
        ];
        let labels: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let analysis = race(&all, &labels, &options());
        let summary = crate::report::race::summary(&analysis);
        assert_eq!(analysis.suite.fastest, 2, "{summary}");
        assert!(summary.starts_with("c is the fastest"));
        assert!(
            analysis
                .benchmarks
                .iter()
                .all(|b| b.pick == 2 && b.stop == Stop::Winner)
        );
        let speedup = analysis.benchmarks[0].entries[2].speedup.unwrap();
        assert!((speedup - 3.0).abs() < 1e-9, "{speedup}");
    }
}
