//! The sides a command measures (BASE and HEAD, a race's revisions, the recorded working tree) before
//! anything is built: the part each plays (its directory names), its label, its cache key and the runs
//! the cache holds for it, and the rule that takes all sides from the cache or none.
//!
//! Must not: build, run or decide anything; it reads the cache only (`cache` stores after the runs).

use std::path::PathBuf;

use super::cache::{self, CacheKey, Machine};
use super::prepare::revision::{self, Checkout};
use super::progress::Progress;
use super::project::Project;
use super::settings::RunOptions;
use super::toolchain::rustc_version;
use crate::model::Results;

/// Which part a measured tree plays: it names its directories under `<target>/speedup/` (`worktrees/`,
/// `bin/`, `runs/`), all of equal length so that the executables of all sides run from paths of equal
/// length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Base,
    Head,
    Record,
    /// The n-th revision of a race (from 1), `r001` to `r999`.
    Racer(u16),
}

/// The most revisions a race takes: their slugs keep four characters.
pub(super) const MAX_RACERS: usize = 999;

impl Role {
    pub(crate) fn slug(self) -> String {
        match self {
            Role::Base => "base".into(),
            Role::Head => "head".into(),
            Role::Record => "rcrd".into(),
            Role::Racer(n) => format!("r{n:03}"),
        }
    }

    /// The tree built first, whose package versions the others take (`versions`): HEAD, or a race's first
    /// revision, unless the working tree takes part: it is then the reference, whatever its role.
    pub(crate) fn is_reference(self) -> bool {
        matches!(self, Role::Head | Role::Racer(1))
    }
}

/// What the runs of a side measured with others depend on besides its own commit: every side's commit, in
/// order, and the kind of measurement (`pair` or `race`), whose looks stop by different rules. The
/// analysis options the looks stopped on are not: they judge the runs (`cache`'s module doc).
pub(crate) struct Interleaving {
    commits: Vec<String>,
    kind: &'static str,
}

impl Interleaving {
    /// `None` when a side is the working tree.
    pub(crate) fn of(sides: &[&Checkout], kind: &'static str) -> Option<Interleaving> {
        let commits = sides
            .iter()
            .map(|side| match side {
                Checkout::Commit { sha, .. } => Some(sha.clone()),
                Checkout::WorkingTree => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Interleaving { commits, kind })
    }

    /// The commits `sha` was interleaved with: the other side's for a pair (as keys always were), every
    /// side's in order, `sha` marked, for a race.
    fn others(&self, sha: &str) -> String {
        match self.commits.as_slice() {
            [base, head] if base == sha => head.clone(),
            [base, head] if head == sha => base.clone(),
            all => all
                .iter()
                .map(|c| if c == sha { "*" } else { c.as_str() })
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// One side to measure (BASE, HEAD, a racer or the recorded tree) before it is built: what is known of it
/// and its cached runs, if any. Built, it becomes a [`Participant`](super::prepare::participant::Participant).
pub(crate) struct Candidate {
    pub(crate) side: Checkout,
    pub(crate) role: Role,
    pub(crate) label: String,
    pub(crate) key: Option<CacheKey>,
    pub(crate) cache_path: Option<PathBuf>,
    pub(crate) cached: Option<Results>,
    /// The stopping rule the cached runs' looks were judged by (the analysis options of their comparison).
    pub(crate) judged_by: Option<String>,
    /// The cached entry of this side that failed its check, said on stderr and measured again.
    pub(crate) failed_check: Option<PathBuf>,
}

impl Candidate {
    /// `interleaving`: the other sides' commits and the kind of measurement; `None` when another side is the
    /// working tree (its results are never cached, and neither then is this side's: they were only
    /// measured together).
    pub(crate) fn new(
        project: &Project,
        options: &RunOptions,
        side: Checkout,
        role: Role,
        interleaving: Option<&Interleaving>,
    ) -> Candidate {
        // A revision named by its commit (as `bisect` names them) is said once, abbreviated.
        let named = |name: &str, sha: &str| match sha.starts_with(name) {
            true => revision::short(sha).to_string(),
            false => format!("{name}, {}", revision::short(sha)),
        };
        let label = match (role, &side) {
            (Role::Base, Checkout::Commit { name, sha }) => format!("BASE ({})", named(name, sha)),
            (Role::Head, Checkout::Commit { name, sha }) => format!("HEAD ({})", named(name, sha)),
            _ => side.label(),
        };
        let key = match (&side, interleaving) {
            (Checkout::Commit { sha, .. }, Some(with)) => Some(CacheKey::new(
                sha,
                &with.others(sha),
                with.kind,
                options.given_seed,
                &rustc_version(&project.root),
                &project.manifest,
                options,
                &Machine::detect(),
            )),
            _ => None,
        };
        let cache_dir = project.speedup_dir().join("cache");
        let cache_path = key.as_ref().map(|k| cache::path(&cache_dir, k));
        // Runs that ended by their own rule first, then runs this budget cut short.
        let lookup = match (&key, options.rerun) {
            (Some(k), false) => match (cache::load(&cache_dir, k, &side.label()), options.budget) {
                (cache::Lookup::Miss, Some(budget)) => {
                    cache::load(&cache_dir, &k.cut_by_budget(budget), &side.label())
                }
                (lookup, _) => lookup,
            },
            _ => cache::Lookup::Miss,
        };
        let (cached, judged_by, failed_check) = match lookup {
            cache::Lookup::Hit(results, rule) => (Some(*results), Some(rule), None),
            cache::Lookup::Miss => (None, None, None),
            cache::Lookup::Failed(path) => (None, None, Some(path)),
        };
        Candidate {
            side,
            role,
            label,
            key,
            cache_path,
            cached,
            judged_by,
            failed_check,
        }
    }
}

/// A side's runs are only worth their interleaving with the other sides': all come from the cache, or all
/// are measured again. Says which entries failed their check, and which are reused.
pub(crate) fn all_cached_or_none(sides: &mut [Candidate], progress: &Progress) {
    for candidate in sides.iter() {
        if let Some(path) = &candidate.failed_check {
            progress.note(&cache::failed_note(&candidate.label, path));
        }
    }
    if sides.iter().any(|p| p.cached.is_none()) {
        for candidate in sides.iter_mut() {
            candidate.cached = None;
        }
    }
    for candidate in sides.iter() {
        if let (Some(_), Some(path)) = (&candidate.cached, &candidate.cache_path) {
            progress.note(&format!(
                "{}: reusing the results measured earlier ({}); --rerun measures again",
                candidate.label,
                path.display()
            ));
        }
    }
}

/// What a comparison took from the cache: every side's runs, measured earlier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reused {
    /// The fewest and the most process runs of a benchmark on a side.
    pub(crate) runs: (usize, usize),
    /// Whether the runs' looks were judged by other analysis options than the comparison's.
    pub(crate) judged_otherwise: bool,
}

impl Reused {
    /// What `sides` took from the cache, when all came from it; `stopping`: the comparison's rule.
    pub(crate) fn of(sides: &[Candidate], stopping: &str) -> Option<Reused> {
        let cached: Vec<&Results> = sides
            .iter()
            .map(|c| c.cached.as_ref())
            .collect::<Option<_>>()?;
        let counts = cached
            .iter()
            .flat_map(|r| r.benchmarks.iter().map(|b| b.runs.len()));
        let runs = counts.fold(None, |acc: Option<(usize, usize)>, n| match acc {
            None => Some((n, n)),
            Some((low, high)) => Some((low.min(n), high.max(n))),
        });
        Some(Reused {
            runs: runs.unwrap_or((0, 0)),
            judged_otherwise: sides
                .iter()
                .any(|c| c.judged_by.as_deref() != Some(stopping)),
        })
    }

    /// The progress line: `reused the runs of an earlier comparison (6 runs per side); analysed again`.
    pub(crate) fn line(&self) -> String {
        let runs = match self.runs {
            (low, high) if low == high => format!("{low}"),
            (low, high) => format!("{low} to {high}"),
        };
        let plural = if self.runs == (1, 1) { "" } else { "s" };
        format!(
            "reused the runs of an earlier comparison ({runs} run{plural} per side); analysed again"
        )
    }

    /// The note said (and put in the report) when the comparison's own stopping rule would have run `open`
    /// benchmarks on, below the plan's cap of `cap` runs per side.
    pub(crate) fn judged_otherwise_note(open: usize, cap: u32) -> String {
        format!(
            "note: the runs are those of an earlier comparison judged with other options; with these options \
             {open} benchmark(s) would have run on, up to {cap} runs per side, and are analysed with the \
             runs they had: `--rerun` measures afresh"
        )
    }
}

/// The benchmarks of `open` that some side of `results` ran fewer than `cap` times: the ones more runs
/// could have decided.
pub(crate) fn below_cap(open: &[String], results: &[&Results], cap: u32) -> usize {
    open.iter()
        .filter(|name| {
            results.iter().any(|r| {
                r.benchmarks
                    .iter()
                    .any(|b| &b.name == *name && b.runs.len() < cap as usize)
            })
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Run, Runs, Sample, Unit};

    /// Results with one benchmark per `(name, runs)`.
    fn results(benchmarks: &[(&str, usize)]) -> Results {
        let run = || Run::new(Sample::new(vec![1.0], Unit::Ns).unwrap(), None);
        Results {
            origin: "x".into(),
            benchmarks: benchmarks
                .iter()
                .map(|&(name, n)| Benchmark {
                    name: name.into(),
                    runs: Runs::new((0..n).map(|_| run()).collect()).unwrap(),
                    unit: Unit::Ns,
                    counters: Vec::new(),
                })
                .collect(),
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    fn cached(role: Role, results: Option<Results>, judged_by: &str) -> Candidate {
        Candidate {
            side: Checkout::Commit {
                name: "main".into(),
                sha: "abc".into(),
            },
            role,
            label: "BASE (main, abc)".into(),
            key: None,
            cache_path: None,
            cached: results,
            judged_by: Some(judged_by.into()),
            failed_check: None,
        }
    }

    #[test]
    fn reuse_is_all_sides_from_the_cache_and_says_when_another_rule_judged_them() {
        let both = |base_rule: &str| {
            [
                cached(Role::Base, Some(results(&[("a", 6), ("b", 24)])), base_rule),
                cached(Role::Head, Some(results(&[("a", 6), ("b", 24)])), "rule 1"),
            ]
        };
        assert_eq!(
            Reused::of(&both("rule 1"), "rule 1"),
            Some(Reused {
                runs: (6, 24),
                judged_otherwise: false
            })
        );
        assert!(
            Reused::of(&both("rule 1"), "rule 2")
                .unwrap()
                .judged_otherwise
        );
        assert!(
            Reused::of(&both("rule 2"), "rule 1")
                .unwrap()
                .judged_otherwise
        );
        let measured = [
            cached(Role::Base, Some(results(&[("a", 6)])), "rule 1"),
            cached(Role::Head, None, "rule 1"),
        ];
        assert_eq!(Reused::of(&measured, "rule 1"), None);
    }

    #[test]
    fn only_open_benchmarks_below_the_cap_could_have_run_on() {
        let (base, head) = (
            results(&[("a", 6), ("b", 24), ("c", 12)]),
            results(&[("a", 6), ("b", 24), ("c", 24)]),
        );
        let open = ["a".to_string(), "b".to_string(), "c".to_string()];
        // b ran to the cap of 24 on both sides: more runs were not to be had.
        assert_eq!(below_cap(&open, &[&base, &head], 24), 2);
        assert_eq!(below_cap(&open[1..2], &[&base, &head], 24), 0);
        assert_eq!(below_cap(&[], &[&base, &head], 24), 0);
        assert_eq!(
            Reused::judged_otherwise_note(2, 24),
            "note: the runs are those of an earlier comparison judged with other options; with these \
             options 2 benchmark(s) would have run on, up to 24 runs per side, and are analysed with the \
             runs they had: `--rerun` measures afresh"
        );
    }

    #[test]
    fn the_reuse_line_says_the_runs_per_side() {
        let reused = Reused {
            runs: (6, 6),
            judged_otherwise: false,
        };
        assert_eq!(
            reused.line(),
            "reused the runs of an earlier comparison (6 runs per side); analysed again"
        );
        let spread = Reused {
            runs: (6, 24),
            ..reused
        };
        assert_eq!(
            spread.line(),
            "reused the runs of an earlier comparison (6 to 24 runs per side); analysed again"
        );
        let counted = Reused {
            runs: (1, 1),
            ..reused
        };
        assert_eq!(
            counted.line(),
            "reused the runs of an earlier comparison (1 run per side); analysed again"
        );
    }
}
