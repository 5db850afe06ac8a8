//! The three measuring commands, each as its list of stages: resolve the revisions, take the lock, look
//! up the cache (`sides`), prepare the sides not cached (`prepare`: check out, build, link layouts), run
//! them look by look (`run`), store what was measured in the cache and give the results back.
//!
//! Must not: decide anything (the analysis is asked between looks through [`Decide`] and [`DecideRace`]),
//! or print anything but progress and status lines on stderr.

use std::time::Instant;

use super::cache;
use super::environment::{self, environment};
use super::error::MeasureError;
use super::interrupt;
use super::leftovers;
use super::lock;
use super::prepare::bench_settings::BenchSettings;
use super::prepare::participant::Participant;
use super::prepare::participants::prepare_participants;
use super::prepare::revision::{self, Checkout, RevisionSpec};
use super::progress::Progress;
use super::project::Project;
use super::run::duet::DuetRunner;
use super::run::looks::{Decide, DecideRace, Decider, EarlyStop, Ready, run_until_decided};
use super::run::processes::ProcessRunner;
use super::run::runner::Runner;
use super::settings::{Measure, RunOptions};
use super::sides::{
    Candidate, Interleaving, MAX_RACERS, Reused, Role, all_cached_or_none, below_cap,
};
use super::toolchain::{self, rustc_version};
use super::valgrind::runner::{ValgrindRunner, valgrind_version};
use crate::model::Results;

/// What `cargo speedup REVISIONS` measured.
#[derive(Debug)]
pub(crate) struct Measured {
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

/// `cargo speedup REVISIONS`: BASE's and HEAD's results, measured or from the cache. `stopping`: the
/// analysis options the looks stop on, as text, stored with the runs and compared with those of runs
/// taken from the cache (which are reused whatever options judged them: `cache`'s module doc).
pub(crate) fn measure_revisions(
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
    // Before anything is built: counts need Valgrind.
    let valgrind = options
        .measure
        .counts()
        .then(valgrind_version)
        .transpose()?;
    let project = Project::discover(options.manifest_path.as_deref(), true)?;
    // Resolved before the lock, which creates `<target>/speedup/`: a revision that does not resolve leaves
    // nothing behind.
    let (base, head) = revision::resolve(project.git()?, &spec)?;
    interrupt::install();
    let progress = Progress::new(options.quiet);
    let _lock = take_lock(&project, &progress)?;
    // Said once, in the report (HEAD's notes), not on standard error as well.
    let tree_notes = revision::tell_about_the_tree(&project, &head)?;
    let (base_side, head_side) = (base.clone(), head.clone());
    let commit = |side: &Checkout| match side {
        Checkout::Commit { sha, .. } => Some(sha.clone()),
        Checkout::WorkingTree => None,
    };
    let mut print = environment::gather(
        &project,
        options,
        commit(&base).as_deref(),
        commit(&head).as_deref(),
        &rustc_version(&project.root),
    );
    // Counts depend on the Valgrind that counted them.
    if let Some(version) = valgrind {
        print.settings.insert("valgrind".to_string(), version);
    }
    let interleaving = Interleaving::of(&[&base, &head], "pair");
    // Each part (the times, the counts) has its sides, cached under its own key: all from the cache or
    // none, part by part.
    let mut parts: Vec<Measuring> = options
        .parts()
        .iter()
        .map(|&part| {
            let options = options.part(part);
            let sides = [(&base, Role::Base), (&head, Role::Head)]
                .map(|(side, role)| {
                    Candidate::new(
                        &project,
                        &options,
                        side.clone(),
                        role,
                        interleaving.as_ref(),
                    )
                })
                .into_iter()
                .collect();
            Measuring::new(options, sides, Some(Decider::Pair(decide)), &started)
        })
        .collect();
    for part in &mut parts {
        all_cached_or_none(&mut part.sides, &progress);
    }
    let reused: Vec<Option<Reused>> = parts
        .iter()
        .map(|part| Reused::of(&part.sides, stopping))
        .collect();
    let (measured, identical) = measure_sides(&project, &progress, &parts)?;
    let mut sides: [Vec<Results>; 2] = [vec![], vec![]];
    for ((part, measured), reused) in parts.into_iter().zip(measured).zip(reused) {
        let options = &part.options;
        let stop = &part.stop;
        let mut measured = measured.into_iter();
        let mut finish = |candidate: Candidate| -> Result<Results, MeasureError> {
            match candidate.cached {
                Some(results) => Ok(results),
                None => {
                    let results = measured.next().ok_or(MeasureError::NoSamples {
                        revision: candidate.label.clone(),
                    })?;
                    // The cache holds measured runs, with what the runs and the builds left out (the
                    // record's `left_out`); which targets were identical is found again from the builds,
                    // which cargo then has at hand. A side that measured nothing is not stored: it has no
                    // runs to reuse.
                    if let (Some(key), true, false) = (
                        &candidate.key,
                        identical.is_empty(),
                        results.benchmarks.is_empty(),
                    ) {
                        let key = stop.store_key(key, options.budget);
                        cache::store(
                            &project.speedup_dir().join("cache"),
                            &key,
                            &results,
                            stopping,
                        )?;
                    }
                    Ok(results)
                }
            }
        };
        let mut done = part
            .sides
            .into_iter()
            .map(&mut finish)
            .collect::<Result<Vec<Results>, MeasureError>>()?;
        if let (Some(reused), [base, head]) = (reused, done.as_mut_slice()) {
            let open = match reused.judged_otherwise {
                true => decide(base, head, options.look_plan.count()).open,
                false => vec![],
            };
            let cap = options.look_plan.max();
            let note = tell_reused(&reused, &open, &[base, head], cap, &progress);
            head.notes.extend(note);
        }
        for (side, results) in sides.iter_mut().zip(done) {
            side.push(results);
        }
    }
    let [base, head] = sides;
    let (mut base, mut head) = (joined(base), joined(head));
    base.environment.fingerprint = Some(print.clone());
    head.environment.fingerprint = Some(print);
    let ran = !base.benchmarks.is_empty() || !head.benchmarks.is_empty();
    head.notes
        .extend(revision::same_commit_note(&base_side, &head_side, ran));
    head.notes.extend(tree_notes);
    Ok(Measured {
        base,
        head,
        looks: options.look_plan.count(),
        identical,
    })
}

/// One part of a measuring command (its times, or its counts): the options it runs with
/// ([`RunOptions::part`]), its sides with what the cache holds for them, and how its runs may stop early.
struct Measuring<'a> {
    options: RunOptions,
    sides: Vec<Candidate>,
    stop: EarlyStop<'a>,
}

impl<'a> Measuring<'a> {
    fn new(
        options: RunOptions,
        sides: Vec<Candidate>,
        decide: Option<Decider<'a>>,
        clock: &'a Instant,
    ) -> Measuring<'a> {
        Measuring {
            options,
            sides,
            stop: EarlyStop {
                decide,
                clock,
                cut_by_budget: Default::default(),
            },
        }
    }
}

/// One side's results of every part, as one: the times' benchmarks, then the counts' (`NAME (instructions)`),
/// the environment and origin of the first, the notes and what was left out of all, each once. The results
/// of one part are returned as they are.
fn joined(parts: Vec<Results>) -> Results {
    let mut parts = parts.into_iter();
    let Some(mut all) = parts.next() else {
        return Results {
            origin: String::new(),
            benchmarks: vec![],
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        };
    };
    for part in parts {
        all.benchmarks.extend(part.benchmarks);
        for note in part.notes {
            if !all.notes.contains(&note) {
                all.notes.push(note);
            }
        }
        for left_out in part.left_out {
            if !all.left_out.contains(&left_out) {
                all.left_out.push(left_out);
            }
        }
    }
    all
}

/// Says that the runs came from the cache and were analysed again; when the comparison's own stopping rule
/// (`open`: the benchmarks it leaves undecided in the cached runs) would have run benchmarks on below the
/// plan's cap, says that too and returns it for the report's notes. More runs are not taken: the cached runs
/// are analysed as they are, and `--rerun` measures afresh (`docs/usage.md` §1 says why).
fn tell_reused(
    reused: &Reused,
    open: &[String],
    results: &[&Results],
    cap: u32,
    progress: &Progress,
) -> Option<String> {
    progress.note(&reused.line());
    let more = below_cap(open, results, cap);
    (more > 0).then(|| {
        let note = Reused::judged_otherwise_note(more, cap);
        progress.note(&note);
        note.trim_start_matches("note: ").to_string()
    })
}

/// Takes the lock of `<target>/speedup/`, then removes the worktrees that runs killed earlier left there
/// (`leftovers`), saying so.
fn take_lock(project: &Project, progress: &Progress) -> Result<lock::Lock, MeasureError> {
    let lock = lock::Lock::acquire(&project.speedup_dir())?;
    let removed = leftovers::remove_leftovers(project, &lock)?;
    if let Some(retired) = leftovers::remove_retired(project, &lock) {
        progress.note(&format!(
            "note: removed {}, where earlier versions built the working tree apart: it now builds with \
             the revisions",
            retired.display()
        ));
    }
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

/// What `cargo speedup race` measured.
#[derive(Debug)]
pub(crate) struct MeasuredRace {
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
pub(crate) fn measure_race(
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
    // Before anything is built: counts need Valgrind.
    if matches!(options.measure, Measure::Instructions) {
        valgrind_version()?;
    }
    let project = Project::discover(options.manifest_path.as_deref(), true)?;
    let sides = revision::resolve_race(project.git()?, revisions)?;
    interrupt::install();
    let progress = Progress::new(options.quiet);
    let _lock = take_lock(&project, &progress)?;
    // The working tree's state is said only when it races (`docs/usage.md` §1).
    if sides.contains(&Checkout::WorkingTree) && project.git()?.is_dirty()? {
        progress.note("note: `.` is the working tree as it is now, uncommitted changes included");
    }
    let interleaving = Interleaving::of(&sides.iter().collect::<Vec<_>>(), "race");
    let mut plans: Vec<Candidate> = sides
        .into_iter()
        .enumerate()
        .map(|(i, side)| {
            let role = Role::Racer(i as u16 + 1);
            Candidate::new(&project, options, side, role, interleaving.as_ref())
        })
        .collect();
    all_cached_or_none(&mut plans, &progress);
    let reused = Reused::of(&plans, stopping);
    let labels: Vec<String> = plans.iter().map(|p| p.label.clone()).collect();
    let part = Measuring::new(
        options.clone(),
        plans,
        Some(Decider::Several(decide)),
        &started,
    );
    let (measured, _) = measure_sides(&project, &progress, std::slice::from_ref(&part))?;
    let Measuring {
        sides: plans, stop, ..
    } = part;
    let mut measured = measured.into_iter().flatten();
    let results = plans
        .into_iter()
        .map(|candidate| match candidate.cached {
            Some(results) => Ok(results),
            None => {
                let results = measured.next().ok_or(MeasureError::NoSamples {
                    revision: candidate.label.clone(),
                })?;
                if let (Some(key), false) = (&candidate.key, results.benchmarks.is_empty()) {
                    let key = stop.store_key(key, options.budget);
                    cache::store(
                        &project.speedup_dir().join("cache"),
                        &key,
                        &results,
                        stopping,
                    )?;
                }
                Ok(results)
            }
        })
        .collect::<Result<Vec<_>, MeasureError>>()?;
    let mut results = results;
    if let Some(reused) = reused {
        let mut open: Vec<String> = match reused.judged_otherwise {
            true => decide(&results, options.look_plan.count())
                .into_iter()
                .flatten()
                .collect(),
            false => vec![],
        };
        open.sort();
        open.dedup();
        let note = tell_reused(
            &reused,
            &open,
            &results.iter().collect::<Vec<_>>(),
            options.look_plan.max(),
            &progress,
        );
        if let Some(last) = results.last_mut() {
            last.notes.extend(note);
        }
    }
    Ok(MeasuredRace {
        results,
        labels,
        looks: options.look_plan.count(),
    })
}

/// `cargo speedup record`: the working tree's pooled results, measured alone (with `--measure
/// time,instructions`, its times and then its counts, as one record).
pub(crate) fn measure_working_tree(options: &RunOptions) -> Result<Results, MeasureError> {
    if let Some(name) = &options.toolchain {
        toolchain::choose(name)?;
    }
    // Before anything is built: counts need Valgrind.
    let valgrind = options
        .measure
        .counts()
        .then(valgrind_version)
        .transpose()?;
    let project = Project::discover(options.manifest_path.as_deref(), false)?;
    interrupt::install();
    let progress = Progress::new(options.quiet);
    let _lock = take_lock(&project, &progress)?;
    let started = Instant::now();
    let parts: Vec<Measuring> = options
        .parts()
        .iter()
        .map(|&part| {
            let options = options.part(part);
            let side = Candidate::new(
                &project,
                &options,
                Checkout::WorkingTree,
                Role::Record,
                None,
            );
            Measuring::new(options, vec![side], None, &started)
        })
        .collect();
    let (measured, _) = measure_sides(&project, &progress, &parts)?;
    let measured = parts
        .iter()
        .zip(measured)
        .map(|(part, mut measured)| {
            measured.pop().ok_or_else(|| MeasureError::NoSamples {
                revision: part
                    .sides
                    .first()
                    .map(|s| s.label.clone())
                    .unwrap_or_default(),
            })
        })
        .collect::<Result<Vec<Results>, MeasureError>>()?;
    let mut results = joined(measured);
    // A record is one side: its commit is the working tree's `HEAD`, its lock file the working tree's.
    let mut print =
        environment::gather(&project, options, None, None, &rustc_version(&project.root));
    print.head_commit = project
        .git()
        .ok()
        .and_then(|git| git.output(&["rev-parse", "HEAD"]).ok());
    if let Some(version) = valgrind {
        print.settings.insert("valgrind".to_string(), version);
    }
    results.environment.fingerprint = Some(print);
    Ok(results)
}

/// Builds and runs the sides not cached of every part (`prepare` once, with the options of the first part
/// that has a side to measure, then `run` part after part on the same builds: the counts' runs take each
/// executable as built, its first layout); returns each part's results in its sides' order, and the
/// benchmarks of the bench targets that BASE and HEAD built identical (the same code), which were not run.
/// A part's sides are all cached or none (`all_cached_or_none`), so every part that runs runs the same
/// sides.
fn measure_sides(
    project: &Project,
    progress: &Progress,
    parts: &[Measuring<'_>],
) -> Result<(Vec<Vec<Results>>, Vec<String>), MeasureError> {
    let to_run = |part: &Measuring<'_>| part.sides.iter().any(|p| p.cached.is_none());
    let Some(first) = parts.iter().find(|part| to_run(part)) else {
        return Ok((parts.iter().map(|_| vec![]).collect(), vec![]));
    };
    let todo: Vec<&Candidate> = first.sides.iter().filter(|p| p.cached.is_none()).collect();
    let pair = !matches!(first.stop.decide, Some(Decider::Several(_)));
    let bench = BenchSettings::new(&first.options);
    let prepare = first.options.prepare();
    let ready = prepare_participants(
        project,
        &prepare,
        bench,
        progress,
        &first.sides,
        &todo,
        pair,
    )?;
    let environment = environment(&project.root);
    let runs_dir = project.speedup_dir().join("runs");
    let mut all = Vec::with_capacity(parts.len());
    for part in parts {
        if !to_run(part) {
            all.push(vec![]);
            continue;
        }
        let options = &part.options;
        // Each side's results carry what its build left out (`Suite::pair` joins them with their sides).
        let mut left_out = ready.left_out.clone().into_iter();
        if ready.participants.iter().all(|p| p.binaries.is_empty()) {
            let nothing = |p: &Participant| Results {
                origin: p.origin.clone(),
                benchmarks: vec![],
                environment: environment.clone(),
                notes: vec![],
                left_out: left_out.next().unwrap_or_default(),
            };
            all.push(ready.participants.iter().map(nothing).collect());
            continue;
        }
        let processes = || ProcessRunner::new(runs_dir.clone(), options.per_run(), options.pin);
        // Beside the times, the counts keep their runs apart (`runs/instructions/`): each runner clears its
        // own before it starts, and `--keep-runs` keeps both.
        let counts_dir = match parts.len() {
            1 => runs_dir.clone(),
            _ => runs_dir.join("instructions"),
        };
        let mut runner: Box<dyn Runner> = match options.measure {
            Measure::Instructions | Measure::TimeAndInstructions => Box::new(ValgrindRunner::new(
                counts_dir,
                options.filter.clone(),
                options.keep_profiles.clone(),
                crate::measure::valgrind::events::Extras {
                    cache_sim: options.cache_sim,
                    allocations: options.count_allocations,
                },
            )),
            Measure::Time if options.duet => Box::new(DuetRunner::new(processes())),
            Measure::Time => Box::new(processes()),
        };
        let prepared = Ready {
            participants: &ready.participants,
            part: ready.part.as_deref(),
            bench: &ready.bench,
            may_tell: ready.bench.may_tell(options),
        };
        let pooled = run_until_decided(
            runner.as_mut(),
            prepared,
            &options.looks(),
            progress,
            &part.stop,
        )?;
        // The counts' own folder beside the times' goes with their runs (`remove_dir` takes it only when
        // empty, as the runner's clearing left it); `--keep-runs` keeps it.
        if parts.len() > 1 && !options.keep_runs {
            let _ = std::fs::remove_dir(runs_dir.join("instructions"));
        }
        if let Some(dir) = options.keep_profiles.as_deref().filter(|d| d.is_dir()) {
            progress.note(&format!(
                "callgrind's files of each benchmark are in {}, one directory per revision, bench target \
                 and benchmark (`callgrind_annotate FILE` or KCachegrind reads them)",
                dir.display()
            ));
        }
        all.push(
            pooled
                .into_iter()
                .map(|mut results| {
                    results.environment = environment.clone();
                    results.left_out.extend(left_out.next().unwrap_or_default());
                    results
                })
                .collect(),
        );
    }
    Ok((all, ready.identical))
}
