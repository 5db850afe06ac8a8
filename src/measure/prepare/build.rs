//! Building one revision's benchmarks: `cargo bench --no-run --message-format=json-render-diagnostics` with
//! the shared `CARGO_TARGET_DIR` (dependencies compile once for both revisions; the caller picks it), the bench executables
//! taken from the `compiler-artifact` messages (`profile.test == true`, target kind `bench`) and copied
//! aside, since building the other revision overwrites them. cargo's stderr is shown only on failure.

use std::path::{Path, PathBuf};

use cargo_metadata::{Message, TargetKind};

use crate::measure::harness::{self, Harness};
use crate::measure::project::{Project, cargo};
use crate::measure::settings::BuildSettings;
use crate::measure::{MeasureError, process};

/// One benchmark executable of one revision, ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BenchBinary {
    /// The bench target's name (`benches/NAME.rs`).
    pub target: String,
    /// The copies we run: the executable as built, then any relinked layouts of it.
    pub layouts: Vec<PathBuf>,
    /// The package directory: the working directory `cargo bench` would give it.
    pub package_dir: PathBuf,
    /// The manifest it was built from (inside the revision's tree), and cargo's target directory then:
    /// what relinking it needs (`layout`).
    pub manifest: PathBuf,
    pub cargo_target: PathBuf,
    /// How it is run and read (`harness`).
    pub harness: Harness,
    /// criterion before 0.4 (its versions, as the lock gives them): its runs take whole seconds
    /// (`criterion_version::whole_seconds_only`).
    pub whole_seconds: Option<String>,
}

impl BenchBinary {
    /// The executable that runs in `block`: the layouts in turn.
    pub(crate) fn layout_for(&self, block: u32) -> &Path {
        &self.layouts[block as usize % self.layouts.len()]
    }
}

/// What one revision's build gave: the executables of the bench targets that built, and the targets that
/// did not, each with the compiler's first lines.
#[derive(Debug)]
pub(crate) struct Built {
    pub binaries: Vec<BenchBinary>,
    /// (bench target, the first lines of the compiler's errors), when the build of every target together
    /// failed but some built alone.
    pub failed: Vec<(String, String)>,
}

/// Builds the benchmarks of the tree at `tree` and copies them into `keep`. `targets`: the bench targets
/// cargo builds with these options (`targets`); when building them together fails and there are several,
/// each is built alone, and the ones that fail are returned apart as long as one builds (else the error
/// of the build of all of them, as cargo gave it).
pub(crate) fn build(
    tree: &Path,
    project: &Project,
    label: &str,
    options: &BuildSettings<'_>,
    cargo_target: &Path,
    keep: &Path,
    targets: &[String],
) -> Result<Built, MeasureError> {
    let manifest = tree.join(&project.manifest);
    if !manifest.is_file() {
        return Err(MeasureError::NoManifest {
            revision: label.to_string(),
            path: project.manifest.clone(),
        });
    }
    let mut command = bench_command(tree, &manifest, options, cargo_target, options.benches);
    let out = process::capture(&mut command)?;
    let mut failed = Vec::new();
    let stdout = if out.status.success() {
        out.stdout
    } else {
        let stderr = out.stderr_text();
        if let Some(file) = harness::needs_nightly(&stderr) {
            return Err(MeasureError::NeedsNightly {
                revision: label.to_string(),
                file,
            });
        }
        let whole = MeasureError::Build {
            revision: label.to_string(),
            command: process::describe(&command),
            stderr,
        };
        if targets.len() < 2 {
            return Err(whole);
        }
        // One target that does not build leaves the others to compare: each alone (the dependencies and
        // the package's library are compiled once, by the first).
        let mut stdout = Vec::new();
        for target in targets {
            let mut alone = bench_command(
                tree,
                &manifest,
                options,
                cargo_target,
                std::slice::from_ref(target),
            );
            let out = process::capture(&mut alone)?;
            if out.status.success() {
                stdout.extend(out.stdout);
                stdout.push(b'\n');
            } else {
                failed.push((target.clone(), first_lines(&out.stderr_text())));
            }
        }
        if failed.len() == targets.len() {
            return Err(whole);
        }
        stdout
    };
    let found = bench_executables(&stdout);
    if found.is_empty() {
        return Err(MeasureError::NoBenchmarks {
            revision: label.to_string(),
        });
    }
    let harnesses = harnesses(&found, &manifest, options.harness, label)?;
    let binaries = copy_aside(found, harnesses, keep, &manifest, cargo_target)?;
    Ok(Built { binaries, failed })
}

/// `cargo bench --no-run` of the manifest with the options' package and features, for the bench targets
/// `benches` (empty: all).
fn bench_command(
    tree: &Path,
    manifest: &Path,
    options: &BuildSettings<'_>,
    cargo_target: &Path,
    benches: &[String],
) -> std::process::Command {
    let mut command = cargo();
    command
        .args([
            "bench",
            "--no-run",
            "--message-format=json-render-diagnostics",
        ])
        .arg("--manifest-path")
        .arg(manifest)
        .current_dir(manifest.parent().unwrap_or(tree))
        .env("CARGO_TARGET_DIR", cargo_target);
    if let Some(p) = options.package {
        command.args(["--package", p]);
    }
    for b in benches {
        command.args(["--bench", b]);
    }
    if let Some(f) = options.features {
        command.args(["--features", f]);
    }
    if options.all_features {
        command.arg("--all-features");
    }
    command
}

/// The compiler's first lines of a failed build: from its first `error` line (cargo's `Compiling` lines
/// before it say nothing of the failure), at most [`FIRST_LINES`](crate::measure::process::FIRST_LINES).
fn first_lines(stderr: &str) -> String {
    crate::measure::process::first_lines(stderr, |l| l.trim_start().starts_with("error"))
}

/// The harness of each found bench target: `forced` (`--harness`), else what its source and its package's
/// dependencies say (`harness::detect`; the dependencies from `cargo metadata --no-deps`, asked only when
/// the source does not tell).
fn harnesses(
    found: &[Found],
    manifest: &Path,
    forced: Option<Harness>,
    label: &str,
) -> Result<Vec<Harness>, MeasureError> {
    let mut dependencies: Option<Vec<(String, Vec<String>)>> = None;
    found
        .iter()
        .map(|f| {
            if let Some(h) = forced {
                return Ok(h);
            }
            let source = std::fs::read_to_string(&f.source).unwrap_or_default();
            if let Ok(h) = harness::detect(&source, &[]) {
                return Ok(h);
            }
            let all = dependencies.get_or_insert_with(|| package_dependencies(manifest));
            let deps = all
                .iter()
                .find(|(id, _)| *id == f.package)
                .map_or(&[][..], |(_, d)| d.as_slice());
            harness::detect(&source, deps).map_err(|found| MeasureError::UnknownHarness {
                revision: label.to_string(),
                target: f.target.clone(),
                found,
            })
        })
        .collect()
}

/// (package id, names of its dependencies of every kind) of the workspace's packages; none when cargo
/// cannot say (detection then goes by the sources alone).
fn package_dependencies(manifest: &Path) -> Vec<(String, Vec<String>)> {
    let Ok(metadata) = crate::measure::toolchain::metadata()
        .manifest_path(manifest)
        .no_deps()
        .exec()
    else {
        return vec![];
    };
    metadata
        .packages
        .into_iter()
        .map(|p| {
            let deps = p.dependencies.into_iter().map(|d| d.name).collect();
            (p.id.repr, deps)
        })
        .collect()
}

/// One bench executable as cargo built it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    target: String,
    executable: PathBuf,
    package_dir: PathBuf,
    /// The target's root source file.
    source: PathBuf,
    /// cargo's package id.
    package: String,
}

/// Every bench executable in cargo's JSON messages.
fn bench_executables(stdout: &[u8]) -> Vec<Found> {
    Message::parse_stream(stdout)
        .filter_map(Result::ok)
        .filter_map(|message| match message {
            Message::CompilerArtifact(a)
                if a.profile.test && a.target.is_kind(TargetKind::Bench) =>
            {
                let executable = a.executable?.into_std_path_buf();
                let package_dir = a.manifest_path.parent()?.to_path_buf().into_std_path_buf();
                Some(Found {
                    target: a.target.name.clone(),
                    executable,
                    package_dir,
                    source: a.target.src_path.into_std_path_buf(),
                    package: a.package_id.repr,
                })
            }
            _ => None,
        })
        .collect()
}

fn copy_aside(
    found: Vec<Found>,
    harnesses: Vec<Harness>,
    keep: &Path,
    manifest: &Path,
    cargo_target: &Path,
) -> Result<Vec<BenchBinary>, MeasureError> {
    let io = |path: &Path| MeasureError::io("copying a benchmark executable", path);
    if keep.exists() {
        std::fs::remove_dir_all(keep).map_err(io(keep))?;
    }
    std::fs::create_dir_all(keep).map_err(io(keep))?;
    let mut binaries = Vec::with_capacity(found.len());
    for (i, (found, harness)) in found.into_iter().zip(harnesses).enumerate() {
        let Found {
            target,
            executable: exe,
            package_dir,
            ..
        } = found;
        let file_name = exe
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        // Layout 0; relinked layouts k go to `k` beside it (`layout`), at paths of the same length.
        let dir = keep.join(i.to_string()).join("000");
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        let path = dir.join(file_name);
        std::fs::copy(&exe, &path).map_err(io(&exe))?;
        let whole_seconds = (harness == Harness::Criterion)
            .then(|| super::criterion_version::whole_seconds_only(&package_dir))
            .flatten();
        binaries.push(BenchBinary {
            target,
            layouts: vec![path],
            package_dir,
            manifest: manifest.to_path_buf(),
            cargo_target: cargo_target.to_path_buf(),
            harness,
            whole_seconds,
        });
    }
    Ok(binaries)
}

/// The file in a cargo target directory of `<target>/speedup/` that names the tree whose local packages
/// were compiled there last, when that compile ended well ([`compiling`], [`compiled`]).
const LAST_COMPILED: &str = "cargo-speedup-last-compiled";

/// The tree whose local packages `cargo_target` holds, if known.
fn last_compiled(cargo_target: &Path) -> Option<PathBuf> {
    std::fs::read_to_string(cargo_target.join(LAST_COMPILED))
        .ok()
        .map(PathBuf::from)
}

/// Before a compile in `cargo_target`: what it holds is unknown until the compile ends well, so a compile
/// that fails half-way leaves no name behind (the next build of the working tree then cleans).
pub(crate) fn compiling(cargo_target: &Path) {
    let _ = std::fs::remove_file(cargo_target.join(LAST_COMPILED));
}

/// After a compile of `tree`'s local packages in `cargo_target` ended well. Best effort: without the
/// file, the next build of the working tree cleans, which costs a compile and nothing else.
pub(crate) fn compiled(cargo_target: &Path, tree: &Path) {
    if let Some(text) = tree.to_str() {
        let _ = std::fs::write(cargo_target.join(LAST_COMPILED), text);
    }
}

/// The cargo target directory under `<target>/speedup/` that builds every side: the dependencies compile
/// once for all of them.
pub(crate) const CARGO_TARGET: &str = "target";

/// Makes cargo compile the local packages of the tree at `tree` again in `cargo_target`, before the user's
/// working tree is built there. Cargo judges a local (path) package fresh by its files' modification times,
/// and a local package's outputs do not depend on its directory: after a revision was built from a worktree
/// (files written anew, so newer than anything of the user's), the user's older files would pass that
/// revision's outputs off as the working tree's. `cargo clean --release -p NAME` of each local package (its
/// outputs and fingerprints, nothing of the dependencies) removes the doubt; the build then compiles those
/// packages only. The local packages are those without a source in `cargo metadata` (the workspace's
/// members and every path dependency); when cargo cannot resolve them, the workspace's members. Nothing is
/// cleaned when the last compile that ended well in `cargo_target` was of `tree` itself ([`compiled`]):
/// then an edit since is newer than that compile, and cargo sees it.
pub(crate) fn forget_local_builds(
    tree: &Path,
    project: &Project,
    label: &str,
    cargo_target: &Path,
) -> Result<(), MeasureError> {
    // A copy of the working tree (`tree_copy`) has files written just now, newer than any compile; and when
    // the last compile here was of this very tree, an edit since is newer than it: cargo's own judgement
    // holds in both cases.
    if tree != project.root || last_compiled(cargo_target).as_deref() == Some(tree) {
        return Ok(());
    }
    let manifest = tree.join(&project.manifest);
    let metadata = crate::measure::toolchain::metadata()
        .manifest_path(&manifest)
        .exec()
        .or_else(|_| {
            crate::measure::toolchain::metadata()
                .manifest_path(&manifest)
                .no_deps()
                .exec()
        });
    let Ok(metadata) = metadata else {
        // Cargo cannot read the manifest: the build that follows says why.
        return Ok(());
    };
    let mut names: Vec<String> = metadata
        .packages
        .iter()
        .filter(|p| p.source.is_none())
        .map(|p| p.name.to_string())
        .collect();
    names.sort();
    names.dedup();
    if names.is_empty() || !cargo_target.exists() {
        return Ok(());
    }
    let mut command = cargo();
    command
        .args(["clean", "--release", "--quiet"])
        .arg("--manifest-path")
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", cargo_target);
    for name in &names {
        command.args(["-p", name]);
    }
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(MeasureError::Build {
            revision: label.to_string(),
            command: process::describe(&command),
            stderr: out.stderr_text(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_builds_first_lines_start_at_the_first_error() {
        let stderr = "   Compiling demo v0.1.0 (/w)\nerror[E0425]: cannot find value `x`\n --> benches/b.rs:3:5\n\
                      \nerror: could not compile `demo`\n";
        assert_eq!(
            first_lines(stderr),
            "error[E0425]: cannot find value `x`\n --> benches/b.rs:3:5\n\nerror: could not compile `demo`"
        );
        let long: String = (0..30).map(|i| format!("error line {i}\n")).collect();
        assert_eq!(
            first_lines(&long).lines().count(),
            crate::measure::process::FIRST_LINES
        );
    }

    #[test]
    fn only_bench_executables_built_for_test_are_kept() {
        let line = |kind: &str, test: bool, exe: &str| {
            format!(
                r#"{{"reason":"compiler-artifact","package_id":"path+file:///p#demo@0.1.0","manifest_path":"/p/Cargo.toml","target":{{"kind":["{kind}"],"crate_types":["bin"],"name":"t_{kind}","src_path":"/p/benches/x.rs","edition":"2021","doc":false,"doctest":false,"test":false}},"profile":{{"opt_level":"3","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":{test}}},"features":[],"filenames":["{exe}"],"executable":"{exe}","fresh":false}}"#
            )
        };
        let stream = [
            line("bench", true, "/t/release/deps/t_bench-1"),
            line("lib", false, "/t/release/deps/libdemo.rlib"),
            line("test", true, "/t/release/deps/t_test-2"),
            "not json".to_string(),
            r#"{"reason":"build-finished","success":true}"#.to_string(),
        ]
        .join("\n");
        let found = bench_executables(stream.as_bytes());
        assert_eq!(
            found,
            vec![Found {
                target: "t_bench".to_string(),
                executable: PathBuf::from("/t/release/deps/t_bench-1"),
                package_dir: PathBuf::from("/p"),
                source: PathBuf::from("/p/benches/x.rs"),
                package: "path+file:///p#demo@0.1.0".to_string(),
            }]
        );
    }
}
