//! Building and running benchmarks at git revisions: the only module that starts processes (git, cargo,
//! benchmark executables).
//!
//! `cargo speedup BASE..HEAD` resolves both revisions (`revision`), checks each out in a detached worktree
//! under `<target>/speedup/worktrees/` (`git`), builds both with one shared cargo target directory
//! (`build`; the working tree, when it is a side, has its own: `cargo_target`), runs the bench
//! executables directly in randomized interleaved blocks, each process run with its own `CRITERION_HOME`
//! (`runner`; under `--pin` each pinned to one CPU core, `affinity`), each through its harness, criterion, divan or libtest `#[bench]` (`harness`), and keeps
//! each run apart in one [`Results`] per revision (`docs/replication.md`). A bench
//! file's own `measurement_time`, `warm_up_time` and `sample_size`, which criterion lets override the
//! per-run settings, are rewritten to them in the tool's own trees on every side alike (a working tree
//! that has them is built from a copy, `tree_copy`), unless kept, and their cost is told
//! (`bench_settings`). Results of
//! two commits measured together are cached by everything that determines them (`cache`). A lock
//! (`lock`) keeps two runs of one project apart; Ctrl-C (`interrupt`) stops the current child and lets
//! the guards remove worktrees and lock; what a killed run left is removed by the next run once it holds
//! the lock (`leftovers`), or by `cargo speedup clean`.
//!
//! Must not: write outside `<target>/speedup/` (the user's working tree, index, branches, stash and
//! `target/criterion` stay byte-identical), analyse anything (that is `protocol`), or print anything but
//! progress and status lines on stderr.

mod affinity;
mod bench_settings;
mod build;
mod cache;
mod elf;
mod error;
mod fingerprint;
mod git;
mod harness;
mod interrupt;
mod layout;
mod leftovers;
mod lock;
mod path;
mod process;
mod progress;
mod project;
mod read;
mod revision;
mod runner;
mod settings;
mod toolchain;
mod tree_copy;
mod versions;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use error::MeasureError;
pub use harness::Harness;
pub use layout::MAX_LAYOUTS;
pub use leftovers::{Cleaned, clean};
pub use path::{FirstParentPath, PathCommit, first_parent_path};
pub use project::criterion_home;
pub use revision::RevisionSpec;
pub use settings::{
    DEFAULT_MAX_FACTOR, DEFAULT_MAX_LAYOUTS, DEFAULT_MEASUREMENT_SECS, DEFAULT_RUNS,
    DEFAULT_SAMPLE_SIZE, DEFAULT_WARM_UP_SECS, RunOptions, first_look,
};

use crate::model::Results;
use bench_settings::{BenchSettings, RunPlan};
use cache::{CacheKey, Machine};
use git::Worktree;
use progress::Progress;
use project::Project;
use revision::Checkout;
use runner::Participant;

/// Which part a measured tree plays: it names its directories under `<target>/speedup/` (`worktrees/`,
/// `bin/`, `runs/`), all of equal length so that the executables of all sides run from paths of equal
/// length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Base,
    Head,
    Record,
    /// The n-th revision of a race (from 1), `r001` to `r999`.
    Racer(u16),
}

/// The most revisions a race takes: their slugs keep four characters.
pub const MAX_RACERS: usize = 999;

impl Role {
    fn slug(self) -> String {
        match self {
            Role::Base => "base".into(),
            Role::Head => "head".into(),
            Role::Record => "rcrd".into(),
            Role::Racer(n) => format!("r{n:03}"),
        }
    }

    /// The tree built first, whose package versions the others take (`versions`): HEAD, or a race's first
    /// revision, unless the working tree takes part: it is then the reference, whatever its role.
    fn is_reference(self) -> bool {
        matches!(self, Role::Head | Role::Racer(1))
    }
}

/// Which benchmarks the runs so far leave undecided, given BASE's and HEAD's results and the number of looks
/// the plan may take (the analysis decides at risk alpha / looks): the seam through which a race asks the
/// analysis between looks, without this module deciding anything.
pub type Decide<'a> = &'a dyn Fn(&Results, &Results, u32) -> Vec<String>;

/// The same seam for a race of several revisions: given every revision's results so far (in the race's
/// order) and the number of looks, the benchmarks each revision must still run (`protocol::race`).
pub type DecideRace<'a> = &'a dyn Fn(&[Results], u32) -> Vec<Vec<String>>;

/// How the analysis is asked between looks.
#[derive(Clone, Copy)]
enum Decider<'a> {
    /// BASE against HEAD: both run the benchmarks still open.
    Pair(Decide<'a>),
    /// A race: each revision runs the open benchmarks it survives in.
    Several(DecideRace<'a>),
}

/// What `cargo speedup REVISIONS` measured.
#[derive(Debug)]
pub struct Measured {
    /// BASE's results: the process runs of every benchmark it ran.
    pub base: Results,
    /// HEAD's results: the process runs of every benchmark it ran.
    pub head: Results,
    /// The number of looks the plan could take: the analysis must decide at the per-look risk.
    pub looks: u32,
    /// The benchmarks not run because BASE and HEAD built executables that run the same code (`elf`)
    /// (`docs/replication.md` §3): nothing can differ between them.
    pub identical: Vec<String>,
}

/// `cargo speedup REVISIONS`: BASE's and HEAD's results, measured or from the cache.
pub fn measure_revisions(
    revisions: &str,
    options: &RunOptions,
    decide: Decide<'_>,
    stopping: &str,
) -> Result<Measured, MeasureError> {
    let started = Instant::now();
    let spec = RevisionSpec::parse(revisions)?;
    if let Some(name) = &options.toolchain {
        toolchain::choose(name)?;
    }
    let project = Project::discover(options.manifest_path.as_deref(), true)?;
    // Resolved before the lock, which creates `<target>/speedup/`: a revision that does not resolve leaves
    // nothing behind.
    let (base, head) = revision::resolve(project.git()?, &spec)?;
    interrupt::install();
    let progress = Progress::new(options.quiet);
    let _lock = take_lock(&project, &progress)?;
    let tree_notes = tell_about_the_tree(&project, &base, &head)?;
    for note in &tree_notes {
        progress.note(&format!("note: {note}"));
    }
    let commit = |side: &Checkout| match side {
        Checkout::Commit { sha, .. } => Some(sha.clone()),
        Checkout::WorkingTree => None,
    };
    let print = fingerprint::gather(
        &project,
        options,
        commit(&base).as_deref(),
        commit(&head).as_deref(),
        &rustc_version(&project.root),
    );
    let interleaving = Interleaving::of(&[&base, &head], stopping);
    let mut sides = [
        Candidate::new(&project, options, base, Role::Base, interleaving.as_ref()),
        Candidate::new(&project, options, head, Role::Head, interleaving.as_ref()),
    ];
    all_cached_or_none(&mut sides, &progress);
    let race = Race {
        decide: Some(Decider::Pair(decide)),
        started,
        cut_by_budget: Default::default(),
    };
    let (measured, identical) = measure(&project, options, &progress, &sides, &race)?;
    let [base, head] = sides;
    let mut measured = measured.into_iter();
    let mut finish = |candidate: Candidate| -> Result<Results, MeasureError> {
        match candidate.cached {
            Some(results) => Ok(results),
            None => {
                let results = measured.next().ok_or(MeasureError::NoSamples {
                    revision: candidate.label.clone(),
                })?;
                // The cache holds measured runs only: which targets were identical is found again from
                // the builds, which cargo then has at hand.
                if let (Some(key), true) = (&candidate.key, identical.is_empty()) {
                    let key = race.store_key(key, options);
                    cache::store(&project.speedup_dir().join("cache"), &key, &results)?;
                }
                Ok(results)
            }
        }
    };
    let mut base = finish(base)?;
    let mut head = finish(head)?;
    base.environment.fingerprint = Some(print.clone());
    head.environment.fingerprint = Some(print);
    // Said in the report too, not only on stderr.
    head.notes.extend(tree_notes);
    Ok(Measured {
        base,
        head,
        looks: options.look_plan.count(),
        identical,
    })
}

/// Takes the lock of `<target>/speedup/`, then removes the worktrees that runs killed earlier left there
/// (`leftovers`), saying so.
fn take_lock(project: &Project, progress: &Progress) -> Result<lock::Lock, MeasureError> {
    let lock = lock::Lock::acquire(&project.speedup_dir())?;
    let removed = leftovers::remove_leftovers(project, &lock)?;
    if !removed.is_empty() {
        progress.note(&format!(
            "note: removed {} worktree(s) left by a run that was killed: {}",
            removed.len(),
            removed
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(lock)
}

/// A side's runs are only worth their interleaving with the other sides': all come from the cache, or all
/// are measured again. Says which entries failed their check, and which are reused.
fn all_cached_or_none(sides: &mut [Candidate], progress: &Progress) {
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

/// What `cargo speedup race` measured.
#[derive(Debug)]
pub struct MeasuredRace {
    /// Each revision's results, in the order given.
    pub results: Vec<Results>,
    /// Each revision's name and short sha (`main (1a2b3c4d5e)`), in the same order.
    pub labels: Vec<String>,
    /// The number of looks the plan could take.
    pub looks: u32,
}

/// `cargo speedup race REV1 REV2 ...`: every revision's results, measured together in interleaved
/// blocks, each in its own worktree (`r001`, `r002`, ...: paths of equal length) with the first
/// revision's package versions (the working tree's when it races). Races are cached as comparisons are,
/// under every revision's commit in order, unless the working tree races; every executable runs,
/// identical or not.
pub fn measure_race(
    revisions: &[String],
    options: &RunOptions,
    decide: DecideRace<'_>,
    stopping: &str,
) -> Result<MeasuredRace, MeasureError> {
    let started = Instant::now();
    revision::check_race_names(revisions, MAX_RACERS)?;
    if let Some(name) = &options.toolchain {
        toolchain::choose(name)?;
    }
    let project = Project::discover(options.manifest_path.as_deref(), true)?;
    let sides = revision::resolve_race(project.git()?, revisions)?;
    interrupt::install();
    let progress = Progress::new(options.quiet);
    let _lock = take_lock(&project, &progress)?;
    let racing_the_tree = sides.contains(&Checkout::WorkingTree);
    match (project.git()?.is_dirty()?, racing_the_tree) {
        (true, false) => progress.note(
            "note: the working tree has uncommitted changes; they are not part of the revisions raced \
             (name it `.` to race it)",
        ),
        (true, true) => progress.note(
            "note: `.` is the working tree as it is now, uncommitted changes included",
        ),
        (false, _) => {}
    }
    let interleaving = Interleaving::of(&sides.iter().collect::<Vec<_>>(), stopping);
    let mut plans: Vec<Candidate> = sides
        .into_iter()
        .enumerate()
        .map(|(i, side)| {
            let role = Role::Racer(i as u16 + 1);
            Candidate::new(&project, options, side, role, interleaving.as_ref())
        })
        .collect();
    all_cached_or_none(&mut plans, &progress);
    let labels: Vec<String> = plans.iter().map(|p| p.label.clone()).collect();
    let race = Race {
        decide: Some(Decider::Several(decide)),
        started,
        cut_by_budget: Default::default(),
    };
    let (measured, _) = measure(&project, options, &progress, &plans, &race)?;
    let mut measured = measured.into_iter();
    let results = plans
        .into_iter()
        .map(|candidate| match candidate.cached {
            Some(results) => Ok(results),
            None => {
                let results = measured.next().ok_or(MeasureError::NoSamples {
                    revision: candidate.label.clone(),
                })?;
                if let Some(key) = &candidate.key {
                    let key = race.store_key(key, options);
                    cache::store(&project.speedup_dir().join("cache"), &key, &results)?;
                }
                Ok(results)
            }
        })
        .collect::<Result<Vec<_>, MeasureError>>()?;
    Ok(MeasuredRace {
        results,
        labels,
        looks: options.look_plan.count(),
    })
}

/// `cargo speedup record`: the working tree's pooled results, measured alone.
pub fn measure_working_tree(options: &RunOptions) -> Result<Results, MeasureError> {
    if let Some(name) = &options.toolchain {
        toolchain::choose(name)?;
    }
    let project = Project::discover(options.manifest_path.as_deref(), false)?;
    interrupt::install();
    let progress = Progress::new(options.quiet);
    let _lock = take_lock(&project, &progress)?;
    let side = Candidate::new(&project, options, Checkout::WorkingTree, Role::Record, None);
    let race = Race {
        decide: None,
        started: Instant::now(),
        cut_by_budget: Default::default(),
    };
    let (mut measured, _) = measure(
        &project,
        options,
        &progress,
        std::slice::from_ref(&side),
        &race,
    )?;
    let mut results = measured.pop().ok_or(MeasureError::NoSamples {
        revision: side.label,
    })?;
    // A record is one side: its commit is the working tree's `HEAD`, its lock file the working tree's.
    let mut print =
        fingerprint::gather(&project, options, None, None, &rustc_version(&project.root));
    print.head_commit = project
        .git()
        .ok()
        .and_then(|git| git.output(&["rev-parse", "HEAD"]).ok());
    results.environment.fingerprint = Some(print);
    Ok(results)
}

/// What the runs of a side measured with others depend on besides its own commit: every side's commit, in
/// order, and the rule its looks stopped by.
struct Interleaving<'a> {
    commits: Vec<String>,
    stopping: &'a str,
}

impl<'a> Interleaving<'a> {
    /// `None` when a side is the working tree.
    fn of(sides: &[&Checkout], stopping: &'a str) -> Option<Interleaving<'a>> {
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
/// and its cached runs, if any. Built, it becomes a [`runner::Participant`].
struct Candidate {
    side: Checkout,
    role: Role,
    label: String,
    key: Option<CacheKey>,
    cache_path: Option<PathBuf>,
    cached: Option<Results>,
    /// The cached entry of this side that failed its check, said on stderr and measured again.
    failed_check: Option<PathBuf>,
}

impl Candidate {
    /// `interleaving`: the other sides' commits and the stopping rule; `None` when another side is the
    /// working tree (its results are never cached, and neither then is this side's: they were only
    /// measured together).
    fn new(
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

/// Builds and runs the sides not cached; returns their results in the sides' order, and the benchmarks
/// of the bench targets that BASE and HEAD built identical (the same code), which were not run.
fn measure(
    project: &Project,
    options: &RunOptions,
    progress: &Progress,
    sides: &[Candidate],
    race: &Race<'_>,
) -> Result<(Vec<Results>, Vec<String>), MeasureError> {
    let todo: Vec<&Candidate> = sides.iter().filter(|p| p.cached.is_none()).collect();
    if todo.is_empty() {
        return Ok((vec![], vec![]));
    }
    let dir = project.speedup_dir();
    let mut worktrees: Vec<Worktree> = Vec::new();
    // HEAD (a race's first revision) first: the other worktrees take its package versions, and must be
    // checked out after it was built, since cargo judges freshness by modification time in the target
    // directory they share.
    // The working tree, when it takes part, is the reference: its Cargo.lock is the user's and is never
    // rewritten.
    let reference = todo
        .iter()
        .position(|p| p.side == Checkout::WorkingTree)
        .or_else(|| todo.iter().position(|p| p.role.is_reference()));
    let mut order: Vec<usize> = (0..todo.len()).collect();
    order.sort_by_key(|&i| Some(i) != reference);
    let mut head_tree: Option<(PathBuf, String)> = sides
        .iter()
        .find(|p| p.side == Checkout::WorkingTree)
        .map(|p| (project.root.clone(), p.label.clone()));
    // Every revision must have the manifest: said before anything is built, BASE first.
    for candidate in &todo {
        if let Checkout::Commit { sha, .. } = &candidate.side {
            let object = format!("{sha}:{}", project.manifest.to_string_lossy());
            if project.git()?.output(&["cat-file", "-e", &object]).is_err() {
                return Err(MeasureError::NoManifest {
                    revision: candidate.label.clone(),
                    path: project.manifest.clone(),
                });
            }
        }
    }
    let mut built: Vec<Option<Participant>> = vec![None; todo.len()];
    // The bench files' own settings, found on every side and rewritten on every side alike unless kept;
    // a working tree so rewritten is built from a copy, kept here until the runs end.
    let mut bench = BenchSettings::new(options);
    let mut copies = Vec::new();
    for i in order {
        let candidate = todo[i];
        let tree = match &candidate.side {
            Checkout::Commit { sha, .. } => {
                let path = dir
                    .join("worktrees")
                    .join(format!("{}-{sha}", candidate.role.slug()));
                let worktree = Worktree::add(project.git()?, sha, path)?;
                let tree = worktree.path.clone();
                worktrees.push(worktree);
                tree
            }
            Checkout::WorkingTree => project.root.clone(),
        };
        let prepared = bench.prepare(
            project,
            &candidate.side,
            tree,
            &dir.join(leftovers::WORKTREES),
            &candidate.role.slug(),
        )?;
        let tree = prepared.tree.clone();
        match (candidate.role, &head_tree) {
            _ if Some(i) == reference => head_tree = Some((tree.clone(), candidate.label.clone())),
            _ if candidate.side == Checkout::WorkingTree => {}
            (Role::Base, Some((head, _))) => {
                align_versions(project, progress, &tree, head, ("BASE", "HEAD"))?
            }
            (Role::Racer(_), Some((first, first_label))) => align_versions(
                project,
                progress,
                &tree,
                first,
                (&candidate.label, first_label),
            )?,
            _ => {}
        }
        progress.building(&candidate.label);
        let keep = dir.join("bin").join(candidate.role.slug());
        let binaries = build::build(
            &tree,
            project,
            &candidate.label,
            options,
            &dir.join(cargo_target(&candidate.side)),
            &keep,
        )
        .map_err(|e| prepared.build_error(e))?;
        copies.extend(prepared.copy);
        built[i] = Some(Participant {
            label: candidate.label.clone(),
            origin: candidate.side.label(),
            slug: candidate.role.slug(),
            binaries,
        });
    }
    let mut participants: Vec<Participant> = built.into_iter().flatten().collect();
    let part = match options.partition {
        Some(partition) => Some(part_of(partition, &participants, options, progress)?),
        None => None,
    };
    let part = part.as_deref();
    let pair = !matches!(race.decide, Some(Decider::Several(_)));
    let identical = match (options.run_identical, pair, participants.as_mut_slice()) {
        (false, true, [base, head]) => set_identical_aside(base, head, options, progress, part)?,
        _ => vec![],
    };
    let environment = environment(&project.root);
    if participants.iter().all(|p| p.binaries.is_empty()) {
        let nothing = |p: &Participant| Results {
            origin: p.origin.clone(),
            benchmarks: vec![],
            environment: environment.clone(),
            notes: vec![],
        };
        return Ok((participants.iter().map(nothing).collect(), identical));
    }
    // Removed when the runs are done, or fail: only the executables as built stay in `bin/`.
    let _relinked = layout::Relinked::of(participants.iter().flat_map(|p| &p.binaries));
    for p in &mut participants {
        layout::add_layouts(project, options, progress, &p.label, &mut p.binaries)?;
    }
    let pooled = run_race(
        &dir.join("runs"),
        &participants,
        options,
        progress,
        race,
        part,
        &bench,
    )?;
    drop(copies);
    let results = pooled
        .into_iter()
        .map(|mut results| {
            results.environment = environment.clone();
            results
        })
        .collect();
    Ok((results, identical))
}

/// How the runs of a comparison may stop early: the analysis's verdicts between looks, and the clock the
/// budget counts from.
struct Race<'a> {
    /// `None`: one participant or nothing to decide between looks; the plan's runs all run.
    decide: Option<Decider<'a>>,
    started: Instant,
    /// Set when `--budget` stopped the runs before a look: the results are what that budget gives, and are
    /// cached under it ([`cache::CacheKey::cut_by_budget`]).
    cut_by_budget: std::cell::Cell<bool>,
}

impl Race<'_> {
    /// The key the runs of `key` are stored under: with the budget when it cut them short.
    fn store_key(&self, key: &CacheKey, options: &RunOptions) -> CacheKey {
        match options.budget {
            Some(budget) if self.cut_by_budget.get() => key.cut_by_budget(budget),
            _ => key.clone(),
        }
    }
}

/// The benchmarks of `partition`'s part: criterion's `--list` of every participant's executables (with
/// the user's filter), split by [`crate::partition`]; an error when the part is empty.
fn part_of(
    partition: crate::partition::Partition,
    participants: &[Participant],
    options: &RunOptions,
    progress: &Progress,
) -> Result<Vec<String>, MeasureError> {
    let mut all = Vec::new();
    for p in participants {
        for b in &p.binaries {
            all.extend(runner::list(b, options.filter.as_deref(), &p.label)?);
        }
    }
    let part = partition.select(&all);
    if part.is_empty() {
        return Err(MeasureError::Option {
            flag: "--partition",
            value: partition.to_string(),
            expected: "a part that holds at least one benchmark: use fewer parts (N) than there are \
                       benchmarks, or check `--filter` and `--bench`",
        });
    }
    all.sort();
    all.dedup();
    progress.note(&format!(
        "partition {partition}: {} of the {} benchmarks",
        part.len(),
        all.len()
    ));
    Ok(part)
}

/// Runs the plan's blocks look by look (`protocol::sequential`): after each look but the last, the
/// benchmarks the analysis decides stop and the next blocks run the open ones only; the race ends when none
/// is open, at the last look, or when the next look would not end within `--budget`. `part`: only these
/// benchmarks run (`--partition`).
fn run_race(
    runs_dir: &Path,
    participants: &[Participant],
    options: &RunOptions,
    progress: &Progress,
    race: &Race<'_>,
    part: Option<&[String]>,
    bench: &BenchSettings,
) -> Result<Vec<Results>, MeasureError> {
    runner::clear(runs_dir, participants)?;
    let looks = options.look_plan.looks();
    // A pair lists BASE's benchmarks; a race, or a part of the benchmarks, lists every revision's, since
    // any may have its own.
    let listed = match (race.decide, part) {
        (Some(Decider::Several(_)), _) | (_, Some(_)) => participants,
        _ => participants.get(..1).unwrap_or_default(),
    };
    let mut by_target: Vec<(String, Vec<String>)> = Vec::new();
    for p in listed.iter().filter(|_| looks.len() > 1 || part.is_some()) {
        for b in &p.binaries {
            let mut names = runner::list(b, options.filter.as_deref(), &p.label)?;
            names.retain(|name| part.is_none_or(|part| part.contains(name)));
            match by_target.iter_mut().find(|(t, _)| *t == b.target) {
                Some((_, known)) => {
                    for name in names {
                        if !known.contains(&name) {
                            known.push(name);
                        }
                    }
                }
                None => by_target.push((b.target.clone(), names)),
            }
        }
    }
    // A target with nothing in the part does not run.
    by_target.retain(|(_, names)| part.is_none() || !names.is_empty());
    let benchmarks: usize = by_target.iter().map(|(_, n)| n.len()).sum();
    let plan = RunPlan {
        revisions: participants.len(),
        first_look: looks.first().copied().unwrap_or(options.runs),
        max_runs: options.look_plan.max(),
        benchmarks: benchmark_counts(&by_target, participants, options, bench),
        budget_secs: options.budget.map(|b| b.as_secs_f64()),
    };
    // What the bench files' settings cost, said once, before the first look and in the report.
    let (notes, mut told) = bench.before_runs(&plan);
    for note in notes {
        progress.note(&note);
    }
    for warning in &told {
        progress.note(&format!("warning: {warning}"));
    }
    let per_run = plan
        .benchmarks
        .iter()
        .map(|(target, _)| bench.run_secs(target))
        .fold(options.warm_up_secs + options.measurement_secs, f64::max);
    if let Some(budget) = options.budget {
        // One block: every benchmark once per side, warm-up and measurement.
        let block = per_run * (benchmarks.max(1) * participants.len()) as f64;
        if race.started.elapsed().as_secs_f64() + block > budget.as_secs_f64() {
            return Err(MeasureError::Option {
                flag: "--budget",
                value: format!("{}s", budget.as_secs()),
                expected: "time for at least one block of runs after the builds (every benchmark once per \
                           revision, warm-up and measurement)",
            });
        }
    }
    match looks.as_slice() {
        [only] => progress.note(&format!(
            "{only} process runs per revision in randomized blocks, seed {} (`--seed {}` repeats this order)",
            options.seed, options.seed
        )),
        _ => progress.note(&format!(
            "process runs per revision in randomized blocks until each benchmark is decided: looks after \
             {} runs, at risk alpha/{} each; seed {} (`--seed {}` repeats this order)",
            looks
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            looks.len(),
            options.seed,
            options.seed
        )),
    }
    let pin = pinned_core(options, progress);
    let args = |harness: Harness, filter| harness.run_args(options, runner::BASELINE, filter);
    // Per participant: the benchmarks it still runs (`None`: all), and how many blocks ran each benchmark.
    let mut open: Option<Vec<Vec<String>>> =
        part.map(|part| vec![part.to_vec(); participants.len()]);
    let mut ran: Vec<HashMap<String, u32>> = vec![HashMap::new(); participants.len()];
    let mut done = 0;
    let started_runs = Instant::now();
    for (i, &look) in looks.iter().enumerate() {
        if let (Some(budget), true) = (options.budget, done > 0) {
            // The next look costs about what the runs so far cost per block and open benchmark.
            let open_now = open.as_ref().map_or(benchmarks as f64, |o| {
                o.iter().map(Vec::len).sum::<usize>() as f64 / o.len().max(1) as f64
            });
            let per_block = started_runs.elapsed().as_secs_f64() / f64::from(done);
            let next = per_block * f64::from(look - done) * open_now / benchmarks.max(1) as f64;
            if race.started.elapsed().as_secs_f64() + next > budget.as_secs_f64() {
                progress.note(&format!(
                    "note: the budget ({}s) leaves no time for the look after {look} runs: {} benchmarks \
                     still undecided after {done} runs are inconclusive",
                    budget.as_secs(),
                    open_now
                ));
                race.cut_by_budget.set(true);
                break;
            }
        }
        for (p, counts) in ran.iter_mut().enumerate() {
            for (_, names) in &by_target {
                for name in names {
                    if open.as_ref().is_none_or(|o| o[p].contains(name)) {
                        *counts.entry(name.clone()).or_default() += look - done;
                    }
                }
            }
        }
        let selection = runner::Selection {
            open: open.as_deref(),
            by_target: &by_target,
            partitioned: part.is_some(),
        };
        runner::run_blocks(
            runs_dir,
            participants,
            done..look,
            options.look_plan.max(),
            options.seed,
            &args,
            selection,
            pin,
            progress,
        )?;
        done = look;
        if i == 0 {
            let lengths = runner::lengths(runs_dir, participants, done);
            if let Some(warning) = bench.after_first_look(&lengths, &plan) {
                progress.note(&format!("warning: {warning}"));
                told.push(warning);
            }
        }
        let (Some(decide), false) = (race.decide, i + 1 == looks.len()) else {
            break;
        };
        let so_far = runner::read_all(runs_dir, participants, done, &ran)?;
        let k = looks.len() as u32;
        let still_open = match decide {
            Decider::Pair(decide) => {
                let [base, head] = so_far.as_slice() else {
                    break;
                };
                let open = decide(base, head, k);
                vec![open.clone(), open]
            }
            Decider::Several(decide) => decide(&so_far, k),
        };
        let mut open_anywhere: Vec<&String> = still_open.iter().flatten().collect();
        open_anywhere.sort();
        open_anywhere.dedup();
        if open_anywhere.is_empty() {
            progress.note(&format!(
                "every benchmark decided after {look} runs per revision"
            ));
            break;
        }
        progress.note(&format!(
            "after {look} runs per revision: {} of {} benchmarks decided, {} still open",
            benchmarks.saturating_sub(open_anywhere.len()),
            benchmarks,
            open_anywhere.len()
        ));
        open = Some(still_open);
    }
    let mut results = runner::read_all(runs_dir, participants, done, &ran)?;
    // Once per comparison: in the last revision's notes, which the report shows as warnings.
    if let Some(last) = results.last_mut() {
        last.notes.extend(told);
    }
    Ok(results)
}

/// The number of benchmarks of each bench target: as listed for the looks; else, when the projection of
/// the plan may have something to say (a setting found, a budget, or runs that could outlast plain ones),
/// as the first revision's executables list them (a target that does not answer criterion's `--list` is
/// left out); else none.
fn benchmark_counts(
    by_target: &[(String, Vec<String>)],
    participants: &[Participant],
    options: &RunOptions,
    bench: &BenchSettings,
) -> Vec<(String, usize)> {
    if !by_target.is_empty() {
        return by_target
            .iter()
            .map(|(t, names)| (t.clone(), names.len()))
            .collect();
    }
    if !bench.may_tell(options) {
        return vec![];
    }
    participants
        .first()
        .map(|p| {
            p.binaries
                .iter()
                .filter_map(|b| {
                    let names = runner::list(b, options.filter.as_deref(), &p.label).ok()?;
                    Some((b.target.clone(), names.len()))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Takes out of both sides the bench targets whose executables BASE and HEAD built alike (the same loaded
/// code and data at the same addresses; debug information aside: `elf`), and returns the names of their
/// benchmarks (criterion's `--list`, with the filter): only the machine's noise could tell them apart, so
/// they are reported unchanged without running (`--run-identical` runs them anyway).
fn set_identical_aside(
    base: &mut Participant,
    head: &mut Participant,
    options: &RunOptions,
    progress: &Progress,
    part: Option<&[String]>,
) -> Result<Vec<String>, MeasureError> {
    let mut same_targets = Vec::new();
    for b in &base.binaries {
        if let Some(h) = head.binaries.iter().find(|h| h.target == b.target) {
            if same_code(&b.layouts[0], &h.layouts[0])? {
                same_targets.push(b.target.clone());
            }
        }
    }
    let mut names = Vec::new();
    for target in &same_targets {
        if let Some(binary) = base.binaries.iter().find(|b| &b.target == target) {
            let listed = runner::list(binary, options.filter.as_deref(), &base.label)?;
            names.extend(
                listed
                    .into_iter()
                    .filter(|name| part.is_none_or(|part| part.contains(name))),
            );
        }
    }
    base.binaries.retain(|b| !same_targets.contains(&b.target));
    head.binaries.retain(|b| !same_targets.contains(&b.target));
    if !same_targets.is_empty() {
        progress.note(&format!(
            "BASE and HEAD built identical executables of {}: {} not run, unchanged \
             (`--run-identical` runs them)",
            same_targets
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", "),
            match names.len() {
                1 => "its benchmark is".to_string(),
                n => format!("their {n} benchmarks are"),
            }
        ));
    }
    Ok(names)
}

/// Whether two executables run the same code (`elf`: debug information and build-ids aside).
fn same_code(a: &Path, b: &Path) -> Result<bool, MeasureError> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|source| MeasureError::Io {
            what: "comparing the executables of BASE and HEAD",
            path: path.to_path_buf(),
            error: source,
        })
    };
    Ok(elf::same_code(&read(a)?, &read(b)?))
}

/// Gives BASE's worktree `base` the package versions of HEAD's tree `head` (`versions`); HEAD's tree is
/// only read. `names` are the two trees' names in the note (`("BASE", "HEAD")`).
fn align_versions(
    project: &Project,
    progress: &Progress,
    base: &Path,
    head: &Path,
    names: (&str, &str),
) -> Result<(), MeasureError> {
    let changes = versions::align(&base.join(&project.manifest), &head.join(&project.manifest))?;
    if !changes.is_empty() {
        progress.note(&format!(
            "{} is built with {}'s package versions ({}), so that only the code differs",
            names.0,
            names.1,
            changes.join(", ")
        ));
    }
    Ok(())
}

/// The cargo target directory (under `<target>/speedup/`) that builds `side`. Worktrees share one: their
/// files are written anew each time, so cargo, which judges freshness by modification time, rebuilds what
/// they hold. The working tree gets its own: a path package's outputs do not depend on its directory, and
/// the user's files, older than the last build made from a worktree, would pass that revision's executables
/// off as the working tree's.
fn cargo_target(side: &Checkout) -> &'static str {
    match side {
        Checkout::Commit { .. } => "target",
        Checkout::WorkingTree => "target-working-tree",
    }
}

/// What HEAD is when it is the working tree, and that uncommitted changes are left out otherwise; also
/// when both sides are one commit (the comparison then measures the machine's noise, an A/A test).
fn tell_about_the_tree(
    project: &Project,
    base: &Checkout,
    head: &Checkout,
) -> Result<Vec<String>, MeasureError> {
    let mut notes = Vec::new();
    if let (Checkout::Commit { sha: b, .. }, Checkout::Commit { sha: h, .. }) = (base, head) {
        if b == h {
            notes.push(format!(
                "BASE and HEAD are the same commit ({}): any difference found is the machine's noise",
                revision::short(b)
            ));
        }
    }
    let dirty = project.git()?.is_dirty()?;
    match (head, dirty) {
        (Checkout::WorkingTree, true) => {
            notes.push("HEAD is the working tree as it is now, uncommitted changes included".into())
        }
        (Checkout::Commit { .. }, true) => notes.push(
            "the working tree has uncommitted changes; they are not part of the revisions compared"
                .into(),
        ),
        (Checkout::WorkingTree, false) | (Checkout::Commit { .. }, false) => {}
    }
    Ok(notes)
}

/// `rustc -vV` as run in `dir` (so that a `rust-toolchain` file there applies); empty when it fails.
fn rustc_version(dir: &Path) -> String {
    let mut command = toolchain::rustc();
    command.arg("-vV").current_dir(dir);
    process::capture(&mut command)
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default()
}

fn environment(dir: &Path) -> crate::model::Environment {
    let machine = Machine::detect();
    let rustc = rustc_version(dir).lines().next().map(str::to_string);
    crate::model::Environment {
        cpu: machine.cpu,
        rustc,
        host: machine.host,
        fingerprint: None,
    }
}

/// The core every run is pinned to under `--pin` (`affinity`), said once; `None` without `--pin`, or where
/// runs cannot be pinned (then a note says so).
fn pinned_core(options: &RunOptions, progress: &Progress) -> Option<usize> {
    if !options.pin {
        return None;
    }
    let core = affinity::chosen();
    progress.note(&match core {
        Some(cpu) => format!("every run is pinned to CPU {cpu} (--pin)"),
        None => {
            "note: --pin has no effect here: runs can only be pinned to a core on Linux".to_string()
        }
    });
    core
}
