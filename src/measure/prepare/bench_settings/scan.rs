//! The setting calls of a tree's bench targets, and their rewrite: which bench targets `-p` and `--bench`
//! select (`cargo metadata`), the files of each (its root file and those of its `mod NAME;` declarations,
//! `#[path]` included, inside the tree, at most [`MAX_FILES`]), the calls found in them (`calls`) and the
//! rewrite of the overriding ones in a tree the tool owns.
//!
//! Must not: write outside the tree it is given, or follow a file out of it (a link, a `#[path]` leaving
//! it); decide whether to rewrite (`trees`).

use std::path::{Path, PathBuf};

use super::calls::{self, CriterionSetting, Requested};
use crate::measure::{MeasureError, process};

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

#[cfg(test)]
mod tests {
    use super::super::calls::REQUESTED;
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
