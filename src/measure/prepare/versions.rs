//! Identical code builds identical executables: the package versions of BASE's temporary worktree are set to
//! HEAD's before it is built (`docs/replication.md` §3).
//!
//! Why: cargo's `-C metadata` hash, which names every symbol's crate disambiguator, includes the package
//! version, and `CARGO_PKG_VERSION` is compiled into code that reads it. Two tags of unchanged code thus link
//! different executables with different layouts, and a version bump alone has moved benchmarks by 3 % to
//! 11 % elsewhere (namecheap/fast_mail_parser#204, DataDog/libdatadog#874). With every workspace member at
//! HEAD's version on both sides, unchanged code builds identical executables, and what differs between
//! the sides is the change.
//!
//! What is rewritten, in BASE's worktree only (a directory under `<target>/speedup/worktrees/` that this
//! tool owns; the user's files are never touched): for every workspace member whose version differs from
//! the member of the same name in HEAD, its `package.version` (or, for `version.workspace = true`, the
//! root's `workspace.package.version`); and in every member manifest and in `workspace.dependencies`, the
//! `version` requirement of path dependencies (a path dependency is built from its path; its requirement
//! could no longer match the new version). cargo then updates the worktree's `Cargo.lock` for those path
//! packages itself, leaving every registry package as locked. Manifests are edited with `toml_edit`, which
//! keeps everything else byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, Value};

use crate::measure::MeasureError;
use crate::measure::process;
use crate::measure::progress::Progress;
use crate::measure::project::{Project, metadata_command};

/// A workspace member: its name, version and manifest path.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Member {
    name: String,
    version: String,
    manifest: PathBuf,
}

/// Gives BASE's members HEAD's versions; returns the `name old -> new` changes made, for the report.
pub(super) fn align(
    base_manifest: &Path,
    head_manifest: &Path,
) -> Result<Vec<String>, MeasureError> {
    let base = members(base_manifest)?;
    let head: BTreeMap<String, String> = members(head_manifest)?
        .into_iter()
        .map(|m| (m.name, m.version))
        .collect();
    let mut changes = Vec::new();
    let mut targets: BTreeMap<PathBuf, Vec<(String, String)>> = BTreeMap::new();
    for member in &base {
        if let Some(version) = head.get(&member.name).filter(|v| **v != member.version) {
            changes.push(format!("{} {} -> {version}", member.name, member.version));
            targets
                .entry(member.manifest.clone())
                .or_default()
                .push((member.name.clone(), version.clone()));
        }
    }
    if changes.is_empty() {
        return Ok(changes);
    }
    let root = workspace_root(base_manifest)?;
    let mut manifests: Vec<PathBuf> = base.iter().map(|m| m.manifest.clone()).collect();
    if !manifests.contains(&root) {
        manifests.push(root.clone());
    }
    for path in manifests {
        let mut document = read(&path)?;
        let mut touched = strip_path_requirements(&mut document);
        if let Some(new) = targets.get(&path).and_then(|v| v.first()) {
            touched |= set_version(&mut document, &new.1);
            if inherits_version(&document) {
                let mut root_doc = read(&root)?;
                if let Some(table) = root_doc
                    .get_mut("workspace")
                    .and_then(|w| w.get_mut("package"))
                    .and_then(Item::as_table_like_mut)
                {
                    table.insert("version", toml_edit::value(new.1.clone()));
                    write(&root, &root_doc)?;
                }
            }
        }
        if touched {
            write(&path, &document)?;
        }
    }
    Ok(changes)
}

/// The workspace members of the manifest, from `cargo metadata --no-deps`.
fn members(manifest: &Path) -> Result<Vec<Member>, MeasureError> {
    let metadata = metadata(manifest)?;
    let ids: Vec<&serde_json::Value> = metadata["workspace_members"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    Ok(metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| ids.contains(&&p["id"]))
        .filter_map(|p| {
            Some(Member {
                name: p["name"].as_str()?.to_string(),
                version: p["version"].as_str()?.to_string(),
                manifest: PathBuf::from(p["manifest_path"].as_str()?),
            })
        })
        .collect())
}

fn workspace_root(manifest: &Path) -> Result<PathBuf, MeasureError> {
    let metadata = metadata(manifest)?;
    Ok(metadata["workspace_root"]
        .as_str()
        .map(|r| Path::new(r).join("Cargo.toml"))
        .unwrap_or_else(|| manifest.to_path_buf()))
}

fn metadata(manifest: &Path) -> Result<serde_json::Value, MeasureError> {
    let mut command = metadata_command(manifest);
    command.arg("--offline");
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(MeasureError::Metadata {
            path: manifest.to_path_buf(),
            stderr: out.stderr_text(),
        });
    }
    serde_json::from_slice(&out.stdout).map_err(|e| MeasureError::Metadata {
        path: manifest.to_path_buf(),
        stderr: e.to_string(),
    })
}

/// Sets `package.version` when the manifest states it (not when it inherits it); true when changed.
fn set_version(document: &mut DocumentMut, version: &str) -> bool {
    let Some(package) = document
        .get_mut("package")
        .and_then(Item::as_table_like_mut)
    else {
        return false;
    };
    match package.get("version") {
        Some(item) if item.as_str().is_some() => {
            package.insert("version", toml_edit::value(version));
            true
        }
        _ => false,
    }
}

/// Whether the manifest's package takes its version from the workspace (`version.workspace = true`).
fn inherits_version(document: &DocumentMut) -> bool {
    document
        .get("package")
        .and_then(|p| p.get("version"))
        .and_then(|v| v.get("workspace"))
        .and_then(Item::as_bool)
        .unwrap_or(false)
}

/// Removes the `version` requirement of every dependency that has a `path`, in every dependency table
/// (`[dependencies]`, dev, build, `[target.*.…]`, `[workspace.dependencies]`); true when any was removed.
fn strip_path_requirements(document: &mut DocumentMut) -> bool {
    let mut touched = false;
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    for kind in kinds {
        touched |= strip_in(document.get_mut(kind));
    }
    if let Some(targets) = document.get_mut("target").and_then(Item::as_table_like_mut) {
        for (_, target) in targets.iter_mut() {
            for kind in kinds {
                touched |= strip_in(target.get_mut(kind));
            }
        }
    }
    if let Some(workspace) = document.get_mut("workspace") {
        touched |= strip_in(workspace.get_mut("dependencies"));
    }
    touched
}

fn strip_in(table: Option<&mut Item>) -> bool {
    let Some(table) = table.and_then(Item::as_table_like_mut) else {
        return false;
    };
    let mut touched = false;
    for (_, dependency) in table.iter_mut() {
        let has_path = dependency.get("path").is_some();
        if !has_path {
            continue;
        }
        if let Some(inline) = dependency.as_inline_table_mut() {
            touched |= inline.remove("version").is_some();
        } else if let Some(t) = dependency.as_table_like_mut() {
            touched |= t.remove("version").is_some();
        } else if let Item::Value(Value::InlineTable(t)) = dependency {
            touched |= t.remove("version").is_some();
        }
    }
    touched
}

fn read(path: &Path) -> Result<DocumentMut, MeasureError> {
    let text = std::fs::read_to_string(path).map_err(|source| MeasureError::Io {
        what: "reading a manifest of the BASE worktree",
        path: path.to_path_buf(),
        error: source,
    })?;
    text.parse()
        .map_err(|e: toml_edit::TomlError| MeasureError::Metadata {
            path: path.to_path_buf(),
            stderr: e.to_string(),
        })
}

fn write(path: &Path, document: &DocumentMut) -> Result<(), MeasureError> {
    std::fs::write(path, document.to_string()).map_err(|source| MeasureError::Io {
        what: "writing a manifest of the BASE worktree",
        path: path.to_path_buf(),
        error: source,
    })
}

/// Gives BASE's worktree `base` the package versions of HEAD's tree `head` ([`align`]); HEAD's tree is
/// only read. `names` are the two trees' names in the note (`("BASE", "HEAD")`).
pub(crate) fn align_versions(
    project: &Project,
    progress: &Progress,
    base: &Path,
    head: &Path,
    names: (&str, &str),
) -> Result<(), MeasureError> {
    let changes = align(&base.join(&project.manifest), &head.join(&project.manifest))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> DocumentMut {
        text.parse().unwrap()
    }

    #[test]
    fn path_requirements_go_and_registry_ones_stay() {
        let mut d = doc(
            "[package]\nname = \"a\"\nversion = \"0.1.0\"\n\n[dependencies]\n\
             b = { path = \"../b\", version = \"0.3\" }\nserde = { version = \"1\" }\nc = \"2\"\n\n\
             [dev-dependencies.d]\npath = \"../d\"\nversion = \"=1.0.0\"\n\n\
             [target.'cfg(unix)'.build-dependencies]\ne = { path = \"e\", version = \"1\", features = [\"x\"] }\n",
        );
        assert!(strip_path_requirements(&mut d));
        let text = d.to_string();
        let parsed: toml_edit::DocumentMut = text.parse().unwrap();
        assert!(
            parsed["dependencies"]["b"].get("version").is_none(),
            "{text}"
        );
        assert_eq!(
            parsed["dependencies"]["b"]["path"].as_str(),
            Some("../b"),
            "{text}"
        );
        assert!(text.contains("serde = { version = \"1\" }"), "{text}");
        assert!(text.contains("c = \"2\""), "{text}");
        assert!(!text.contains("=1.0.0"), "{text}");
        let e = &parsed["target"]["cfg(unix)"]["build-dependencies"]["e"];
        assert!(
            e.get("version").is_none() && e.get("features").is_some(),
            "{text}"
        );
    }

    #[test]
    fn a_stated_version_is_set_and_an_inherited_one_is_left_to_the_workspace() {
        let mut d = doc("[package]\nname = \"a\" # the name\nversion = \"0.1.0\"\n");
        assert!(set_version(&mut d, "0.2.0"));
        assert_eq!(
            d.to_string(),
            "[package]\nname = \"a\" # the name\nversion = \"0.2.0\"\n"
        );
        let mut inherited = doc("[package]\nname = \"a\"\nversion.workspace = true\n");
        assert!(!set_version(&mut inherited, "0.2.0"));
        assert!(inherits_version(&inherited));
    }
}
