//! The prepare stage's steps in order, for the sides not taken from the cache: check each out in a
//! worktree (HEAD, or a race's first revision, first: the others take its package versions), rewrite its
//! bench files' own settings (`bench_settings`), build it, then take the part of the benchmarks
//! (`--partition`), set aside the targets BASE and HEAD built identical (`identical`) and link the
//! executables again in several layouts (`layout`).
//!
//! Must not: run a benchmark (only `--list`), or keep anything once the [`Participants`] are dropped but
//! the executables as built in `bin/`.

use std::path::PathBuf;

use super::bench_settings::BenchSettings;
use super::build;
use super::identical::set_identical_aside;
use super::layout::{self, Relinked};
use super::listing;
use super::participant::Participant;
use super::revision::Checkout;
use super::targets::{self, BenchTarget, Selection};
use super::tree_copy::TreeCopy;
use super::versions::align_versions;
use crate::measure::MeasureError;
use crate::measure::git::Worktree;
use crate::measure::leftovers;
use crate::measure::progress::Progress;
use crate::measure::project::Project;
use crate::measure::settings::PrepareSettings;
use crate::measure::sides::{Candidate, Role};
use crate::model::Side;
use crate::model::coverage::{LeftOut, Reason};

/// The sides built and ready to run, and what must stay until their runs end: dropped, it removes the
/// relinked layouts, the copies of the working tree and the worktrees, in that order.
pub(crate) struct Participants {
    /// The sides not cached, built, in the sides' order, each executable in its layouts; none has an
    /// executable when the builds found none to run.
    pub(crate) participants: Vec<Participant>,
    /// `--partition`: the benchmarks of this part, the only ones that run.
    pub(crate) part: Option<Vec<String>>,
    /// The benchmarks of the bench targets that BASE and HEAD built identical (the same code), not run.
    pub(crate) identical: Vec<String>,
    /// The bench files' own settings, found on every side, rewritten or kept.
    pub(crate) bench: BenchSettings,
    /// What each participant's build left out, in the participants' order (`targets`): bench targets
    /// whose `required-features` are not enabled, excluded by `--bench`, of one revision only, or that did
    /// not build at that revision (BASE against HEAD only: elsewhere that is an error).
    pub(crate) left_out: Vec<Vec<LeftOut>>,
    _relinked: Relinked,
    _copies: Vec<TreeCopy>,
    _worktrees: Vec<Worktree>,
}

/// Checks out, builds and links the sides of `todo` (the sides not cached; `sides`: all of them, the
/// working tree's label and path taken from there when it takes part), their bench files' settings found
/// and rewritten through `bench` (kept in the result). `pair`: BASE against HEAD, whose identical
/// executables are set aside unless `--run-identical`; a race runs every executable.
pub(crate) fn prepare_participants(
    project: &Project,
    settings: &PrepareSettings<'_>,
    bench: BenchSettings,
    progress: &Progress,
    sides: &[Candidate],
    todo: &[&Candidate],
    pair: bool,
) -> Result<Participants, MeasureError> {
    check_manifests(project, todo)?;
    let mut building = Building {
        project,
        settings,
        progress,
        bench,
        reference: reference(todo),
        head_tree: sides
            .iter()
            .find(|p| p.side == Checkout::WorkingTree)
            .map(|p| (project.root.clone(), p.label.clone())),
        copies: Vec::new(),
        worktrees: Vec::new(),
    };
    // HEAD (a race's first revision) first: the other worktrees take its package versions, and must be
    // checked out after it was built, since cargo judges freshness by modification time in the target
    // directory they share.
    let mut order: Vec<usize> = (0..todo.len()).collect();
    order.sort_by_key(|&i| Some(i) != building.reference);
    let mut built: Vec<Option<BuiltSide>> = (0..todo.len()).map(|_| None).collect();
    for i in order {
        built[i] = Some(building.side(i, todo[i])?);
    }
    let built: Vec<BuiltSide> = built.into_iter().flatten().collect();
    let declared: Vec<Vec<BenchTarget>> = built.iter().map(|b| b.declared.clone()).collect();
    let failed: Vec<Vec<(String, String)>> = built.iter().map(|b| b.failed.clone()).collect();
    let mut participants: Vec<Participant> = built.into_iter().map(|b| b.participant).collect();
    let left_out = coverage(
        &mut participants,
        &declared,
        &failed,
        pair && todo.len() == 2,
    )?;
    let part = match settings.partition {
        Some(partition) => Some(part_of(
            partition,
            &participants,
            settings.filter,
            progress,
        )?),
        None => None,
    };
    let identical = match (settings.run_identical, pair, participants.as_mut_slice()) {
        (false, true, [base, head]) => {
            set_identical_aside(base, head, settings.filter, progress, part.as_deref())?
        }
        _ => vec![],
    };
    let relinked = link_layouts(project, settings, progress, &mut participants)?;
    Ok(Participants {
        participants,
        part,
        identical,
        bench: building.bench,
        left_out,
        _relinked: relinked,
        _copies: building.copies,
        _worktrees: building.worktrees,
    })
}

/// Every revision must have the manifest: said before anything is built, BASE first.
fn check_manifests(project: &Project, todo: &[&Candidate]) -> Result<(), MeasureError> {
    for candidate in todo {
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
    Ok(())
}

/// The side whose tree the others take their package versions from: the working tree, when it takes
/// part (its Cargo.lock is the user's and is never rewritten), else HEAD or a race's first revision.
fn reference(todo: &[&Candidate]) -> Option<usize> {
    todo.iter()
        .position(|p| p.side == Checkout::WorkingTree)
        .or_else(|| todo.iter().position(|p| p.role.is_reference()))
}

/// One side built: its participant, its bench targets from `cargo metadata`, and the ones that did not
/// build with the compiler's first lines.
struct BuiltSide {
    participant: Participant,
    declared: Vec<BenchTarget>,
    failed: Vec<(String, String)>,
}

/// The sides' builds in progress, and what must stay until the runs end.
struct Building<'a> {
    project: &'a Project,
    settings: &'a PrepareSettings<'a>,
    progress: &'a Progress,
    /// The bench files' own settings, found on every side and rewritten on every side alike unless kept.
    bench: BenchSettings,
    /// The side the others take their package versions from ([`reference()`]).
    reference: Option<usize>,
    /// The reference tree and its label, once known.
    head_tree: Option<(PathBuf, String)>,
    /// The copies of a working tree whose bench files were rewritten (dropped before the worktrees).
    copies: Vec<TreeCopy>,
    worktrees: Vec<Worktree>,
}

impl Building<'_> {
    /// Checks out side `i` (`candidate`), gives it the reference's package versions, rewrites its bench
    /// files' settings and builds it.
    fn side(&mut self, i: usize, candidate: &Candidate) -> Result<BuiltSide, MeasureError> {
        let (project, progress) = (self.project, self.progress);
        let dir = project.speedup_dir();
        let tree = match &candidate.side {
            Checkout::Commit { sha, .. } => {
                let path = dir
                    .join("worktrees")
                    .join(format!("{}-{sha}", candidate.role.slug()));
                let worktree = Worktree::add(project.git()?, sha, path)?;
                let tree = worktree.path.clone();
                self.worktrees.push(worktree);
                tree
            }
            Checkout::WorkingTree => project.root.clone(),
        };
        let prepared = self.bench.prepare(
            project,
            &candidate.side,
            tree,
            &dir.join(leftovers::WORKTREES),
            &candidate.role.slug(),
        )?;
        let tree = prepared.tree.clone();
        match (candidate.role, &self.head_tree) {
            _ if Some(i) == self.reference => {
                self.head_tree = Some((tree.clone(), candidate.label.clone()))
            }
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
        let cargo_target = dir.join(build::CARGO_TARGET);
        if candidate.side == Checkout::WorkingTree {
            build::forget_local_builds(&tree, project, &candidate.label, &cargo_target)?;
        }
        // A manifest cargo cannot read lists no target here: the build that follows says why.
        let manifest = tree.join(&project.manifest);
        let selection = Selection::of(&self.settings.build);
        let declared = targets::metadata(&manifest)
            .map(|m| targets::bench_targets(&m, &manifest, &selection))
            .unwrap_or_default();
        let to_build: Vec<String> = declared
            .iter()
            .filter(|t| t.is_built())
            .map(|t| t.name.clone())
            .collect();
        build::compiling(&cargo_target);
        let build::Built { binaries, failed } = build::build(
            &tree,
            project,
            &candidate.label,
            &self.settings.build,
            &cargo_target,
            &keep,
            &to_build,
        )
        .map_err(|e| prepared.build_error(e))?;
        // Some targets alone: what cargo holds is not the whole tree's build.
        if failed.is_empty() {
            build::compiled(&cargo_target, &tree);
        }
        self.copies.extend(prepared.copy);
        let participant = Participant {
            label: candidate.label.clone(),
            origin: candidate.side.label(),
            slug: candidate.role.slug(),
            binaries,
        };
        Ok(BuiltSide {
            participant,
            declared,
            failed,
        })
    }
}

/// Links each participant's executables again in their layouts (`layout`); with no executable to run,
/// nothing is linked. The result removes the relinked layouts when dropped.
fn link_layouts(
    project: &Project,
    settings: &PrepareSettings<'_>,
    progress: &Progress,
    participants: &mut [Participant],
) -> Result<Relinked, MeasureError> {
    let mut relinked = Relinked::default();
    if participants.iter().any(|p| !p.binaries.is_empty()) {
        relinked = Relinked::of(participants.iter().flat_map(|p| &p.binaries));
        for p in participants.iter_mut() {
            layout::add_layouts(
                project,
                &settings.build,
                settings.layouts,
                progress,
                &p.label,
                &mut p.binaries,
            )?;
        }
    }
    Ok(relinked)
}

/// What each side's build left out (`participants`, `declared` and `failed` in the sides' order): the
/// targets `targets` names; for BASE against HEAD (`pair`), the targets of one side only, and the targets
/// that did not build at one side, whose executable at the other is then not run. A target that builds at
/// neither side, or at some revision of a race or a record, is the error of its build.
fn coverage(
    participants: &mut [Participant],
    declared: &[Vec<BenchTarget>],
    failed: &[Vec<(String, String)>],
    pair: bool,
) -> Result<Vec<Vec<LeftOut>>, MeasureError> {
    let build_error = |p: &Participant, target: &str, message: &str| MeasureError::Build {
        revision: p.label.clone(),
        command: format!("cargo bench --no-run --bench {target}"),
        stderr: message.to_string(),
    };
    let mut left_out: Vec<Vec<LeftOut>> = declared.iter().map(|d| targets::left_out(d)).collect();
    if !pair {
        for (p, failed) in participants.iter().zip(failed) {
            if let Some((target, message)) = failed.first() {
                return Err(build_error(p, target, message));
            }
        }
        return Ok(left_out);
    }
    let (base_only, head_only) = targets::one_side_only(&declared[0], &declared[1]);
    left_out[0].extend(base_only);
    left_out[1].extend(head_only);
    for (target, message) in &failed[1] {
        if failed[0].iter().any(|(t, _)| t == target) {
            return Err(build_error(&participants[1], target, message));
        }
    }
    for (side, (failed, other)) in [(0, 1), (1, 0)]
        .into_iter()
        .map(|(s, o)| (s, (&failed[s], o)))
    {
        for (target, message) in failed {
            left_out[side].push(LeftOut::target(
                target,
                Some(if side == 0 { Side::Base } else { Side::Head }),
                Reason::BuildFailed {
                    message: message.clone(),
                },
            ));
            participants[other].binaries.retain(|b| &b.target != target);
        }
    }
    Ok(left_out)
}

/// The benchmarks of `partition`'s part: criterion's `--list` of every participant's executables (with
/// the user's filter), split by [`crate::partition`]; an error when the part is empty.
fn part_of(
    partition: crate::partition::Partition,
    participants: &[Participant],
    filter: Option<&str>,
    progress: &Progress,
) -> Result<Vec<String>, MeasureError> {
    let mut all = Vec::new();
    for p in participants {
        for b in &p.binaries {
            all.extend(listing::list(b, filter, &p.label)?);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn side(label: &str, targets: &[&str]) -> Participant {
        Participant::for_tests(label, label, targets)
    }

    fn declared(names: &[(&str, &[&str])]) -> Vec<BenchTarget> {
        names
            .iter()
            .map(|(name, missing)| BenchTarget {
                name: name.to_string(),
                missing: missing.iter().map(|m| m.to_string()).collect(),
                excluded: false,
            })
            .collect()
    }

    fn names(p: &Participant) -> Vec<&str> {
        p.binaries.iter().map(|b| b.target.as_str()).collect()
    }

    #[test]
    fn a_target_that_does_not_build_at_head_is_left_out_there_and_not_run_at_base() {
        let mut sides = [side("BASE", &["light", "broken"]), side("HEAD", &["light"])];
        let declared = [
            declared(&[("light", &[]), ("broken", &[]), ("heavy", &["heavy"])]),
            declared(&[("light", &[]), ("broken", &[]), ("heavy", &["heavy"])]),
        ];
        let failed = [
            vec![],
            vec![("broken".to_string(), "error[E0425]".to_string())],
        ];
        let left_out = coverage(&mut sides, &declared, &failed, true).unwrap();
        assert_eq!(names(&sides[0]), ["light"]);
        assert_eq!(names(&sides[1]), ["light"]);
        let needs = LeftOut::target(
            "heavy",
            None,
            Reason::NeedsFeatures {
                missing: vec!["heavy".into()],
            },
        );
        assert_eq!(left_out[0], std::slice::from_ref(&needs));
        assert_eq!(
            left_out[1],
            [
                needs,
                LeftOut::target(
                    "broken",
                    Some(Side::Head),
                    Reason::BuildFailed {
                        message: "error[E0425]".into()
                    }
                )
            ]
        );
    }

    #[test]
    fn a_target_that_builds_at_neither_side_or_at_some_racer_is_the_build_error() {
        let declared = [
            declared(&[("a", &[]), ("b", &[])]),
            declared(&[("a", &[]), ("b", &[])]),
        ];
        let failed = [
            vec![("b".to_string(), "base's error".to_string())],
            vec![("b".to_string(), "head's error".to_string())],
        ];
        let mut sides = [side("BASE", &["a"]), side("HEAD", &["a"])];
        match coverage(&mut sides, &declared, &failed, true) {
            Err(MeasureError::Build {
                revision, stderr, ..
            }) => assert_eq!(
                (revision.as_str(), stderr.as_str()),
                ("HEAD", "head's error")
            ),
            other => panic!("{other:?}"),
        }
        let failed = [vec![], vec![("b".to_string(), "r2's error".to_string())]];
        let mut racers = [side("r1", &["a", "b"]), side("r2", &["a"])];
        match coverage(&mut racers, &declared, &failed, false) {
            Err(MeasureError::Build { revision, .. }) => assert_eq!(revision, "r2"),
            other => panic!("{other:?}"),
        }
    }
}
