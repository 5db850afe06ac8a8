//! Bench files that set their own run length, and how a comparison stays cheap anyway
//! (`docs/replication.md` §3, "Bench files that set their own times").
//!
//! criterion lets a benchmark group's `measurement_time`, `warm_up_time` and `sample_size` override the
//! command line, so a bench file that sets them (base64's sets 0.5 s + 3 s) turns each of cargo speedup's
//! 0.1 s + 0.2 s runs into a run of the file's length. This module
//!
//! - finds those calls in the sources of every bench target of a tree (the target's file from `cargo
//!   metadata` and the files of its `mod NAME;` declarations, `#[path]` included, inside the tree), with
//!   their file, line and literal value (`calls`, on a lexer that skips comments and strings: `lexer`);
//! - unless `--keep-bench-settings`, rewrites their arguments to the requested values in the tool's own
//!   trees, identically on every side: a committed revision's worktree is rewritten in place, and a working
//!   tree that takes part and has such calls is copied first (`tree_copy`) and the copy is built (the user's
//!   files are never written). A working tree outside git (`record` only, one side) keeps its settings;
//! - measures what each run really measured (`length`) and tells, once per comparison, what the settings
//!   cost and what the choices are (`tell`); the projected cost is shown before the first look when it
//!   exceeds the budget or plain `cargo bench` runs.
//!
//! Must not: write outside a tree the tool owns, or word anything but its own notes (the report shows them
//! as warnings of the inputs).

mod calls;
mod length;
mod lexer;
mod tell;

use std::path::{Path, PathBuf};

use super::revision::Checkout;
use super::tree_copy::TreeCopy;
use crate::measure::settings::RunOptions;
use crate::measure::{MeasureError, process, project::Project};

pub(crate) use calls::Requested;
pub(crate) use length::{RunLength, read_run};
pub(crate) use tell::RunPlan;

use calls::CriterionSetting;

/// The most files of one tree read for setting calls: a bench target's own file and its modules.
const MAX_FILES: usize = 200;

/// One setting call in a bench target's sources.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// The bench target whose sources hold it.
    pub target: String,
    /// The file, relative to the tree's root.
    pub file: PathBuf,
    pub method: CriterionSetting,
    pub line: usize,
    /// In a `criterion_group!` `config = ...;`: the command line wins over it (`calls`).
    pub in_config: bool,
    /// Seconds, or the sample count, when the argument is a literal.
    pub value: Option<f64>,
}

/// The setting calls of one tree's bench targets.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scan {
    pub found: Vec<Found>,
}

impl Scan {
    /// The setting calls of the bench targets of the tree at `tree` (whose manifest is `tree/manifest`)
    /// that `-p package` and `--bench benches` select; none when cargo cannot read the manifest (the build
    /// then says why).
    pub(crate) fn of_tree(
        tree: &Path,
        manifest: &Path,
        package: Option<&str>,
        benches: &[String],
    ) -> Scan {
        let Some(root) = tree.canonicalize().ok() else {
            return Scan::default();
        };
        let mut found = Vec::new();
        let mut read = 0;
        for (target, src) in bench_sources(&tree.join(manifest), package, benches) {
            for file in target_files(&root, &src, &mut read) {
                let Ok(text) = std::fs::read_to_string(&file) else {
                    continue;
                };
                let relative = file.strip_prefix(&root).unwrap_or(&file).to_path_buf();
                found.extend(calls::calls(&text).into_iter().map(|call| Found {
                    target: target.clone(),
                    file: relative.clone(),
                    method: call.method,
                    line: call.line,
                    in_config: call.in_config,
                    value: call.value,
                }));
            }
        }
        Scan { found }
    }

    /// Whether a call overrides the command line.
    pub(crate) fn overrides(&self) -> bool {
        self.found.iter().any(|f| !f.in_config)
    }

    /// Rewrites the overriding calls of the tree at `tree` (one the tool owns) to `requested`; a file that
    /// resolves outside the tree (a link, a `#[path]` leaving it) is left alone.
    pub(crate) fn rewrite(&self, tree: &Path, requested: &Requested) -> Result<(), MeasureError> {
        let root = tree.canonicalize().map_err(|error| MeasureError::Io {
            what: "rewriting the bench files' settings",
            path: tree.to_path_buf(),
            error,
        })?;
        let mut files: Vec<&Path> = self
            .found
            .iter()
            .filter(|f| !f.in_config)
            .map(|f| f.file.as_path())
            .collect();
        files.sort();
        files.dedup();
        for file in files {
            let Some(path) = root
                .join(file)
                .canonicalize()
                .ok()
                .filter(|p| p.starts_with(&root))
            else {
                continue;
            };
            let io = |error| MeasureError::Io {
                what: "rewriting the bench files' settings",
                path: path.clone(),
                error,
            };
            let text = std::fs::read_to_string(&path).map_err(io)?;
            let rewritten = calls::rewrite(&text, requested);
            if rewritten != text {
                std::fs::write(&path, rewritten).map_err(io)?;
            }
        }
        Ok(())
    }
}

/// (bench target, source file) of the bench targets `package` and `benches` select in the manifest's
/// workspace (all of its members' when neither is given).
fn bench_sources(
    manifest: &Path,
    package: Option<&str>,
    benches: &[String],
) -> Vec<(String, PathBuf)> {
    let mut command = crate::measure::project::metadata_command(manifest);
    let Ok(out) = process::capture(&mut command) else {
        return vec![];
    };
    let Ok(metadata) = serde_json::from_slice::<cargo_metadata::Metadata>(&out.stdout) else {
        return vec![];
    };
    let wanted_package = package.map(package_name);
    metadata
        .packages
        .iter()
        .filter(|p| metadata.workspace_members.contains(&p.id))
        .filter(|p| wanted_package.is_none_or(|name| p.name.as_str() == name))
        .flat_map(|p| &p.targets)
        .filter(|t| t.is_kind(cargo_metadata::TargetKind::Bench))
        .filter(|t| benches.is_empty() || benches.contains(&t.name))
        .map(|t| (t.name.clone(), t.src_path.clone().into_std_path_buf()))
        .collect()
}

/// The package name of a `-p` spec: `name`, `name@1.2.3`, or a package id URL ending in `#name@1.2.3`, or
/// in `/name#1.2.3` when the name is the directory's.
fn package_name(spec: &str) -> &str {
    match spec.rsplit_once('#') {
        Some((url, version)) if version.starts_with(|c: char| c.is_ascii_digit()) => {
            url.rsplit('/').next().unwrap_or(url)
        }
        Some((_, name)) => name.split('@').next().unwrap_or(name),
        None => spec.split('@').next().unwrap_or(spec),
    }
}

/// The bench target's root file `src` and the files of its `mod NAME;` declarations, recursively, that
/// lie inside `root` (canonical paths); `read` counts the files taken over the whole tree.
fn target_files(root: &Path, src: &Path, read: &mut usize) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Some(src) = src.canonicalize().ok().filter(|p| p.starts_with(root)) else {
        return files;
    };
    // (file, the directory its `mod NAME;` declarations resolve against)
    let mut queue = vec![(
        src.clone(),
        src.parent().map(Path::to_path_buf).unwrap_or_default(),
    )];
    while let Some((file, dir)) = queue.pop() {
        if files.contains(&file) || *read >= MAX_FILES {
            continue;
        }
        *read += 1;
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        files.push(file.clone());
        for module in calls::module_declarations(&text) {
            let candidates = match &module.path {
                // A file named by `#[path]` is relative to the declaring file's directory and acts as a
                // `mod.rs`: its own modules resolve against its directory.
                Some(path) => vec![file.parent().unwrap_or(root).join(path)],
                None => vec![
                    dir.join(format!("{}.rs", module.name)),
                    dir.join(&module.name).join("mod.rs"),
                ],
            };
            let Some(found) = candidates
                .into_iter()
                .find_map(|c| c.canonicalize().ok())
                .filter(|p| p.starts_with(root))
            else {
                continue;
            };
            let next_dir = match (found.file_name(), &module.path) {
                (Some(name), None) if name != "mod.rs" => dir.join(&module.name),
                _ => found.parent().map(Path::to_path_buf).unwrap_or_default(),
            };
            queue.push((found, next_dir));
        }
    }
    files
}

/// What one comparison knows of its bench files' settings: found on every side, rewritten or kept.
#[derive(Debug)]
pub(crate) struct BenchSettings {
    keep: bool,
    package: Option<String>,
    benches: Vec<String>,
    requested: Requested,
    /// Every side's calls, without repeats.
    found: Vec<Found>,
    /// Some side's calls were rewritten.
    rewritten: bool,
    /// Why the settings were kept although rewriting was asked: only a working tree outside git can.
    kept_because: Option<&'static str>,
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
                self.kept_because = Some("the working tree is not in a git repository");
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

#[cfg(test)]
mod tests {
    use super::calls::REQUESTED;
    use super::*;

    fn write(root: &Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    /// A package with one bench target whose settings lie in its own file, a `mod` directory and a
    /// `#[path]` file, and one (behind a `#[path]`) outside the tree.
    fn package() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        write(
            &tree,
            &[
                (
                    "Cargo.toml",
                    "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                     [[bench]]\nname = \"work\"\nharness = false\n\n[[bench]]\nname = \"other\"\n\
                     harness = false\n",
                ),
                ("src/lib.rs", ""),
                (
                    "benches/work.rs",
                    "mod common;\n#[path = \"../shared/util.rs\"]\nmod util;\n\
                     #[path = \"../../outside.rs\"]\nmod outside;\n\
                     fn f(g: &mut G) {\n    g.measurement_time(Duration::from_secs(2));\n}\n",
                ),
                (
                    "benches/common/mod.rs",
                    "mod inner;\npub fn c(g: &mut G) { g.sample_size(50); }\n",
                ),
                (
                    "benches/common/inner.rs",
                    "fn i(g: &mut G) { g.warm_up_time(d); }\n",
                ),
                (
                    "shared/util.rs",
                    "// g.sample_size(1)\ncriterion_group!(name = b; config = C::default().sample_size(20); targets = f);\n",
                ),
                (
                    "benches/other.rs",
                    "fn o(g: &mut G) { g.sample_size(30); }\n",
                ),
            ],
        );
        write(
            dir.path(),
            &[("outside.rs", "fn x(g: &mut G) { g.sample_size(99); }\n")],
        );
        (dir, tree)
    }

    #[test]
    fn a_targets_files_and_modules_inside_the_tree_are_scanned() {
        let (_dir, tree) = package();
        let scan = Scan::of_tree(&tree, Path::new("Cargo.toml"), None, &[]);
        let mut got: Vec<(String, String, usize, CriterionSetting, bool)> = scan
            .found
            .iter()
            .map(|f| {
                (
                    f.target.clone(),
                    f.file.display().to_string(),
                    f.line,
                    f.method,
                    f.in_config,
                )
            })
            .collect();
        got.sort();
        assert_eq!(
            got,
            [
                (
                    "other".into(),
                    "benches/other.rs".into(),
                    1,
                    CriterionSetting::SampleSize,
                    false
                ),
                (
                    "work".into(),
                    "benches/common/inner.rs".into(),
                    1,
                    CriterionSetting::WarmUpTime,
                    false
                ),
                (
                    "work".into(),
                    "benches/common/mod.rs".into(),
                    2,
                    CriterionSetting::SampleSize,
                    false
                ),
                (
                    "work".into(),
                    "benches/work.rs".into(),
                    7,
                    CriterionSetting::MeasurementTime,
                    false
                ),
                (
                    "work".into(),
                    "shared/util.rs".into(),
                    2,
                    CriterionSetting::SampleSize,
                    true
                ),
            ]
        );
        // `--bench` narrows the targets.
        let only = Scan::of_tree(
            &tree,
            Path::new("Cargo.toml"),
            Some("demo@0.1.0"),
            &["other".into()],
        );
        assert_eq!(only.found.len(), 1);
        assert!(
            Scan::of_tree(&tree, Path::new("Cargo.toml"), Some("nope"), &[])
                .found
                .is_empty()
        );
    }

    #[test]
    fn the_rewrite_changes_the_overriding_calls_of_the_tree_only() {
        let (dir, tree) = package();
        let scan = Scan::of_tree(&tree, Path::new("Cargo.toml"), None, &[]);
        let config = std::fs::read_to_string(tree.join("shared/util.rs")).unwrap();
        scan.rewrite(&tree, &REQUESTED).unwrap();
        let read = |p: &str| std::fs::read_to_string(tree.join(p)).unwrap();
        assert!(
            read("benches/work.rs").contains(
                "g.measurement_time({ let _ = Duration::from_secs(2); \
                 ::std::time::Duration::from_secs_f64(0.2) });"
            ),
            "{}",
            read("benches/work.rs")
        );
        assert_eq!(
            read("benches/common/mod.rs"),
            "mod inner;\npub fn c(g: &mut G) { g.sample_size({ let _ = 50; 10 }); }\n"
        );
        assert_eq!(read("shared/util.rs"), config);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("outside.rs")).unwrap(),
            "fn x(g: &mut G) { g.sample_size(99); }\n"
        );
    }

    #[test]
    fn package_specs_name_their_package() {
        assert_eq!(package_name("demo"), "demo");
        assert_eq!(package_name("demo@0.1.0"), "demo");
        assert_eq!(package_name("path+file:///p/demo#0.1.0"), "demo");
        assert_eq!(package_name("registry+https://x/y#demo@0.1.0"), "demo");
    }
}
