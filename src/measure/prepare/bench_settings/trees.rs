//! What one comparison knows of its bench files' settings, side after side: each side's tree scanned
//! (`scan`) and, unless the settings are kept, made to follow the command line: a committed revision's
//! worktree is rewritten in place, a working tree that takes part and has such calls is copied first
//! (`tree_copy`) and the copy rewritten (the user's files are never written); a working tree outside git
//! (`record` only, one side) keeps its settings.
//!
//! Must not: word what the settings cost (`tell`, in the words of `report/words/bench_settings.rs`).

use std::path::{Path, PathBuf};

use super::calls::Requested;
use super::scan::{Found, Scan};
use crate::measure::prepare::revision::Checkout;
use crate::measure::prepare::tree_copy::TreeCopy;
use crate::measure::settings::RunOptions;
use crate::measure::{MeasureError, project::Project};
use crate::report::words::bench_settings::Kept;

/// What one comparison knows of its bench files' settings: found on every side, rewritten or kept.
#[derive(Debug)]
pub(crate) struct BenchSettings {
    /// `--keep-bench-settings`.
    pub(super) keep: bool,
    pub(super) package: Option<String>,
    pub(super) benches: Vec<String>,
    pub(super) requested: Requested,
    /// Every side's calls, without repeats.
    pub(super) found: Vec<Found>,
    /// Some side's calls were rewritten.
    pub(super) rewritten: bool,
    /// Why the settings were kept although rewriting was asked: only a working tree outside git can.
    pub(super) kept_because: Option<Kept>,
}

impl BenchSettings {
    pub(crate) fn new(options: &RunOptions) -> BenchSettings {
        BenchSettings {
            keep: options.keep_bench_settings,
            package: options.package.clone(),
            benches: options.benches.clone(),
            requested: Requested {
                warm_up_secs: options.warm_up_secs,
                measurement_secs: options.measurement_secs,
                sample_size: options.sample_size,
            },
            found: Vec::new(),
            rewritten: false,
            kept_because: None,
        }
    }

    /// Finds the setting calls of the side `side` checked out at `tree` and, unless they are kept, makes
    /// the command line win over them: a committed revision's worktree is rewritten; the working tree, when
    /// it has such calls, is copied to `<worktrees>/<slug>-working-tree` and the copy rewritten.
    pub(crate) fn prepare(
        &mut self,
        project: &Project,
        side: &Checkout,
        tree: PathBuf,
        worktrees: &Path,
        slug: &str,
    ) -> Result<PreparedTree, MeasureError> {
        let scan = Scan::of_tree(
            &tree,
            &project.manifest,
            self.package.as_deref(),
            &self.benches,
        );
        for found in &scan.found {
            if !self.found.contains(found) {
                self.found.push(found.clone());
            }
        }
        let as_it_is = |tree| PreparedTree {
            tree,
            copy: None,
            rewritten: false,
        };
        if self.keep || !scan.overrides() {
            return Ok(as_it_is(tree));
        }
        match side {
            Checkout::Commit { .. } => {
                scan.rewrite(&tree, &self.requested)?;
                self.rewritten = true;
                Ok(PreparedTree {
                    rewritten: true,
                    ..as_it_is(tree)
                })
            }
            Checkout::WorkingTree if project.git().is_err() => {
                self.kept_because = Some(Kept::WorkingTreeOutsideGit);
                Ok(as_it_is(tree))
            }
            Checkout::WorkingTree => {
                let copy = TreeCopy::make(
                    &project.root,
                    worktrees.join(format!("{slug}-working-tree")),
                )?;
                scan.rewrite(&copy.path, &self.requested)?;
                self.rewritten = true;
                Ok(PreparedTree {
                    tree: copy.path.clone(),
                    copy: Some(copy),
                    rewritten: true,
                })
            }
        }
    }
}

/// One side's tree, ready to build.
#[derive(Debug)]
pub(crate) struct PreparedTree {
    /// The tree to build: the side's own, or a copy of the working tree.
    pub tree: PathBuf,
    /// The copy of the working tree, when one was made: removed when dropped.
    pub copy: Option<TreeCopy>,
    /// Whether its bench files were rewritten.
    pub rewritten: bool,
}

impl PreparedTree {
    /// `error` of this tree's build, saying that the bench files were rewritten when they were.
    pub(crate) fn build_error(&self, error: MeasureError) -> MeasureError {
        match error {
            MeasureError::Build {
                revision,
                command,
                stderr,
            } if self.rewritten => MeasureError::Build {
                revision,
                command,
                stderr: format!(
                    "{stderr}\nnote: cargo speedup rewrote the arguments of the bench files' \
                     `measurement_time`, `warm_up_time` and `sample_size` calls before this build; \
                     `--keep-bench-settings` builds them as they are"
                ),
            },
            other => other,
        }
    }
}
