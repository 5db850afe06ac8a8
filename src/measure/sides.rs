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
/// order, and the rule its looks stopped by.
pub(crate) struct Interleaving<'a> {
    commits: Vec<String>,
    stopping: &'a str,
}

impl<'a> Interleaving<'a> {
    /// `None` when a side is the working tree.
    pub(crate) fn of(sides: &[&Checkout], stopping: &'a str) -> Option<Interleaving<'a>> {
        let commits = sides
            .iter()
            .map(|side| match side {
                Checkout::Commit { sha, .. } => Some(sha.clone()),
                Checkout::WorkingTree => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Interleaving { commits, stopping })
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
/// and its cached runs, if any. Built, it becomes a [`Participant`](super::run::blocks::Participant).
pub(crate) struct Candidate {
    pub(crate) side: Checkout,
    pub(crate) role: Role,
    pub(crate) label: String,
    pub(crate) key: Option<CacheKey>,
    pub(crate) cache_path: Option<PathBuf>,
    pub(crate) cached: Option<Results>,
    /// The cached entry of this side that failed its check, said on stderr and measured again.
    pub(crate) failed_check: Option<PathBuf>,
}

impl Candidate {
    /// `interleaving`: the other sides' commits and the stopping rule; `None` when another side is the
    /// working tree (its results are never cached, and neither then is this side's: they were only
    /// measured together).
    pub(crate) fn new(
        project: &Project,
        options: &RunOptions,
        side: Checkout,
        role: Role,
        interleaving: Option<&Interleaving<'_>>,
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
                with.stopping,
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
        let (cached, failed_check) = match lookup {
            cache::Lookup::Hit(results) => (Some(*results), None),
            cache::Lookup::Miss => (None, None),
            cache::Lookup::Failed(path) => (None, Some(path)),
        };
        Candidate {
            side,
            role,
            label,
            key,
            cache_path,
            cached,
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
